"""What every long-running Parlour process shares: its log format, stopping on a
signal, and noticing when ``parlour serve`` (its parent) has gone.

``parlour serve`` starts the scheduler, the webhook deliverer, the callback dispatcher
and the bot pool as children; each must stop cleanly on SIGTERM/SIGINT (as a user's Ctrl-C
would) and must never outlive the server that started it.
"""

from __future__ import annotations

import logging
import os
import signal
import threading
from collections.abc import Callable
from typing import Any


def log_as(name: str) -> None:
    """INFO and up to stderr, each line with the time and the process's ``name``."""
    logging.basicConfig(level=logging.INFO, format=f"%(asctime)s {name} %(message)s")


def stop_on_signals(on_stop: Callable[[], None] | None = None) -> threading.Event:
    """An event that SIGTERM or SIGINT sets.

    Args:
        on_stop: also run in the signal handler, for what must stop at once
            (the bot pool's long-polls).
    """
    stop = threading.Event()

    def on_signal(signum: int, frame: Any) -> None:
        stop.set()
        if on_stop is not None:
            on_stop()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    return stop


def orphaned(parent_pid: int | None) -> bool:
    """Whether the process that started us (``parent_pid``, when given) is gone."""
    return parent_pid is not None and os.getppid() != parent_pid

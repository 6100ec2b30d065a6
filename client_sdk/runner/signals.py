"""The runner's graceful stop: the first Ctrl-C / SIGTERM lets the move in hand finish
and then returns, taking no new game; a second one stops at once.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from .base import Parts, log


class _Interrupted(Exception):
    """Raised by the signal handler to leave a long-poll that holds no move."""


class Signals(Parts):
    """SIGINT/SIGTERM handlers for the time the runner runs (``handle_signals``)."""

    @contextmanager
    def _signals(self) -> Iterator[None]:
        """SIGINT/SIGTERM: the first asks for a graceful stop, the second is immediate.

        While a move is in hand the handler only sets the flag, so the move is
        sent. Otherwise (waiting in a long-poll) it raises to leave the wait
        at once instead of after up to ``wait`` seconds.
        """
        if not self.handle_signals or threading.current_thread() is not threading.main_thread():
            yield
            return

        def handler(signum: int, frame: object) -> None:
            if self.stopping:
                raise KeyboardInterrupt
            log.warning("stopping after the current move (again to stop now)")
            self.stop()
            if not self._busy:
                raise _Interrupted

        previous = {sig: signal.signal(sig, handler) for sig in (signal.SIGINT, signal.SIGTERM)}
        try:
            yield
        finally:
            for sig, old in previous.items():
                signal.signal(sig, old)

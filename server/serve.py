"""``parlour serve``: the Flask app under gunicorn, with an embedded Redis unless REDIS_URL is set.

One tournament scheduler runs alongside the API (``--no-scheduler`` turns it
off): ``parlour scheduler`` as a child process of the gunicorn arbiter, started
before the workers fork and stopped after them, so there is exactly one per
server however many workers serve requests. It watches its parent and stops
if the server dies without stopping it.

Worker class: **gevent**. Long-polls (``events?wait=``, ``me/turns?wait=``)
hold a request open in a blocking Redis call for up to 30 s; a sync worker
holds one such waiter and nothing else, so a few bots waiting would starve
every move. A gevent worker parks each waiter as a greenlet (DESIGN.md
measured 6,000 waiters in two workers, and woke them 4-6x faster than
gthread), while moves stay CPU-bound Python at about the same cost per request.
"""

from __future__ import annotations

import argparse
import os
import secrets
import subprocess
import sys
from typing import Any

from gunicorn.app.base import BaseApplication

from server.redis_embed import EmbeddedRedis


class ParlourServer(BaseApplication):
    """gunicorn run programmatically, loading the app in each worker after gevent patches."""

    def __init__(self, options: dict[str, Any]) -> None:
        self.options = options
        super().__init__()

    def load_config(self) -> None:
        for key, value in self.options.items():
            self.cfg.set(key, value)

    def load(self):
        from server.api import create_app  # in the worker, after monkey-patching

        return create_app()


def gunicorn_options(args: argparse.Namespace) -> dict[str, Any]:
    """The gunicorn settings for ``parlour serve``."""
    return {
        "bind": f"{args.host}:{args.port}",
        "workers": args.workers,
        "worker_class": "gevent",
        "worker_connections": 4000,  # concurrent requests (mostly waiters) per worker
        "timeout": 60,
        "graceful_timeout": 5,
        "keepalive": 30,
        "preload_app": False,
        "accesslog": None,
        "loglevel": "warning",
    }


def start_scheduler(interval: float) -> subprocess.Popen[bytes]:
    """``parlour scheduler`` as a child of this process, on the same ``REDIS_URL``."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "server.cli", "scheduler", "--interval", str(interval),
         "--parent-pid", str(os.getpid())],
        env=os.environ.copy(), stdin=subprocess.DEVNULL,
    )
    print(f"tournament scheduler: pid {proc.pid}", flush=True)
    return proc


def stop_scheduler(proc: subprocess.Popen[bytes], timeout: float = 10.0) -> None:
    """SIGTERM, then wait; SIGKILL if it does not stop in time (it loses nothing: every
    step it takes is repeatable)."""
    if proc.poll() is None:
        proc.terminate()
    try:
        proc.wait(timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout)


def serve(args: argparse.Namespace) -> int:
    """Run until stopped (SIGINT/SIGTERM); the embedded Redis stops with it."""
    if not os.environ.get("PARLOUR_ADMIN_TOKEN"):
        token = secrets.token_urlsafe(32)
        os.environ["PARLOUR_ADMIN_TOKEN"] = token
        print(f"admin token (shown once): {token}", flush=True)
    embedded = None
    if not os.environ.get("REDIS_URL"):
        embedded = EmbeddedRedis(args.data_dir)
        os.environ["REDIS_URL"] = embedded.start()
        print(f"embedded redis: {embedded.url} (AOF in {embedded.data_dir})", flush=True)
    scheduler = None
    if not getattr(args, "no_scheduler", False):
        scheduler = start_scheduler(getattr(args, "scheduler_interval", 0.1))
    try:
        ParlourServer(gunicorn_options(args)).run()
    finally:
        if scheduler is not None:
            stop_scheduler(scheduler)
        if embedded is not None:
            embedded.stop()
            os.environ.pop("REDIS_URL", None)
    return 0


if __name__ == "__main__":  # pragma: no cover
    from server.cli import main

    sys.exit(main(["serve", *sys.argv[1:]]))

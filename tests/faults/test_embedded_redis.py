"""The embedded Redis of ``parlour serve`` (server/processes/redis_embed.py) never leaves
two servers writing one data directory: one killed with its owner (kill -9) shuts down
cleanly rather than live on, and a second one refuses to start beside a live one."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from server.processes.redis_embed import EmbeddedRedis

OWNER = """
import sys, time
from server.processes.redis_embed import EmbeddedRedis
embedded = EmbeddedRedis(sys.argv[1], appendonly=True)
print(embedded.start(), flush=True)
time.sleep(120)
"""


def test_a_redis_whose_owner_is_killed_shuts_down_cleanly(tmp_path: Path) -> None:
    """SIGKILL of its owner (nothing runs ``stop()``): Redis gets SIGTERM and shuts down as
    on SHUTDOWN, so its unix socket goes and the next ``parlour serve`` starts afresh."""
    owner = subprocess.Popen(
        [sys.executable, "-c", OWNER, str(tmp_path)],
        stdout=subprocess.PIPE,
        text=True,
        cwd=Path(__file__).resolve().parents[2],
    )
    try:
        assert owner.stdout is not None
        url = owner.stdout.readline().strip()
        assert url == f"unix://{tmp_path / 'redis.sock'}"
        probe = EmbeddedRedis(tmp_path)
        assert probe.command("PING") == b"+PONG"
        os.kill(owner.pid, signal.SIGKILL)
        owner.wait(10)
        deadline = time.monotonic() + 10
        while (tmp_path / "redis.sock").exists():
            assert time.monotonic() < deadline, "Redis outlived its owner"
            time.sleep(0.05)
        again = EmbeddedRedis(tmp_path, appendonly=True)
        again.start()
        again.stop()
    finally:
        if owner.poll() is None:
            owner.kill()
            owner.wait()


def test_a_second_redis_on_a_live_data_directory_refuses_to_start(tmp_path: Path) -> None:
    first = EmbeddedRedis(tmp_path, appendonly=True)
    first.start()
    try:
        with pytest.raises(RuntimeError, match="already answers"):
            EmbeddedRedis(tmp_path, appendonly=True).start()
        assert first.command("PING") == b"+PONG"  # the running one is untouched
    finally:
        first.stop()
    (tmp_path / "redis.sock").write_text("")  # a stale socket file: no server holds it
    second = EmbeddedRedis(tmp_path, appendonly=True)
    second.start()
    second.stop()

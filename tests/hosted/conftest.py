"""Fixtures of the hosted bots' tests: a sandbox worker; skipped where the host cannot
sandbox off root, as tests/sandbox does (as root with apt-get, ``make sandbox`` first)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator

import pytest

from server.processes.sandboxd import SandboxWorker
from server.sandbox import available

from .support import sandbox_worker


@pytest.fixture
def can_sandbox() -> None:
    capability = available()
    if capability.ok:
        return
    if os.geteuid() == 0 and shutil.which("apt-get"):
        pytest.fail(f"{capability.describe()} (run `make sandbox` first: make test does)")
    pytest.skip(capability.describe())


@pytest.fixture
def worker(can_sandbox, redis_server, redis_client) -> Iterator[SandboxWorker]:
    with sandbox_worker(redis_server.url) as w:
        yield w


from tests.api.conftest import api, live_api  # noqa: E402,F401  the API helper's fixtures


@pytest.fixture
def heartbeat(redis_server, redis_client) -> None:
    """A sandbox worker's heartbeat saying its host can sandbox, and no worker: hosted
    bots may be made, and none of their turns is played."""
    from server.services.bundle import Services
    from server.store import connect

    Services(connect(redis_server.url), admin_token=None).hosted.heartbeat("a host", True, "", 0)

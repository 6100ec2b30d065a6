"""One live server for the whole fuzzing module (a real socket), with long-polls and
streams cut short: a generated ``wait=`` must not make a bounded run wait for seconds.

The hypothesis tests that need a clean game use the usual per-test ``client``.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from werkzeug.serving import make_server

from server.api import create_app
from tests.conftest import ADMIN_TOKEN, UNBUCKETED, KeepAliveHandler, LiveServer

SHORT = {"MAX_WAIT": 0.05, "SSE_MAX_SECONDS": 0.5, "SSE_HEARTBEAT": 0.1}


@pytest.fixture
def app_config(app_config: dict[str, Any]) -> dict[str, Any]:
    return app_config | SHORT


@pytest.fixture(scope="module")
def fuzz_server(redis_server) -> Iterator[LiveServer]:
    """The app behind a werkzeug thread, on a flushed database, for a whole module."""
    client = redis.Redis.from_url(redis_server.url)
    client.flushdb()
    app = create_app(
        {
            "REDIS_URL": redis_server.url,
            "ADMIN_TOKEN": ADMIN_TOKEN,
            "TESTING": True,
            **SHORT,
            **UNBUCKETED,
        }
    )
    server = make_server("127.0.0.1", 0, app, threaded=True, request_handler=KeepAliveHandler)
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
    )
    thread.start()
    yield LiveServer(f"http://127.0.0.1:{server.server_port}")
    server.shutdown()
    thread.join(5)
    client.flushdb()
    client.close()

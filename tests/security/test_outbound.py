"""The callback dispatcher and the webhook deliverer call out through one stack
(:mod:`server.processes.outbound`): the same guard refuses the same targets for both,
each call, a turn to a bot or a notification to an app, ends at one deadline however
many addresses its name resolves to, and what the other end answers cannot fill the log.

The webhook deliverer used to differ on the last two: it gave each address of the name
a deadline of its own (a name resolving to N addresses that all accept and never answer
held a delivery thread, and the deliverer's whole batch with every app's webhooks, N
times the timeout), and it logged a receiver's garbage status line whole.
"""

from __future__ import annotations

import logging
import random
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from server.processes.dispatch import Dispatcher
from server.processes.webhooks import Deliverer
from server.services.bundle import Services
from server.services.callback_dispatch import Call, Job
from server.services.notifications import Deliveries
from server.store import webhooks as webhook_store
from tests.api.helpers import Api
from tests.callbacks.support import Bot, serving
from tests.conftest import ADMIN_TOKEN
from tests.embed.conftest import App, app_game, make_app

LOCAL = "127.0.0.0/8"
TIMEOUT = 0.5
ADDRESSES = 3
"""How many addresses the test names resolve to (all of them the one mute host)."""


@pytest.fixture
def app_config(app_config: dict[str, Any]) -> dict[str, Any]:
    return app_config | {"WEBHOOK_ALLOW": ""}


@pytest.fixture
def api(client) -> Api:
    return Api(client=client)


@contextmanager
def mute_host() -> Iterator[tuple[int, list[float]]]:
    """A host on 127.0.0.1 that takes every connection and never answers; its port, and
    when each connection came (``time.monotonic()``)."""
    server = socket.create_server(("127.0.0.1", 0))
    came: list[float] = []
    held: list[socket.socket] = []

    def serve() -> None:
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            came.append(time.monotonic())
            held.append(conn)

    threading.Thread(target=serve, daemon=True).start()
    try:
        yield server.getsockname()[1], came
    finally:
        server.close()
        for conn in held:
            conn.close()


def _dispatcher(svc: Services, resolve: Any, allow: str = LOCAL) -> Dispatcher:
    return Dispatcher(svc.dispatch, consumer="d1", timeout=TIMEOUT, allow=allow, resolve=resolve)


def _call(url: str) -> Call:
    """A turn to call (nothing in Redis needed: the call is only HTTP)."""
    job = Job("0-1", "g1", 0, 0, "p1")
    return Call(job, url, "cbs_t", {"game_id": "g1"}, time.time() + TIMEOUT)


def _webhook(api: Api, redis_client, url: str) -> App:
    """An app's webhook stored as if it passed registration, and a game that notifies it."""
    app = make_app(api)
    webhook_store.add(
        redis_client,
        app.id,
        {"id": "whtest", "url": url, "events": ["game_start"], "secret": "whsec_t", "created": 1.0},
    )
    app_game(api, app, [None, None, None, None])
    return app


def _deliverer(redis_client, resolve: Any, allow: str = LOCAL) -> Deliverer:
    return Deliverer(
        Deliveries(redis_client),
        max_attempts=2,
        timeout=TIMEOUT,
        rng=random.Random(1),
        allow=allow,
        resolve=resolve,
    )


def test_a_webhook_attempt_ends_at_one_deadline_however_many_addresses(api, redis_client):
    many = lambda host, port: ["127.0.0.1"] * ADDRESSES  # noqa: E731 - a name, N addresses
    with mute_host() as (port, came):
        _webhook(api, redis_client, f"http://hooks.many.test:{port}/hook")
        deliverer = _deliverer(redis_client, many)
        started = time.monotonic()
        assert deliverer.tick(now=time.time() + 1) == 1
        took = time.monotonic() - started
        deliverer.close()
    assert took < TIMEOUT + 0.3, took  # not ADDRESSES * TIMEOUT
    assert len(came) == 1  # no address tried after the deadline
    assert webhook_store.pending_count(redis_client) == 1  # no answer: tried again later


def test_a_callback_call_ends_at_one_deadline_however_many_addresses(redis_client):
    many = lambda host, port: ["127.0.0.1"] * ADDRESSES  # noqa: E731 - a name, N addresses
    svc = Services(redis_client, admin_token=ADMIN_TOKEN)
    with mute_host() as (port, came):
        dispatcher = _dispatcher(svc, many)
        started = time.monotonic()
        answer = dispatcher.call(_call(f"http://bot.many.test:{port}/bot"), TIMEOUT)
        took = time.monotonic() - started
        dispatcher.close()
    assert answer.failure == "timeout" and answer.called
    assert took < TIMEOUT + 0.3, took
    assert len(came) == 1


INSIDE = ["10.0.0.7", "::ffff:127.0.0.1", "fec0::1", "64:ff9b::a9fe:a9fe"]


@pytest.mark.parametrize("address", INSIDE)
def test_both_paths_refuse_the_same_internal_target_before_any_connection(
    api, redis_client, caplog, address
):
    """A name resolving inside: the dispatcher's call and the deliverer's attempt are
    refused by the one guard, with the same words in the log, and nothing is sent; the
    player's books say ``refused_address``, the app sees ``refused``."""
    caplog.set_level(logging.INFO)
    inside = lambda host, port: [address]  # noqa: E731 - a name rebound inside
    svc = Services(redis_client, admin_token=ADMIN_TOKEN)
    dispatcher = _dispatcher(svc, inside, allow="")
    answer = dispatcher.call(_call("http://rebind.test:8080/bot"), TIMEOUT)
    dispatcher.close()
    assert (answer.failure, answer.called) == ("refused_address", False)
    app = _webhook(api, redis_client, "http://rebind.test:8080/hook")
    deliverer = _deliverer(redis_client, inside, allow="")
    deliverer.tick(now=time.time() + 1)
    deliverer.close()
    shown = api.get(f"/v1/apps/{app.id}", app.token).body["deliveries"]
    assert [d["status"] for d in shown] == ["refused"]
    refusals = [
        r.getMessage().partition(" refused: ")[2]
        for r in caplog.records
        if r.name.startswith("server.processes") and " refused: " in r.getMessage()
    ]
    assert len(refusals) == 2 and refusals[0] == refusals[1] and address in refusals[0]


@contextmanager
def garbage_host() -> Iterator[int]:
    """A host on 127.0.0.1 answering every request with a status line of 60 000 bytes."""
    server = socket.create_server(("127.0.0.1", 0))

    def serve() -> None:
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            with conn:
                conn.settimeout(2)
                data = b""
                while b"\r\n\r\n" not in data:
                    piece = conn.recv(65536)
                    if not piece:
                        break
                    data += piece
                conn.sendall(b"garbage " + b"z" * 60_000 + b"\r\n\r\n")

    threading.Thread(target=serve, daemon=True).start()
    try:
        yield server.getsockname()[1]
    finally:
        server.close()


def test_a_webhook_receiver_answering_garbage_logs_a_short_line(api, redis_client, caplog):
    """As a callback bot's garbage does (tests/security/test_slow_callbacks.py): one line
    of bounded length, no traceback."""
    caplog.set_level(logging.INFO)
    with garbage_host() as port:
        app = _webhook(api, redis_client, f"http://127.0.0.1:{port}/hook")
        deliverer = _deliverer(redis_client, lambda host, port: ["127.0.0.1"])
        assert deliverer.tick(now=time.time() + 1) == 1
        deliverer.close()
    shown = api.get(f"/v1/apps/{app.id}", app.token).body["deliveries"]
    assert shown == [] and webhook_store.pending_count(redis_client) == 1  # tried again later
    ours = [r for r in caplog.records if r.name.startswith(("server.processes", "urllib3"))]
    assert sum("garbage" in r.getMessage() for r in ours) == 1
    for record in ours:
        assert record.exc_info is None and record.exc_text is None
        assert len(record.getMessage()) < 400 and "\n" not in record.getMessage()


NAME = "hooks.tls.test"


@pytest.fixture(scope="module")
def cert(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    """A self-signed certificate for :data:`NAME` (the openssl command line)."""
    folder = tmp_path_factory.mktemp("tls")
    crt, key = folder / "hook.crt", folder / "hook.key"
    subprocess.run(
        [
            "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
            "-keyout", str(key), "-out", str(crt), "-subj", f"/CN={NAME}",
            "-addext", f"subjectAltName=DNS:{NAME}",
        ],
        check=True,
        capture_output=True,
    )  # fmt: skip
    return str(crt), str(key)


@pytest.mark.parametrize(("host", "delivered"), [(NAME, True), ("other.tls.test", False)])
def test_a_webhook_over_tls_is_verified_for_the_urls_name(
    api, redis_client, cert, monkeypatch, host, delivered
):
    """The connection goes to the checked address, the certificate is verified for the
    URL's name (the system's certificates: ``SSL_CERT_FILE`` names this one)."""
    monkeypatch.setenv("SSL_CERT_FILE", cert[0])
    receiver = Bot(behave=lambda call: (200, b"{}", 0.0))
    with serving(receiver, tls=cert):
        app = _webhook(api, redis_client, f"https://{host}:{receiver.port}/hook")
        deliverer = _deliverer(redis_client, lambda host, port: ["127.0.0.1"])
        assert deliverer.tick(now=time.time() + 1) == 1
        deliverer.close()
    shown = api.get(f"/v1/apps/{app.id}", app.token).body["deliveries"]
    if delivered:
        assert [(d["status"], d["code"]) for d in shown] == [("delivered", 200)]
        assert [c["host"] for c in receiver.calls] == [f"{NAME}:{receiver.port}"]
    else:
        assert shown == [] and receiver.calls == []

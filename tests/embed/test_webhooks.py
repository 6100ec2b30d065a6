"""Webhooks: signed with HMAC-SHA256, retried with backoff until a 2xx, no hidden cards.

The receiver is a real stdlib HTTP server on 127.0.0.1 that answers 500 to
the first N attempts of each delivery; the deliverer is the real one
(:class:`server.processes.webhooks.Deliverer`) run in a thread on the test's Redis.
Both allow loopback (``WEBHOOK_ALLOW``), as an operator would for a local receiver:
webhooks to internal addresses are refused otherwise (tests/security).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import random
import threading
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from openapi_schema_validator import OAS31Validator

from server.processes.webhooks import Deliverer
from server.services.notifications import Deliveries, verify
from tests.api.helpers import assert_error, cards_in
from tests.api.play import play_random_moves
from tests.conftest import Player
from tests.embed.conftest import app_game, make_app
from tests.spec import document


@dataclass
class Received:
    delivery: str
    event: str
    signature: str
    body: bytes
    status: int


@dataclass
class Receiver:
    url: str
    fail_first: int
    received: list[Received] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def ok(self) -> list[Received]:
        with self.lock:
            return [r for r in self.received if r.status == 200]


LOOPBACK = "127.0.0.0/8,::1"


@pytest.fixture
def app_config(app_config: dict) -> dict:
    return app_config | {"WEBHOOK_ALLOW": LOOPBACK}


@pytest.fixture
def receiver_factory() -> Iterator:
    servers = []

    def make(fail_first: int) -> Receiver:
        attempts: Counter[str] = Counter()

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - the stdlib's name
                body = self.rfile.read(int(self.headers["Content-Length"]))
                delivery = self.headers["Parlour-Delivery"]
                with receiver.lock:
                    attempts[delivery] += 1
                    status = 500 if attempts[delivery] <= receiver.fail_first else 200
                    receiver.received.append(
                        Received(
                            delivery,
                            self.headers["Parlour-Event"],
                            self.headers["Parlour-Signature"],
                            body,
                            status,
                        )
                    )
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args) -> None:
                pass

        server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(
            target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        ).start()
        servers.append(server)
        receiver = Receiver(f"http://127.0.0.1:{server.server_port}/hook", fail_first)
        return receiver

    yield make
    for server in servers:
        server.shutdown()
        server.server_close()


@pytest.fixture
def deliverer(redis_client) -> Iterator[Deliverer]:
    d = Deliverer(
        Deliveries(redis_client),
        backoff=0.05,
        max_attempts=4,
        timeout=2,
        lease=5,
        rng=random.Random(1),
        allow=LOOPBACK,
    )
    stop = threading.Event()
    thread = threading.Thread(target=d.run, args=(stop, 0.01), daemon=True)
    thread.start()
    yield d
    stop.set()
    thread.join(5)
    d.close()


def wait_for(condition, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def guests_of(made: dict) -> list[Player]:
    return [Player(i["token"].partition(".")[0], "Guest", i["token"]) for i in made["invitations"]]


def test_signed_notifications_retried_until_success_and_then_never_again(
    api, receiver_factory, deliverer
):
    flaky = receiver_factory(fail_first=2)
    steady = receiver_factory(fail_first=0)
    app = make_app(api)
    hooks = {}
    for receiver, events in ((flaky, ["game_start", "game_end"]), (steady, None)):
        reply = api.post(
            f"/v1/apps/{app.id}/webhooks", {"url": receiver.url, "events": events}, app.token
        )
        assert reply.status == 201, reply.body
        hooks[receiver.url] = reply.body
    assert hooks[flaky.url]["secret"] != hooks[steady.url]["secret"]

    made = app_game(api, app, [None, None, None, None])
    gid = made["game"]["id"]
    final = play_random_moves(api, gid, guests_of(made), random.Random(4))
    wait_for(lambda: {r.event for r in flaky.ok()} == {"game_start", "game_end"})
    wait_for(lambda: "game_end" in {r.event for r in steady.ok()})

    # Retries: each of the flaky receiver's deliveries took exactly 3 attempts...
    per_delivery = Counter(r.delivery for r in flaky.received)
    assert sorted(per_delivery.values()) == [3, 3]
    time.sleep(0.5)  # ...and none came after the success, though backoff is 50 ms
    assert Counter(r.delivery for r in flaky.received) == per_delivery
    assert all(
        Counter(r.delivery for r in steady.received)[d] == 1
        for d in {r.delivery for r in steady.received}
    )

    for receiver in (flaky, steady):
        secret = hooks[receiver.url]["secret"]
        for got in receiver.received:
            # The documented scheme, computed here independently: t=<ts>,v1=HMAC(t "." body).
            parts = dict(p.split("=", 1) for p in got.signature.split(","))
            mac = hmac.new(
                secret.encode(), parts["t"].encode() + b"." + got.body, hashlib.sha256
            ).hexdigest()
            assert hmac.compare_digest(mac, parts["v1"])
            assert verify(secret, got.signature, got.body)
            assert not verify(secret, got.signature, got.body + b" ")
            assert not verify("whsec_wrong", got.signature, got.body)
            assert not cards_in(got.body.decode()), "a notification carried a card"

    bodies = {r.event: json.loads(r.body) for r in steady.ok()}
    assert set(bodies) == {"game_start", "turn", "game_end"}
    start, turn, end = bodies["game_start"], bodies["turn"], bodies["game_end"]
    assert start["game_id"] == gid and start["app_id"] == app.id
    assert [s["kind"] for s in start["seats"]] == ["guest"] * 4
    assert set(turn) == {"id", "type", "app_id", "game_id", "version", "status", "to_move"}
    assert end["status"] == "finished" and end["result"] == final["result"]
    assert end["scores"] == final["scores"]
    turns = [json.loads(r.body) for r in steady.ok() if r.event == "turn"]
    assert len({t["version"] for t in turns}) == len(turns) == final["version"]

    shown = api.get(f"/v1/apps/{app.id}", app.token).body
    assert {h["url"] for h in shown["webhooks"]} == {flaky.url, steady.url}
    assert "secret" not in json.dumps(shown["webhooks"])
    flaky_log = [d for d in shown["deliveries"] if d["hook"] == hooks[flaky.url]["id"]]
    assert [(d["status"], d["attempts"]) for d in flaky_log] == [("delivered", 3)] * 2


def test_each_delivered_body_is_the_one_the_spec_says_its_webhook_sends(
    api, receiver_factory, deliverer
):
    """The bodies are built as dicts (server.services.notifications), not dumped by the
    schemas the spec's ``webhooks`` name: each body a receiver got is held to its
    webhook's schema in openapi.yaml."""
    receiver = receiver_factory(fail_first=0)
    app = make_app(api)
    reply = api.post(f"/v1/apps/{app.id}/webhooks", {"url": receiver.url}, app.token)
    assert reply.status == 201, reply.body
    made = app_game(api, app, [None, None, None, None])
    play_random_moves(api, made["game"]["id"], guests_of(made), random.Random(7))
    wait_for(lambda: "game_end" in {r.event for r in receiver.ok()})

    spec = document()
    checked = set()
    for got in receiver.ok():
        webhook = spec["webhooks"][got.event]["post"]
        schema = webhook["requestBody"]["content"]["application/json"]["schema"]
        OAS31Validator({**spec, **schema}).validate(json.loads(got.body))
        checked.add(got.event)
    assert checked == {"game_start", "turn", "game_end"}


def test_a_receiver_that_never_answers_2xx_is_given_up_after_max_attempts(
    api, receiver_factory, deliverer
):
    broken = receiver_factory(fail_first=100)
    app = make_app(api)
    api.post(
        f"/v1/apps/{app.id}/webhooks", {"url": broken.url, "events": ["game_start"]}, app.token
    )
    app_game(api, app, [None, None, None, None])
    wait_for(
        lambda: any(
            d["status"] == "failed"
            for d in api.get(f"/v1/apps/{app.id}", app.token).body["deliveries"]
        )
    )
    time.sleep(0.5)
    assert len(broken.received) == deliverer.max_attempts == 4


def test_webhook_registration_is_checked(api, players):
    app = make_app(api)
    path = f"/v1/apps/{app.id}/webhooks"
    assert_error(api.post(path, {"url": "ftp://x.example/hook"}, app.token), 400, "invalid_request")
    assert_error(
        api.post(path, {"url": "http://x.example/h", "events": ["moves"]}, app.token),
        400,
        "invalid_request",
    )
    assert_error(
        api.post(path, {"url": "http://x.example/h"}, players.register("ann")), 403, "forbidden"
    )
    assert_error(api.post(path, {"url": "http://x.example/h"}), 401, "unauthorized")

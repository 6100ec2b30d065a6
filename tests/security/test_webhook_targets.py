"""Webhooks never reach the server's own network (docs/operations.md#security-settings).

A webhook URL naming a loopback, private, link-local, multicast, unspecified or
reserved address is refused at registration, and again at delivery after the
name is resolved (a name may point elsewhere by then): the deliverer connects
only to an address it checked. ``PARLOUR_WEBHOOK_ALLOW`` (``WEBHOOK_ALLOW``)
lets an operator allow ranges, as these tests do for their local receiver.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from server.api import create_app
from server.processes.webhooks import Deliverer
from server.services.notifications import Deliveries
from server.store import webhooks as webhook_store
from tests.api.helpers import Api, assert_error
from tests.embed.conftest import app_game, make_app

INTERNAL = [
    "http://127.0.0.1:6379/",
    "http://127.9.9.9/",
    "http://localhost:8000/hook",
    "http://app.localhost/hook",
    "http://[::1]:8000/hook",
    "http://[::ffff:127.0.0.1]/hook",
    "http://169.254.169.254/latest/meta-data/",
    "http://[fe80::1]/",
    "http://10.0.0.7/",
    "http://172.16.3.4/",
    "http://192.168.1.1/",
    "http://100.64.0.1/",
    "http://0.0.0.0:8000/",
    "http://[::]/",
    "http://224.0.0.1/",
    "http://[ff02::1]/",
    "http://240.0.0.1/",
    "http://255.255.255.255/",
]


@pytest.fixture
def app_config(app_config: dict[str, Any]) -> dict[str, Any]:
    return app_config | {"WEBHOOK_ALLOW": ""}


@pytest.fixture
def api(client) -> Api:
    return Api(client=client)


@pytest.fixture
def receiver() -> Iterator[tuple[int, list[dict[str, str]]]]:
    """A real HTTP server on 127.0.0.1 that records each request's Host header."""
    seen: list[dict[str, str]] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - the stdlib's name
            self.rfile.read(int(self.headers["Content-Length"]))
            seen.append({"host": self.headers["Host"], "path": self.path})
            self.send_response(200)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
    ).start()
    yield server.server_port, seen
    server.shutdown()
    server.server_close()


@pytest.mark.parametrize("url", INTERNAL)
def test_a_webhook_to_an_internal_address_is_refused_and_not_stored(api, redis_client, url):
    app = make_app(api)
    before = webhook_store.of_app(redis_client, app.id)
    reply = api.post(f"/v1/apps/{app.id}/webhooks", {"url": url}, app.token)
    assert_error(reply, 400, "invalid_request")
    assert webhook_store.of_app(redis_client, app.id) == before == []


@pytest.mark.parametrize("url", ["http://hooks.example.com:99999/", "http://[::1/", "http://:80/"])
def test_a_malformed_webhook_url_is_a_400_not_a_500(api, redis_client, url):
    app = make_app(api)
    reply = api.post(f"/v1/apps/{app.id}/webhooks", {"url": url}, app.token)
    assert_error(reply, 400, "invalid_request")
    assert webhook_store.of_app(redis_client, app.id) == []


def test_the_operator_allowlist_admits_its_ranges_only(app_config, redis_client):
    api = Api(create_app(app_config | {"WEBHOOK_ALLOW": "127.0.0.1/32, ::1"}).test_client())
    app = make_app(api)
    path = f"/v1/apps/{app.id}/webhooks"
    assert api.post(path, {"url": "http://127.0.0.1:9/h"}, app.token).status == 201
    assert api.post(path, {"url": "http://[::1]:9/h"}, app.token).status == 201
    assert_error(api.post(path, {"url": "http://127.0.0.2:9/h"}, app.token), 400, "invalid_request")
    assert_error(api.post(path, {"url": "http://10.0.0.1/h"}, app.token), 400, "invalid_request")
    assert len(webhook_store.of_app(redis_client, app.id)) == 2


def _hook(redis_client, app_id: str, url: str) -> None:
    """A webhook stored as if it passed registration (a name that resolved elsewhere then)."""
    webhook_store.add(
        redis_client,
        app_id,
        {"id": "whtest", "url": url, "events": ["game_start"], "secret": "whsec_t", "created": 1.0},
    )


def _deliver(redis_client, resolve, allow: str) -> Deliverer:
    d = Deliverer(
        Deliveries(redis_client),
        backoff=0.01,
        max_attempts=2,
        timeout=2,
        rng=random.Random(1),
        allow=allow,
        resolve=resolve,
    )
    for _ in range(20):
        d.tick(now=1e12)
    d.close()
    return d


@pytest.mark.parametrize("addresses", [["127.0.0.1"], ["93.184.216.34", "127.0.0.1"]])
def test_delivery_to_a_name_that_now_resolves_inside_is_refused_without_details(
    api, redis_client, receiver, addresses
):
    port, seen = receiver
    app = make_app(api)
    _hook(redis_client, app.id, f"http://hooks.rebind.test:{port}/hook")
    app_game(api, app, [None, None, None, None])
    _deliver(redis_client, lambda host, port: list(addresses), allow="")
    assert seen == []  # nothing reached the receiver
    shown = api.get(f"/v1/apps/{app.id}", app.token).body["deliveries"]
    assert [d["status"] for d in shown] == ["refused"]
    assert set(shown[0]) == {"delivery", "event", "hook", "body_id", "status", "at"}
    assert webhook_store.pending_count(redis_client) == 0  # refused is final: no retries


def test_delivery_connects_to_the_address_it_checked(api, redis_client, receiver):
    """The name is resolved once, by the checker; the connection goes to that address
    (the name below resolves nowhere else), with the URL's host in ``Host``."""
    port, seen = receiver
    app = make_app(api)
    _hook(redis_client, app.id, f"http://hooks.rebind.test:{port}/hook")
    app_game(api, app, [None, None, None, None])
    _deliver(redis_client, lambda host, port: ["127.0.0.1"], allow="127.0.0.0/8")
    assert seen == [{"host": f"hooks.rebind.test:{port}", "path": "/hook"}]
    shown = api.get(f"/v1/apps/{app.id}", app.token).body["deliveries"]
    assert [(d["status"], d["code"]) for d in shown] == [("delivered", 200)]

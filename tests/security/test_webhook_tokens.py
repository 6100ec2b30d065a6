"""An app's webhooks can be listed and removed, and do not outlive a lost token
(docs/embed.md#webhooks-and-your-token).

Whoever held an app's token could add a webhook to a server of theirs and keep a
feed of the app's games and their players after the app rotated or revoked the
token: no call listed or removed a webhook. Now the app (its current token) and
the admin list them (never their secrets) and remove one; a rotation removes them
unless asked to keep them (the answer says how many there were); a revocation
removes them. A removed webhook's queued deliveries are dropped, never sent.

Over real sockets: the thief's and the app's receivers are stdlib HTTP servers on
127.0.0.1 (allowed like ``PARLOUR_WEBHOOK_ALLOW``); the deliverer is the real one.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from server.processes.webhooks import Deliverer
from server.services import notifications
from server.services.notifications import Deliveries
from server.store import keys
from server.store import webhooks as webhook_store
from tests.api.helpers import Api, assert_error
from tests.embed.conftest import App, app_game, make_app

LOOPBACK = "127.0.0.0/8"


@pytest.fixture
def app_config(app_config: dict[str, Any]) -> dict[str, Any]:
    return app_config | {"WEBHOOK_ALLOW": LOOPBACK}


class Receiver:
    """A real HTTP server on 127.0.0.1 that records each notification's event."""

    def __init__(self) -> None:
        self.events: list[str] = []
        seen = self.events

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - the stdlib's name
                self.rfile.read(int(self.headers["Content-Length"]))
                seen.append(self.headers["Parlour-Event"])
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}/hook"
        threading.Thread(
            target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        ).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receivers() -> Iterator[tuple[Receiver, Receiver]]:
    """The thief's receiver and the app's own."""
    thief, own = Receiver(), Receiver()
    yield thief, own
    thief.close()
    own.close()


def _deliver(redis_client) -> None:
    """Every queued delivery, at once (a 2xx answer is final)."""
    d = Deliverer(Deliveries(redis_client), timeout=2, rng=random.Random(1), allow=LOOPBACK)
    while d.tick(now=1e12):
        pass
    d.close()


def _add(api: Api, app: App, url: str, token: str) -> dict[str, Any]:
    body = {"url": url, "events": ["game_start"]}  # one notification per game
    reply = api.post(f"/v1/apps/{app.id}/webhooks", body, token)
    assert reply.status == 201, reply.body
    return reply.body


def _stored(redis_client, app: App) -> dict:
    return redis_client.hgetall(keys.app_webhooks(app.id))


def test_the_new_token_lists_and_removes_a_webhook_the_old_one_added(api, redis_client, receivers):
    thief, own = receivers
    app, other = make_app(api), make_app(api, "elsewhere")
    stolen = _add(api, app, thief.url, app.token)  # by whoever held the token
    mine = _add(api, app, own.url, app.token)

    reply = api.post(f"/v1/apps/{app.id}/token", {"keep_webhooks": True}, app.token)
    assert reply.status == 200, reply.body
    assert reply.body["webhooks"] == {"count": 2, "kept": True}
    new = reply.body["token"]
    app_game(api, App(app.id, new), [None, None, None, None])  # a game_start queued to both

    path = f"/v1/apps/{app.id}/webhooks"
    listed = api.get(path, new)
    assert listed.status == 200, listed.body
    assert [h["id"] for h in listed.body["webhooks"]] == [stolen["id"], mine["id"]]
    assert all(set(h) == {"id", "url", "events", "created"} for h in listed.body["webhooks"])
    assert api.get(path, "admin").body == listed.body

    # nobody else lists or removes them, and a refused request changes nothing
    before = _stored(redis_client, app)
    for who, status, code in (
        (app.token, 401, "unauthorized"),  # the old token
        (other.token, 403, "forbidden"),
        (None, 401, "unauthorized"),
    ):
        assert_error(api.get(path, who), status, code)
        assert_error(api.delete(f"{path}/{stolen['id']}", who), status, code)
    assert_error(api.delete(f"{path}/whnothere", new), 404, "not_found")
    assert_error(api.delete(f"{path}/{mine['id']}", other.token), 403, "forbidden")
    assert _stored(redis_client, app) == before

    assert api.delete(f"{path}/{stolen['id']}", new).status == 204
    assert_error(api.delete(f"{path}/{stolen['id']}", new), 404, "not_found")
    assert [h["id"] for h in api.get(path, new).body["webhooks"]] == [mine["id"]]

    app_game(api, App(app.id, new), [None, None, None, None])
    _deliver(redis_client)
    assert thief.events == []  # the queued delivery was dropped, the later one never made
    assert own.events == ["game_start", "game_start"]
    outcomes = api.get(f"/v1/apps/{app.id}", new).body["deliveries"]
    assert sorted(d["status"] for d in outcomes) == ["delivered", "delivered", "dropped"]


def test_a_rotation_removes_the_webhooks_unless_asked_and_says_how_many(
    api, redis_client, receivers
):
    thief, _ = receivers
    app = make_app(api)
    _add(api, app, thief.url, app.token)
    app_game(api, app, [None, None, None, None])  # queued before the rotation

    # a refused rotation (a body that is not the documented one) changes nothing
    before, digest = _stored(redis_client, app), redis_client.hget(keys.app(app.id), "token_sha256")
    bad = api.post(f"/v1/apps/{app.id}/token", {"keep_webhooks": "yes"}, app.token)
    assert_error(bad, 400, "invalid_request")
    assert _stored(redis_client, app) == before
    assert redis_client.hget(keys.app(app.id), "token_sha256") == digest

    reply = api.post(f"/v1/apps/{app.id}/token", None, app.token)
    assert reply.status == 200, reply.body
    assert reply.body["webhooks"] == {"count": 1, "kept": False}
    assert api.get(f"/v1/apps/{app.id}/webhooks", reply.body["token"]).body == {"webhooks": []}
    _deliver(redis_client)
    assert thief.events == []

    # the admin's rotation too; with none set, the answer says so
    again = api.post(f"/v1/apps/{app.id}/token", {}, "admin")
    assert again.status == 200 and again.body["webhooks"] == {"count": 0, "kept": False}


def test_revoking_an_app_token_removes_its_webhooks(api, redis_client, receivers):
    thief, _ = receivers
    app = make_app(api)
    _add(api, app, thief.url, app.token)
    made = app_game(api, app, [None, None, None, None])

    assert_error(api.delete(f"/v1/apps/{app.id}/token", None), 401, "unauthorized")
    assert len(_stored(redis_client, app)) == 1
    assert api.delete(f"/v1/apps/{app.id}/token", "admin").status == 204
    assert _stored(redis_client, app) == {}
    assert api.get(f"/v1/apps/{app.id}/webhooks", "admin").body == {"webhooks": []}
    _deliver(redis_client)
    assert thief.events == []
    # the app's guests play on: revocation ends the app token and its webhooks only
    guest = made["invitations"][0]["token"]
    assert api.get(f"/v1/games/{made['game']['id']}", guest).status == 200
    assert webhook_store.pending_count(redis_client) == 0


def test_a_webhook_left_on_a_revoked_app_is_never_delivered(api, redis_client, receivers):
    """A webhook stored for an app whose token was revoked before revocations removed
    webhooks (written here to the store, as such a server left it) is dropped unsent."""
    thief, _ = receivers
    app = make_app(api)
    assert api.delete(f"/v1/apps/{app.id}/token", "admin").status == 204
    hook = {"id": "wh_left", "url": thief.url, "events": ["game_start"], "secret": "whs_x"}
    webhook_store.add(redis_client, app.id, hook | {"created": "2026-01-01T00:00:00Z"})
    note = {"id": "n1", "type": "game_start", "game_id": "g1"}  # a game of the app's starts
    assert notifications.queue(redis_client, app.id, [note]) == 1
    _deliver(redis_client)
    assert thief.events == []
    assert webhook_store.pending_count(redis_client) == 0


def test_the_sdk_and_the_cli_list_remove_and_keep_webhooks(live_server, redis_client, capsys):
    from client_sdk import Client
    from client_sdk.cli import main as bot_cli
    from tests.conftest import ADMIN_TOKEN

    with Client(live_server.url, token=ADMIN_TOKEN) as admin:
        app = admin.apps.create("cardroom")
    with Client(live_server.url, token=app["token"]) as client:
        hook = client.apps.add_webhook(app["id"], "https://93.184.216.34/hook")
        assert client.apps.webhooks(app["id"]) == [
            {k: hook[k] for k in ("id", "url", "events", "created")}
        ]
        assert client.apps.remove_webhook(app["id"], hook["id"]) is None
        assert client.apps.webhooks(app["id"]) == []
        rotated = client.tokens.rotate_app(app["id"], keep_webhooks=True)
        assert rotated["webhooks"] == {"count": 0, "kept": True}
        assert client.apps.webhooks(app["id"]) == []  # the client uses the new token

    client.apps.add_webhook(app["id"], "https://93.184.216.34/hook")
    argv = ["token", "rotate", "--server", live_server.url, "--app", app["id"]]
    assert bot_cli([*argv, "--token", ADMIN_TOKEN, "--keep-webhooks"]) == 0
    assert "1 webhook(s) kept" in capsys.readouterr().err
    assert len(_stored(redis_client, App(app["id"], ""))) == 1
    assert bot_cli([*argv, "--token", ADMIN_TOKEN]) == 0
    assert "1 webhook(s) removed with the old token" in capsys.readouterr().err
    assert _stored(redis_client, App(app["id"], "")) == {}

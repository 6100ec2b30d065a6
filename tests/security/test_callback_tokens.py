"""A callback dies with the token that set it (docs/callbacks.md#tokens-and-your-callback).

Whoever held a player's token could set a callback to a server of theirs; the
dispatcher then POSTed every turn of the player's seats (its view and hand) there
and played the answers. Revoking the token removes the callback at once: a turn
queued already is not called, the player is no longer kept "waiting" on its
ladders. Rotating removes it too, unless the caller asks to keep it: then its
signing secret is rotated with the token and shown once. The answer says which.
The new token (the rotated one, or the admin's new one) sees and removes it.

Over real sockets: the callback bot is a werkzeug server on 127.0.0.1 (allowed
like ``PARLOUR_WEBHOOK_ALLOW``) and the dispatcher runs in a thread.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from server.processes.dispatch import Dispatcher
from server.services.bundle import Services
from server.store import callbacks as callback_store
from server.store import keys
from server.store import ladders as ladder_store
from tests.api.helpers import Api, Reply, _auth, assert_error
from tests.callbacks.support import Bot, clocked_game, dispatching, serving, wait_for
from tests.conftest import ADMIN_TOKEN, Player

LOCAL = "127.0.0.0/8"


@pytest.fixture
def app_config(app_config: dict[str, Any]) -> dict[str, Any]:
    return app_config | {"WEBHOOK_ALLOW": LOCAL}


@pytest.fixture
def svc(redis_client) -> Services:
    return Services(redis_client, admin_token=ADMIN_TOKEN)


def _delete(api: Api, path: str, who: Any) -> Reply:
    r = api.client.delete(path, headers=_auth(who))
    return Reply(r.status_code, r.get_json(silent=True), r.get_data(as_text=True))


def _set_callback(api: Api, bot: Bot, who: Player) -> str:
    r = api.client.put("/v1/me/callback", json={"url": bot.url()}, headers=_auth(who.token))
    assert r.status_code == 200, r.get_json()
    secret = r.get_json()["secret"]
    bot.secrets[who.id] = secret
    return secret


def _queued_for(redis_client, player_id: str) -> int:
    """Turns of ``player_id`` in the dispatchers' stream (not acked yet)."""
    entries = redis_client.xrange(keys.callback_turns())
    return sum(1 for _, f in entries if f.get(b"player") == player_id.encode())


def _calls_for(bot: Bot, game_id: str) -> int:
    with bot.lock:
        return sum(1 for c in bot.calls if c["game_id"] == game_id)


def _drain(svc: Services, redis_client, player_id: str) -> None:
    """Run a dispatcher until none of the player's queued turns is left."""
    with dispatching(Dispatcher(svc.dispatch, consumer="d2", timeout=1, allow=LOCAL)):
        wait_for(lambda: _queued_for(redis_client, player_id) == 0, 10, "the turns handled")


def _played_once(svc: Services, ann: Player, bob: Player) -> None:
    """A game of ann (the callback) and bob: the callback is called and plays."""
    clocked_game(svc, [ann.id, bob.id], move_seconds=30)
    with dispatching(Dispatcher(svc.dispatch, consumer="d1", timeout=1, allow=LOCAL)):
        wait_for(lambda: svc.callbacks.health([ann.id])[ann.id]["moves"] >= 1, 10, "a move")


def test_revoking_a_token_stops_its_callback_at_once(api, svc, players, redis_client):
    ann, bob = players.register("ann"), players.register("bob")
    ladder = svc.ladders.create(
        ADMIN_TOKEN, game="cowpoke", options={"players": 2, "hands": 1}, max_games=1
    )
    svc.ladders.join(ann.token, ladder["id"])
    with serving(Bot()) as bot:
        _set_callback(api, bot, ann)
        _played_once(svc, ann, bob)  # the callback works, and keeps ann "waiting"
        assert ladder_store.last_seen(redis_client, [ann.id]).get(ann.id, 0) > 0

        queued = clocked_game(svc, [ann.id, bob.id], move_seconds=30)
        assert _queued_for(redis_client, ann.id) >= 1  # a turn waits for the dispatcher
        before = svc.core.game(queued)

        # refused revocations change nothing: the callback stays
        for who, status, code in ((bob, 403, "forbidden"), (None, 401, "unauthorized")):
            reply = _delete(api, f"/v1/players/{ann.id}/token", who)
            assert_error(reply, status, code)
        assert callback_store.get(redis_client, ann.id) is not None

        revoked_at = time.time()
        assert _delete(api, f"/v1/players/{ann.id}/token", "admin").status == 204
        assert_error(api.get("/v1/me/callback", ann.token), 401, "unauthorized")
        assert callback_store.get(redis_client, ann.id) is None
        assert ann.id not in callback_store.players(redis_client)

        _drain(svc, redis_client, ann.id)  # the queued turn: acked, never called
        assert _calls_for(bot, queued) == 0
        after = svc.core.game(queued)
        assert after.version == before.version and after.state == before.state
        # the dispatcher's pass marked nobody: ann is not matchable on its ladder
        assert svc.dispatch.keep_waiting(time.time()) == 0
        assert ladder_store.last_seen(redis_client, [ann.id]).get(ann.id, 0) < revoked_at

    # the admin gives ann a new token: it sees no callback left to remove
    fresh = api.post(f"/v1/players/{ann.id}/token", None, "admin").body["token"]
    assert_error(api.get("/v1/me/callback", fresh), 404, "not_found")


def test_rotating_a_token_removes_its_callback_and_says_so(api, svc, players, redis_client):
    ann, bob = players.register("ann"), players.register("bob")
    with serving(Bot()) as bot:
        _set_callback(api, bot, ann)
        _played_once(svc, ann, bob)
        queued = clocked_game(svc, [ann.id, bob.id], move_seconds=30)
        assert _queued_for(redis_client, ann.id) >= 1

        # a refused rotation (a body that is not the documented one) changes nothing
        stored = callback_store.get(redis_client, ann.id)
        digest = redis_client.hget(keys.player(ann.id), "token_sha256")
        bad = api.post("/v1/players/me/token", {"keep_callback": "yes"}, ann.token)
        assert_error(bad, 400, "invalid_request")
        assert callback_store.get(redis_client, ann.id) == stored
        assert redis_client.hget(keys.player(ann.id), "token_sha256") == digest

        reply = api.post("/v1/players/me/token", None, ann.token)
        assert reply.status == 200, reply.body
        assert reply.body["callback"] == {"url": bot.url(), "kept": False}
        new = reply.body["token"]

        _drain(svc, redis_client, ann.id)  # the old callback plays no more
        assert _calls_for(bot, queued) == 0

        # the new token sees no callback; it may set one again, see it and remove it
        assert_error(api.get("/v1/me/callback", new), 404, "not_found")
        ann_now = Player(ann.id, ann.name, new)
        _set_callback(api, bot, ann_now)
        assert api.get("/v1/me/callback", new).body["url"] == bot.url()
        assert _delete(api, "/v1/me/callback", new).status == 204
        assert callback_store.get(redis_client, ann.id) is None
        # with no callback set, the answer says so
        again = api.post("/v1/players/me/token", None, new)
        assert again.status == 200 and again.body["callback"] is None


def test_a_rotation_may_keep_the_callback_with_a_new_secret(api, svc, players, redis_client):
    ann, bob = players.register("ann"), players.register("bob")
    with serving(Bot()) as bot:
        old = _set_callback(api, bot, ann)
        reply = api.post("/v1/players/me/token", {"keep_callback": True}, ann.token)
        assert reply.status == 200, reply.body
        kept = reply.body["callback"]
        assert set(kept) == {"url", "kept", "secret"} and kept["kept"] is True
        assert kept["url"] == bot.url() and kept["secret"].startswith("cbs_")
        assert kept["secret"] != old
        assert callback_store.get(redis_client, ann.id)["secret"] == kept["secret"]
        bot.secrets = {ann.id: kept["secret"]}  # the bot knows only the new secret

        _played_once(svc, ann, bob)  # it plays on, signed with the new secret
        assert bot.bad_signatures == 0
        shown = api.get("/v1/me/callback", reply.body["token"]).body
        assert shown["secret_hint"] == kept["secret"][-4:]


def test_a_callback_left_on_a_revoked_player_plays_nothing(api, svc, players, redis_client):
    """A callback that outlived a revocation all the same (one stored before revocations
    removed callbacks): its turns are not called, and it keeps nobody waiting."""
    ann, bob = players.register("ann"), players.register("bob")
    assert _delete(api, f"/v1/players/{ann.id}/token", "admin").status == 204
    with serving(Bot()) as bot:
        callback_store.put(redis_client, ann.id, bot.url(), "cbs_left_over", 1.0)
        queued = clocked_game(svc, [ann.id, bob.id], move_seconds=30)
        assert _queued_for(redis_client, ann.id) >= 1
        assert svc.dispatch.keep_waiting(time.time()) == 0
        _drain(svc, redis_client, ann.id)
        assert _calls_for(bot, queued) == 0


def test_the_sdk_and_the_cli_say_what_a_rotation_did_to_the_callback(
    live_server, redis_client, capsys
):
    from client_sdk import Client
    from client_sdk.cli import main as bot_cli
    from server.processes.cli import main as parlour_cli

    url = "https://93.184.216.34/bot"
    with Client(live_server.url) as anon:
        ann = anon.players.register("ann")
    callback_store.put(redis_client, ann["id"], url, "cbs_old", 1.0)
    with Client(live_server.url, ann["token"]) as client:
        new = client.tokens.rotate(keep_callback=True)
        assert new["callback"] is not None and new["callback"]["kept"] is True
        assert client.players.callback()["secret_hint"] == new["callback"]["secret"][-4:]
        token = new["token"]

    argv = ["token", "rotate", "--server", live_server.url, "--token", token]
    assert bot_cli([*argv, "--keep-callback"]) == 0
    out, err = capsys.readouterr()
    secret = callback_store.get(redis_client, ann["id"])["secret"]
    assert f"callback {url} kept" in err and secret in err and secret not in out
    # parlour token rotate --player (the admin's tool): removed by default
    admin = ["token", "rotate", "--server", live_server.url, "--player", ann["id"]]
    assert parlour_cli([*admin, "--token", ADMIN_TOKEN]) == 0
    assert f"callback {url} removed" in capsys.readouterr().err
    assert callback_store.get(redis_client, ann["id"]) is None

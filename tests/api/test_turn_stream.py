"""``GET /v1/me/turns/stream``: each turn pushed as it comes, over a real socket.

What must hold: a pushed turn is exactly what ``GET /v1/me/turns`` lists for
that game at that moment (so it shows the seat nothing the long-poll would
not: the hidden-information suite covers the long-poll); a clocked game's
pushed view carries its deadline; a lost wake-up costs at most one heartbeat
and loses no turn; a game's end is announced; an unknown token is refused
before anything is streamed.
"""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
import requests

from server.store import games as game_store
from server.store import players as player_store
from tests.api.helpers import Api, assert_error, cards_in
from tests.api.play import play_random_moves
from tests.conftest import Player
from tests.embed.sse import Message, SseReader

HEARTBEAT = 0.5


@pytest.fixture
def app_config(app_config: dict[str, Any]) -> dict[str, Any]:
    return {**app_config, "SSE_HEARTBEAT": HEARTBEAT}


def open_turns(base_url: str, who: Player) -> SseReader:
    headers = {"Accept": "text/event-stream", "Authorization": f"Bearer {who.token}"}
    response = requests.get(
        f"{base_url}/v1/me/turns/stream",
        headers=headers,
        stream=True,
        timeout=(5, 10),
    )
    return SseReader(response)


def next_message(reader: SseReader) -> Message:
    message = reader.next()
    assert message is not None, "the stream ended"
    return message


def game_with(api: Api, players: list[Player], **extra: Any) -> str:
    made = api.post(
        "/v1/games", {"game": "concerto", "seats": [p.id for p in players], **extra}, "admin"
    )
    assert made.status == 201, made.body
    return made.body["id"]


def listed(api: Api, who: Player, game_id: str) -> list[dict]:
    """What ``GET /v1/me/turns`` lists for ``who`` in ``game_id`` now."""
    reply = api.get("/v1/me/turns", who)
    assert reply.status == 200, reply.body
    return [t for t in reply.body["turns"] if t["game_id"] == game_id]


def test_every_pushed_turn_is_what_me_turns_lists(live_api, live_server, live_players) -> None:
    api = live_api
    players = live_players.many(4)
    gid = game_with(api, players)
    readers = {p.id: open_turns(live_server.url, p) for p in players}
    rng = random.Random(5)
    for _ in range(40):
        (mover,) = [p for p in players if listed(api, p, gid)]
        message = next_message(readers[mover.id])
        assert message.event == "turns"
        pushed = message.json
        assert pushed == listed(api, mover, gid)  # the very turn, nothing more
        (turn,) = pushed
        assert turn["view"]["you"] == turn["seat"]
        others = set()
        admin_view = api.view(gid, "admin")
        for hand_seat, hand in enumerate(admin_view.get("hands") or []):
            if hand_seat != turn["seat"]:
                others |= set(hand)
        assert not cards_in(message.data) & others  # no other seat's hidden card
        reply = api.move(gid, mover, rng.choice(turn["view"]["legal_moves"]), turn["version"])
        assert reply.status == 200, reply.body
    for reader in readers.values():
        reader.close()


def test_a_clocked_game_pushes_views_with_their_deadline(
    app, live_api, live_server, live_players
) -> None:
    api = live_api
    players = live_players.many(4)
    gid = "clocked-table"  # made as the scheduler makes a tournament's tables
    assert app.extensions["parlour"].games.create_tournament_game(
        game_id=gid,
        game="concerto",
        options={},
        seats=[p.id for p in players],
        seed=None,
        clock={"move_seconds": 30, "timeout_policy": {"kind": "default_move"}},
        tournament={"id": "t", "round": 0, "table": 0, "board": None},
    )
    readers = {p.id: open_turns(live_server.url, p) for p in players}
    rng = random.Random(8)
    for _ in range(6):
        (mover,) = [p for p in players if listed(api, p, gid)]
        (turn,) = next_message(readers[mover.id]).json
        assert turn["view"]["deadline"] is not None
        assert [turn] == listed(api, mover, gid)
        api.move(gid, mover, rng.choice(turn["view"]["legal_moves"]), turn["version"])
    for reader in readers.values():
        reader.close()


def test_a_lost_wake_up_costs_one_heartbeat_and_no_turn(
    live_api, live_server, live_players, monkeypatch
) -> None:
    api = live_api
    players = live_players.many(4)
    gid = game_with(api, players)
    (first,) = [p for p in players if listed(api, p, gid)]
    (turn,) = listed(api, first, gid)
    readers = {p.id: open_turns(live_server.url, p) for p in players}
    assert next_message(readers[first.id]).json == [turn]  # the truth, on connecting

    committed = game_store.commit  # every wake-up lost: none in the commit, none after

    def commit_without_wake(*args: Any, **kwargs: Any) -> tuple[int, int]:
        return committed(*args, **(kwargs | {"wake": (), "turns": None}))

    monkeypatch.setattr(game_store, "commit", commit_without_wake)
    monkeypatch.setattr(player_store, "wake", lambda *args, **kwargs: None)
    reply = api.move(gid, first, turn["view"]["legal_moves"][0], turn["version"])
    assert reply.status == 200, reply.body
    (mover,) = [p for p in players if listed(api, p, gid)]
    started = time.monotonic()
    message = next_message(readers[mover.id])  # no wake-up came: the heartbeat's re-read
    waited = time.monotonic() - started
    assert message.json == listed(api, mover, gid)
    assert waited < 2 * HEARTBEAT + 1.0, waited
    for reader in readers.values():
        reader.close()


def test_the_end_of_a_game_is_announced(live_api, live_server, live_players) -> None:
    api = live_api
    players = live_players.many(4)
    gid = game_with(api, players, options={"deals": 1, "target": 10000})
    reader = open_turns(live_server.url, players[0])
    play_random_moves(api, gid, players, random.Random(3))
    while (message := next_message(reader)).event == "turns":
        pass
    assert message.event == "over"
    assert message.json == {"game_id": gid, "status": "finished"}
    reader.close()


def test_an_unknown_token_is_refused_before_streaming(live_api, live_server) -> None:
    for headers in ({}, {"Authorization": "Bearer nope"}):
        response = requests.get(f"{live_server.url}/v1/me/turns/stream", headers=headers, timeout=5)
        assert response.status_code == 401
        assert response.json()["error"]["code"] in ("unauthorized", "invalid_token")
    assert_error(live_api.get("/v1/me/turns/stream", "nope"), 401, "unauthorized")


def test_a_revoked_token_ends_the_stream_within_a_second(live_api, live_server, live_players):
    """Every push is checked against the player's record as read when its wait ends, so
    a token revoked while the stream is open ends it with an error frame at the end of
    the wait under way: within a heartbeat, not at the stream's end."""
    api = live_api
    players = live_players.many(4)
    gid = game_with(api, players)
    (first,) = [p for p in players if listed(api, p, gid)]
    reader = open_turns(live_server.url, first)
    assert next_message(reader).event == "turns"  # the truth, on connecting
    revoked = requests.delete(
        f"{live_server.url}/v1/players/me/token",
        headers={"Authorization": f"Bearer {first.token}"},
        timeout=5,
    )
    assert revoked.status_code == 204
    started = time.monotonic()
    message = next_message(reader)
    while message.event != "error":  # at most the heartbeats of the wait under way
        assert message.event is None or message.event == "turns", message
        message = next_message(reader)
    assert time.monotonic() - started < 2 * HEARTBEAT + 1.0
    assert "token" in message.json["message"]
    assert reader.next() is None  # and the stream ends

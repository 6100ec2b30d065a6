"""The time bank and the clock every turn carries.

A clocked game may give each seat a bank (``clock.bank_ms``) beside the per-move
time: a move may run past the per-move time, and the overrun comes out of the
seat's bank; the deadline (what a move is checked against and what the scheduler
enforces) is the turn's start + the per-move time + the bank left. Past it the
scheduler makes the default move and the bank is spent. Every turn entry
(``GET /v1/me/turns``, its long-poll, the turn stream) carries
``clock: {deadline, bank_ms, last_latency_ms}``; all null in an unclocked game.

Expected values by hand from the settings: per-move 0.3 s, bank 1000 ms.
"""

from __future__ import annotations

import doctest
import random
import time
from datetime import datetime
from typing import Any

import pytest

from server.services import views
from server.store import clocks as clock_store
from tests.api.helpers import Api, assert_error
from tests.api.test_turn_stream import HEARTBEAT, listed, next_message, open_turns
from tests.conftest import Player

MOVE_SECONDS = 0.3
BANK_MS = 1000


@pytest.fixture
def app_config(app_config: dict[str, Any]) -> dict[str, Any]:
    return {**app_config, "SSE_HEARTBEAT": HEARTBEAT}


def clocked_game(app: Any, gid: str, players: list[Player], **clock: Any) -> str:
    """A clocked game, made as the scheduler makes a tournament's or ladder's tables."""
    assert app.extensions["parlour"].games.create_tournament_game(
        game_id=gid,
        game="concerto",
        options={"deals": 1},
        seats=[p.id for p in players],
        seed=None,
        clock={"timeout_policy": {"kind": "default_move"}, **clock},
        tournament={"id": "t", "round": 0, "table": 0, "board": None},
    )
    return gid


def epoch(iso: str) -> float:
    return datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp()


def to_move(api: Api, players: list[Player], gid: str) -> tuple[Player, dict[str, Any]]:
    (found,) = [(p, t) for p in players for t in listed(api, p, gid)]
    return found


def play_until(api: Api, players: list[Player], gid: str, seat: int, rng: random.Random) -> dict:
    """Others move (at once) until ``seat`` is to move again; its turn entry."""
    for _ in range(12):
        who, turn = to_move(api, players, gid)
        if turn["seat"] == seat:
            return turn
        reply = api.move(gid, who, rng.choice(turn["view"]["legal_moves"]), turn["version"])
        assert reply.status == 200, reply.body
    raise AssertionError("the seat never came to move again")


def test_a_move_may_spend_the_bank_and_past_it_gets_the_default_move(app, api, players) -> None:
    people = players.many(4)
    service = app.extensions["parlour"]
    r = service.core.r
    gid = clocked_game(app, "bank-table", people, move_seconds=MOVE_SECONDS, bank_ms=BANK_MS)
    rng = random.Random(3)
    mover, turn = to_move(api, people, gid)
    seat = turn["seat"]
    clock = clock_store.read(r, gid)
    assert clock is not None
    start = clock.starts[seat]
    # the first turn: the whole bank, no latency yet, deadline = start + 0.3 s + 1 s
    assert turn["clock"]["bank_ms"] == 1000 and turn["clock"]["last_latency_ms"] is None
    assert turn["clock"]["deadline"] == turn["view"]["deadline"]
    assert epoch(turn["clock"]["deadline"]) == pytest.approx(start + 1.3, abs=0.002)

    # past the per-move time, within the bank: the scheduler does not act, the move counts
    time.sleep(0.6)
    assert service.clocks.timeout(gid) == "waiting"
    assert api.view(gid)["version"] == turn["version"]
    reply = api.move(gid, mover, rng.choice(turn["view"]["legal_moves"]), turn["version"])
    assert reply.status == 200, reply.body
    clock = clock_store.read(r, gid)
    assert clock is not None
    latency, bank = clock.latencies[seat], clock.banks[seat]
    assert latency >= 600
    assert bank == 1000 - (latency - 300)  # the overrun past 0.3 s, out of the bank
    assert bank <= 700

    # its next turn says so, and its deadline is the per-move time plus the bank left
    turn = play_until(api, people, gid, seat, rng)
    assert turn["clock"]["bank_ms"] == bank
    assert turn["clock"]["last_latency_ms"] == latency
    clock = clock_store.read(r, gid)
    assert clock is not None
    assert epoch(turn["clock"]["deadline"]) == pytest.approx(
        clock.starts[seat] + 0.3 + bank / 1000, abs=0.002
    )

    # past the bank: the move is refused, the scheduler makes the default move, bank spent
    time.sleep(max(0.0, epoch(turn["clock"]["deadline"]) - time.time()) + 0.05)
    late = api.move(gid, mover, turn["view"]["legal_moves"][0], turn["version"])
    assert_error(late, 409, "deadline_passed")
    assert api.view(gid)["version"] == turn["version"]
    assert service.clocks.timeout(gid) == "default_move"
    clock = clock_store.read(r, gid)
    assert clock is not None
    assert clock.banks[seat] == 0 and clock.timeouts[seat] == 1
    assert clock.latencies[seat] == latency  # a timeout is no move of the bot's: unchanged
    turn = play_until(api, people, gid, seat, rng)
    assert turn["clock"]["bank_ms"] == 0
    clock = clock_store.read(r, gid)
    assert clock is not None
    assert epoch(turn["clock"]["deadline"]) == pytest.approx(clock.starts[seat] + 0.3, abs=0.002)


def test_an_unclocked_turn_has_a_null_clock_on_me_turns_and_its_long_poll(api, players) -> None:
    people = players.many(4)
    made = api.post("/v1/games", {"game": "concerto", "seats": [p.id for p in people]}, "admin")
    assert made.status == 201, made.body
    mover, turn = to_move(api, people, made.body["id"])
    null = {"deadline": None, "bank_ms": None, "last_latency_ms": None}
    assert turn["clock"] == null
    polled = api.get("/v1/me/turns", mover, wait=2).body["turns"]
    assert [t["clock"] for t in polled] == [null]


def test_a_clocked_turn_on_the_long_poll_carries_its_clock(app, api, players) -> None:
    people = players.many(4)
    gid = clocked_game(app, "poll-table", people, move_seconds=30, bank_ms=5000)
    mover, _ = to_move(api, people, gid)
    (turn,) = api.get("/v1/me/turns", mover, wait=2).body["turns"]
    assert turn["clock"]["bank_ms"] == 5000 and turn["clock"]["last_latency_ms"] is None
    assert turn["clock"]["deadline"] == turn["view"]["deadline"]


def test_the_turn_stream_pushes_the_clock_with_the_last_latency(
    app, live_api, live_server, live_players
) -> None:
    api = live_api
    people = live_players.many(4)
    gid = clocked_game(app, "stream-bank-table", people, move_seconds=30, bank_ms=2000)
    r = app.extensions["parlour"].core.r
    readers = {p.id: open_turns(live_server.url, p) for p in people}
    rng = random.Random(8)
    seen_latency = False
    try:
        for _ in range(8):
            mover, _ = to_move(api, people, gid)
            (turn,) = next_message(readers[mover.id]).json
            assert [turn] == listed(api, mover, gid)  # what the stream pushes is the entry
            clock = clock_store.read(r, gid)
            assert clock is not None
            assert turn["clock"]["bank_ms"] == 2000  # nobody ran past 30 s
            assert turn["clock"]["last_latency_ms"] == clock.latencies.get(turn["seat"])
            seen_latency |= turn["clock"]["last_latency_ms"] is not None
            api.move(gid, mover, rng.choice(turn["view"]["legal_moves"]), turn["version"])
    finally:
        for reader in readers.values():
            reader.close()
    assert seen_latency  # a seat's second turn shows its first move's latency


def test_tournaments_and_ladders_take_a_bank_and_refuse_a_bad_one(app, api, players) -> None:
    someone = players.register()
    body = {"game": "concerto", "format": "round_robin", "options": {"deals": 1}}
    made = api.post(
        "/v1/tournaments", body | {"clock": {"move_seconds": 5, "bank_ms": 2500}}, someone
    )
    assert made.status == 201, made.body
    assert made.body["clock"] == {"move_seconds": 5.0, "bank_ms": 2500}
    plain = api.post("/v1/tournaments", body, someone)
    assert plain.body["clock"] == {"move_seconds": 60.0, "bank_ms": 0}  # no bank by default
    ladder = api.post(
        "/v1/ladders", {"game": "concerto", "clock": {"move_seconds": 3, "bank_ms": 900}}, "admin"
    )
    assert ladder.status == 201 and ladder.body["clock"] == {"move_seconds": 3.0, "bank_ms": 900}
    listed_before = api.get("/v1/tournaments").body, api.get("/v1/ladders").body
    for bad in (-1, 1.5, "10", 86_400_001):
        clock = {"move_seconds": 5, "bank_ms": bad}
        details = assert_error(
            api.post("/v1/tournaments", body | {"clock": clock}, someone), 400, "invalid_request"
        )
        assert "clock" in details
        details = assert_error(
            api.post("/v1/ladders", {"game": "concerto", "clock": clock}, "admin"),
            400,
            "invalid_request",
        )
        assert "clock" in details
    assert (api.get("/v1/tournaments").body, api.get("/v1/ladders").body) == listed_before


def test_doctests() -> None:
    """The bank's arithmetic by hand (``Clock.spend``) and a turn's null clock."""
    for module in (clock_store, views):
        failed, tried = doctest.testmod(module)
        assert tried and not failed, module.__name__

"""Hidden information at a duplicate board: no response shows a caller a card it may not see.

Both tables of a board (of a tournament, and of a ladder) are played at
random, one move at a time, the first table ending while its twin still
plays. At bounded checkpoints (the start,
every few moves, the move that ends each table) every caller reads every
resource of both tables: no token, each of the eight players (each holds one
seat at one table, none at both), a player seated at neither, and the admin. The cards a
caller may see in a table's replies, from docs/api.md#duplicate-boards:

- the admin, or anyone once both tables are over: every card;
- a player seated at a table still played: its seat's hand and the cards
  played there (the other seats' unplayed cards, and so the twin's deal, stay
  hidden); at the twin, where the same cards lie in other players' hands,
  nothing — so over the whole board a player learns its own seat's hand and
  the cards played at its own table, never an opponent's hand;
- anyone else, and even a seated player once its table is over before the
  twin: no card at all.

The cards come from the true states in Redis; the deal is all 52 cards, so
"no card outside what the caller may see" covers the twin's deal too. Reads
are also checked to change nothing (versions, states, events).
"""

from __future__ import annotations

import json
import random

import pytest

from tests.api.helpers import cards_in
from tests.security.support import (
    CONCERTO,
    DECK,
    OVER,
    seated,
    snapshot,
    start_board,
    start_ladder_board,
    step,
    truth,
)

RESOURCES = ("", "/events", "/stream", "/replay")
EVERY = 26  # moves between checkpoints: ~8 scans of 11 callers x 2 tables x 6 reads


def _may_see(redis_client, gid: str, who, people, board_over: bool) -> set[str]:
    """The cards ``who`` may see in replies about ``gid`` now (see the module's docstring)."""
    if who == "admin" or board_over:
        return DECK
    record, state = truth(redis_client, gid)
    if who is None or record.status in OVER:
        return set()
    seats = [s for s, v in record.seats.items() if v["player_id"] == who.id]
    if not seats:
        return set()
    unplayed = {c for hand in state.hands for c in hand}
    return (DECK - unplayed) | set(state.hands[seats[0]])


def _seats(redis_client, gid: str, who) -> list[int]:
    record, _ = truth(redis_client, gid)
    return [s for s, v in record.seats.items() if v["player_id"] == who.id]


def _scan(api, redis_client, tables: list[str], callers: list, people) -> None:
    before = snapshot(redis_client, tables)
    board_over = all(truth(redis_client, gid)[0].status in OVER for gid in tables)
    for who in callers:
        for gid in tables:
            allowed = _may_see(redis_client, gid, who, people, board_over)
            version = truth(redis_client, gid)[0].version
            tails = [*RESOURCES, f"/replay/{version}", "/replay/0"]
            for tail in tails:
                reply = api.get(f"/v1/games/{gid}{tail}", who)
                assert reply.status in (200, 204, 403, 409), (tail, reply.status)
                shown = cards_in(reply.text)
                assert shown <= allowed, (gid, tail, who, sorted(shown - allowed))
            if who not in (None, "admin"):
                turns = api.get("/v1/me/turns", who).text
                seen_anywhere = set().union(
                    *(_may_see(redis_client, t, who, people, board_over) for t in tables)
                )
                assert cards_in(turns) <= seen_anywhere
    for status in ("live", "finished"):
        lobby = api.get("/v1/games", status=status)
        assert lobby.status == 200 and (board_over or cards_in(lobby.text) == set())
        for entry in lobby.body["games"]:
            if not board_over:
                assert entry["scores"] is None and entry["result"] is None, entry
    assert snapshot(redis_client, tables) == before  # reading changed nothing


@pytest.mark.parametrize("start", [start_board, start_ladder_board], ids=["tournament", "ladder"])
def test_no_reply_shows_a_card_of_a_board_in_play(api, app, players, redis_client, start):
    people = players.many(9)
    callers = [None, *people, "admin"]  # people[8] is seated at neither table
    x, y = start(api, app, people[:8])
    rng = random.Random(20261124)
    # before a card is played, each player may see over both tables its own hand only
    for who in people[:8]:
        allowed = [_may_see(redis_client, gid, who, people, False) for gid in (x, y)]
        own = [seat for gid in (x, y) for seat in _seats(redis_client, gid, who)]
        assert len(own) == 1 and len(allowed[0] | allowed[1]) == 13
    _scan(api, redis_client, [x, y], callers, people)
    moves = 0
    while truth(redis_client, x)[0].status not in OVER:
        gid = x if rng.random() < 0.7 else y  # x ends first, y still playing
        ended = step(api, gid, people, rng)["status"] in OVER
        moves += 1
        if ended or moves % EVERY == 0:
            _scan(api, redis_client, [x, y], callers, people)
    assert truth(redis_client, y)[0].status == "active"
    # the seated players of x: its result but nothing of the deal, on every read
    for p in seated(api, x, people):
        view = api.view(x, p)
        assert view["result"] is not None and view["state"] is None
    while truth(redis_client, y)[0].status not in OVER:
        step(api, y, people, rng)
        moves += 1
        if moves % EVERY == 0:
            _scan(api, redis_client, [x, y], callers, people)
    _scan(api, redis_client, [x, y], callers, people)
    # and once the board is over, everything is public again
    for gid in (x, y):
        replay = api.get(f"/v1/games/{gid}/replay")
        assert replay.status == 200 and cards_in(replay.text) == DECK
        assert json.loads(replay.text)["revealed"] is not None


def test_a_seated_players_stream_ends_without_the_last_cards(api, app, players, redis_client):
    """A stream opened while its table is played, that sees the table end before its twin,
    ends with ``event: end`` and without the move that ended it nor the left-overs."""
    people = players.many(8)
    x, y = start_board(api, app, people)
    rng = random.Random(7)
    step(api, y, people, rng)
    while True:  # play x up to its last move
        record, state = truth(redis_client, x)
        seat = state.to_move()[0]
        last = rng.choice(state.legal_moves(seat))
        after = CONCERTO.from_dict(record.state)
        after.apply(seat, last)
        if after.is_over():
            break
        assert api.move(x, _holder(record, seat, people), last).status == 200
    mover = _holder(record, seat, people)
    reader = next(p for p in seated(api, x, people) if p is not mover)
    allowed = _may_see(redis_client, x, reader, people, board_over=False)
    stream = app.extensions["parlour"].feeds.open_stream(
        reader.token, x, heartbeat=5, max_seconds=30
    )
    assert api.move(x, mover, last).body["status"] == "finished"
    sent = "".join(stream)
    assert sent.endswith('event: end\ndata: {"status":"finished"}\n\n'), sent[-200:]
    assert "event: error" not in sent and f'"version":{record.version + 1}' not in sent
    assert cards_in(sent) <= allowed, sorted(cards_in(sent) - allowed)


def _holder(record, seat: int, people):
    return next(p for p in people if p.id == record.seats[seat]["player_id"])

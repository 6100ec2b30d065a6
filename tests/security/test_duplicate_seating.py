"""Nobody sits at two tables of one duplicate board, on ladders and in tournaments.

Every table of a duplicate board is dealt the same cards in the same seats. A
player seated at two of them would hold, at one, the hand its opponent holds
at the other, from the first move. So, for every board,
the sets of players at its tables are pairwise disjoint (docs/api.md#duplicate-boards,
docs/ladder.md): tournaments play a pairs event (every table of a round plays
the round's boards, each seating other entries), ladders play team boards
(two teams of two sides, each team's sides at different tables), and a ladder
without enough available players for a board plays an ordinary game.

Checked three ways: the tournament pairings for random entry counts and
results (pure); the ladder's matches for random entry counts, games and
passes (the scheduler against Redis); and, over the API, each player's own
views of every table of a board: before a card is played they show exactly
its own hand, and the board's other tables refuse it.
"""

from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.processes.scheduler import Runner
from server.store import ladders as ladder_store
from server.tournaments.formats import (
    Entry,
    Format,
    PlayedRound,
    TableResult,
    TournamentSnapshot,
    next_round,
    seat_players,
)
from tests.api.helpers import assert_error, cards_in
from tests.security.support import start_tournament

FAST = settings(max_examples=25, deadline=None)
SERVICE = settings(
    max_examples=6,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def _disjoint(tables: list[list[str]]) -> bool:
    seen: set[str] = set()
    for seats in tables:
        if seen & set(seats):
            return False
        seen |= set(seats)
    return True


# --------------------------------------------------------------------------- tournaments


@FAST
@given(n=st.integers(2, 9), boards=st.integers(1, 3), seed=st.integers(0, 10**6))
def test_no_player_sits_at_two_tables_of_a_tournament_board(n: int, boards: int, seed: int):
    rng = random.Random(seed)
    entries = tuple(Entry(f"E{i}", (f"n{i}", f"s{i}")) for i in range(n))
    snap = TournamentSnapshot(Format.DUPLICATE, entries, seats_per_entry=2, boards_per_match=boards)
    if n < 4:  # two tables of other entries need four: refused, never one entry twice
        try:
            next_round(snap)
        except ValueError as exc:
            assert "at least 4 entries" in str(exc)
            return
        raise AssertionError("a duplicate round of fewer than four entries was paired")
    played = 0
    while (rnd := next_round(snap, random.Random(len(snap.rounds)))) is not None:
        by_board: dict[int | None, list[list[str]]] = defaultdict(list)
        for table in rnd.tables:
            assert table.board is not None
            by_board[table.board].append(list(seat_players(snap, table)))
        for tables in by_board.values():
            assert len(tables) >= 2 and _disjoint(tables), tables
            played += 1
        results = tuple(TableResult((rng.randint(0, 9), rng.randint(0, 9))) for _ in rnd.tables)
        snap = replace(snap, rounds=(*snap.rounds, PlayedRound(rnd, results)))
    assert played > 0


# --------------------------------------------------------------------------- ladders


def _ladder(api, people, **settings) -> str:
    body = {"game": "concerto", "options": {"deals": 1}, "seen_seconds": 600} | settings
    reply = api.post("/v1/ladders", body, "admin")
    assert reply.status == 201, reply.body
    for p in people:
        assert api.post(f"/v1/ladders/{reply.body['id']}/entries", {}, p).status in (200, 201)
    return reply.body["id"]


def _seen(api, people) -> None:
    for p in people:  # a bot waiting for its turns is seen, and so may be matched
        assert api.get("/v1/me/turns", p).status == 200


@SERVICE
@given(
    game=st.sampled_from(["concerto", "cowpoke"]),
    n=st.integers(4, 13),
    seed=st.integers(0, 10**6),
)
def test_no_player_sits_at_two_tables_of_a_ladder_board(
    api, app, players, redis_client, game: str, n: int, seed: int
):
    """Concerto (sides of two) and two-player Cowpoke (sides of one player); a random
    subset seen each pass, over a few passes (entries busy in one game join the next)."""
    rng = random.Random(seed)
    extra = (
        {"table_size": 2, "duplicate": True, "options": {"hands": 1}} if game == "cowpoke" else {}
    )
    people = players.many(n)
    lid = _ladder(api, people, game=game, max_games=2, **extra)
    runner = Runner(app.extensions["parlour"])
    per_table = 4 if game == "concerto" else 2
    per_board = 2 * per_table
    _seen(api, people)
    runner.tick()  # all free: as many boards as they fill, then ordinary games
    kinds = sorted(len(m["tables"]) for m in ladder_store.all_matches(redis_client, lid).values())
    rest = n % per_board
    assert kinds == [1] * (rest // per_table) + [2] * (n // per_board)
    for _ in range(2):
        _seen(api, rng.sample(people, rng.randint(len(people) // 2, len(people))))
        runner.tick()
    matches = ladder_store.all_matches(redis_client, lid)
    assert matches
    for match in matches.values():
        tables = match["tables"]
        everyone = sorted(p for side in match["sides"] for p in side)
        assert sorted(p for seats in tables for p in seats) == everyone  # each seated once
        assert _disjoint(tables), tables
        assert len(tables) == 1 or len(everyone) == per_board


def test_a_ladder_without_enough_players_for_a_board_plays_ordinary_games(
    api, app, players, redis_client
):
    """Four to seven Concerto entries cannot fill a board's two tables with other players:
    each match is one ordinary game (a fresh deal, no twin), never the same four twice."""
    for n in (4, 7):
        people = players.many(n)
        lid = _ladder(api, people)
        _seen(api, people)
        Runner(app.extensions["parlour"]).tick()
        matches = ladder_store.all_matches(redis_client, lid)
        assert len(matches) == 1
        (match,) = matches.values()
        assert len(match["tables"]) == 1 and len(set(match["tables"][0])) == 4
        record = ladder_store.read(redis_client, lid)
        assert record is not None
        gid = record.games[ladder_store.slot(0, 0)]
        meta = api.view(gid, "admin")
        assert meta["status"] == "active"
        shown = api.get(f"/v1/games/{gid}")  # an ordinary game: any spectator may watch
        assert shown.status == 200 and cards_in(shown.text) == set()
        assert api.get(f"/v1/ladders/{lid}").body["duplicate"] is True


# --------------------------------------------------------------------------- over the API


def _own_views_only(api, boards: dict, people) -> None:
    """Before a card is played: each player's views of every table of every board show its
    own hand (one per board) and nothing else; the tables it is not at refuse it."""
    hands = {}
    for gid in (g for tables in boards.values() for g in tables):
        for seat in api.view(gid, "admin")["seats"]:
            who = next(p for p in people if p.id == seat["player_id"])
            hands[who.id, gid] = set(api.view(gid, who)["hand"])
    for who in people:
        mine: set[str] = set()
        for tables in boards.values():
            at = [gid for gid in tables if (who.id, gid) in hands]
            assert len(at) <= 1, (who.id, tables)  # nobody at two tables of a board
            for gid in tables:
                for tail in ("", "/events", "/replay"):
                    reply = api.get(f"/v1/games/{gid}{tail}", who)
                    if gid in at:
                        assert reply.status == 200
                        assert cards_in(reply.text) <= hands[who.id, gid]
                    else:
                        assert_error(reply, 403, "board_in_play")
                        assert cards_in(reply.text) == set()
            mine |= hands[who.id, at[0]] if at else set()
        turns = api.get("/v1/me/turns", who)
        assert turns.status == 200 and cards_in(turns.text) <= mine


def test_each_players_views_of_a_tournament_board_show_its_own_hand_only(api, app, players):
    for n, per_match in ((8, 1), (10, 2)):  # ten: five entries, a bye and two boards
        people = players.many(n)
        tid = start_tournament(api, people, boards_per_match=per_match)
        Runner(app.extensions["parlour"]).tick()
        boards: dict[int, list[str]] = defaultdict(list)
        for table in api.get(f"/v1/tournaments/{tid}").body["rounds"][0]["tables"]:
            boards[table["board"]].append(table["game_id"])
        assert len(boards) == per_match and all(len(t) == 2 for t in boards.values())
        _own_views_only(api, boards, people)


def test_each_players_views_of_a_ladder_board_show_its_own_hand_only(
    api, app, players, redis_client
):
    people = players.many(8)
    lid = _ladder(api, people)
    _seen(api, people)
    Runner(app.extensions["parlour"]).tick()
    record = ladder_store.read(redis_client, lid)
    assert record is not None and len(record.open) == 1
    (n, match), *_ = record.open.items()
    assert len(match["tables"]) == 2  # eight players: one duplicate board
    boards = {n: [record.games[ladder_store.slot(n, t)] for t in range(2)]}
    x, y = boards[n]
    assert api.view(x, "admin")["deal_commitment"] == api.view(y, "admin")["deal_commitment"]
    _own_views_only(api, boards, people)

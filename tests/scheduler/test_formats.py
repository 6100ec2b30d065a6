"""Formats (server/tournaments/formats/): next rounds, standings, rating events.

Standings below are worked by hand from the tie-break rules in
``formats.standings``' docstring, from results chosen so that each rule is
the one that decides.
"""

from __future__ import annotations

import doctest
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from server.tournaments import formats
from server.tournaments.formats import (
    Entry,
    Format,
    PlayedRound,
    RoundNotFinished,
    TableResult,
    TournamentSnapshot,
    next_round,
    rating_events,
    seat_players,
    standings,
)
from server.tournaments.pairing.tables import PairingError, Round, Table

PROPERTY = settings(max_examples=30, deadline=None)


# ----------------------------------------------------------------- in-memory snapshot builder


def snapshot(fmt: Format, ids: Sequence[str], seats: int = 1, **kw) -> TournamentSnapshot:
    """A fresh tournament; entry ``X`` is backed by players ``x0``, ``x1``…"""
    entries = tuple(Entry(e, tuple(f"{e.lower()}{j}" for j in range(seats))) for e in ids)
    return TournamentSnapshot(fmt, entries, seats_per_entry=seats, **kw)


def play(snap: TournamentSnapshot, *results: TableResult) -> TournamentSnapshot:
    """Pair the next round and record ``results`` for its tables, in order."""
    rnd = next_round(snap, random.Random(len(snap.rounds)))
    assert rnd is not None
    return replace(snap, rounds=(*snap.rounds, PlayedRound(rnd, tuple(results))))


def play_out(
    snap: TournamentSnapshot, result: Callable[[Table], TableResult], limit: int = 50
) -> TournamentSnapshot:
    """Play every round to the end with ``result`` deciding each table."""
    for _ in range(limit):
        rnd = next_round(snap, random.Random(len(snap.rounds)))
        if rnd is None:
            return snap
        results = tuple(result(t) for t in rnd.tables)
        snap = replace(snap, rounds=(*snap.rounds, PlayedRound(rnd, results)))
    raise AssertionError("tournament did not end")


def order(snap: TournamentSnapshot) -> list[str]:
    return [s.entry for s in standings(snap)]


def test_doctests() -> None:
    assert doctest.testmod(formats).failed == 0


# --------------------------------------------------------------------------- round robin


def test_round_robin_standings_head_to_head_before_difference() -> None:
    # Rounds (pairing.round_robin): A-D B-C | C-A D-B | A-B C-D.
    snap = snapshot(Format.ROUND_ROBIN, "ABCD")
    snap = play(snap, TableResult((100, 50), (0,)), TableResult((80, 80)))
    snap = play(snap, TableResult((120, 60), (0,)), TableResult((90, 30), (0,)))
    snap = play(snap, TableResult((70, 40), (0,)), TableResult((10, 110), (1,)))
    assert [t.entries for p in snap.rounds for t in p.round.tables] == [
        ("A", "D"),
        ("B", "C"),
        ("C", "A"),
        ("D", "B"),
        ("A", "B"),
        ("C", "D"),
    ]
    # A: W L W = 2 (diff +50 -60 +30 = 20); D: L W W = 2 (diff -50 +60 +100 = 110);
    # C: D W L = 1.5; B: D L L = 0.5. A beat D, so A is first despite D's difference.
    table = standings(snap)
    assert [(s.entry, s.points) for s in table] == [("A", 2), ("D", 2), ("C", 1.5), ("B", 0.5)]
    assert [s.head_to_head for s in table[:2]] == [1, 0]
    assert [s.score_difference for s in table[:2]] == [20, 110]
    assert [s.rank for s in table] == [1, 2, 3, 4]
    assert table[0].buchholz is None
    assert next_round(snap) is None  # one cycle is the default


def test_round_robin_circular_head_to_head_falls_to_difference() -> None:
    # Three entries: A-B (bye C), C-A (bye B), B-C (bye A). A>B, C>A, B>C.
    snap = snapshot(Format.ROUND_ROBIN, "ABC")
    snap = play(snap, TableResult((60, 50), (0,)))
    snap = play(snap, TableResult((80, 40), (0,)))
    snap = play(snap, TableResult((70, 50), (0,)))
    assert [p.round.byes for p in snap.rounds] == [("C",), ("B",), ("A",)]
    # Everyone: one win + one bye (½) = 1.5; head-to-head 1 each;
    # differences A +10 -40 = -30, B -10 +20 = +10, C +40 -20 = +20.
    table = standings(snap)
    assert [(s.entry, s.points, s.score_difference) for s in table] == [
        ("C", 1.5, 20),
        ("B", 1.5, 10),
        ("A", 1.5, -30),
    ]
    assert all(s.head_to_head == 1 and s.byes == 1 and s.played == 2 for s in table)


def test_next_round_waits_for_the_current_one() -> None:
    snap = snapshot(Format.ROUND_ROBIN, "ABCD")
    rnd = next_round(snap)
    assert rnd is not None
    half = replace(snap, rounds=(PlayedRound(rnd, (TableResult((1, 0), (0,)), None)),))
    with pytest.raises(RoundNotFinished):
        next_round(half)
    # the finished table already counts in the standings
    assert standings(half)[0].entry == rnd.tables[0].entries[0]


# --------------------------------------------------------------------------- swiss


def test_swiss_buchholz_by_hand() -> None:
    snap = snapshot(Format.SWISS, ["e1", "e2", "e3", "e4"], total_rounds=2)
    # Round 0 is the slide: e1-e3, e4-e2 (side 1 to the higher seed on table 1).
    snap = play(snap, TableResult((51, 50), (0,)), TableResult((90, 10), (0,)))
    assert [t.entries for t in snap.rounds[0].round.tables] == [("e1", "e3"), ("e4", "e2")]
    # e4 (1, +80) leads e1 (1, +1); e3 (0, -1) leads e2 (0, -80) — Buchholz ties at 1.
    assert order(snap) == ["e4", "e1", "e3", "e2"]
    # Round 1: e4-e1 (both played side 0; e4, higher, gets side 1), e3-e2 (e3 wants 0).
    snap = play(snap, TableResult((40, 50), (1,)), TableResult((60, 60)))
    assert [t.entries for t in snap.rounds[1].round.tables] == [("e1", "e4"), ("e3", "e2")]
    # Points: e4 2, e1 1, e2 ½, e3 ½. Buchholz e2 = e4 2 + e3 ½ = 2.5 beats
    # e3 = e1 1 + e2 ½ = 1.5, although e3's score difference (-1) is far better (-80).
    table = standings(snap)
    assert order(snap) == ["e4", "e1", "e2", "e3"]
    assert [s.buchholz for s in table] == [1.5, 2.5, 2.5, 1.5]
    assert [s.score_difference for s in table][2:] == [-80, -1]
    assert next_round(snap) is None


def test_swiss_bye_is_worth_a_point() -> None:
    snap = snapshot(Format.SWISS, "ABC", total_rounds=2)
    snap = play(snap, TableResult((10, 20), (1,)))
    assert snap.rounds[0].round.byes == ("C",)
    # B beat A; C had the bye: B 1, C 1 (bye), A 0.
    points = {s.entry: s.points for s in standings(snap)}
    assert points == {"A": 0, "B": 1, "C": 1}
    second = next_round(snap)
    assert second is not None and second.byes == ("A",)  # lowest without a bye


def test_default_swiss_length_is_log2() -> None:
    snap = snapshot(Format.SWISS, [f"e{i}" for i in range(9)])
    assert snap.planned_rounds() == 4


# --------------------------------------------------------------------------- knockout


def test_knockout_draw_sends_the_better_seed_through() -> None:
    snap = snapshot(Format.KNOCKOUT, ["s1", "s2", "s3"])
    # Bracket of 4: s1 has the bye; s2-s3 is drawn 50-50 -> s2 (better seed) goes on.
    snap = play(snap, TableResult((50, 50)))
    assert snap.rounds[0].round.byes == ("s1",)
    final = next_round(snap)
    assert final is not None and final.tables == (Table(("s2", "s1")),)
    snap = play(snap, TableResult((70, 30), (0,)))  # s2 beats s1
    assert next_round(snap) is None
    table = standings(snap)
    assert [(s.entry, s.eliminated_in) for s in table] == [("s2", None), ("s1", 1), ("s3", 0)]


@PROPERTY
@given(n=st.integers(2, 12), seed=st.integers(0, 10**6))
def test_knockout_champion_is_the_only_undefeated(n: int, seed: int) -> None:
    rng = random.Random(seed)
    snap = snapshot(Format.KNOCKOUT, [f"s{i}" for i in range(n)])

    def result(table: Table) -> TableResult:
        scores = (rng.randint(0, 3), rng.randint(0, 3))
        return TableResult(scores, () if scores[0] == scores[1] else (scores.index(max(scores)),))

    snap = play_out(snap, result)
    table = standings(snap)
    assert [s.eliminated_in for s in table].count(None) == 1
    assert table[0].eliminated_in is None


# --------------------------------------------------------------------------- duplicate


def test_duplicate_round_by_hand() -> None:
    """A pairs event: both tables of a round play its boards, with other entries; an entry
    is compared with the one that held the same cards at the other table."""
    snap = snapshot(Format.DUPLICATE, "ABCD", seats=2, boards_per_match=2)
    rnd = next_round(snap)
    assert rnd is not None
    assert rnd.tables == (
        Table(("A", "D", "A", "D"), 0),
        Table(("B", "C", "B", "C"), 0),
        Table(("A", "D", "A", "D"), 1),
        Table(("B", "C", "B", "C"), 1),
    )
    assert seat_players(snap, rnd.tables[1]) == ("b0", "c0", "b1", "c1")
    # Board 0: A (N-S) +80 against D; B (N-S, same cards) +30 against C: A +50 on B.
    # Board 1: A +80; B +140 with the same cards: B +60 on A.
    snap = play(
        snap,
        TableResult((120, 40), (0,)),
        TableResult((90, 60), (0,)),
        TableResult((100, 20), (0,)),
        TableResult((150, 10), (0,)),
    )
    # The round: N-S nets A 160, B 170 -> B beats A by 10, though A won both its tables;
    # E-W nets D -160, C -170 -> D beats C.
    table = standings(snap)
    assert [(s.entry, s.points, s.score_difference) for s in table] == [
        ("B", 1, 10),
        ("D", 1, 10),
        ("A", 0, -10),
        ("C", 0, -10),
    ]
    events = rating_events(snap)
    assert [(e.key, e.teams, e.ranks) for e in events] == [
        ("r0:b0:p0", (("a0", "a1"), ("b0", "b1")), (0, 1)),
        ("r0:b0:p1", (("d0", "d1"), ("c0", "c1")), (1, 0)),
        ("r0:b1:p0", (("a0", "a1"), ("b0", "b1")), (1, 0)),
        ("r0:b1:p1", (("d0", "d1"), ("c0", "c1")), (0, 1)),
    ]
    after = next_round(snap)
    assert after is not None and {t.board for t in after.tables} == {2, 3}


def test_duplicate_needs_two_tables_of_other_entries() -> None:
    with pytest.raises(PairingError, match="at least 4 entries"):
        next_round(snapshot(Format.DUPLICATE, "ABC", seats=2))


def test_duplicate_boards_are_rated_in_board_order_whatever_finishes_first() -> None:
    """Board 1 finishing before board 0 waits: the same players are at both boards,
    and rating updates do not commute, so the order must not be the finishing order."""
    snap = snapshot(Format.DUPLICATE, "ABCD", seats=2, boards_per_match=2)
    rnd = next_round(snap)
    assert rnd is not None
    b1_first = (None, None, TableResult((100, 20), (0,)), TableResult((150, 10), (0,)))
    snap_b1 = replace(snap, rounds=(PlayedRound(rnd, b1_first),))
    assert rating_events(snap_b1) == []
    both = (TableResult((120, 40), (0,)), TableResult((90, 60), (0,)), *b1_first[2:])
    snap_both = replace(snap, rounds=(PlayedRound(rnd, both),))
    assert [e.key for e in rating_events(snap_both)] == [
        "r0:b0:p0",
        "r0:b0:p1",
        "r0:b1:p0",
        "r0:b1:p1",
    ]


def test_half_played_duplicate_board_is_not_rated() -> None:
    snap = snapshot(Format.DUPLICATE, "ABCD", seats=2)
    rnd = next_round(snap)
    assert rnd is not None
    snap = replace(snap, rounds=(PlayedRound(rnd, (TableResult((5, 1), (0,)), None)),))
    assert rating_events(snap) == []
    assert all(s.played == 0 for s in standings(snap))


@PROPERTY
@given(n=st.integers(4, 9), boards=st.integers(1, 3), seed=st.integers(0, 10**6))
def test_duplicate_round_robin_properties(n: int, boards: int, seed: int) -> None:
    rng = random.Random(seed)
    ids = [f"E{i}" for i in range(n)]
    snap = snapshot(Format.DUPLICATE, ids, seats=2, boards_per_match=boards)
    snap = play_out(snap, lambda t: TableResult((rng.randint(0, 9), rng.randint(0, 9))))
    all_boards: Counter[int] = Counter()
    matches: Counter[frozenset[str]] = Counter()
    for played in snap.rounds:
        by_board: dict[int | None, list[Table]] = {}
        for t in played.round.tables:
            by_board.setdefault(t.board, []).append(t)
        pairings = {frozenset(t.entries) for t in played.round.tables}
        for board, group in by_board.items():  # every pairing of the round plays the board
            assert board is not None and len(group) == len(pairings) >= 2
            seated = [e for t in group for e in t.entries]
            assert len(seated) == len(set(seated))  # nobody at two tables of a board ...
            players = [p for t in group for p in seat_players(snap, t)]
            assert len(players) == len(set(players))  # ... nor any of its players
            all_boards[board] += 1
        for pair in pairings:
            matches[pair] += 1
        seated = [e for pair in pairings for e in pair]
        assert sorted(seated + list(played.round.byes)) == sorted(ids)
    assert set(all_boards.values()) == {1}  # a board number is never reused
    assert len(matches) == n * (n - 1) // 2 and set(matches.values()) == {1}
    # zero-sum within each direction, and every board is rated once per direction
    assert sum(s.score_difference for s in standings(snap)) == pytest.approx(0)
    assert len(rating_events(snap)) == 2 * len(all_boards)


# --------------------------------------------------------------------------- the rest


@PROPERTY
@given(
    fmt=st.sampled_from([Format.ROUND_ROBIN, Format.SWISS]),
    n=st.integers(2, 9),
    table=st.integers(2, 4),
    seed=st.integers(0, 10**6),
)
def test_any_tournament_runs_to_the_end(fmt: Format, n: int, table: int, seed: int) -> None:
    if n < table:
        return
    rng = random.Random(seed)
    snap = snapshot(fmt, [f"e{i}" for i in range(n)], table_size=table)
    snap = play_out(
        snap,
        lambda t: TableResult(tuple(rng.randint(0, 5) for _ in t.entries)),
    )
    assert len(snap.rounds) == snap.planned_rounds()
    for played in snap.rounds:
        seated = [e for t in played.round.tables for e in t.entries]
        assert sorted(seated + list(played.round.byes)) == sorted(snap.entry_ids)
    table_ = standings(snap)
    assert sorted(s.entry for s in table_) == sorted(snap.entry_ids)
    assert [s.rank for s in table_] == list(range(1, n + 1))
    points = [s.points for s in table_]
    assert points == sorted(points, reverse=True)
    assert len(rating_events(snap)) == sum(len(p.round.tables) for p in snap.rounds)


def test_next_round_is_deterministic_for_a_seed() -> None:
    snap = snapshot(Format.SWISS, [f"e{i}" for i in range(10)], table_size=4, min_table_size=3)
    first = next_round(snap, random.Random(7))
    assert first == next_round(snap, random.Random(7))
    assert Round.from_dict(first.to_dict()) == first


def test_table_result_from_outcome_maps_seats_to_positions() -> None:
    table = Table(("B", "A", "B", "A"), 0)
    result = TableResult.from_outcome(table, [30, 110, 30, 110], [1, 3])
    assert result == TableResult((30, 110), (1,))
    assert result.ranks() == (1, 0)
    assert TableResult.from_dict(result.to_dict()) == result
    with pytest.raises(PairingError):
        TableResult.from_outcome(table, [1, 2], [])


def test_bigger_tables_score_by_place() -> None:
    # Seconds-like: the winner need not have the highest score; others by score.
    snap = snapshot(Format.ROUND_ROBIN, "ABCD", table_size=4)
    rnd = next_round(snap)
    assert rnd is not None and len(rnd.tables) == 1
    seats = rnd.tables[0].entries
    scores = {"A": 10, "B": 30, "C": 20, "D": 5}
    result = TableResult(tuple(scores[e] for e in seats), (seats.index("C"),))
    snap = replace(snap, rounds=(PlayedRound(rnd, (result,)),))
    # C first (3 below it: 1), B (2 below: 2/3), A (1/3), D (0).
    table = standings(snap)
    assert [s.entry for s in table] == ["C", "B", "A", "D"]
    assert [s.points for s in table] == pytest.approx([1, 2 / 3, 1 / 3, 0])


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        (
            {"format": Format.ROUND_ROBIN, "entries": (Entry("A", ("a",)), Entry("A", ("b",)))},
            "distinct",
        ),
        ({"format": Format.ROUND_ROBIN, "entries": (Entry("A", ("a", "b")),)}, "2 players"),
        ({"format": Format.KNOCKOUT, "entries": (), "table_size": 4}, "two entries"),
        ({"format": "nonsense", "entries": ()}, "nonsense"),
    ],
)
def test_bad_snapshot(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        TournamentSnapshot(**kwargs)

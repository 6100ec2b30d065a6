"""Pairing algorithms (server/tournaments/pairing/): hand-worked rounds and properties.

The exact rounds below were worked out on paper from the rules in the
docstrings (circle method with Berger colouring; the swiss priorities; the
standard bracket), not copied from the implementation's output.
"""

from __future__ import annotations

import doctest
import itertools
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from server.tournaments.pairing import duplicate as duplicate_module
from server.tournaments.pairing import knockout as knockout_module
from server.tournaments.pairing import round_robin as round_robin_module
from server.tournaments.pairing import seating
from server.tournaments.pairing import swiss as swiss_module
from server.tournaments.pairing import tables as tables_module
from server.tournaments.pairing.duplicate import board_tables, disjoint, team_board
from server.tournaments.pairing.knockout import knockout
from server.tournaments.pairing.round_robin import round_robin, round_robin_cycle
from server.tournaments.pairing.swiss import swiss
from server.tournaments.pairing.tables import PairingError, Round, Table, table_sizes

PROPERTY = settings(max_examples=30, deadline=None)


def pairs(rnd: Round) -> list[tuple[str, ...]]:
    return [t.entries for t in rnd.tables]


def met_pairs(rounds: list[Round]) -> Counter[frozenset[str]]:
    return Counter(
        frozenset(p) for r in rounds for t in r.tables for p in itertools.combinations(t.entries, 2)
    )


def assert_seated_once(rnd: Round, entries: list[str]) -> None:
    """Every entry at exactly one table or in the byes, never both, never twice."""
    seen = [e for t in rnd.tables for e in t.entries] + list(rnd.byes)
    assert sorted(seen) == sorted(entries)


def assert_byes_spread(rnd: Round, before: Counter[str], entries: list[str]) -> None:
    """Nobody sits out again before everybody has sat out as often: an entry
    gets a bye only if every entry with fewer byes so far gets one too."""
    for e in rnd.byes:
        assert all(x in rnd.byes for x in entries if before[x] < before[e])


@pytest.mark.parametrize(
    "module",
    [tables_module, seating, round_robin_module, swiss_module, knockout_module, duplicate_module],
    ids=lambda m: m.__name__.rsplit(".", 1)[-1],
)
def test_doctests(module) -> None:
    assert doctest.testmod(module).failed == 0


# --------------------------------------------------------------------------- round robin


def test_round_robin_four_entries_by_hand() -> None:
    # Circle: A fixed, B C D rotate one place per round; rows A|B vs D|C.
    # Fixed pair alternates sides; the second row (odd) gives side 0 to the top.
    entries = ["A", "B", "C", "D"]
    assert [pairs(round_robin(entries, r)) for r in range(3)] == [
        [("A", "D"), ("B", "C")],
        [("C", "A"), ("D", "B")],
        [("A", "B"), ("C", "D")],
    ]
    assert all(not round_robin(entries, r).byes for r in range(3))
    assert round_robin_cycle(4) == 3


def test_round_robin_five_entries_by_hand() -> None:
    # A phantom is fixed; whoever faces it has the bye: E, D, C, B, A in turn.
    entries = ["A", "B", "C", "D", "E"]
    expected = [
        ([("A", "D"), ("C", "B")], ("E",)),
        ([("E", "C"), ("B", "A")], ("D",)),
        ([("D", "B"), ("A", "E")], ("C",)),
        ([("C", "A"), ("E", "D")], ("B",)),
        ([("B", "E"), ("D", "C")], ("A",)),
    ]
    got = [round_robin(entries, r) for r in range(5)]
    assert [(pairs(r), r.byes) for r in got] == expected
    assert [r.index for r in got] == [0, 1, 2, 3, 4]
    assert round_robin_cycle(5) == 5


def test_round_robin_second_cycle_swaps_sides() -> None:
    entries = ["A", "B", "C", "D"]
    for r in range(3):
        first, second = round_robin(entries, r), round_robin(entries, r + 3)
        assert pairs(second) == [t[::-1] for t in pairs(first)]


def test_concerto_sides_hold_seats_0_2_and_1_3() -> None:
    table = round_robin(["NS", "EW"], 0, seats_per_entry=2).tables[0]
    assert table.seats == ("NS", "EW", "NS", "EW")
    assert table.seats_of("NS") == (0, 2) and table.seats_of("EW") == (1, 3)
    assert Table.from_dict(table.to_dict()) == table


def test_round_dict_round_trip() -> None:
    rnd = round_robin(["A", "B", "C"], 1)
    assert Round.from_dict(rnd.to_dict()) == rnd
    assert rnd.to_dict()["byes"] == ["B"]


def test_table_sizes() -> None:
    assert table_sizes(10, 4, 3) == [4, 3, 3]
    assert table_sizes(10, 4) == [4, 4]
    assert table_sizes(7, 5, 2) == [4, 3]
    assert table_sizes(4, 4) == [4]
    with pytest.raises(PairingError):
        table_sizes(3, 4)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: round_robin(["A", "A", "B"], 0), "distinct"),
        (lambda: round_robin(["A"], 0), "cannot fill"),
        (lambda: round_robin(["A", "B"], 0, 6), "table_size"),
        (lambda: round_robin(["A", "B", "C"], 0, 3, min_table_size=1), "min_table_size"),
        (lambda: round_robin(["A", "B"], -1), "round_index"),
        (lambda: swiss([("A", 0.0)], [], 2), "cannot fill"),
        (lambda: knockout(["A"]), "at least 2"),
        (lambda: board_tables([["A", "B"]], [0]), "at least 4 entries"),
        (lambda: board_tables([["A", "B", "C"], ["D", "E"]], [0]), "2 entries"),
        (lambda: board_tables([["A", "B"], ["A", "C"]], [0]), "distinct"),
        (lambda: board_tables([["A", "B"], ["C", "D"]], []), "distinct boards"),
        (lambda: board_tables([["A", "B"], ["C", "D"]], [1, 1]), "distinct boards"),
        (lambda: team_board(["A", "B"], ["B", "C"], 0), "distinct"),
    ],
)
def test_bad_input_is_a_pairing_error(call, message: str) -> None:
    with pytest.raises(PairingError, match=message):
        call()


def test_round_robin_tables_of_four_cover_eight_entries_in_three_rounds() -> None:
    # 3 rounds is the minimum: each entry meets 3 others per round and must meet 7.
    entries = [f"e{i}" for i in range(8)]
    rounds = [round_robin(entries, r, 4) for r in range(round_robin_cycle(8, 4))]
    assert len(rounds) == 3
    assert len(met_pairs(rounds)) == 28


@PROPERTY
@given(n=st.integers(2, 12), seats=st.sampled_from([1, 2]))
def test_round_robin_pairs_properties(n: int, seats: int) -> None:
    entries = [f"e{i}" for i in range(n)]
    cycle = round_robin_cycle(n)
    rounds = [round_robin(entries, r, seats_per_entry=seats) for r in range(cycle)]
    for rnd in rounds:
        assert_seated_once(rnd, entries)
        assert all(len(t.seats) == 2 * seats for t in rnd.tables)
    # every pair exactly once over the cycle
    met = met_pairs(rounds)
    assert len(met) == n * (n - 1) // 2 and set(met.values()) == {1}
    # one bye each when odd, none when even
    assert Counter(e for r in rounds for e in r.byes) == Counter(entries if n % 2 else [])
    # sides alternate: every entry on side 0 in half its games (±1) ...
    sides = {
        e: [t.position_of(e) for r in rounds for t in r.tables if e in t.entries] for e in entries
    }
    for history in sides.values():
        assert abs(history.count(0) - history.count(1)) <= 1
    # ... with the fewest possible repeats (Berger tables: n - 2 for even n)
    if n % 2 == 0:
        repeats = sum(a == b for h in sides.values() for a, b in itertools.pairwise(h))
        assert repeats == n - 2


@PROPERTY
@given(n=st.integers(3, 13), table=st.integers(3, 5), shrink=st.integers(0, 3))
def test_round_robin_bigger_tables_properties(n: int, table: int, shrink: int) -> None:
    low = max(2, table - shrink)
    if n < low:
        return
    entries = [f"e{i}" for i in range(n)]
    cycle = round_robin_cycle(n, table, min_table_size=low)
    rounds = [round_robin(entries, r, table, min_table_size=low) for r in range(cycle)]
    byes: Counter[str] = Counter()
    for rnd in rounds:
        assert_seated_once(rnd, entries)
        assert sorted(len(t.seats) for t in rnd.tables) == sorted(table_sizes(n, table, low))
        assert_byes_spread(rnd, byes, entries)
        byes.update(rnd.byes)
    # the cycle ends exactly when every pair has met
    assert len(met_pairs(rounds)) == n * (n - 1) // 2
    assert len(met_pairs(rounds[:-1])) < n * (n - 1) // 2
    # and it is not wildly longer than a lower bound: every entry must meet
    # n - 1 others, and every pair must be seated in some round
    sizes = table_sizes(n, table, low)
    per_round = sum(s * (s - 1) // 2 for s in sizes)
    bound = max(-(-(n - 1) // (max(sizes) - 1)), -(-(n * (n - 1) // 2) // per_round))
    assert cycle <= 2 * bound + 1


def test_round_robin_positions_rotate_at_bigger_tables() -> None:
    # Four entries at one table of four: over four rounds each holds every seat once.
    entries = ["A", "B", "C", "D"]
    rounds = [round_robin(entries, r, 4) for r in range(4)]
    for e in entries:
        assert sorted(r.tables[0].position_of(e) for r in rounds) == [0, 1, 2, 3]


# --------------------------------------------------------------------------- swiss


def standings_of(*groups: tuple[float, list[str]]) -> list[tuple[str, float]]:
    return [(e, pts) for pts, members in groups for e in members]


EIGHT = [f"e{i}" for i in range(1, 9)]


def test_swiss_round_one_is_the_slide() -> None:
    # One score group of 8: 1v5 2v6 3v7 4v8; no side preferences yet, so the
    # higher seed takes side 0 on tables 0 and 2 and side 1 on tables 1 and 3.
    rnd = swiss(standings_of((0, EIGHT)), [], 2)
    assert pairs(rnd) == [("e1", "e5"), ("e6", "e2"), ("e3", "e7"), ("e8", "e4")]
    assert rnd.index == 0 and rnd.byes == ()


def test_swiss_eight_entries_round_two_by_hand() -> None:
    first = Round(
        0, tuple(Table(p) for p in [("e1", "e5"), ("e6", "e2"), ("e3", "e7"), ("e8", "e4")])
    )
    # winners e1, e6, e3, e8; the caller's standings order breaks ties.
    order = standings_of((1, ["e1", "e3", "e6", "e8"]), (0, ["e2", "e4", "e5", "e7"]))
    rnd = swiss(order, [first], 2)
    # Slide in each group: e1-e6, e3-e8, e2-e5, e4-e7 (no rematch among them).
    # Sides: e1 & e6 both played side 0 -> both want 1 -> e1 (higher) gets it;
    # e3 & e8 likewise; e2 & e5 both played side 1 -> e2 gets side 0; e4 & e7 too.
    assert pairs(rnd) == [("e6", "e1"), ("e8", "e3"), ("e2", "e5"), ("e4", "e7")]
    assert rnd.index == 1


def test_swiss_floats_and_avoids_rematch_by_hand() -> None:
    # Round 0: A-D, C-F, E-B; A, C, E won. Groups: {A, C, E} at 1, {B, D, F} at 0.
    first = Round(0, (Table(("A", "D")), Table(("C", "F")), Table(("E", "B"))))
    order = standings_of((1, ["A", "C", "E"]), (0, ["B", "D", "F"]))
    rnd = swiss(order, [first], 2)
    # The odd group floats its lowest, E; E-B would be a rematch, so E meets D
    # (next best of the lower group) rather than changing the floater; A-C; B-F.
    assert sorted(map(frozenset, pairs(rnd))) == sorted(
        map(frozenset, [("A", "C"), ("E", "D"), ("B", "F")])
    )


def test_swiss_bye_goes_to_the_lowest_without_one() -> None:
    five = ["A", "B", "C", "D", "E"]
    rnd = swiss(standings_of((0, five)), [], 2)
    assert rnd.byes == ("E",)
    assert sorted(map(frozenset, pairs(rnd))) == sorted(map(frozenset, [("A", "C"), ("B", "D")]))
    # E won nothing but had the bye; now E is last again: the bye passes to D.
    order = standings_of((1, ["A", "B"]), (0, ["C", "D", "E"]))
    second = swiss(order, [rnd], 2)
    assert second.byes == ("D",)


def _rematch_free_pairing_exists(entries: list[str], met: Counter, eligible: set[str]) -> bool:
    """Brute force: is there a pairing (with one eligible bye if odd) without a rematch?"""

    def search(rest: list[str], bye_used: bool) -> bool:
        if not rest:
            return True
        first, others = rest[0], rest[1:]
        if not bye_used and len(rest) % 2 == 1 and first in eligible and search(others, True):
            return True
        return any(
            met[frozenset((first, o))] == 0 and search([x for x in others if x != o], bye_used)
            for o in others
        )

    return search(entries, len(entries) % 2 == 0)


def _random_scores(rnd: Round, rng: random.Random, points: Counter) -> None:
    for t in rnd.tables:
        a, b = t.entries
        outcome = rng.choice([1.0, 0.5, 0.0])
        points[a] += outcome
        points[b] += 1 - outcome
    for e in rnd.byes:
        points[e] += 1


@PROPERTY
@given(n=st.integers(2, 10), seed=st.integers(0, 10**6))
def test_swiss_pairs_properties(n: int, seed: int) -> None:
    rng = random.Random(seed)
    entries = [f"e{i}" for i in range(n)]
    points: Counter[str] = Counter()
    history: list[Round] = []
    byes: Counter[str] = Counter()
    for _ in range(min(n + 1, 7)):
        order = sorted(entries, key=lambda e: (-points[e], rng.random()))
        met = met_pairs(history)
        low = min(byes[e] for e in entries)
        eligible = {e for e in entries if byes[e] == low}
        rnd = swiss([(e, points[e]) for e in order], history, 2, rng)
        assert rnd.index == len(history)
        assert_seated_once(rnd, entries)
        assert len(rnd.byes) == n % 2
        for e in rnd.byes:  # byes spread
            assert e in eligible
        if _rematch_free_pairing_exists(order, met, eligible):
            assert all(met[frozenset(p)] == 0 for p in pairs(rnd)), "avoidable rematch"
        byes.update(rnd.byes)
        _random_scores(rnd, rng, points)
        history.append(rnd)


@PROPERTY
@given(n=st.integers(3, 13), table=st.integers(3, 5), seed=st.integers(0, 10**6))
def test_swiss_bigger_tables_properties(n: int, table: int, seed: int) -> None:
    if n < table:
        return
    rng = random.Random(seed)
    entries = [f"e{i}" for i in range(n)]
    points: Counter[str] = Counter()
    history: list[Round] = []
    byes: Counter[str] = Counter()
    for _ in range(4):
        order = sorted(entries, key=lambda e: (-points[e], rng.random()))
        rnd = swiss([(e, points[e]) for e in order], history, table, rng)
        assert_seated_once(rnd, entries)
        assert all(len(t.seats) == table for t in rnd.tables)
        assert_byes_spread(rnd, byes, entries)
        byes.update(rnd.byes)
        for t in rnd.tables:
            winner = rng.choice(t.entries)
            points[winner] += 1
        history.append(rnd)


def test_swiss_tables_of_four_split_previous_tables() -> None:
    # After {1,2,3,4} and {5,6,7,8}, no round-2 table of four can avoid rematches;
    # the fewest is two from each old table at each new table (2 repeats per table).
    first = Round(0, (Table(("e1", "e2", "e3", "e4")), Table(("e5", "e6", "e7", "e8"))))
    order = standings_of((1, ["e1", "e5"]), (0, ["e2", "e3", "e4", "e6", "e7", "e8"]))
    rnd = swiss(order, [first], 4, random.Random(1))
    for t in rnd.tables:
        assert len(set(t.entries) & {"e1", "e2", "e3", "e4"}) == 2
    # the two leaders share the top table
    assert {"e1", "e5"} <= set(rnd.tables[0].entries)


def test_swiss_is_deterministic() -> None:
    order = standings_of((0, EIGHT))
    assert swiss(order, [], 2) == swiss(order, [], 2)
    assert swiss(order, [], 4, random.Random(3)) == swiss(order, [], 4, random.Random(3))


# --------------------------------------------------------------------------- knockout


SIX = [f"s{i}" for i in range(1, 7)]


def test_knockout_six_entries_by_hand() -> None:
    # Bracket of 8: 1-8, 4-5, 2-7, 3-6; seeds 7 and 8 are missing -> s1, s2 have byes.
    first = knockout(SIX)
    assert first == Round(0, (Table(("s4", "s5")), Table(("s3", "s6"))), ("s1", "s2"))
    # s5 and s3 win. Round 1 (odd): the higher seed takes side 1.
    second = knockout(SIX, [{"s5", "s3"}])
    assert second == Round(1, (Table(("s5", "s1")), Table(("s3", "s2"))), ())
    final = knockout(SIX, [{"s5", "s3"}, {"s1", "s3"}])
    assert final == Round(2, (Table(("s1", "s3")),), ())
    assert knockout(SIX, [{"s5", "s3"}, {"s1", "s3"}, {"s3"}]) is None


def test_knockout_rejects_inconsistent_winners() -> None:
    with pytest.raises(PairingError, match="exactly one winner"):
        knockout(SIX, [{"s4", "s5", "s3"}])
    with pytest.raises(PairingError, match="exactly one winner"):
        knockout(SIX, [{"s3"}])


@PROPERTY
@given(n=st.integers(2, 20), seed=st.integers(0, 10**6))
def test_knockout_properties(n: int, seed: int) -> None:
    rng = random.Random(seed)
    seeds = [f"s{i}" for i in range(n)]
    winners: list[set[str]] = []
    lost: set[str] = set()
    while (rnd := knockout(seeds, winners)) is not None:
        seated = [e for t in rnd.tables for e in t.entries] + list(rnd.byes)
        assert len(seated) == len(set(seated))  # at most once per round
        assert not set(seated) & lost  # the beaten never come back
        won = {rng.choice(t.entries) for t in rnd.tables}
        lost |= {e for t in rnd.tables for e in t.entries} - won
        winners.append(won)
    assert len(winners) == (n - 1).bit_length()  # ceil(log2 n) rounds
    assert len(set(seeds) - lost) == 1  # the winner is the only undefeated
    assert len(lost) == n - 1


# --------------------------------------------------------------------------- duplicate


def test_duplicate_two_boards_by_hand() -> None:
    tables = board_tables([["A", "B"], ["C", "D"]], [3, 4])
    assert tables == (
        Table(("A", "B", "A", "B"), 3),
        Table(("C", "D", "C", "D"), 3),
        Table(("A", "B", "A", "B"), 4),
        Table(("C", "D", "C", "D"), 4),
    )
    assert team_board(["A", "B"], ["C", "D"], 5, seats_per_entry=2) == (
        Table(("A", "C", "A", "C"), 5),
        Table(("D", "B", "D", "B"), 5),
    )


@PROPERTY
@given(
    boards=st.lists(st.integers(0, 100), min_size=1, max_size=6, unique=True),
    seats=st.integers(1, 3),
    n=st.integers(4, 9),
)
def test_duplicate_every_board_at_every_table_nobody_twice(
    boards: list[int], seats: int, n: int
) -> None:
    pairings = [[f"e{i}", f"e{i + 1}"] for i in range(0, n - 1, 2)]
    tables = board_tables(pairings, boards, seats_per_entry=seats)
    by_board: dict[int | None, list[Table]] = {}
    for t in tables:
        by_board.setdefault(t.board, []).append(t)
    assert sorted(by_board) == sorted(boards)  # type: ignore[type-var]
    for group in by_board.values():
        # every pairing plays the board once, and no entry sits at two of its tables
        assert [list(t.entries) for t in group] == pairings and disjoint(group)
        assert all(len(t.seats) == 2 * seats for t in group)

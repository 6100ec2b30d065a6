"""Round robin: the circle method for pairs, a balanced greedy schedule for tables of 3-5.

A round robin of four entries, first round:

>>> round_robin(["A", "B", "C", "D"], 0)
Round(index=0, tables=(Table(seats=('A', 'D')), Table(seats=('B', 'C'))), byes=())
>>> round_robin(["A", "B"], 0, seats_per_entry=2).tables[0].seats   # Concerto: 0&2 vs 1&3
('A', 'B', 'A', 'B')
"""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Mapping, Sequence

from .seating import TableCost, rematch_table_cost, seat_tables
from .tables import (
    EntryId,
    PairingError,
    Round,
    Table,
    check_entries,
    check_geometry,
    meetings,
    table_sizes,
)

RR_RESTARTS = 12


def new_pair_table_cost(met: Mapping[frozenset[EntryId], int]) -> TableCost:
    """Round-robin tables of 3-5, priority 1: seat pairs that have not met yet.

    Counts the pairs at the table that have met before, so each round seats
    as many new pairs as the swaps can find and the cycle (every pair met at
    least once) is short. Put first because a cycle that covers every pair
    sometimes needs a pair to meet a third time: eight entries at tables of
    four cover all 28 pairs in three rounds only if four pairs meet thrice.
    """

    def cost(table: Sequence[EntryId], bench: bool) -> int:
        if bench:
            return 0
        return sum(1 for a, b in itertools.combinations(table, 2) if met.get(frozenset((a, b))))

    return cost


def round_robin_cycle(n: int, table_size: int = 2, *, min_table_size: int | None = None) -> int:
    """How many rounds one full round robin of ``n`` entries takes.

    Pairs (``table_size == 2``): ``n - 1`` rounds for even ``n``, ``n`` for odd
    ``n`` (everyone sits out once). Tables of 3-5: the rounds the balanced
    schedule of :func:`round_robin` needs until every pair has met at least once.

    >>> round_robin_cycle(4), round_robin_cycle(5)
    (3, 5)

    Raises:
        PairingError: bad geometry, or fewer entries than one table needs.
    """
    table_sizes(n, table_size, min_table_size)  # validates
    if table_size == 2:
        return n - 1 if n % 2 == 0 else n
    low = table_size if min_table_size is None else min_table_size
    return _rr_many_cycle(n, table_size, low)


def round_robin(
    entries: Sequence[EntryId],
    round_index: int,
    table_size: int = 2,
    *,
    min_table_size: int | None = None,
    seats_per_entry: int = 1,
) -> Round:
    """Round ``round_index`` (0-based) of a round robin of ``entries``.

    **Pairs** (``table_size == 2``) use the circle method: the first entry is
    fixed and the others rotate one place per round; with an odd count a
    phantom is fixed instead and whoever meets it has the bye. Over one cycle
    (:func:`round_robin_cycle`) every pair meets exactly once. Sides
    alternate: the fixed entry swaps sides every round, and the other pairs,
    listed top row against bottom row, give side 0 to the top entry on odd
    rows and to the bottom entry on even rows. That is the classic
    Berger-table colouring: every entry is on side 0 in half its games (±1)
    with the minimum possible number of repeats (``n - 2`` over the cycle).
    Round ``round_index`` beyond one cycle repeats the cycle with the sides
    swapped on every other cycle (a double round robin).

    **Tables of 3-5** (Seconds, Cowpoke) cannot in general be a perfect design
    (that is the social-golfer problem), so each round is built greedily from
    the rounds before it: byes go to the entries with the fewest byes
    (rotating); the rest are chunked into tables, from the rotating order and
    from a few fixed-seed shuffles, and improved by swapping entries between
    tables under, in order, :func:`new_pair_table_cost` (seat as many pairs
    that have not met yet as possible) and :func:`rematch_table_cost` (among
    those, spread the repeats evenly). The cycle ends when every pair has
    met at least once (:func:`round_robin_cycle`). Positions at each table
    are chosen so that every entry holds each seat as evenly as possible.
    Deterministic: round ``r`` depends only on the entries and ``r``.

    Args:
        entries: distinct entry ids, in seed order.
        round_index: 0-based round.
        table_size: entries per table (2 for Concerto's two sides).
        min_table_size: smallest table allowed (default ``table_size``: full
            tables only, others get byes).
        seats_per_entry: seats each entry holds (2 for Concerto).

    Returns:
        The round, with explicit byes.

    Raises:
        PairingError: duplicate entries, bad geometry, too few entries, or a
            negative round index.
    """
    check_entries(entries)
    low = check_geometry(table_size, min_table_size, seats_per_entry)
    n = len(entries)
    table_sizes(n, table_size, low)
    if round_index < 0:
        raise PairingError(f"round_index must be >= 0, not {round_index}")
    tables: Sequence[tuple[int, ...]]
    byes: Sequence[int]
    if table_size == 2:
        tables, byes = _circle_round(n, round_index)
    else:
        tables, byes = _rr_many_schedule(n, table_size, low, round_index + 1)[round_index]
    return Round(
        round_index,
        tuple(Table.of([entries[i] for i in t], seats_per_entry) for t in tables),
        tuple(entries[i] for i in byes),
    )


def _circle_round(n: int, round_index: int) -> tuple[list[tuple[int, int]], list[int]]:
    """The circle method over indices 0..n-1 (−1 is the phantom for odd n)."""
    players = list(range(n)) if n % 2 == 0 else [-1, *range(n)]
    m = len(players)
    cycle, r = divmod(round_index, m - 1)
    fixed, rest = players[0], players[1:]
    k = r % (m - 1)
    rotated = rest[-k:] + rest[:-k] if k else rest
    row = [fixed, *rotated]
    tables: list[tuple[int, int]] = []
    byes: list[int] = []
    for i in range(m // 2):
        top, bottom = row[i], row[m - 1 - i]
        if i == 0:
            pair = (top, bottom) if r % 2 == 0 else (bottom, top)
        else:
            pair = (top, bottom) if i % 2 == 1 else (bottom, top)
        if cycle % 2 == 1:
            pair = pair[::-1]
        if -1 in pair:
            byes.append(pair[0] if pair[1] == -1 else pair[1])
        else:
            tables.append(pair)
    return tables, byes


@functools.lru_cache(maxsize=64)
def _rr_many_schedule(
    n: int, table_size: int, low: int, count: int
) -> tuple[tuple[list[tuple[int, ...]], list[int]], ...]:
    """The first ``count`` rounds of the balanced schedule over indices 0..n-1."""
    if count == 0:
        return ()
    before = _rr_many_schedule(n, table_size, low, count - 1)
    labels = [str(i) for i in range(n)]
    history = [
        Round(
            r,
            tuple(Table(tuple(labels[i] for i in t)) for t in tables),
            tuple(labels[i] for i in b),
        )
        for r, (tables, b) in enumerate(before)
    ]
    shift = (count - 1) * (n - sum(table_sizes(n, table_size, low))) if n else 0
    order = [labels[(i + shift) % n] for i in range(n)]
    met = meetings(history)
    rng = random.Random(f"round-robin:{n}:{table_size}:{low}:{count}")
    starts = [rng.sample(order, n) for _ in range(RR_RESTARTS)]
    tables, byes = seat_tables(
        order,
        history,
        table_size,
        low,
        lambda w: (new_pair_table_cost(met), rematch_table_cost(met, w)),
        starts,
    )
    new = ([tuple(int(e) for e in t) for t in tables], [int(e) for e in byes])
    return (*before, new)


@functools.lru_cache(maxsize=64)
def _rr_many_cycle(n: int, table_size: int, low: int) -> int:
    all_pairs = n * (n - 1) // 2
    limit = 4 * n  # far above what the swaps need; a safety bound, not a rule
    for count in range(1, limit + 1):
        schedule = _rr_many_schedule(n, table_size, low, count)
        met = {
            frozenset(p)
            for tables, _ in schedule
            for t in tables
            for p in itertools.combinations(t, 2)
        }
        if len(met) == all_pairs:
            return count
    return limit

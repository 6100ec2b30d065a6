"""Seating entries at tables of 3-5 (or mixed sizes): chunk, then improve by swaps.

Shared by the round robin and the swiss: each passes its own priorities as
:data:`TableCost` functions, highest first, and :func:`seat_tables` returns
the tables (each ordered so positions stay balanced) and the byes.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence

from .tables import EntryId, Round, bye_counts, position_counts, table_sizes


def _balanced_positions(
    group: Sequence[EntryId], held: Counter[tuple[EntryId, int]]
) -> tuple[EntryId, ...]:
    """Order a table of 3-5 entries so each entry gets the positions it held least.

    Minimises the total count of "already held this position" over all
    orderings (at most 5! = 120), then prefers the ordering closest to
    ``group``'s own order, so the result is deterministic.
    """

    def key(perm: tuple[EntryId, ...]) -> tuple[int, list[int]]:
        return sum(held[e, p] for p, e in enumerate(perm)), [group.index(e) for e in perm]

    return min(itertools.permutations(group), key=key)


TableCost = Callable[[Sequence[EntryId], bool], int]
"""A priority for tables of 3-5: the cost of one group of entries seated together,
or (second argument True) of the group sitting out this round (the byes)."""


def _group_cost(costs: Sequence[TableCost], group: Sequence[EntryId], bench: bool) -> list[int]:
    return [cost(group, bench) for cost in costs]


def _improve_by_swaps(
    groups: list[list[EntryId]],
    costs: Sequence[TableCost],
    may_bench: Callable[[EntryId, EntryId], bool],
) -> None:
    """Local search: swap two entries of different groups while that lowers the cost.

    ``groups`` are the tables followed by the bench (the byes, last). The cost
    is the tuple of ``costs`` summed over the two groups involved, compared
    lexicographically; a swap with the bench also needs ``may_bench(seated,
    benched)`` (bye fairness). First improvement in a fixed scan order, so
    the result is deterministic. Ends at a local optimum (no single swap is
    better): exact optimisation of tables of 3-5 is the social-golfer problem
    and not worth its cost here.
    """
    bench = len(groups) - 1

    def cost(i: int, group: Sequence[EntryId]) -> list[int]:
        return _group_cost(costs, group, i == bench)

    for _ in range(100):  # bound; real inputs settle in a handful of passes
        improved = False
        for i, j in itertools.combinations(range(len(groups)), 2):
            for a, b in itertools.product(range(len(groups[i])), range(len(groups[j]))):
                gi, gj = groups[i], groups[j]
                if j == bench and not may_bench(gi[a], gj[b]):
                    continue
                before = [x + y for x, y in zip(cost(i, gi), cost(j, gj), strict=True)]
                ni = gi[:a] + [gj[b]] + gi[a + 1 :]
                nj = gj[:b] + [gi[a]] + gj[b + 1 :]
                after = [x + y for x, y in zip(cost(i, ni), cost(j, nj), strict=True)]
                if after < before:
                    groups[i], groups[j] = ni, nj
                    improved = True
        if not improved:
            return


def rematch_table_cost(met: Mapping[frozenset[EntryId], int], weight: int) -> TableCost:
    """Tables of 3-5, swiss priority 1 and round-robin priority 2: spread repeats.

    A pair that has met ``m`` times before costs ``weight ** (m - 1)`` (nothing
    for a first meeting). With ``weight`` above the number of pairs seated in
    a round, one third meeting outweighs any number of second meetings, so
    meetings are spread as evenly as the search can before any pair meets
    again: "each entry meets the others as evenly as possible".
    """

    def cost(table: Sequence[EntryId], bench: bool) -> int:
        if bench:
            return 0
        total = 0
        for a, b in itertools.combinations(table, 2):
            m = met.get(frozenset((a, b)), 0)
            if m:
                total += weight ** (m - 1)
        return total

    return cost


def _pick_byes(
    order: Sequence[EntryId], count: int, byes_so_far: Mapping[EntryId, int]
) -> list[EntryId]:
    """The ``count`` entries to sit out: fewest byes so far first, then latest in ``order``.

    Bye fairness: nobody gets a second bye before everybody has had one.
    """
    ranked = sorted(range(len(order)), key=lambda i: (byes_so_far.get(order[i], 0), -i))
    return [order[i] for i in ranked[:count]]


def seat_tables(
    order: Sequence[EntryId],
    history: Sequence[Round],
    table_size: int,
    min_table_size: int,
    costs_for: Callable[[int], Sequence[TableCost]],
    starts: Iterable[Sequence[EntryId]] = (),
) -> tuple[list[tuple[EntryId, ...]], list[EntryId]]:
    """Seat ``order`` at tables of 3-5 (or mixed sizes); return (tables, byes).

    Byes start with :func:`_pick_byes`; the rest is chunked in ``order`` into
    tables (which is exactly "group by score, roll the odd members down"
    when ``order`` is the standings). :func:`_improve_by_swaps` then improves
    tables and byes together under ``costs_for(pairs_per_round + 1)``,
    exchanging a seated entry with a benched one only when both have had
    the same number of byes, so bye fairness is never traded. ``starts`` are
    further initial orders to search from (restarts); the best result wins.
    Each table is finally ordered by :func:`_balanced_positions`.
    """
    sizes = table_sizes(len(order), table_size, min_table_size)
    byes_so_far = bye_counts(history)
    byes = _pick_byes(order, len(order) - sum(sizes), byes_so_far)
    pairs = sum(s * (s - 1) // 2 for s in sizes)
    costs = costs_for(pairs + 1)

    def may_bench(seated: EntryId, benched: EntryId) -> bool:
        return byes_so_far.get(seated, 0) == byes_so_far.get(benched, 0)

    best: tuple[list[int], list[list[EntryId]]] | None = None
    for start in itertools.chain([order], starts):
        start = [e for e in start if e not in byes]
        groups, i = [], 0
        for size in sizes:
            groups.append(list(start[i : i + size]))
            i += size
        groups.append(list(byes))
        _improve_by_swaps(groups, costs, may_bench)
        cost = [0] * len(costs)
        for g, group in enumerate(groups):
            bench = g == len(groups) - 1
            cost = [x + y for x, y in zip(cost, _group_cost(costs, group, bench), strict=True)]
        if best is None or cost < best[0]:
            best = (cost, groups)
    assert best is not None
    *tables, chosen_byes = best[1]
    held = position_counts(history)
    index = {e: i for i, e in enumerate(order)}
    tables = [sorted(t, key=index.__getitem__) for t in tables]
    tables.sort(key=lambda t: index[t[0]])
    byes_out = sorted(chosen_byes, key=index.__getitem__)
    return [_balanced_positions(t, held) for t in tables], byes_out

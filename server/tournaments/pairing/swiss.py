"""Swiss: an exact min-cost matching for pairs, a swap search for tables of 3-5.

The priorities are named cost functions, highest first: :data:`SWISS_PAIR_COSTS`
for pairs and the ``*_table_cost`` functions (with
:func:`~.seating.rematch_table_cost`) for tables of 3-5. Bye fairness
(:func:`may_have_bye`) is a hard rule above all of them.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from .seating import TableCost, rematch_table_cost, seat_tables
from .tables import (
    EntryId,
    PairingError,
    Round,
    Table,
    bye_counts,
    check_entries,
    check_geometry,
    meetings,
    table_sizes,
)


@dataclass(frozen=True)
class SwissContext:
    """What the swiss cost functions look at, computed once per round.

    ``rank``: index in the standings (0 = leader). ``group``: index of the
    entry's score group (0 = top score). ``position``/``group_size``: place
    inside its score group and that group's size. ``met``: earlier meetings
    per pair. ``n``: entries to pair.
    """

    rank: Mapping[EntryId, int]
    group: Mapping[EntryId, int]
    position: Mapping[EntryId, int]
    group_size: Mapping[int, int]
    met: Mapping[frozenset[EntryId], int]
    n: int


PairCost = Callable[[SwissContext, EntryId, "EntryId | None"], int]
"""A swiss priority: cost of pairing ``a`` with ``b`` (``b is None``: ``a`` gets the bye)."""


def rematch_cost(ctx: SwissContext, a: EntryId, b: EntryId | None) -> int:
    """Priority 1: no rematch while avoidable.

    The number of earlier meetings of the pair. As the first priority, a
    pairing with no rematch is always chosen when one exists (the matching is
    exact), and otherwise the fewest rematches.
    """
    return 0 if b is None else ctx.met.get(frozenset((a, b)), 0)


def bye_cost(ctx: SwissContext, a: EntryId, b: EntryId | None) -> int:
    """Priority 2: the bye goes to the lowest-ranked entry that may have it.

    Counts the entries ranked below ``a`` (only for the bye). Who *may* have
    the bye is a hard rule, not a cost: see :func:`may_have_bye`.
    """
    return ctx.n - 1 - ctx.rank[a] if b is None else 0


def score_gap_cost(ctx: SwissContext, a: EntryId, b: EntryId | None) -> int:
    """Priority 3: pair equal scores (the Swiss idea).

    Squared distance between the two entries' score groups, so two floats of
    one group are preferred to one float across two groups.
    """
    return 0 if b is None else (ctx.group[a] - ctx.group[b]) ** 2


def float_cost(ctx: SwissContext, a: EntryId, b: EntryId | None) -> int:
    """Priority 4: when a group is odd, its lowest member floats to the next group's top.

    Zero inside a group. Across groups (``a`` the higher): ``a``'s distance
    from the bottom of its group, weighted by ``n`` so that choosing the right
    floater comes first, plus ``b``'s distance from the top of its group (the
    Dutch system's "downfloater meets the highest of the next bracket").
    """
    if b is None or ctx.group[a] == ctx.group[b]:
        return 0
    if ctx.group[a] > ctx.group[b]:
        a, b = b, a
    from_bottom = ctx.group_size[ctx.group[a]] - 1 - ctx.position[a]
    return from_bottom * ctx.n + ctx.position[b]


def fold_cost(ctx: SwissContext, a: EntryId, b: EntryId | None) -> int:
    """Priority 5: inside a score group, the top half meets the bottom half in order.

    The Dutch "slide": in a group of ``s`` the ideal opponent of the ``i``-th
    is the ``(i + s//2)``-th; the cost is the squared distance from that
    ideal. Zero across groups (that is :func:`float_cost`'s business).
    """
    if b is None or ctx.group[a] != ctx.group[b]:
        return 0
    gap = abs(ctx.position[a] - ctx.position[b])
    return (gap - ctx.group_size[ctx.group[a]] // 2) ** 2


SWISS_PAIR_COSTS: tuple[PairCost, ...] = (
    rematch_cost,
    bye_cost,
    score_gap_cost,
    float_cost,
    fold_cost,
)
"""The swiss priorities for pairs, highest first, compared lexicographically."""


def may_have_bye(
    byes_so_far: Mapping[EntryId, int], entry: EntryId, field: Iterable[EntryId]
) -> bool:
    """Bye fairness (a hard rule, above every cost): nobody gets a second bye
    before everybody has had one — only entries with the fewest byes qualify."""
    return byes_so_far.get(entry, 0) == min(byes_so_far.get(e, 0) for e in field)


def score_spread_table_cost(group_of: Mapping[EntryId, int]) -> TableCost:
    """Swiss tables of 3-5, priority 3: seat equal scores together.

    The sum over pairs at the table of the squared distance between their
    score groups (0 = top score group). Squared, so two one-group floats are
    preferred to a single two-group float.
    """

    def cost(table: Sequence[EntryId], bench: bool) -> int:
        if bench:
            return 0
        return sum((group_of[a] - group_of[b]) ** 2 for a, b in itertools.combinations(table, 2))

    return cost


def rank_spread_table_cost(rank_of: Mapping[EntryId, int]) -> TableCost:
    """Swiss tables of 3-5, priority 4: keep neighbours in the standings together.

    Sum of squared rank distances at the table, so the top table holds the
    leaders (the Swiss idea) once rematches and score groups are settled.
    """

    def cost(table: Sequence[EntryId], bench: bool) -> int:
        if bench:
            return 0
        return sum((rank_of[a] - rank_of[b]) ** 2 for a, b in itertools.combinations(table, 2))

    return cost


def bye_rank_table_cost(rank_of: Mapping[EntryId, int]) -> TableCost:
    """Swiss tables of 3-5, priority 2: the byes go to the lowest-ranked.

    For the bench only: the sum of the benched entries' distances from the
    bottom of the standings. (Which entries *may* sit out is fixed by bye
    fairness before any cost is looked at.)
    """
    last = len(rank_of) - 1

    def cost(group: Sequence[EntryId], bench: bool) -> int:
        return sum(last - rank_of[e] for e in group) if bench else 0

    return cost


def swiss(
    standings: Sequence[tuple[EntryId, float]],
    history: Sequence[Round],
    table_size: int = 2,
    rng: random.Random | None = None,
    *,
    min_table_size: int | None = None,
    seats_per_entry: int = 1,
) -> Round:
    """The next swiss round (index ``len(history)``).

    **Pairs** are an exact minimum-cost perfect matching (networkx's blossom
    algorithm) over the entries, plus a bye node when the count is odd. Edge
    costs are :data:`SWISS_PAIR_COSTS` combined lexicographically into one
    integer, so the result is the best pairing under, in order: no rematch
    while avoidable; the bye to the lowest-ranked eligible entry; equal
    scores; the odd member of a group floats to the next; top half meets
    bottom half inside a group. Bye fairness (:func:`may_have_bye`) is a hard
    rule above all of these. Sides: each entry prefers the side it has
    played less, then the side it did not play last; when both want the same
    side the higher-ranked entry gets it; with no preference at all the
    higher-ranked entry takes side 0 on even tables (0, 2, …) and side 1 on
    odd ones.

    **Tables of 3-5**: "group by score, roll odd members down" is chunking
    the standings order into tables; that start (and a few restarts drawn
    from ``rng``, shuffling entries inside their score group) is improved by
    swaps under :func:`rematch_table_cost`, :func:`bye_rank_table_cost`,
    :func:`score_spread_table_cost` and :func:`rank_spread_table_cost`, in
    that order. Byes: fewest byes so far (a hard rule), then as the costs
    say. Positions: as in :func:`.round_robin.round_robin`.

    Args:
        standings: ``(entry, points)`` best first — the order is the ranking
            (ties already broken by the caller, see ``server.tournaments.formats.standings``).
        history: the rounds played so far, in order.
        table_size: entries per table.
        rng: only used for the restarts of tables of 3-5; pairs are
            deterministic. Defaults to ``random.Random(len(history))``.
        min_table_size: as in :func:`.round_robin.round_robin`.
        seats_per_entry: as in :func:`.round_robin.round_robin`.

    Raises:
        PairingError: duplicate entries, bad geometry, too few entries, or an
            entry of ``history`` missing from ``standings``.
    """
    entries = [e for e, _ in standings]
    check_entries(entries)
    low = check_geometry(table_size, min_table_size, seats_per_entry)
    table_sizes(len(entries), table_size, low)
    known = set(entries)
    for rnd in history:
        unknown = (set(rnd.seated) | set(rnd.byes)) - known
        if unknown:
            raise PairingError(
                f"round {rnd.index} has entries not in the standings: {sorted(unknown)}"
            )
    index = len(history)
    if table_size == 2:
        pairs, byes = _swiss_pairs(standings, history)
        return Round(index, tuple(Table.of(p, seats_per_entry) for p in pairs), tuple(byes))
    rng = rng if rng is not None else random.Random(index)
    groups, byes = _swiss_groups(standings, history, table_size, low, rng)
    return Round(index, tuple(Table.of(g, seats_per_entry) for g in groups), tuple(byes))


def _swiss_groups(
    standings: Sequence[tuple[EntryId, float]],
    history: Sequence[Round],
    table_size: int,
    min_table_size: int,
    rng: random.Random,
) -> tuple[list[tuple[EntryId, ...]], list[EntryId]]:
    """Tables of 3-5: the standings chunked into tables, plus restarts shuffled inside
    score groups, improved by :func:`~.seating.seat_tables` under the swiss table costs."""
    entries = [e for e, _ in standings]
    points = dict(standings)
    score_values = sorted(set(points.values()), reverse=True)
    group_of = {e: score_values.index(points[e]) for e in entries}
    rank_of = {e: i for i, e in enumerate(entries)}
    met = meetings(history)

    def restart() -> list[EntryId]:
        out: list[EntryId] = []
        for _, members in itertools.groupby(entries, key=group_of.__getitem__):
            block = list(members)
            rng.shuffle(block)
            out.extend(block)
        return out

    return seat_tables(
        entries,
        history,
        table_size,
        min_table_size,
        lambda w: (
            rematch_table_cost(met, w),
            bye_rank_table_cost(rank_of),
            score_spread_table_cost(group_of),
            rank_spread_table_cost(rank_of),
        ),
        starts=[restart() for _ in range(3)],
    )


def _lexicographic_weights(costs: list[tuple[int, ...]], edges_per_matching: int) -> list[int]:
    """Fold cost tuples into integers that order every matching lexicographically.

    Component ``i`` is multiplied by the largest possible total of all later
    components plus one, so no sum of lower priorities can outweigh a single
    unit of a higher one.
    """
    width = len(costs[0]) if costs else 0
    scale = [1] * width
    for i in range(width - 2, -1, -1):
        top = max(c[i + 1] for c in costs)
        scale[i] = scale[i + 1] * (top * edges_per_matching + 1)
    return [sum(c * s for c, s in zip(cost, scale, strict=True)) for cost in costs]


def _swiss_pairs(
    standings: Sequence[tuple[EntryId, float]], history: Sequence[Round]
) -> tuple[list[tuple[EntryId, EntryId]], list[EntryId]]:
    entries = [e for e, _ in standings]
    n = len(entries)
    points = dict(standings)
    score_values = sorted(set(points.values()), reverse=True)
    group = {e: score_values.index(points[e]) for e in entries}
    position: dict[EntryId, int] = {}
    group_size: Counter[int] = Counter()
    for e in entries:  # standings order, so positions follow the ranking
        position[e] = group_size[group[e]]
        group_size[group[e]] += 1
    ctx = SwissContext(
        rank={e: i for i, e in enumerate(entries)},
        group=group,
        position=position,
        group_size=group_size,
        met=meetings(history),
        n=n,
    )
    byes_so_far = bye_counts(history)

    edges: list[tuple[EntryId, EntryId | None]] = list(itertools.combinations(entries, 2))
    if n % 2:
        edges += [(e, None) for e in entries if may_have_bye(byes_so_far, e, entries)]
    costs = [tuple(f(ctx, a, b) for f in SWISS_PAIR_COSTS) for a, b in edges]
    weights = _lexicographic_weights(costs, (n + 1) // 2)
    top = max(weights, default=0) + 1

    import networkx as nx  # here, not at the top: every server process imports this module,
    # and networkx costs each a fifth of a CPU-second to import; few ever pair a round

    bye_node: Hashable = ("bye",)  # never an EntryId: entries are strings
    graph = nx.Graph()
    for (a, b), w in zip(edges, weights, strict=True):
        graph.add_edge(a, bye_node if b is None else b, weight=top - w)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matching) != n + n % 2:  # cannot happen on a complete graph; be loud if it does
        raise PairingError("no complete pairing exists")

    byes: list[EntryId] = []
    pairs: list[tuple[EntryId, EntryId]] = []
    for u, v in matching:
        if bye_node in (u, v):
            byes.append(v if u == bye_node else u)
        else:
            a, b = sorted((u, v), key=ctx.rank.__getitem__)
            pairs.append((a, b))
    pairs.sort(key=lambda p: ctx.rank[p[0]])
    return [_allocate_sides(a, b, i, history) for i, (a, b) in enumerate(pairs)], byes


def _side_preference(entry: EntryId, history: Sequence[Round]) -> int | None:
    """0 or 1: the side the entry should play next, or None if it has no preference."""
    played = [t.position_of(entry) for r in history for t in r.tables if entry in t.entries]
    if not played:
        return None
    zeros, ones = played.count(0), played.count(1)
    if zeros != ones:
        return 0 if zeros < ones else 1
    return 1 - played[-1]


def _allocate_sides(
    high: EntryId, low: EntryId, table_index: int, history: Sequence[Round]
) -> tuple[EntryId, EntryId]:
    """Order a pair by side (position 0 first); ``high`` is the higher-ranked."""
    ph, pl = _side_preference(high, history), _side_preference(low, history)
    if ph is None and pl is None:
        return (high, low) if table_index % 2 == 0 else (low, high)
    if ph is None:
        return (high, low) if pl == 1 else (low, high)
    return (high, low) if ph == 0 else (low, high)

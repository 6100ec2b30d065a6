"""Pairing algorithms: pure functions from entries (and results so far) to tables.

No I/O, no clock, no global randomness: everything an algorithm needs comes in
as plain data, and the same input gives the same round, so two schedulers that
race to pair a round compute the same thing (STYLE.md §G).

Vocabulary:

* An **entry** is an opaque id (``EntryId``): one player in individual games,
  one side in partnership games (the players behind it are :mod:`formats`'
  business).
* A :class:`Table` is one game: which entry sits in which seat. An entry at
  table *position* ``p`` (of ``k`` positions) holds seats ``p, p + k, p + 2k…``,
  so in Concerto (``k = 2``, two seats each) position 0 is North–South (seats 0
  and 2) and position 1 is East–West (seats 1 and 3); in individual games the
  position is the seat.
* A :class:`Round` is explicit data: its index, its tables and its byes. A bye
  is a field of the round, never a magic entry at a table.

The formats (``round_robin``, ``swiss``, ``knockout``, ``duplicate``) are
described in their functions. Where a choice among many pairings is needed,
the priorities are named cost functions in priority order, combined
lexicographically — a higher priority is never traded for any amount of a
lower one: :data:`SWISS_PAIR_COSTS` for pairs, and the ``*_table_cost``
functions for tables of 3-5.

A round robin of four entries, first round (the circle method):

>>> round_robin(["A", "B", "C", "D"], 0)
Round(index=0, tables=(Table(seats=('A', 'D')), Table(seats=('B', 'C'))), byes=())
>>> round_robin(["A", "B"], 0, seats_per_entry=2).tables[0].seats   # Concerto: 0&2 vs 1&3
('A', 'B', 'A', 'B')
"""

from __future__ import annotations

import functools
import itertools
import random
from collections import Counter
from collections.abc import Callable, Collection, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import networkx as nx

EntryId = str
"""An entry's id. Plain strings, so rounds serialise as they are."""

MIN_TABLE_SIZE = 2
MAX_TABLE_SIZE = 5
RR_RESTARTS = 12


class PairingError(ValueError):
    """A round cannot be paired from this input (too few entries, bad results…).

    The message says what is wrong in terms of the input, never "internal error".
    """


# --------------------------------------------------------------------------- data


@dataclass(frozen=True, slots=True)
class Table:
    """One game of a round: the entry in each seat, and the board if duplicate.

    ``seats[s]`` is the entry holding seat ``s``. ``board`` names the preset deal
    of a duplicate board (see :func:`duplicate`); ``None`` means a fresh deal.
    """

    seats: tuple[EntryId, ...]
    board: int | None = None

    @classmethod
    def of(
        cls, entries: Sequence[EntryId], seats_per_entry: int = 1, board: int | None = None
    ) -> Table:
        """Seat ``entries`` by position: position ``p`` of ``k`` holds seats ``p, p+k, …``.

        Args:
            entries: the entries in position order (position 0 first).
            seats_per_entry: seats each entry holds (2 for Concerto's sides).
            board: the duplicate board, if any.

        >>> Table.of(["N-S", "E-W"], seats_per_entry=2).seats
        ('N-S', 'E-W', 'N-S', 'E-W')
        """
        k = len(entries)
        return cls(tuple(entries[s % k] for s in range(k * seats_per_entry)), board)

    @property
    def entries(self) -> tuple[EntryId, ...]:
        """The entries in position order (position ``p`` holds seat ``p`` first)."""
        return tuple(dict.fromkeys(self.seats))

    def position_of(self, entry: EntryId) -> int:
        """The entry's position at this table (0 = holds seat 0). Raises ValueError."""
        return self.entries.index(entry)

    def seats_of(self, entry: EntryId) -> tuple[int, ...]:
        """Every seat the entry holds, ascending."""
        return tuple(s for s, e in enumerate(self.seats) if e == entry)

    def to_dict(self) -> dict[str, Any]:
        return {"seats": list(self.seats), "board": self.board}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Table:
        return cls(tuple(d["seats"]), d.get("board"))

    def __repr__(self) -> str:
        board = "" if self.board is None else f", board={self.board}"
        return f"Table(seats={self.seats!r}{board})"


@dataclass(frozen=True, slots=True)
class Round:
    """One round: its index (0-based, explicit), its tables and its byes.

    An entry sits at most at one table per round; an entry of the tournament
    that is at no table is in ``byes`` (explicitly, not inferred). Exception:
    a duplicate round seats each entry at two tables per board (:func:`duplicate`).
    """

    index: int
    tables: tuple[Table, ...]
    byes: tuple[EntryId, ...] = ()

    @property
    def seated(self) -> tuple[EntryId, ...]:
        """Every entry at some table, in table order, each once."""
        return tuple(dict.fromkeys(e for t in self.tables for e in t.entries))

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "tables": [t.to_dict() for t in self.tables],
            "byes": list(self.byes),
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Round:
        return cls(d["index"], tuple(map(Table.from_dict, d["tables"])), tuple(d["byes"]))


# --------------------------------------------------------------------------- checks


def _check_entries(entries: Sequence[EntryId]) -> None:
    if len(set(entries)) != len(entries):
        dupes = sorted(e for e, n in Counter(entries).items() if n > 1)
        raise PairingError(f"entries must be distinct; repeated: {dupes}")


def _check_geometry(table_size: int, min_table_size: int | None, seats_per_entry: int) -> int:
    """Validate the table shape and return the effective minimum table size."""
    if not MIN_TABLE_SIZE <= table_size <= MAX_TABLE_SIZE:
        raise PairingError(
            f"table_size must be {MIN_TABLE_SIZE}..{MAX_TABLE_SIZE} entries, not {table_size}"
        )
    low = table_size if min_table_size is None else min_table_size
    if not MIN_TABLE_SIZE <= low <= table_size:
        raise PairingError(f"min_table_size must be {MIN_TABLE_SIZE}..{table_size}, not {low}")
    if seats_per_entry < 1:
        raise PairingError(f"seats_per_entry must be at least 1, not {seats_per_entry}")
    return low


def table_sizes(n: int, table_size: int, min_table_size: int | None = None) -> list[int]:
    """How many entries sit at each table when ``n`` entries are to be seated.

    The fewest tables of at most ``table_size``; their sizes differ by at most
    one, and none is below ``min_table_size`` (default: ``table_size``, i.e.
    full tables only). Entries that cannot be seated get byes: ``n - sum(...)``.

    >>> table_sizes(10, 4, 3)     # Cowpoke-like: 4 + 3 + 3, nobody sits out
    [4, 3, 3]
    >>> table_sizes(10, 4)        # Seconds: full tables only, two byes
    [4, 4]
    >>> table_sizes(5, 2)
    [2, 2]

    Raises:
        PairingError: bad geometry, or too few entries for even one table.
    """
    low = _check_geometry(table_size, min_table_size, 1)
    if n < low:
        raise PairingError(f"{n} entries cannot fill a table of at least {low}")
    count = -(-n // table_size)
    if n // count >= low:
        return [n // count + (1 if i < n % count else 0) for i in range(count)]
    return [table_size] * (n // table_size)


# ------------------------------------------------------------ shared table building


def _meetings(history: Iterable[Round]) -> Counter[frozenset[EntryId]]:
    """How often each pair of entries sat at the same table (duplicate boards count once)."""
    met: Counter[frozenset[EntryId]] = Counter()
    for rnd in history:
        seen: set[frozenset[EntryId]] = set()
        for table in rnd.tables:
            for a, b in itertools.combinations(table.entries, 2):
                pair = frozenset((a, b))
                if table.board is None or pair not in seen:
                    met[pair] += 1
                    seen.add(pair)
    return met


def _bye_counts(history: Iterable[Round]) -> Counter[EntryId]:
    return Counter(e for rnd in history for e in rnd.byes)


def _position_counts(history: Iterable[Round]) -> Counter[tuple[EntryId, int]]:
    """How often each entry held each table position (0 = seat 0) so far."""
    counts: Counter[tuple[EntryId, int]] = Counter()
    for rnd in history:
        for table in rnd.tables:
            for p, e in enumerate(table.entries):
                counts[e, p] += 1
    return counts


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


def _pick_byes(
    order: Sequence[EntryId], count: int, byes_so_far: Mapping[EntryId, int]
) -> list[EntryId]:
    """The ``count`` entries to sit out: fewest byes so far first, then latest in ``order``.

    Bye fairness: nobody gets a second bye before everybody has had one.
    """
    ranked = sorted(range(len(order)), key=lambda i: (byes_so_far.get(order[i], 0), -i))
    return [order[i] for i in ranked[:count]]


def _tables_of_many(
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
    byes_so_far = _bye_counts(history)
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
    held = _position_counts(history)
    index = {e: i for i, e in enumerate(order)}
    tables = [sorted(t, key=index.__getitem__) for t in tables]
    tables.sort(key=lambda t: index[t[0]])
    byes_out = sorted(chosen_byes, key=index.__getitem__)
    return [_balanced_positions(t, held) for t in tables], byes_out


# --------------------------------------------------------------------------- round robin


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
    _check_entries(entries)
    low = _check_geometry(table_size, min_table_size, seats_per_entry)
    n = len(entries)
    table_sizes(n, table_size, low)
    if round_index < 0:
        raise PairingError(f"round_index must be >= 0, not {round_index}")
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
    met = _meetings(history)
    rng = random.Random(f"round-robin:{n}:{table_size}:{low}:{count}")
    starts = [rng.sample(order, n) for _ in range(RR_RESTARTS)]
    tables, byes = _tables_of_many(
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


# --------------------------------------------------------------------------- swiss


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
    say. Positions: as in :func:`round_robin`.

    Args:
        standings: ``(entry, points)`` best first — the order is the ranking
            (ties already broken by the caller, see ``formats.standings``).
        history: the rounds played so far, in order.
        table_size: entries per table.
        rng: only used for the restarts of tables of 3-5; pairs are
            deterministic. Defaults to ``random.Random(len(history))``.
        min_table_size: as in :func:`round_robin`.
        seats_per_entry: as in :func:`round_robin`.

    Raises:
        PairingError: duplicate entries, bad geometry, too few entries, or an
            entry of ``history`` missing from ``standings``.
    """
    entries = [e for e, _ in standings]
    _check_entries(entries)
    low = _check_geometry(table_size, min_table_size, seats_per_entry)
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
        tables = tuple(Table.of(p, seats_per_entry) for p in pairs)
        return Round(index, tables, tuple(byes))

    rng = rng if rng is not None else random.Random(index)
    points = dict(standings)
    score_values = sorted(set(points.values()), reverse=True)
    group_of = {e: score_values.index(points[e]) for e in entries}
    rank_of = {e: i for i, e in enumerate(entries)}
    met = _meetings(history)

    def restart() -> list[EntryId]:
        out: list[EntryId] = []
        for _, members in itertools.groupby(entries, key=group_of.__getitem__):
            block = list(members)
            rng.shuffle(block)
            out.extend(block)
        return out

    tables, byes = _tables_of_many(
        entries,
        history,
        table_size,
        low,
        lambda w: (
            rematch_table_cost(met, w),
            bye_rank_table_cost(rank_of),
            score_spread_table_cost(group_of),
            rank_spread_table_cost(rank_of),
        ),
        starts=[restart() for _ in range(3)],
    )
    return Round(index, tuple(Table.of(t, seats_per_entry) for t in tables), tuple(byes))


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
        met=_meetings(history),
        n=n,
    )
    byes_so_far = _bye_counts(history)

    edges: list[tuple[EntryId, EntryId | None]] = list(itertools.combinations(entries, 2))
    if n % 2:
        edges += [(e, None) for e in entries if may_have_bye(byes_so_far, e, entries)]
    costs = [tuple(f(ctx, a, b) for f in SWISS_PAIR_COSTS) for a, b in edges]
    weights = _lexicographic_weights(costs, (n + 1) // 2)
    top = max(weights, default=0) + 1

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


# --------------------------------------------------------------------------- knockout


def bracket_order(size: int) -> list[int]:
    """Seed numbers (1-based) in bracket order, so seeds 1 and 2 can only meet in the final.

    >>> bracket_order(8)
    [1, 8, 4, 5, 2, 7, 3, 6]
    """
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [s for seed in order for s in (seed, total - seed)]
    return order


def knockout(
    seeds: Sequence[EntryId],
    winners: Sequence[Collection[EntryId]] = (),
    *,
    seats_per_entry: int = 1,
) -> Round | None:
    """The next round of a seeded single-elimination bracket, or None when it is decided.

    The bracket has the next power of two ``P`` slots, filled in
    :func:`bracket_order`; the ``P - n`` missing seeds are byes, which
    therefore go to the top seeds in round 0 (seed 1 first). Round ``r``
    pairs neighbouring survivors of round ``r - 1``. Sides: the higher seed
    takes side 0 in even rounds and side 1 in odd ones, so the favourites
    alternate.

    Args:
        seeds: distinct entries, best seed first.
        winners: for each round played so far, the entries that won their
            table (byes advance by themselves and need not be listed).
        seats_per_entry: as in :func:`round_robin`.

    Returns:
        Round ``len(winners)``, or None once one entry is left (the champion).

    Raises:
        PairingError: fewer than two entries, duplicates, or a played table
            with no winner, or with both its entries listed as winners.
    """
    _check_entries(seeds)
    _check_geometry(2, None, seats_per_entry)
    n = len(seeds)
    if n < 2:
        raise PairingError(f"a knockout needs at least 2 entries, not {n}")
    size = 1
    while size < n:
        size *= 2
    slots: list[EntryId | None] = [seeds[s - 1] if s <= n else None for s in bracket_order(size)]
    seed_of = {e: i for i, e in enumerate(seeds)}
    for r, won in enumerate(winners):
        survivors: list[EntryId | None] = []
        for a, b in zip(slots[::2], slots[1::2], strict=True):
            if a is None or b is None:
                survivors.append(a if b is None else b)
                continue
            through = [e for e in (a, b) if e in won]
            if len(through) != 1:
                raise PairingError(
                    f"round {r}: the table {a} v {b} needs exactly one winner, got {through}"
                )
            survivors.append(through[0])
        slots = survivors
    if len(slots) == 1:
        return None
    index = len(winners)
    tables: list[Table] = []
    byes: list[EntryId] = []
    for a, b in zip(slots[::2], slots[1::2], strict=True):
        if a is None or b is None:
            byes.extend(e for e in (a, b) if e is not None)
            continue
        high, low = sorted((a, b), key=seed_of.__getitem__)
        pair = (high, low) if index % 2 == 0 else (low, high)
        tables.append(Table.of(pair, seats_per_entry))
    return Round(index, tuple(tables), tuple(byes))


# --------------------------------------------------------------------------- duplicate


def duplicate(
    entries: Sequence[EntryId], boards: Sequence[int], *, seats_per_entry: int = 2
) -> tuple[Table, ...]:
    """The tables of one duplicate match: every board at two tables, seats swapped.

    For each board (a preset deal, named by its number) entry A sits at
    position 0 at one table and at position 1 at the other, with the same
    cards dealt to the same seats: A holds at one table exactly the cards B
    holds at the other. Each entry is then scored by its board difference
    against the other table (``formats.standings``), which removes the luck
    of the deal — how computer bridge and poker championships compare.

    Caveat for untrusted bots: across the two tables an entry's players see
    all four hands of the board. The runner should start both tables of a
    board together, and a tournament can only trust what it can isolate.

    >>> duplicate(["A", "B"], [7])
    (Table(seats=('A', 'B', 'A', 'B'), board=7), Table(seats=('B', 'A', 'B', 'A'), board=7))

    Args:
        entries: the two entries of the match (sides).
        boards: distinct board numbers, in play order.
        seats_per_entry: seats each entry holds (2 for Concerto).

    Raises:
        PairingError: not exactly two distinct entries, or no/duplicate boards.
    """
    _check_entries(entries)
    if len(entries) != 2:
        raise PairingError(f"a duplicate match is between 2 entries, not {len(entries)}")
    if not boards or len(set(boards)) != len(boards):
        raise PairingError(f"a duplicate match needs distinct boards, got {list(boards)}")
    a, b = entries
    return tuple(
        Table.of(order, seats_per_entry, board) for board in boards for order in ((a, b), (b, a))
    )

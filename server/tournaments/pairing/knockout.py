"""Knockout: a seeded single-elimination bracket, one round at a time."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from .tables import EntryId, PairingError, Round, Table, check_entries, check_geometry


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
        seats_per_entry: as in :func:`.round_robin.round_robin`.

    Returns:
        Round ``len(winners)``, or None once one entry is left (the champion).

    Raises:
        PairingError: fewer than two entries, duplicates, or a played table
            with no winner, or with both its entries listed as winners.
    """
    check_entries(seeds)
    check_geometry(2, None, seats_per_entry)
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

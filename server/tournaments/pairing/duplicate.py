"""Duplicate: the tables of one match, every board played twice with the seats swapped."""

from __future__ import annotations

from collections.abc import Sequence

from .tables import EntryId, PairingError, Table, check_entries


def duplicate(
    entries: Sequence[EntryId], boards: Sequence[int], *, seats_per_entry: int = 2
) -> tuple[Table, ...]:
    """The tables of one duplicate match: every board at two tables, seats swapped.

    For each board (a preset deal, named by its number) entry A sits at
    position 0 at one table and at position 1 at the other, with the same
    cards dealt to the same seats: A holds at one table exactly the cards B
    holds at the other. Each entry is then scored by its board difference
    against the other table (``server.tournaments.formats.standings``),
    which removes the luck of the deal — how computer bridge and poker
    championships compare.

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
    check_entries(entries)
    if len(entries) != 2:
        raise PairingError(f"a duplicate match is between 2 entries, not {len(entries)}")
    if not boards or len(set(boards)) != len(boards):
        raise PairingError(f"a duplicate match needs distinct boards, got {list(boards)}")
    a, b = entries
    return tuple(
        Table.of(order, seats_per_entry, board) for board in boards for order in ((a, b), (b, a))
    )

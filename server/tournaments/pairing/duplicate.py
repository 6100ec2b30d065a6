"""Duplicate: every board of a round played at several tables, never twice by one player.

A duplicate board is one preset deal (named by its number) played at two or
more tables, the same cards in the same seats. It removes the luck of the
deal only if nobody sits at two tables of a board: a player who did would
see, at one table, the hands its opponents hold at the other. So, as in
duplicate bridge, the tables of a board seat different entries (and entries
never share a player: a player enters a tournament once), and an entry is
compared with the entries that held the same cards at the other tables:

* **pairs event** (tournaments, :func:`board_tables`): a round is a round of
  pairings (two entries a table, e.g. a round-robin round: a Howell-like
  movement), and every table of the round plays the round's boards. The
  entries at position 0 (North–South in Concerto) all hold the same cards, and
  so do those at position 1: each entry is ranked within its *direction* by its
  net score (own minus its opponent's) over the round's boards
  (``server.tournaments.formats``).
* **team event** (the ladder, :func:`team_board`): two teams of two sides
  each. Team X's first side sits at position 0 at table 1 and its second side
  at position 1 at table 2, against team Y's sides: the team holds both sides'
  cards of the board, but no player sees both. The team wins the board when
  its two net scores add up to more than zero — which is exactly the pairs
  comparison of its two sides with the sides that held the same cards.
"""

from __future__ import annotations

from collections.abc import Sequence

from .tables import EntryId, PairingError, Table, check_entries


def board_tables(
    pairings: Sequence[Sequence[EntryId]], boards: Sequence[int], *, seats_per_entry: int = 2
) -> tuple[Table, ...]:
    """Every board at every pairing's table, board by board (a pairs event's round).

    The entry first in a pairing holds position 0 at every board of the round,
    so the entries at position 0 of a board's tables held the same cards.

    >>> board_tables([["A", "B"], ["C", "D"]], [7])
    (Table(seats=('A', 'B', 'A', 'B'), board=7), Table(seats=('C', 'D', 'C', 'D'), board=7))

    Args:
        pairings: the round's tables, two entries each (position 0 first).
        boards: distinct board numbers, in play order.
        seats_per_entry: seats each entry holds (2 for Concerto).

    Raises:
        PairingError: fewer than two tables (nobody to compare with), a table not of
            two entries, an entry at two tables, or no/duplicate boards.
    """
    if len(pairings) < 2:
        raise PairingError(
            "a duplicate board needs two tables of different entries: at least 4 entries"
        )
    for pairing in pairings:
        if len(pairing) != 2:
            raise PairingError(f"a duplicate table is between 2 entries, not {len(pairing)}")
    check_entries([e for pairing in pairings for e in pairing])
    if not boards or len(set(boards)) != len(boards):
        raise PairingError(f"a duplicate round needs distinct boards, got {list(boards)}")
    return tuple(
        Table.of(list(pairing), seats_per_entry, board) for board in boards for pairing in pairings
    )


def team_board(
    team_x: Sequence[EntryId], team_y: Sequence[EntryId], board: int, *, seats_per_entry: int = 1
) -> tuple[Table, Table]:
    """The two tables of a team event's board: four distinct sides, two a team.

    ``team_x = (x1, x2)`` and ``team_y = (y1, y2)``: ``x1`` sits at position 0
    at table 1 against ``y1``; ``y2`` sits at position 0 at table 2 against
    ``x2``. Team X holds both positions' cards, each at another table.

    >>> team_board(("x1", "x2"), ("y1", "y2"), 0)
    (Table(seats=('x1', 'y1'), board=0), Table(seats=('y2', 'x2'), board=0))

    Raises:
        PairingError: a team not of two sides, or a side in both teams or twice.
    """
    if len(team_x) != 2 or len(team_y) != 2:
        raise PairingError("a team of a duplicate board is two sides")
    check_entries([*team_x, *team_y])
    (x1, x2), (y1, y2) = team_x, team_y
    return (
        Table.of([x1, y1], seats_per_entry, board),
        Table.of([y2, x2], seats_per_entry, board),
    )


def disjoint(tables: Sequence[Table]) -> bool:
    """Whether no entry sits at two of ``tables`` (the invariant of a board's tables)."""
    seen: set[EntryId] = set()
    for table in tables:
        here = set(table.entries)
        if here & seen:
            return False
        seen |= here
    return True

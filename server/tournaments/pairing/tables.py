"""The data every format shares: entries, tables and rounds, their checks and history counts.

An entry at table position ``p`` of ``k`` holds seats ``p, p + k, …`` (see the
package docstring); a round lists its byes explicitly.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

EntryId = str
"""An entry's id. Plain strings, so rounds serialise as they are."""

MIN_TABLE_SIZE = 2
MAX_TABLE_SIZE = 5


class PairingError(ValueError):
    """A round cannot be paired from this input (too few entries, bad results…).

    The message says what is wrong in terms of the input, never "internal error".
    """


# --------------------------------------------------------------------------- data


@dataclass(frozen=True, slots=True)
class Table:
    """One game of a round: the entry in each seat, and the board if duplicate.

    ``seats[s]`` is the entry holding seat ``s``. ``board`` names the preset deal
    of a duplicate board (see :mod:`.duplicate`); ``None`` means a fresh deal.
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
    that is at no table is in ``byes`` (explicitly, not inferred). A duplicate
    round has a table per pairing and board (:func:`.duplicate.board_tables`): an
    entry sits at one table of each board.
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


def check_entries(entries: Sequence[EntryId]) -> None:
    if len(set(entries)) != len(entries):
        dupes = sorted(e for e, n in Counter(entries).items() if n > 1)
        raise PairingError(f"entries must be distinct; repeated: {dupes}")


def check_geometry(table_size: int, min_table_size: int | None, seats_per_entry: int) -> int:
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
    low = check_geometry(table_size, min_table_size, 1)
    if n < low:
        raise PairingError(f"{n} entries cannot fill a table of at least {low}")
    count = -(-n // table_size)
    if n // count >= low:
        return [n // count + (1 if i < n % count else 0) for i in range(count)]
    return [table_size] * (n // table_size)


# --------------------------------------------------------------------------- history


def meetings(history: Iterable[Round]) -> Counter[frozenset[EntryId]]:
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


def bye_counts(history: Iterable[Round]) -> Counter[EntryId]:
    return Counter(e for rnd in history for e in rnd.byes)


def position_counts(history: Iterable[Round]) -> Counter[tuple[EntryId, int]]:
    """How often each entry held each table position (0 = seat 0) so far."""
    counts: Counter[tuple[EntryId, int]] = Counter()
    for rnd in history:
        for table in rnd.tables:
            for p, e in enumerate(table.entries):
                counts[e, p] += 1
    return counts

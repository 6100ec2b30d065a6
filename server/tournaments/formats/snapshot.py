"""What a tournament format reads: a :class:`TournamentSnapshot`, immutable, of the
entries in seed order and every round so far with the results of its finished tables
(:class:`TableResult`, by table position), as the store holds them.
"""

from __future__ import annotations

import enum
import math
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..pairing.round_robin import round_robin_cycle
from ..pairing.tables import EntryId, PairingError, Round, Table


class Format(enum.StrEnum):
    ROUND_ROBIN = "round_robin"
    SWISS = "swiss"
    KNOCKOUT = "knockout"
    DUPLICATE = "duplicate"


class RoundNotFinished(PairingError):
    """The next round cannot be paired while a table of the current one has no result."""


@dataclass(frozen=True, slots=True)
class Entry:
    """One entry: its id and the player behind each of its seats, in seat order.

    An individual game has one player per entry; Concerto has two (the
    entry's first seat, e.g. North, then its second, South).
    """

    id: EntryId
    players: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class TableResult:
    """The result of one finished table, by table position (``Table.entries`` order).

    ``scores[p]`` is the final score of the entry at position ``p`` (in
    partnership games, its side's score); ``winners`` are positions (empty:
    nobody was declared the winner, e.g. a draw). Build it from an engine's
    ``Outcome`` with :meth:`from_outcome`.
    """

    scores: tuple[float, ...]
    winners: tuple[int, ...] = ()

    @classmethod
    def from_outcome(
        cls, table: Table, seat_scores: Sequence[float], winner_seats: Iterable[int]
    ) -> TableResult:
        """Convert per-seat scores and winning seats (``Outcome``) to positions.

        Raises:
            PairingError: the score list does not have one entry per seat.
        """
        if len(seat_scores) != len(table.seats):
            raise PairingError(f"{len(seat_scores)} scores for {len(table.seats)} seats")
        entries = table.entries
        winners = {table.position_of(table.seats[s]) for s in winner_seats}
        return cls(
            tuple(seat_scores[table.seats_of(e)[0]] for e in entries), tuple(sorted(winners))
        )

    def ranks(self) -> tuple[int, ...]:
        """0-based place per position: winners first, then by score; ties share.

        >>> TableResult((10, 30, 20, 20), winners=(2,)).ranks()   # Seconds: 2nd-highest wins
        (3, 1, 0, 2)
        >>> TableResult((50, 50)).ranks()
        (0, 0)
        """
        keys = [(p in self.winners, s) for p, s in enumerate(self.scores)]
        return tuple(sum(1 for other in keys if other > key) for key in keys)

    def to_dict(self) -> dict[str, Any]:
        return {"scores": list(self.scores), "winners": list(self.winners)}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> TableResult:
        return cls(tuple(d["scores"]), tuple(d.get("winners", ())))


@dataclass(frozen=True, slots=True)
class PlayedRound:
    """A round as stored: its pairing and one result slot per table (None: not over)."""

    round: Round
    results: tuple[TableResult | None, ...]

    def __post_init__(self) -> None:
        if len(self.results) != len(self.round.tables):
            raise PairingError(
                f"round {self.round.index}: {len(self.results)} results "
                f"for {len(self.round.tables)} tables"
            )

    @property
    def is_finished(self) -> bool:
        return all(r is not None for r in self.results)


@dataclass(frozen=True)
class TournamentSnapshot:
    """Everything a format needs, read from the store at one moment. Immutable.

    Attributes:
        format: the system.
        entries: in seed order (seed 1 first).
        rounds: every round so far, in order; ``rounds[i].round.index == i``.
        table_size: entries per table (2 for Concerto's two sides; 4 for
            Seconds; 2-5 for Cowpoke).
        min_table_size: smallest table allowed (default: full tables only).
        seats_per_entry: seats each entry holds (2 for Concerto).
        total_rounds: rounds to play; default one round-robin cycle, or
            ``ceil(log2(n))`` for swiss. A knockout ends by itself.
        boards_per_match: duplicate only: boards per match.
    """

    format: Format
    entries: tuple[Entry, ...]
    rounds: tuple[PlayedRound, ...] = ()
    table_size: int = 2
    min_table_size: int | None = None
    seats_per_entry: int = 1
    total_rounds: int | None = None
    boards_per_match: int = 1
    _seed: dict[EntryId, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "format", Format(self.format))
        ids = [e.id for e in self.entries]
        if len(set(ids)) != len(ids):
            raise PairingError("entry ids must be distinct")
        for e in self.entries:
            if len(e.players) != self.seats_per_entry:
                raise PairingError(
                    f"entry {e.id} has {len(e.players)} players for {self.seats_per_entry} seats"
                )
        for i, played in enumerate(self.rounds):
            if played.round.index != i:
                raise PairingError(f"round at position {i} says it is round {played.round.index}")
        if self.format in (Format.KNOCKOUT, Format.DUPLICATE) and self.table_size != 2:
            raise PairingError(f"{self.format} is played between two entries per table")
        if self.boards_per_match < 1:
            raise PairingError("boards_per_match must be at least 1")
        object.__setattr__(self, "_seed", {e: i for i, e in enumerate(ids)})

    @property
    def entry_ids(self) -> list[EntryId]:
        return [e.id for e in self.entries]

    def planned_rounds(self) -> int | None:
        """Rounds this tournament plays (None for a knockout: it ends by itself)."""
        if self.total_rounds is not None:
            return self.total_rounds
        n = len(self.entries)
        if self.format is Format.SWISS:
            return max(1, math.ceil(math.log2(max(n, 2))))
        if self.format is Format.KNOCKOUT:
            return None
        return round_robin_cycle(n, self.table_size, min_table_size=self.min_table_size)


def seat_players(snapshot: TournamentSnapshot, table: Table) -> tuple[str, ...]:
    """The player id in each seat of ``table``: an entry's ``j``-th seat gets its ``j``-th player.

    >>> snap = TournamentSnapshot(Format.ROUND_ROBIN,
    ...     (Entry("A", ("a1", "a2")), Entry("B", ("b1", "b2"))), seats_per_entry=2)
    >>> seat_players(snap, Table(("A", "B", "A", "B")))
    ('a1', 'b1', 'a2', 'b2')
    """
    players = {e.id: e.players for e in snapshot.entries}
    used: dict[EntryId, int] = defaultdict(int)
    out = []
    for entry in table.seats:
        out.append(players[entry][used[entry]])
        used[entry] += 1
    return tuple(out)

"""The next round of each format (:func:`next_round`), from the snapshot alone: a round
robin's next round, a swiss round on the standings, a knockout round of the winners,
a duplicate round of fresh boards.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..pairing.duplicate import board_tables
from ..pairing.knockout import knockout
from ..pairing.round_robin import round_robin
from ..pairing.swiss import swiss
from ..pairing.tables import EntryId, Round
from .scoring import _advancing, standings
from .snapshot import Format, PlayedRound, RoundNotFinished, TournamentSnapshot


def next_round(snapshot: TournamentSnapshot, rng: random.Random | None = None) -> Round | None:
    """Pair the next round, or None when the tournament is over.

    Deterministic for a given snapshot and ``rng`` state: give the runner a
    ``random.Random`` seeded from the tournament and round, and two
    schedulers pairing the same round get the same tables.

    Raises:
        RoundNotFinished: the last round still has a table without a result.
        PairingError: the snapshot cannot be paired (too few entries, …).
    """
    if snapshot.rounds and not snapshot.rounds[-1].is_finished:
        raise RoundNotFinished(f"round {len(snapshot.rounds) - 1} is not finished")
    index = len(snapshot.rounds)
    planned = snapshot.planned_rounds()
    if planned is not None and index >= planned:
        return None
    ids = snapshot.entry_ids
    history = [p.round for p in snapshot.rounds]
    low, seats = snapshot.min_table_size, snapshot.seats_per_entry
    match snapshot.format:
        case Format.ROUND_ROBIN:
            return round_robin(
                ids, index, snapshot.table_size, min_table_size=low, seats_per_entry=seats
            )
        case Format.SWISS:
            order = [(s.entry, s.points) for s in standings(snapshot)]
            return swiss(
                order, history, snapshot.table_size, rng, min_table_size=low, seats_per_entry=seats
            )
        case Format.KNOCKOUT:
            winners = [_knockout_winners(snapshot, p) for p in snapshot.rounds]
            return knockout(ids, winners, seats_per_entry=seats)
        case Format.DUPLICATE:
            return _duplicate_round(snapshot, history)
    raise AssertionError(snapshot.format)  # pragma: no cover


def _duplicate_round(snapshot: TournamentSnapshot, history: Sequence[Round]) -> Round:
    """A round-robin round of tables, every table playing the round's ``boards_per_match``
    fresh boards (numbered on from the last board played): a pairs event's round."""
    index = len(history)
    seats = snapshot.seats_per_entry
    pairings = round_robin(snapshot.entry_ids, index, 2, seats_per_entry=seats)
    first = 1 + max((t.board for r in history for t in r.tables if t.board is not None), default=-1)
    boards = range(first, first + snapshot.boards_per_match)
    tables = board_tables([t.entries for t in pairings.tables], boards, seats_per_entry=seats)
    return Round(index, tables, pairings.byes)


def _knockout_winners(snapshot: TournamentSnapshot, played: PlayedRound) -> set[EntryId]:
    """The entries going through from every finished table of a knockout round."""
    return {
        _advancing(snapshot, table.entries, result.ranks())
        for table, result in zip(played.round.tables, played.results, strict=True)
        if result is not None
    }

"""Tournament formats: from an immutable snapshot to the next round and the standings.

The scheduler's use case (``server/services/rounds.py``) reads a :class:`TournamentSnapshot`
from the store (entries in seed order, every round so far with the results of
its finished tables), calls :func:`next_round` and persists what comes back; it
calls :func:`standings` for the table and :func:`rating_events` for the
ratings. Everything here is pure: no Redis, no clock, no global randomness, so
two schedulers pairing the same round get the same tables.

Formats (``Format``):

* ``round_robin`` — :func:`..pairing.round_robin.round_robin`, one cycle by default.
* ``swiss`` — :func:`..pairing.swiss.swiss` on the current standings,
  ``ceil(log2(n))`` rounds by default.
* ``knockout`` — :func:`..pairing.knockout.knockout` on the seeds and each round's
  winners, until one entry is left.
* ``duplicate`` — a pairs event (:func:`..pairing.duplicate.board_tables`): each
  round is a round-robin round of tables between two entries (sides of a
  partnership game), and every table of the round plays the round's
  ``boards_per_match`` boards, so each board is played at every table of the
  round by different entries; nobody sits at two tables of a board. It needs
  at least 4 entries (two tables).

A module per stage, each with every format's branch of it: :mod:`.snapshot` (what a
format reads: the entries, the rounds so far and their results), :mod:`.rounds` (the
next round, :func:`next_round`) and :mod:`.scoring` (how a table and a bye score: the
contests, :func:`standings` and :func:`rating_events`). Everything is importable from
here.
"""

from .rounds import next_round
from .scoring import (
    BYE_POINTS,
    Contest,
    RatingEvent,
    Standing,
    contests,
    net_scores,
    rating_events,
    standings,
)
from .snapshot import (
    Entry,
    Format,
    PlayedRound,
    RoundNotFinished,
    TableResult,
    TournamentSnapshot,
    seat_players,
)

__all__ = [
    "BYE_POINTS", "Contest", "Entry", "Format", "PlayedRound", "RatingEvent", "RoundNotFinished",
    "Standing", "TableResult", "TournamentSnapshot", "contests", "net_scores", "next_round",
    "rating_events", "seat_players", "standings",
]  # fmt: skip

"""Move clocks, pure: what a timeout does, and what a forfeit means for a table.

Every tournament game has a per-move clock (``clock.move_seconds``): each seat
that becomes to move gets that long to move, plus what is left of its **time
bank** (``clock.bank_ms``, per seat and game, default 0): a move may run past the
per-move time, and the overrun is taken from the bank (the bank is spent
whole by a timeout). When a seat's deadline passes, the scheduler applies the
tournament's ``timeout_policy``:

* ``{"kind": "default_move"}`` — the seat's move is made for it
  (:func:`default_move`) and recorded as a ``timeout`` event; the game goes on.
* ``{"kind": "forfeit", "after": N}`` — the seat's first ``N - 1`` timeouts in a
  game get default moves; its ``N``-th forfeits the game. The game is then
  ``aborted`` and its table's result counts against the seat's entry
  (:func:`forfeit_result`).

Nothing here knows a game's rules: the default move is chosen from the
engine's own list of legal moves, and a forfeit is scored from the per-seat
scores every view shows. No I/O, no clock reads (the caller passes ``now``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from server.games.record import RANKS as RANKS  # the engines own them: the local runner
from server.games.record import default_move as default_move  # makes the same default moves

from .formats import TableResult
from .pairing.tables import Table

DEFAULT_MOVE = "default_move"
FORFEIT = "forfeit"


def setting(clock: Mapping[str, Any]) -> dict[str, Any]:
    """A tournament's or ladder's clock as kept: ``move_seconds`` (each move's time) and
    ``bank_ms`` (each seat's time bank for the game, ms; default 0).

    >>> setting({"move_seconds": 5})
    {'move_seconds': 5.0, 'bank_ms': 0}
    """
    return {
        "move_seconds": float(clock["move_seconds"]),
        "bank_ms": int(clock.get("bank_ms") or 0),
    }


def action(policy: Mapping[str, Any], timeouts: int) -> str:
    """What the seat's ``timeouts``-th timeout in a game does under ``policy``.

    >>> action({"kind": "forfeit", "after": 2}, 1), action({"kind": "forfeit", "after": 2}, 2)
    ('default_move', 'forfeit')
    >>> action({"kind": "default_move"}, 99)
    'default_move'
    """
    if policy.get("kind") == FORFEIT and timeouts >= int(policy.get("after", 1)):
        return FORFEIT
    return DEFAULT_MOVE


def forfeit_result(table: Table, seat_scores: Sequence[float], seat: int) -> TableResult:
    """The result of a table whose ``seat`` forfeited: last place for that seat's entry.

    The forfeiting entry is the only position not among the winners, and its
    score is lowered, if needed, to one below the lowest other score, so it
    ranks last whether a format looks at the winners (standings, ratings) or
    at the scores alone (a duplicate match's totals). The other entries keep
    the scores they had when the game stopped.

    >>> t = Table(("A", "B", "A", "B"))
    >>> forfeit_result(t, [120, 40, 120, 40], seat=2)
    TableResult(scores=(39, 40), winners=(1,))
    >>> forfeit_result(t, [10, 40, 10, 40], seat=0)
    TableResult(scores=(10, 40), winners=(1,))
    """
    entries = table.entries
    scores = [seat_scores[table.seats_of(e)[0]] for e in entries]
    loser = table.position_of(table.seats[seat])
    lowest_other = min(s for p, s in enumerate(scores) if p != loser)
    scores[loser] = min(scores[loser], lowest_other - 1)
    winners = tuple(p for p in range(len(entries)) if p != loser)
    return TableResult(tuple(scores), winners)

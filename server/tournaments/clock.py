"""Move clocks, pure: what a timeout does, and what a forfeit means for a table.

Every tournament game has a per-move clock (``clock.move_seconds``): each seat
that becomes to move gets that long to move. When a seat's deadline passes,
the scheduler applies the tournament's ``timeout_policy``:

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

from .formats import TableResult
from .pairing.tables import Table

RANKS = "23456789TJQKA"
"""Low to high, to pick "the lowest legal card" without knowing the game.

The rank order of the engines' card strings (rank then suit: ``"TS"`` is the
ten of spades). A game with another order (Pinochle's ``9 J Q K T A``) still
gets its 9 first; only a ten against a J/Q/K is judged differently, which a
default move may live with.
"""

DEFAULT_MOVE = "default_move"
FORFEIT = "forfeit"


def default_move(legal_moves: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The move a timed-out seat makes: pass where legal, else the lowest card, else the first.

    "Lowest card" is the lowest rank (:data:`RANKS`) among the legal moves that
    carry a ``card``; ties go to the earlier move in the engine's list.

    >>> default_move([{"type": "play", "card": "QS"}, {"type": "pass"}])
    {'type': 'pass'}
    >>> default_move([{"type": "play", "card": "QS"}, {"type": "play", "card": "9H"},
    ...               {"type": "play", "card": "9C"}])
    {'type': 'play', 'card': '9H'}
    >>> default_move([{"type": "call"}, {"type": "fold"}])
    {'type': 'call'}

    Raises:
        ValueError: no legal move at all (the seat is not to move).
    """
    if not legal_moves:
        raise ValueError("no legal move to default to")
    for move in legal_moves:
        if move.get("type") == "pass":
            return dict(move)
    cards = [m for m in legal_moves if isinstance(m.get("card"), str) and m["card"]]
    if cards:
        return dict(min(cards, key=lambda m: RANKS.find(m["card"][0])))
    return dict(legal_moves[0])


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

"""A finished game in words, as the runner's progress lines say it: the result for the
bot's seats (:func:`outcome_text`) and the rating change of a ladder contest
(:func:`rating_change`)."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any


def outcome_text(
    result: Mapping[str, Any] | None, seats: Collection[int], table: int | None = None
) -> str:
    """A finished game's result for the player holding ``seats`` of ``table`` seats, in words.

    >>> outcome_text({"scores": [6, 25, 6, 25], "winners": [1, 3]}, {0})
    'lost (scores 6 · 25 · 6 · 25)'
    >>> outcome_text({"scores": [6, 25, 6, 25], "winners": [1, 3]}, {0, 1})
    'won and lost (scores 6 · 25 · 6 · 25)'
    >>> outcome_text({"scores": [6, 25, 6, 25], "winners": [1, 3]}, {0, 1, 2, 3}, 4)
    'played every seat (scores 6 · 25 · 6 · 25)'
    >>> outcome_text({"termination": "forfeit", "scores": [0, 0], "winners": [], "forfeit": 1}, {0})
    'forfeited by seat 1 (scores 0 · 0)'
    """
    if not result:
        return "aborted"
    scores = " · ".join(str(x) for x in result.get("scores", []))
    winners = result.get("winners") or []
    if result.get("termination") == "forfeit":
        word = f"forfeited by seat {result.get('forfeit')}"
    elif table is not None and table > 1 and len(set(seats)) == table:
        word = "played every seat"
    elif not winners:
        word = "drawn"
    else:
        won = set(seats) & set(winners)
        lost = set(seats) - set(winners)
        word = "won and lost" if won and lost else "won" if won else "lost"
    return f"{word} (scores {scores})" if scores else word


def held_seats(view: Mapping[str, Any], seat: int | None) -> set[int]:
    """Every seat of the game held by the player that holds the view's seat (``you``),
    else the seat its turn named."""
    you = view.get("you") if isinstance(view.get("you"), int) else seat
    seats = view.get("seats") or []
    me = next((s.get("player_id") for s in seats if s.get("seat") == you), None)
    held = {s["seat"] for s in seats if me is not None and s.get("player_id") == me}
    return held or ({you} if you is not None else set())


def rating_change(history: list[Mapping[str, Any]], game_id: str) -> str | None:
    """The rating change of the contest ``game_id`` was part of, from an entry's history
    (newest first): the ordinal (mu - 3 sigma) before and after, the first contest
    counted from 0 (the default rating's ordinal); None while it is not rated, ``""``
    when the game is no contest of the ladder.

    >>> rows = [{"games": [{"game_id": "g2"}], "outcome": "won", "rating": {"ordinal": 1.5}},
    ...         {"games": [{"game_id": "g1"}], "outcome": "lost", "rating": {"ordinal": 0.25}}]
    >>> rating_change(rows, "g2")
    'contest won, rating 0.25 -> 1.50 (+1.25)'
    >>> rating_change(rows, "g3")
    ''
    """
    for i, row in enumerate(history):
        if any(g.get("game_id") == game_id for g in row.get("games", [])):
            after = (row.get("rating") or {}).get("ordinal")
            if row.get("outcome") is None or after is None:
                return None
            before = next(
                (r["rating"]["ordinal"] for r in history[i + 1 :] if r.get("rating")), 0.0
            )
            return (
                f"contest {row['outcome']}, rating {before:.2f} -> {after:.2f} "
                f"({after - before:+.2f})"
            )
    return ""

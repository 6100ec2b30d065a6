"""The archive's reads: which games a ladder, a tournament or a period holds.

No index of its own: a ladder's and a tournament's game lists (``keys.ladder_games``,
``keys.tournament_games``) and the lobby's games by end time
(``keys.lobby_finished_games``) already say it. Each read returns candidates in
a fixed order after a position, so the archive pages through them with a
cursor; the games' own records decide what is shown.
"""

from __future__ import annotations

from typing import Any

from redis import Redis

from . import keys
from .replies import text


def ladder_game_ids(r: Redis, ladder_id: str) -> list[str] | None:
    """Every game id of the ladder, sorted (None: no such ladder)."""
    return _game_ids(r, keys.ladder(ladder_id), keys.ladder_games(ladder_id))


def tournament_game_ids(r: Redis, tournament_id: str) -> list[str] | None:
    """Every game id of the tournament, sorted (None: no such tournament)."""
    return _game_ids(r, keys.tournament(tournament_id), keys.tournament_games(tournament_id))


def _game_ids(r: Redis, record: str, games: str) -> list[str] | None:
    """The game ids in the hash ``games``, sorted; None when ``record`` does not exist."""
    pipe = r.pipeline(transaction=False)
    pipe.exists(record)
    pipe.hvals(games)
    found, ids = pipe.execute()
    return sorted({text(g) for g in ids}) if found else None


def ended_between(
    r: Redis,
    since: float,
    until: float | None,
    after: tuple[float, str] | None,
    count: int,
) -> list[tuple[float, str]]:
    """Up to ``count`` games that ended at ``since <= t < until`` (finished or aborted),
    ordered by ``(t, id)`` and after ``after`` when given.

    Returns:
        ``[(end time, game id), ...]`` oldest first.
    """
    key = keys.lobby_finished_games()
    high = "+inf" if until is None else f"({until!r}"
    rows: list[tuple[float, str]] = []
    low = repr(since)
    if after is not None and after[0] >= since:
        at, last = after
        ties: list[Any] = r.zrangebyscore(key, repr(at), repr(at), withscores=True)
        rows = sorted((float(t), text(g)) for g, t in ties if text(g) > last)
        if until is not None and at >= until:
            rows = []
        low = f"({at!r}"
    more: list[Any] = r.zrangebyscore(key, low, high, start=0, num=count, withscores=True)
    rows += [(float(t), text(g)) for g, t in more]
    return rows[:count]

"""The archive's reads: which games a ladder, a tournament or a period holds, and each
finished game's stored par.

No index of its own: a ladder's and a tournament's game lists (``keys.ladder_games``,
``keys.tournament_games``) and the lobby's games by end time
(``keys.lobby_finished_games``) already say it. Each read returns candidates in
a fixed order after a position, so the archive pages through them with a
cursor; the games' own records decide what is shown.
"""

from __future__ import annotations

from typing import Any

import orjson
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


# -- each finished game's par, kept with its record -----------------------------------
PAR_FIELD = "par"
"""The field of a finished game's ``g:{id}:game`` holding its par as JSON (``null``:
a game without one)."""

_KEEP_PAR = """
if redis.call('EXISTS', KEYS[1]) == 1 then
  redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2])
end
return redis.call('HGET', KEYS[1], ARGV[1])
"""


def stored_par(r: Redis, game_id: str) -> tuple[bool, Any]:
    """``(True, par)`` once the game's par is stored, else ``(False, None)``."""
    raw: Any = r.hget(keys.game_state(game_id), PAR_FIELD)
    return (False, None) if raw is None else (True, orjson.loads(raw))


def keep_par(r: Redis, game_id: str, par: Any) -> Any:
    """Store the game's par unless one is stored already (the first wins), and only
    while the game exists (a game gone is not brought back as a record holding only
    its par). Returns the par stored (``par`` itself when the game is gone)."""
    raw: Any = r.eval(_KEEP_PAR, 1, keys.game_state(game_id), PAR_FIELD, orjson.dumps(par))
    return par if raw is None else orjson.loads(raw)

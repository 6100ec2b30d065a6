"""The lobby's indexes: which games are live or over, and every tournament, newest first.

Three sorted sets and a hash, each in its own slot (names from :mod:`keys`):

* ``lobby:games:live``      game id -> creation time, while waiting or active;
* ``lobby:games:creators``  live game id -> who created it (the lobby's cap per creator);
* ``lobby:games:finished``  game id -> the time it ended (finished or aborted);
* ``lobby:tournaments``     tournament id -> creation time.

They are hints for listing, never the truth: a game's status lives in its own
hash. Moving a game from live to finished is a separate, repeatable step after
the commit (like a wake-up), so a crash in between leaves a finished game in the
live index; :func:`settle` is how a reader that noticed puts it right.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from redis import Redis

from . import keys
from .replies import text


def add_live(r: Redis, game_id: str, at: float, created_by: str | None = None) -> None:
    """Index a new game as live (created at ``at``, epoch seconds), and who created it.
    Repeatable."""
    pipe = r.pipeline(transaction=False)  # two slots: no MULTI, each step is idempotent
    pipe.zadd(keys.lobby_live_games(), {game_id: at})
    if created_by is not None:
        pipe.hset(keys.lobby_creators(), game_id, created_by)
    pipe.execute()


def settle(r: Redis, ended: Iterable[tuple[str, float]], gone: Iterable[str] = ()) -> None:
    """Move ended games to the finished index; drop ids whose game no longer exists.

    Args:
        ended: ``(game id, end time)`` of games that are finished or aborted.
        gone: ids found in an index with no game behind them.

    Repeatable: the first end time recorded is kept (``ZADD NX``).
    """
    ended = list(ended)
    gone = list(gone)
    if not ended and not gone:
        return
    pipe = r.pipeline(transaction=False)  # two slots: no MULTI, each step is idempotent
    if ended:
        pipe.zadd(keys.lobby_finished_games(), {gid: at for gid, at in ended}, nx=True)
        pipe.zrem(keys.lobby_live_games(), *[gid for gid, _ in ended])
        pipe.hdel(keys.lobby_creators(), *[gid for gid, _ in ended])
    if gone:
        pipe.zrem(keys.lobby_live_games(), *gone)
        pipe.zrem(keys.lobby_finished_games(), *gone)
        pipe.hdel(keys.lobby_creators(), *gone)
    pipe.execute()


def games(r: Redis, which: str, limit: int) -> list[tuple[str, float]]:
    """The newest ``limit`` ids of one index, ``which`` = ``live`` or ``finished``.

    Returns:
        ``[(game id, time), ...]`` newest first.
    """
    key = keys.lobby_live_games() if which == "live" else keys.lobby_finished_games()
    rows: list[Any] = r.zrevrange(key, 0, limit - 1, withscores=True)
    return [(text(gid), float(at)) for gid, at in rows]


def live_page(r: Redis, start: int, count: int) -> list[tuple[str, float, str | None]]:
    """``count`` rows of the live index from ``start`` (newest first), each with who
    created the game (None if not recorded).

    Returns:
        ``[(game id, creation time, creator), ...]``.
    """
    rows: list[Any] = r.zrevrange(
        keys.lobby_live_games(), start, start + count - 1, withscores=True
    )
    if not rows:
        return []
    ids = [text(gid) for gid, _ in rows]
    creators: list[Any] = r.hmget(keys.lobby_creators(), ids)
    return [
        (gid, float(at), None if c is None else text(c))
        for gid, (_, at), c in zip(ids, rows, creators, strict=True)
    ]


def add_tournament(r: Redis, tournament_id: str, at: float) -> None:
    """Index a new tournament (created at ``at``). Repeatable."""
    r.zadd(keys.lobby_tournaments(), {tournament_id: at})


def tournaments(r: Redis, limit: int) -> list[str]:
    """The ids of the newest ``limit`` tournaments, newest first."""
    ids: list[Any] = r.zrevrange(keys.lobby_tournaments(), 0, limit - 1)
    return [text(t) for t in ids]

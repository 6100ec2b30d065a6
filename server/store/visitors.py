"""Visitor games in Redis: the index of the live ones, for the cap on guest tables.

One sorted set (:func:`server.store.keys.visitors_live`): visitor game id -> creation
time. It is a hint that the service prunes (games that ended or expired), never the
truth, which stays in each game's record.
"""

from __future__ import annotations

from collections.abc import Sequence

from redis import Redis

from . import keys
from .replies import text


def add(r: Redis, game_id: str, now: float) -> None:
    """Index a new visitor game, created at ``now``."""
    r.zadd(keys.visitors_live(), {game_id: now})


def live(r: Redis, created_after: float) -> list[str]:
    """The indexed visitor games, after dropping those created at or before
    ``created_after`` (their guests have expired)."""
    r.zremrangebyscore(keys.visitors_live(), "-inf", created_after)
    found: list[bytes] = r.zrange(keys.visitors_live(), 0, -1)  # type: ignore[assignment]
    return [text(i) for i in found]


def drop(r: Redis, game_ids: Sequence[str]) -> None:
    """Forget these visitor games (they ended)."""
    if game_ids:
        r.zrem(keys.visitors_live(), *game_ids)

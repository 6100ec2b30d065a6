"""The tables the house bots fill, in Redis: the indexes of the live ones, for the caps.

One sorted set (:func:`server.store.keys.visitors_live`): visitor game id -> creation
time; another (:func:`server.store.keys.house_games_live`): ``<creator>:<game id>`` of
the games players made seating only house bots -> creation time. They are hints that
the services prune (games that ended or expired), never the truth, which stays in each
game's record.
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


def house_add(r: Redis, creator: str, game_id: str, now: float) -> None:
    """Index a new game that ``creator`` made seating only house bots."""
    r.zadd(keys.house_games_live(), {f"{creator}:{game_id}": now})


def house_live(r: Redis) -> list[tuple[str, str]]:
    """The indexed house-only games, as ``(creator, game id)``."""
    found: list[bytes] = r.zrange(keys.house_games_live(), 0, -1)  # type: ignore[assignment]
    return [(c, g) for c, _, g in (text(i).rpartition(":") for i in found)]


def house_drop(r: Redis, games: Sequence[tuple[str, str]]) -> None:
    """Forget these house-only games (they ended)."""
    if games:
        r.zrem(keys.house_games_live(), *(f"{c}:{g}" for c, g in games))

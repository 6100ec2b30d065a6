"""A game's events and moves read back: waiting for the next events (long-polls and
streams), every event (replays, the par), the opening state and the moves (replay
frames).

The keys are the game's (:mod:`server.store.games` describes them): the events
stream ``g:{id}:events``, entry ``0-<n>`` holding event ``n`` as JSON, and the moves
hash ``g:{id}:moves``, version -> the move accepted at that version; the opening
state is the ``opening`` field of the game's hash. :mod:`server.store.games` writes
them all (creation and the compare-and-set); this module only reads.
"""

from __future__ import annotations

from typing import Any

import orjson
from redis import Redis
from redis.cluster import RedisCluster

from . import keys, players


def events(r: Redis, game_id: str, after: int, block_ms: int = 0) -> list[tuple[int, dict]]:
    """Events numbered above ``after``, waiting up to ``block_ms`` for the first one.

    Returns:
        ``[(number, event), ...]`` oldest first.
    """
    reply: Any = r.xread(
        {keys.game_events(game_id): f"0-{after}"}, block=block_ms if block_ms > 0 else None
    )
    if not reply:
        return []
    return [(int(eid.split(b"-")[1]), orjson.loads(f[b"e"])) for eid, f in reply[0][1]]


def events_checked(
    r: Redis, game_id: str, after: int, block_ms: int, player_id: str
) -> tuple[list[tuple[int, dict]], players.PlayerRecord | None]:
    """:func:`events`, and the player's record (the token check) read once the wait is
    over, in the same round trip: the ``HMGET`` queued behind the blocking ``XREAD``
    runs when the events came (Redis runs a connection's commands in order). On a
    cluster the two keys live apart: two reads, the record second."""
    if isinstance(r, RedisCluster):
        return events(r, game_id, after, block_ms), players.get(r, player_id)
    pipe = r.pipeline(transaction=False)
    pipe.xread({keys.game_events(game_id): f"0-{after}"}, block=block_ms if block_ms > 0 else None)
    players.queue_get(pipe, player_id)
    reply, record = pipe.execute()
    found = (
        [(int(eid.split(b"-")[1]), orjson.loads(f[b"e"])) for eid, f in reply[0][1]]
        if reply
        else []
    )
    return found, players.parse(player_id, record)


def all_events(r: Redis, game_id: str) -> list[tuple[int, dict]]:
    """Every event of the game, oldest first (replays)."""
    stored: Any = r.xrange(keys.game_events(game_id))
    return [(int(eid.split(b"-")[1]), orjson.loads(f[b"e"])) for eid, f in stored]


def history(r: Redis, game_id: str) -> tuple[dict[str, Any] | None, dict[int, dict[str, Any]]]:
    """The game's opening state and every move accepted since, for replay frames.

    Returns:
        ``(opening, moves)``: the engine's state as created (None for a game
        stored before openings were kept) and version -> ``{"seat", "move"}``,
        the move accepted at that version.
    """
    pipe = r.pipeline(transaction=False)
    pipe.hget(keys.game_state(game_id), "opening")
    pipe.hgetall(keys.game_moves(game_id))
    opening, moves = pipe.execute()
    return (
        None if opening is None else orjson.loads(opening),
        {int(v): orjson.loads(m) for v, m in moves.items()},
    )

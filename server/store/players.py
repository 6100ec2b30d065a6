"""Players: profile records, the games each one sits in, and wake-up streams.

A player's keys share the hash tag ``{<player_id>}`` (see :mod:`keys`). The
token itself is never stored: only its SHA-256, checked by the service.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from redis import Redis, RedisCluster

from . import keys
from .replies import text

WAKE_KEEP = 16
"""Wake-ups kept per player: waiters only need the newest one to exist."""


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    id: str
    name: str
    token_sha256: str


def parse(player_id: str, reply: list[bytes | None]) -> PlayerRecord | None:
    """Turn an ``HMGET name token_sha256`` reply into a record (None if absent)."""
    name, digest = reply
    if name is None or digest is None:
        return None
    return PlayerRecord(player_id, name.decode(), digest.decode())


def queue_get(pipe, player_id: str) -> None:
    """Queue the read that :func:`parse` understands on a pipeline (one reply)."""
    pipe.hmget(keys.player(player_id), "name", "token_sha256")


def get(r: Redis, player_id: str) -> PlayerRecord | None:
    """The player, or None."""
    reply: list[Any] = r.hmget(keys.player(player_id), "name", "token_sha256")
    return parse(player_id, reply)


def get_many(r: Redis, player_ids: Iterable[str]) -> dict[str, PlayerRecord | None]:
    """Several players in one round trip."""
    ids = list(dict.fromkeys(player_ids))
    pipe = r.pipeline(transaction=False)
    for pid in ids:
        queue_get(pipe, pid)
    return {pid: parse(pid, reply) for pid, reply in zip(ids, pipe.execute(), strict=True)}


def create(r: Redis, record: PlayerRecord) -> None:
    """Store a new player (ids are random, so no existence check is needed)."""
    r.hset(
        keys.player(record.id),
        mapping={
            "name": record.name,
            "token_sha256": record.token_sha256,
            "created": f"{time.time():.3f}",
        },
    )


REVOKED = "revoked"
"""Stored in place of a revoked token's hash: no token's SHA-256 (hex) can equal it."""

_SWAP = """
local current = redis.call('HGET', KEYS[1], 'token_sha256')
if not current or (ARGV[1] ~= '' and current ~= ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], 'token_sha256', ARGV[2])
return 1
"""


def swap_digest(r: Redis, key: str, old: str | None, new: str) -> bool:
    """Replace the ``token_sha256`` of the record at ``key`` with ``new`` (atomically).

    Only if the record exists, and (``old`` given) only if its hash is still
    ``old``: of two rotations racing with the same token, one wins, and the
    loser's new token is never stored. False when nothing was replaced.
    """
    return bool(r.eval(_SWAP, 1, key, old or "", new))


def swap_token(r: Redis, player_id: str, old: str | None, new: str) -> bool:
    """:func:`swap_digest` for a player (``new``: a token's hash, or :data:`REVOKED`)."""
    return swap_digest(r, keys.player(player_id), old, new)


def add_game(r: Redis, player_ids: Iterable[str], game_id: str) -> None:
    """Record that the players sit in ``game_id`` (idempotent; before the seat is taken)."""
    pipe = r.pipeline(transaction=False)
    for pid in set(player_ids):
        pipe.sadd(keys.player_games(pid), game_id)
    pipe.execute()


def remove_game(r: Redis, player_ids: Iterable[str], game_id: str) -> None:
    """Forget a finished game (or a join that failed) in the players' lists."""
    pipe = r.pipeline(transaction=False)
    for pid in set(player_ids):
        pipe.srem(keys.player_games(pid), game_id)
    pipe.execute()


def forget_games(r: Redis, player_id: str, game_ids: Iterable[str]) -> None:
    """Drop several finished games from one player's list."""
    ids = list(game_ids)
    if ids:
        r.srem(keys.player_games(player_id), *ids)


def game_counts(r: Redis, player_ids: Iterable[str]) -> dict[str, int]:
    """How many unfinished games each player sits in (one round trip)."""
    ids = list(dict.fromkeys(player_ids))
    pipe = r.pipeline(transaction=False)
    for pid in ids:
        pipe.scard(keys.player_games(pid))
    return dict(zip(ids, (int(n) for n in pipe.execute()), strict=True))


def games(r: Redis, player_id: str) -> list[str]:
    """Ids of the unfinished games the player sits in, sorted."""
    return sorted(text(g) for g in r.smembers(keys.player_games(player_id)))


def wake(
    r: Redis,
    player_ids: Iterable[str],
    game_id: str,
    turns: Mapping[str, bytes] | None = None,
    version: int | None = None,
) -> None:
    """Wake the players' ``/me/turns`` waiters and turn streams. Repeatable, and only a hint.

    Losing a wake-up delays a waiter until its next read, never loses a turn:
    the truth about whose turn it is stays in the game state.

    Args:
        turns: per player, its turns in this game already rendered (a JSON list),
            which a turn stream pushes as they are instead of reading the game.
        version: the game's version those turns were rendered at.
    """
    pipe = r.pipeline(transaction=False)
    queue_wake(pipe, player_ids, game_id, turns, version)
    pipe.execute()


def queue_wake(
    pipe,
    player_ids: Iterable[str],
    game_id: str,
    turns: Mapping[str, bytes] | None = None,
    version: int | None = None,
) -> None:
    """Queue :func:`wake`'s commands on a pipeline (one reply per player)."""
    for pid in set(player_ids):
        fields: dict[str, str | bytes | int] = {"g": game_id}
        if turns and pid in turns and version is not None:
            fields["t"], fields["v"] = turns[pid], version
        pipe.xadd(keys.player_wake(pid), fields, maxlen=WAKE_KEEP, approximate=False)


def wake_invited(r: Redis, invitations: Iterable[tuple[str, str]]) -> None:
    """Tell each ``(player_id, invitation_id)``'s turn stream that an invitation came."""
    pipe = r.pipeline(transaction=False)
    for pid, invitation_id in invitations:
        pipe.xadd(keys.player_wake(pid), {"i": invitation_id}, maxlen=WAKE_KEEP, approximate=False)
    pipe.execute()


@dataclass(frozen=True, slots=True)
class Wake:
    """One wake-up: its stream id, and the game with the turns rendered at ``version``,
    or an ``invitation`` (an id) for the player to answer."""

    id: bytes
    game_id: str
    version: int | None
    turns: bytes | None
    invitation: str | None = None


def wake_reader(r: Redis) -> Redis:
    """A client holding one connection of ``r``'s pool for a stream's whole life: its
    blocking reads skip the pool's checkout and checks each time. ``close()`` it."""
    if isinstance(r, RedisCluster):  # a cluster client picks its node per key
        return r
    return Redis(connection_pool=r.connection_pool, single_connection_client=True)


def read_wakes(r: Redis, player_id: str, after: bytes, block_ms: int) -> list[Wake]:
    """The wake-ups newer than ``after``, oldest first, waiting up to ``block_ms``."""
    got: Any = r.xread({keys.player_wake(player_id): after}, block=max(1, block_ms))
    return [_wake(wid, fields) for wid, fields in got[0][1]] if got else []


def read_wakes_checked(
    reader: Redis, player_id: str, after: bytes, block_ms: int
) -> tuple[list[Wake], PlayerRecord | None]:
    """:func:`read_wakes`, and the player's record (for the token check) read just after
    the wait ends, in the same round trip: Redis runs a connection's commands in order,
    so the ``HMGET`` queued behind the blocking ``XREAD`` runs once the wake-ups came.
    A turn stream checks its token at every push, after a rotation too, for nothing.
    ``reader`` is a :func:`wake_reader` (on a cluster: two reads, the record second)."""
    conn = getattr(reader, "connection", None)
    if conn is None:
        return read_wakes(reader, player_id, after, block_ms), get(reader, player_id)
    wait = ("XREAD", "BLOCK", max(1, block_ms), "STREAMS", keys.player_wake(player_id), after)
    conn.send_packed_command(
        conn.pack_commands([wait, ("HMGET", keys.player(player_id), "name", "token_sha256")])
    )
    try:
        got, record = conn.read_response(), conn.read_response()
    except BaseException:  # a reply may be left unread: the connection is no use now
        conn.disconnect()
        raise
    if not got:
        return [], parse(player_id, record)
    streams = got.values() if isinstance(got, dict) else (entries for _, entries in got)
    entries = next(iter(streams))
    wakes = [_wake(wid, dict(zip(flat[::2], flat[1::2], strict=True))) for wid, flat in entries]
    return wakes, parse(player_id, record)


def _wake(wid: bytes, f: dict[bytes, bytes]) -> Wake:
    """A wake-up as :func:`queue_wake` and :func:`wake_invited` write it."""
    return Wake(
        wid,
        text(f.get(b"g", b"")),
        int(f[b"v"]) if b"v" in f else None,
        f.get(b"t"),
        text(f[b"i"]) if b"i" in f else None,
    )


def turn_snapshot(r: Redis, player_id: str) -> tuple[bytes, list[str]]:
    """The newest wake-up id and the player's games, in one round trip.

    Reading the wake id *before* the games is what makes the long-poll safe: a
    commit after this read adds a newer wake-up, so the following
    :func:`wait_wake` returns at once; a commit before it shows in the games.
    """
    pipe = r.pipeline(transaction=False)
    pipe.xrevrange(keys.player_wake(player_id), count=1)
    pipe.smembers(keys.player_games(player_id))
    newest, members = pipe.execute()
    last = newest[0][0] if newest else b"0-0"
    return last, sorted(m.decode() for m in members)


def turn_snapshot_checked(r: Redis, player_id: str) -> tuple[bytes, list[str], PlayerRecord | None]:
    """:func:`turn_snapshot` and the player's record (the token check), in the same round
    trip: a long-poll of turns checks its token after every wait for nothing."""
    pipe = r.pipeline(transaction=False)
    pipe.xrevrange(keys.player_wake(player_id), count=1)
    pipe.smembers(keys.player_games(player_id))
    queue_get(pipe, player_id)
    newest, members, record = pipe.execute()
    last = newest[0][0] if newest else b"0-0"
    return last, sorted(m.decode() for m in members), parse(player_id, record)


def wait_wake(r: Redis, player_id: str, after: bytes, block_ms: int) -> bool:
    """Block up to ``block_ms`` for a wake-up newer than ``after``; True if one came."""
    if block_ms <= 0:
        return False
    return bool(r.xread({keys.player_wake(player_id): after}, count=1, block=block_ms))

"""Callbacks in Redis: each player's callback, the stream of turns to dispatch, and the
books the dispatchers keep on each callback (its health).

* ``p:{player}:callback`` — the URL, the signing secret (kept as given: it signs)
  and when it was set; ``cb:{q}:players`` lists the players that have one, so a
  commit looks its movers up in one script (``lua/queue_callbacks.lua``).
* ``cb:{q}:turns`` — a stream read by the consumer group :data:`GROUP`: an entry
  per turn (game, version, seat, player). A dispatcher reads new entries
  (``XREADGROUP``), claims those another left pending too long (``XAUTOCLAIM``),
  keeps claiming those it holds (``XCLAIM``: their idle time reset), and acks
  and deletes an entry once its turn is answered or stale.
* ``p:{player}:cbstats``, ``:cblatency``, ``:cbfailures`` — counters, the latest
  answer times and the latest failures.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import orjson
from redis import Redis
from redis.exceptions import ResponseError

from . import keys
from .players import REVOKED
from .scripts import Scripts

GROUP = "dispatchers"
"""The consumer group of the dispatchers on :func:`keys.callback_turns`."""
QUEUED_TTL = 86400
"""Seconds a turn's "queued" marker lives (a repeated step queues it once)."""
LATENCIES_KEPT = 200
FAILURES_KEPT = 5
COUNTERS = ("calls", "timeouts", "errors", "refused_moves", "stale", "moves")


# -- registration --------------------------------------------------------------------
def put(r: Redis, player_id: str, url: str, secret: str, since: float) -> None:
    """Set or replace the player's callback (the record first, then the lookup set)."""
    pipe = r.pipeline(transaction=True)
    pipe.delete(keys.player_callback(player_id))
    pipe.hset(
        keys.player_callback(player_id), mapping={"url": url, "secret": secret, "since": since}
    )
    pipe.execute()
    r.sadd(keys.callback_players(), player_id)


def get(r: Redis, player_id: str) -> dict[str, Any] | None:
    """``{"url", "secret", "since"}``, or None when the player has no callback."""
    got: dict[Any, Any] = r.hgetall(keys.player_callback(player_id))
    if not got or b"url" not in got:
        return None
    return {
        "url": got[b"url"].decode(),
        "secret": got[b"secret"].decode(),
        "since": float(got[b"since"]),
    }


def rotate(r: Redis, scripts: Scripts, player_id: str, secret: str) -> str | None:
    """A new secret for the player's callback; its URL, or None (no callback)."""
    url = scripts.rotate_callback(keys=[keys.player_callback(player_id)], args=[secret], client=r)
    return None if url is None else (url.decode() if isinstance(url, bytes) else str(url))


def delete(r: Redis, player_id: str) -> bool:
    """Remove the player's callback (the lookup first: no new turn is queued); True if
    there was one."""
    r.srem(keys.callback_players(), player_id)
    return bool(r.delete(keys.player_callback(player_id)))


def swap_token(
    r: Redis, scripts: Scripts, player_id: str, old: str | None, new: str, secret: str | None
) -> tuple[bool, str | None]:
    """:func:`players.swap_token` (``new``: a token's hash, or ``players.REVOKED``) and,
    in the same script, the callback removed (``secret`` None) or given ``secret``.

    Returns whether the token was swapped (nothing changes when it is not), and the
    callback's URL (None: there was none). A removed callback leaves the lookup set
    last: while it is still listed, :func:`get` finds nothing, and nothing is called.
    """
    got = scripts.swap_player_token(
        keys=[keys.player(player_id), keys.player_callback(player_id)],
        args=[old or "", new, secret or ""],
        client=r,
    )
    if got == 0:
        return False, None
    url = _text(got) or None
    if secret is None:
        r.srem(keys.callback_players(), player_id)
    return True, url


def live(r: Redis) -> list[str]:
    """Every player with a callback that can be called: its record set (the lookup set
    may still list one a revocation just removed) and its token not revoked."""
    pids = players(r)
    pipe = r.pipeline(transaction=False)
    for pid in pids:
        pipe.exists(keys.player_callback(pid))
        pipe.hget(keys.player(pid), "token_sha256")
    replies = pipe.execute()
    return [
        pid
        for pid, has, digest in zip(pids, replies[::2], replies[1::2], strict=True)
        if has and digest is not None and _text(digest) != REVOKED
    ]


def having(r: Redis, player_ids: Sequence[str]) -> set[str]:
    """Those of ``player_ids`` that have a callback (one command)."""
    if not player_ids:
        return set()
    found: list[Any] = r.smismember(keys.callback_players(), list(player_ids))
    return {pid for pid, yes in zip(player_ids, found, strict=True) if yes}


def players(r: Redis) -> list[str]:
    """Every player with a callback."""
    members: set[Any] = r.smembers(keys.callback_players())
    return sorted(_text(m) for m in members)


# -- the turns to dispatch ------------------------------------------------------------
def queue(
    r: Redis, scripts: Scripts, game_id: str, version: int, movers: Sequence[tuple[int, str]]
) -> int:
    """Queue the turns of ``movers`` (seat, player) whose player has a callback, each once
    however often it is called; returns how many were queued."""
    if not movers:
        return 0
    args: list[Any] = [game_id, version, QUEUED_TTL]
    markers = []
    for seat, player_id in movers:
        args += [seat, player_id]
        markers.append(keys.callback_queued(game_id, version, seat))
    return int(
        scripts.queue_callbacks(
            keys=[keys.callback_players(), keys.callback_turns(), *markers],
            args=args,
            client=r,
        )
    )


def unqueued(
    r: Redis, turns: Sequence[tuple[str, int, int, str]]
) -> list[tuple[str, int, int, str]]:
    """Those of ``turns`` (game, version, seat, player) never queued (no marker): one
    command (the markers share a slot)."""
    if not turns:
        return []
    found: list[Any] = r.mget([keys.callback_queued(g, v, s) for g, v, s, _ in turns])
    return [t for t, marker in zip(turns, found, strict=True) if marker is None]


def games_of(r: Redis, player_ids: Sequence[str]) -> dict[str, list[str]]:
    """Per player, the ids of the unfinished games it sits in (one batch)."""
    pipe = r.pipeline(transaction=False)
    for pid in player_ids:
        pipe.smembers(keys.player_games(pid))
    replies = pipe.execute()
    pairs = zip(player_ids, replies, strict=True)
    return {pid: sorted(_text(g) for g in got) for pid, got in pairs}


def ensure_group(r: Redis) -> None:
    """Create the dispatchers' group (and the stream) unless they exist."""
    try:
        r.xgroup_create(keys.callback_turns(), GROUP, id="0", mkstream=True)
    except ResponseError as exc:
        if "BUSYGROUP" not in str(exc):
            raise


def _entries(reply: Iterable[Any]) -> list[tuple[str, dict[str, str]]]:
    out: list[tuple[str, dict[str, str]]] = []
    for entry_id, fields in reply:
        if fields is None:  # deleted while pending: nothing to do but ack it
            out.append((_text(entry_id), {}))
            continue
        out.append((_text(entry_id), {_text(k): _text(v) for k, v in fields.items()}))
    return out


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def read_new(
    r: Redis, consumer: str, count: int, block_ms: int
) -> list[tuple[str, dict[str, str]]]:
    """Up to ``count`` entries no dispatcher has read, now pending for ``consumer``."""
    reply: Any = r.xreadgroup(
        GROUP, consumer, {keys.callback_turns(): ">"}, count=count, block=block_ms
    )
    return [e for _, entries in reply or [] for e in _entries(entries)]


def claim_idle(
    r: Redis, consumer: str, min_idle_ms: int, count: int
) -> list[tuple[str, dict[str, str]]]:
    """Up to ``count`` entries pending for ``min_idle_ms`` or more (their dispatcher died),
    now pending for ``consumer``."""
    reply: Any = r.xautoclaim(
        keys.callback_turns(), GROUP, consumer, min_idle_ms, "0-0", count=count
    )
    return _entries(reply[1] if reply else [])


def hold(r: Redis, consumer: str, entry_ids: Sequence[str]) -> None:
    """The entries stay ``consumer``'s, their idle time reset (``XCLAIM ... JUSTID``,
    delivery counts unchanged); an entry acked meanwhile is not pending: left alone."""
    if entry_ids:
        r.xclaim(keys.callback_turns(), GROUP, consumer, 0, list(entry_ids), justid=True)


def ack(r: Redis, entry_id: str) -> None:
    """The entry's turn is answered or stale: done for every dispatcher."""
    pipe = r.pipeline(transaction=True)
    pipe.xack(keys.callback_turns(), GROUP, entry_id)
    pipe.xdel(keys.callback_turns(), entry_id)
    pipe.execute()


def pending(r: Redis) -> int:
    """Entries read by some dispatcher and not acked yet."""
    try:
        return int(r.xpending(keys.callback_turns(), GROUP)["pending"])
    except ResponseError:  # no group yet
        return 0


# -- the books ------------------------------------------------------------------------
def record(
    r: Redis,
    player_id: str,
    counts: dict[str, int],
    latency_ms: int | None,
    failure: dict[str, Any] | None,
) -> None:
    """Add one call's outcome to the player's books (one MULTI in its slot)."""
    pipe = r.pipeline(transaction=True)
    _queue_books(pipe, player_id, counts, latency_ms, failure)
    pipe.execute()


def finish(
    r: Redis,
    entry_id: str,
    books: tuple[str, dict[str, int], int | None, dict[str, Any] | None] | None,
) -> None:
    """:func:`record` ``books`` (player, counts, latency, failure; None: nothing to
    count), then :func:`ack` the entry: one batch (the books' keys and the stream's are
    in two slots; a cluster client splits the batch by node, in order)."""
    pipe = r.pipeline(transaction=False)
    if books is not None:
        _queue_books(pipe, *books)
    pipe.xack(keys.callback_turns(), GROUP, entry_id)
    pipe.xdel(keys.callback_turns(), entry_id)
    pipe.execute()


def _queue_books(
    pipe: Any,
    player_id: str,
    counts: dict[str, int],
    latency_ms: int | None,
    failure: dict[str, Any] | None,
) -> None:
    for name, n in counts.items():
        pipe.hincrby(keys.player_callback_stats(player_id), name, n)
    if latency_ms is not None:
        pipe.lpush(keys.player_callback_latency(player_id), latency_ms)
        pipe.ltrim(keys.player_callback_latency(player_id), 0, LATENCIES_KEPT - 1)
    if failure is not None:
        pipe.lpush(keys.player_callback_failures(player_id), orjson.dumps(failure))
        pipe.ltrim(keys.player_callback_failures(player_id), 0, FAILURES_KEPT - 1)


def books(
    r: Redis, player_ids: Sequence[str]
) -> dict[str, tuple[dict[str, int], list[int], list[dict[str, Any]]]]:
    """Per player: its counters, its latest answer times (ms) and failures (newest first)."""
    pipe = r.pipeline(transaction=False)
    for pid in player_ids:
        pipe.hgetall(keys.player_callback_stats(pid))
        pipe.lrange(keys.player_callback_latency(pid), 0, -1)
        pipe.lrange(keys.player_callback_failures(pid), 0, -1)
    replies = pipe.execute()
    out = {}
    for i, pid in enumerate(player_ids):
        counts, latencies, failures = replies[3 * i : 3 * i + 3]
        out[pid] = (
            {name: int(counts.get(name.encode(), 0)) for name in COUNTERS},
            [int(x) for x in latencies],
            [orjson.loads(f) for f in failures],
        )
    return out

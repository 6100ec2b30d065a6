"""Player bots in Redis: each bot, its uploaded versions, its player identities, the
stream of hosted turns the sandbox workers share, their heartbeats and each game's
hosted seats (the version that played, the stderr tail).

* ``bt:{bot}:bot`` — the bot (owner, name, kind, identities, latest version and,
  while its health sweep has it paused, ``paused_reason`` and ``paused_since``);
  ``bt:{bot}:failing`` — its hosted turns failed in a row and the last one;
  ``bt:{bot}:v:{n}`` — version ``n``'s bundle (a tar) and its digest;
  ``p:{owner}:bots`` — the owner's bots; ``hb:{q}:identities`` — identity -> bot.
* ``hb:{q}:players`` — the identities of hosted bots: a commit queues their turns on
  ``hb:{q}:turns`` (each once: ``hb:{q}:queued:{game}:{version}:{seat}``, a day;
  the callbacks' script over these keys, ``lua/queue_callbacks.lua``), read by the
  consumer group :data:`GROUP` exactly as the dispatchers read theirs.
* ``hb:{q}:hosts`` — each sandbox worker's heartbeat (JSON ``ok``, ``reason``,
  ``until``, ``seats``): whether its host can sandbox.
* ``g:{game}:bots`` — per hosted seat of a game: the bot, the version pinned at its
  first turn, the failures by kind and the stderr tail.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from typing import Any

import orjson
from redis import Redis
from redis.exceptions import ResponseError

from . import keys
from .scripts import Scripts

IDENTITY_PREFIX = "pb"
"""A player bot's identities' ids start so (a registered player's id is hex)."""
GROUP = "sandboxes"
"""The consumer group of the sandbox workers on :func:`keys.hosted_turns`."""
QUEUED_TTL = 86400
SEATS_TTL = 30 * 86400
"""Seconds a game's hosted seats (versions, logs) are kept after their last write."""


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


# -- bots and versions ------------------------------------------------------------------
def create(r: Redis, bot: dict[str, Any]) -> None:
    """Store a new bot (``id``, ``owner``, ``name``, ``kind``, ``identities``, ``created``,
    ``url``), index its identities, and list them as hosted when it is."""
    pipe = r.pipeline(transaction=False)
    fields: dict[str | bytes, Any] = {
        k: v for k, v in bot.items() if k not in ("identities", "id") and v is not None
    }
    fields["identities"] = orjson.dumps(bot["identities"])
    fields["version"] = 0
    pipe.hset(keys.bot(bot["id"]), mapping=fields)
    pipe.sadd(keys.player_bots(bot["owner"]), bot["id"])
    pipe.hset(keys.bot_identities(), mapping={pid: bot["id"] for pid in bot["identities"]})
    pipe.execute()


def list_hosted(r: Redis, identities: Sequence[str]) -> None:
    """The identities play hosted: their turns are queued for the sandbox workers."""
    if identities:
        r.sadd(keys.hosted_players(), *identities)


def get(r: Redis, bot_id: str) -> dict[str, Any] | None:
    got: dict[Any, Any] = r.hgetall(keys.bot(bot_id))
    if not got or b"owner" not in got:
        return None
    out: dict[str, Any] = {_text(k): _text(v) for k, v in got.items()}
    out["id"] = bot_id
    out["identities"] = orjson.loads(got[b"identities"])
    out["version"] = int(got[b"version"])
    out["created"] = float(got[b"created"])
    if b"paused_since" in got:
        out["paused_since"] = float(got[b"paused_since"])
    return out


def owned(r: Redis, owner_id: str) -> list[str]:
    members: set[Any] = r.smembers(keys.player_bots(owner_id))
    return sorted(_text(m) for m in members)


def bots_of(r: Redis, player_ids: Sequence[str]) -> dict[str, str]:
    """Those of ``player_ids`` that are bot identities, with their bot's id."""
    if not player_ids:
        return {}
    got: list[Any] = r.hmget(keys.bot_identities(), list(player_ids))
    return {pid: _text(b) for pid, b in zip(player_ids, got, strict=True) if b is not None}


def add_version(r: Redis, bot_id: str, bundle: bytes, sha256: str) -> int:
    """Store a new version's bundle; its number (the bot's latest from now on)."""
    n = int(r.hincrby(keys.bot(bot_id), "version", 1))
    r.hset(
        keys.bot_version(bot_id, n),
        mapping={"bundle": bundle, "sha256": sha256, "size": len(bundle), "created": time.time()},
    )
    return n


def version(r: Redis, bot_id: str, n: int) -> dict[str, Any] | None:
    """``{"bundle", "sha256", "size", "created", "games"}`` of version ``n``, or None
    (``games``: the seats of games it played, each seat of a side counted)."""
    got: dict[Any, Any] = r.hgetall(keys.bot_version(bot_id, n))
    if not got:
        return None
    return {
        "bundle": bytes(got[b"bundle"]),
        "sha256": _text(got[b"sha256"]),
        "size": int(got[b"size"]),
        "created": float(got[b"created"]),
        "games": int(got.get(b"games", 0)),
    }


# -- hosted turns ----------------------------------------------------------------------
def hosted_having(r: Redis, player_ids: Sequence[str]) -> set[str]:
    """Those of ``player_ids`` that are hosted identities (one command)."""
    if not player_ids:
        return set()
    found: list[Any] = r.smismember(keys.hosted_players(), list(player_ids))
    return {pid for pid, yes in zip(player_ids, found, strict=True) if yes}


def hosted_players(r: Redis) -> list[str]:
    members: set[Any] = r.smembers(keys.hosted_players())
    return sorted(_text(m) for m in members)


def queue(
    r: Redis, scripts: Scripts, game_id: str, version: int, movers: Sequence[tuple[int, str]]
) -> int:
    """Queue the turns of ``movers`` (seat, player) that are hosted identities, each once."""
    if not movers:
        return 0
    args: list[Any] = [game_id, version, QUEUED_TTL]
    markers = []
    for seat, player_id in movers:
        args += [seat, player_id]
        markers.append(keys.hosted_queued(game_id, version, seat))
    return int(
        scripts.queue_callbacks(
            keys=[keys.hosted_players(), keys.hosted_turns(), *markers], args=args, client=r
        )
    )


def unqueued(
    r: Redis, turns: Sequence[tuple[str, int, int, str]]
) -> list[tuple[str, int, int, str]]:
    if not turns:
        return []
    found: list[Any] = r.mget([keys.hosted_queued(g, v, s) for g, v, s, _ in turns])
    return [t for t, marker in zip(turns, found, strict=True) if marker is None]


def ensure_group(r: Redis) -> None:
    try:
        r.xgroup_create(keys.hosted_turns(), GROUP, id="0", mkstream=True)
    except ResponseError as exc:
        if "BUSYGROUP" not in str(exc):
            raise


def _entries(reply: Iterable[Any]) -> list[tuple[str, dict[str, str]]]:
    out: list[tuple[str, dict[str, str]]] = []
    for entry_id, fields in reply:
        got = {} if fields is None else {_text(k): _text(v) for k, v in fields.items()}
        out.append((_text(entry_id), got))
    return out


def read_new(
    r: Redis, consumer: str, count: int, block_ms: int
) -> list[tuple[str, dict[str, str]]]:
    reply: Any = r.xreadgroup(
        GROUP, consumer, {keys.hosted_turns(): ">"}, count=count, block=block_ms or None
    )
    return [e for _, entries in reply or [] for e in _entries(entries)]


def claim_idle(
    r: Redis, consumer: str, min_idle_ms: int, count: int
) -> list[tuple[str, dict[str, str]]]:
    reply: Any = r.xautoclaim(keys.hosted_turns(), GROUP, consumer, min_idle_ms, "0-0", count=count)
    return _entries(reply[1] if reply else [])


def hold(r: Redis, consumer: str, entry_ids: Sequence[str]) -> None:
    if entry_ids:
        r.xclaim(keys.hosted_turns(), GROUP, consumer, 0, list(entry_ids), justid=True)


def ack(r: Redis, entry_id: str) -> None:
    pipe = r.pipeline(transaction=True)
    pipe.xack(keys.hosted_turns(), GROUP, entry_id)
    pipe.xdel(keys.hosted_turns(), entry_id)
    pipe.execute()


def pending(r: Redis) -> int:
    try:
        return int(r.xpending(keys.hosted_turns(), GROUP)["pending"])
    except ResponseError:
        return 0


# -- sandbox hosts ---------------------------------------------------------------------
def heartbeat(r: Redis, consumer: str, beat: dict[str, Any]) -> None:
    r.hset(keys.sandbox_hosts(), consumer, orjson.dumps(beat))


def hosts(r: Redis) -> dict[str, dict[str, Any]]:
    got: dict[Any, Any] = r.hgetall(keys.sandbox_hosts())
    return {_text(k): orjson.loads(v) for k, v in got.items()}


def forget_host(r: Redis, consumer: str) -> None:
    r.hdel(keys.sandbox_hosts(), consumer)


# -- a game's hosted seats ---------------------------------------------------------------
def pin(r: Redis, game_id: str, seat: int, bot_id: str, version: int) -> int:
    """The version that plays ``seat`` of the game: the first one pinned stays (and
    counts one game of that version's)."""
    blob = orjson.dumps({"bot": bot_id, "version": version, "stderr": "", "failures": {}})
    pipe = r.pipeline(transaction=True)
    pipe.hsetnx(keys.game_bots(game_id), str(seat), blob)
    pipe.hget(keys.game_bots(game_id), str(seat))
    pipe.expire(keys.game_bots(game_id), SEATS_TTL)
    fresh, got, _ = pipe.execute()
    pinned = int(orjson.loads(got)["version"])
    if fresh:  # the version's first turn in this seat: one more game of it
        r.hincrby(keys.bot_version(bot_id, pinned), "games", 1)
    return pinned


def seat_log(r: Redis, game_id: str, seat: int, stderr: str, failure: str | None) -> str | None:
    """Keep the seat's stderr tail and count ``failure`` (a kind), if any; the bot that
    plays the seat (None: no version was pinned to it)."""
    key = keys.game_bots(game_id)
    raw = r.hget(key, str(seat))
    if raw is None:
        return None
    got = orjson.loads(raw)  # type: ignore[arg-type]
    got["stderr"] = stderr
    if failure:
        got["failures"][failure] = got["failures"].get(failure, 0) + 1
    r.hset(key, str(seat), orjson.dumps(got))
    return str(got["bot"])


# -- health --------------------------------------------------------------------------------
FAILING_TTL = 7 * 86400
"""Seconds a bot's run of failed turns is kept after its last one."""


def turn_failed(r: Redis, bot_id: str, kind: str, game_id: str, seat: int) -> int:
    """One more hosted turn of the bot failed (``kind``, in that game's seat): how many
    in a row now."""
    key = keys.bot_failing(bot_id)
    pipe = r.pipeline(transaction=True)
    pipe.hincrby(key, "count", 1)
    pipe.hset(key, mapping={"kind": kind, "game": game_id, "seat": seat})
    pipe.expire(key, FAILING_TTL)
    return int(pipe.execute()[0])


def turn_played(r: Redis, bot_id: str) -> None:
    """A hosted turn of the bot played without failing: its run of failures ends."""
    r.delete(keys.bot_failing(bot_id))


def failing(r: Redis, bot_id: str) -> int:
    """The bot's hosted turns failed in a row."""
    return int(r.hget(keys.bot_failing(bot_id), "count") or 0)  # type: ignore[arg-type]


def pause(r: Redis, bot_id: str, reason: str, since: float) -> bool:
    """Pause the bot (its ladder entries are not matched) unless it is already; whether
    this paused it."""
    pipe = r.pipeline(transaction=True)
    pipe.hsetnx(keys.bot(bot_id), "paused_since", since)
    pipe.hsetnx(keys.bot(bot_id), "paused_reason", reason)
    fresh, _ = pipe.execute()
    return bool(fresh)


def resume(r: Redis, bot_id: str, now: float) -> None:
    """The owner resumes the bot: no pause, no run of failures, and ``resumed`` (timeouts
    before it no longer pause its ladder entries)."""
    pipe = r.pipeline(transaction=True)
    pipe.hdel(keys.bot(bot_id), "paused_since", "paused_reason")
    pipe.hset(keys.bot(bot_id), "resumed", now)
    pipe.delete(keys.bot_failing(bot_id))
    pipe.execute()


def health_of(r: Redis, bot_ids: Sequence[str]) -> dict[str, tuple[str | None, float, float]]:
    """Per bot: its pause's reason (None: not paused), since when, and when its owner
    last resumed it (0: never)."""
    pipe = r.pipeline(transaction=False)
    for bid in bot_ids:
        pipe.hmget(keys.bot(bid), ["paused_reason", "paused_since", "resumed"])
    out = {}
    for bid, (reason, since, resumed) in zip(bot_ids, pipe.execute(), strict=True):
        out[bid] = (
            None if reason is None else _text(reason),
            float(since or 0),
            float(resumed or 0),
        )
    return out


def game_seats(r: Redis, game_id: str) -> dict[int, dict[str, Any]]:
    got: dict[Any, Any] = r.hgetall(keys.game_bots(game_id))
    return {int(k): orjson.loads(v) for k, v in got.items()}


def owned_identities(r: Redis, owner_id: str, player_ids: Sequence[str]) -> set[str]:
    """Those of ``player_ids`` that are identities of a bot ``owner_id`` owns."""
    of = bots_of(r, player_ids)
    if not of:
        return set()
    pipe = r.pipeline(transaction=False)
    bot_ids = sorted(set(of.values()))
    for bid in bot_ids:
        pipe.hget(keys.bot(bid), "owner")
    owners = dict(zip(bot_ids, pipe.execute(), strict=True))
    return {p for p, b in of.items() if owners.get(b) is not None and _text(owners[b]) == owner_id}

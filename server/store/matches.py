"""Matches in Redis: the record, who agreed, each board's scored result.

Layout (under the hash tag ``{<match_id>}``, names from :mod:`keys`):

* ``m:{id}``         hash ``meta`` (JSON), ``status``, ``created``, ``finished``;
* ``m:{id}:agreed``  set of the named players who agreed;
* ``m:{id}:boards``  hash board number -> the board's result (JSON), ``HSETNX``: once;
* ``sched:matches``  (its own slot): the ids of the matches the scheduler drives;
* ``m:made:{player}`` (the player's slot): the ids of the matches a player made.

A board's result is a pure function of its two finished games, so two schedulers
scoring it write the same thing, and the second writes nothing.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import orjson
from redis import Redis
from redis.exceptions import WatchError

from . import keys


@dataclass
class MatchRecord:
    id: str
    meta: dict[str, Any]
    status: str
    created: float
    agreed: set[str] = field(default_factory=set)
    boards: dict[int, dict[str, Any]] = field(default_factory=dict)


def create(r: Redis, match_id: str, meta: dict[str, Any], status: str, agreed: set[str]) -> None:
    """Store a new match (and drive it, when it runs at once)."""
    pipe = r.pipeline(transaction=True)
    pipe.hset(keys.match(match_id), mapping={"meta": orjson.dumps(meta), "status": status,
                                             "created": repr(time.time())})  # fmt: skip
    if agreed:
        pipe.sadd(keys.match_agreed(match_id), *agreed)
    if status == "running":
        pipe.sadd(keys.matches_active(), match_id)
    pipe.execute()
    r.sadd(keys.player_matches(meta["created_by"]), match_id)  # another slot


def made_by(r: Redis, player_id: str) -> list[str]:
    """The ids of the matches ``player_id`` made."""
    return sorted(m.decode() if isinstance(m, bytes) else m
                  for m in r.smembers(keys.player_matches(player_id)))  # fmt: skip


def statuses(r: Redis, match_ids: list[str]) -> list[str | None]:
    """Each match's status (None: no such match)."""
    pipe = r.pipeline(transaction=False)
    for m in match_ids:
        pipe.hget(keys.match(m), "status")
    return [s.decode() if isinstance(s, bytes) else s for s in pipe.execute()]


def read(r: Redis, match_id: str) -> MatchRecord | None:
    """The match with who agreed and its boards, or None."""
    pipe = r.pipeline(transaction=False)
    pipe.hgetall(keys.match(match_id))
    pipe.smembers(keys.match_agreed(match_id))
    pipe.hgetall(keys.match_boards(match_id))
    head, agreed, boards = pipe.execute()
    if not head:
        return None
    text = {k.decode() if isinstance(k, bytes) else k: v for k, v in head.items()}
    status = text["status"]
    return MatchRecord(
        match_id,
        orjson.loads(text["meta"]),
        status.decode() if isinstance(status, bytes) else status,
        float(text["created"]),
        {a.decode() if isinstance(a, bytes) else a for a in agreed},
        {int(k): orjson.loads(v) for k, v in boards.items()},
    )


def agree(r: Redis, match_id: str, player_id: str) -> None:
    r.sadd(keys.match_agreed(match_id), player_id)


def start(r: Redis, match_id: str) -> bool:
    """Waiting -> running, once (True if this call started it)."""
    with r.pipeline(transaction=True) as pipe:
        while True:
            try:
                pipe.watch(keys.match(match_id))
                status = pipe.hget(keys.match(match_id), "status")
                if status not in (b"waiting", "waiting"):
                    pipe.unwatch()
                    return False
                pipe.multi()
                pipe.hset(keys.match(match_id), "status", "running")
                pipe.sadd(keys.matches_active(), match_id)
                pipe.execute()
                return True
            except WatchError:  # someone else wrote first: read again
                continue


def put_board(r: Redis, match_id: str, board: int, result: dict[str, Any]) -> None:
    r.hsetnx(keys.match_boards(match_id), str(board), orjson.dumps(result))


def finish(r: Redis, match_id: str, status: str) -> None:
    """Record the decision and stop driving the match."""
    pipe = r.pipeline(transaction=True)
    pipe.hset(keys.match(match_id), mapping={"status": status, "finished": repr(time.time())})
    pipe.srem(keys.matches_active(), match_id)
    pipe.execute()


def active(r: Redis) -> list[str]:
    return sorted(m.decode() if isinstance(m, bytes) else m
                  for m in r.smembers(keys.matches_active()))  # fmt: skip

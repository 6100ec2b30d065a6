"""Move clocks in Redis: per-seat deadlines, timeout counts, and the one deadline index.

Layout (names from :mod:`keys`):

* ``g:{id}:clock`` — one hash per clocked game, under the game's hash tag so that
  the scripts that commit a timeout touch one cluster slot: ``move_seconds``,
  ``policy`` (JSON), ``version`` (the game version its deadlines are for),
  ``d:<seat>`` (deadline of each seat to move, epoch seconds), ``t:<seat>``
  (timeouts so far) and ``forfeit`` (JSON, once a forfeit aborted the game).
  This hash is the truth about a game's deadlines.
* ``sched:deadlines`` — one sorted set, game id -> its earliest deadline, that the
  scheduler scans (docs/architecture.md). It is an index, kept up to date
  after each commit in a separate, repeatable step (another cluster slot): a
  stale or missing score delays a timeout until the scheduler checks the game
  again, never applies one early, because the scheduler re-reads the clock
  hash before it acts.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import orjson
from redis import Redis

from . import keys
from .errors import GameMissing, StaleVersion
from .replies import text
from .scripts import Scripts


@dataclass(frozen=True, slots=True)
class Clock:
    """A game's clock as stored."""

    move_seconds: float
    policy: dict[str, Any]
    version: int
    deadlines: dict[int, float]
    """Seat -> deadline (epoch seconds), for the seats to move at ``version``."""
    timeouts: dict[int, int]
    forfeit: dict[str, Any] | None

    def earliest(self) -> float | None:
        """The earliest deadline of any seat, or None when nobody is waited for."""
        return min(self.deadlines.values(), default=None)


def initial(
    move_seconds: float, policy: Mapping[str, Any], to_move: Iterable[int], now: float
) -> dict[str, Any]:
    """The clock hash of a new game (version 0): every seat to move gets ``move_seconds``."""
    fields: dict[str, Any] = {
        "move_seconds": repr(float(move_seconds)),
        "policy": orjson.dumps(dict(policy)),
        "version": 0,
    }
    for seat in to_move:
        fields[f"d:{seat}"] = repr(now + move_seconds)
    return fields


def parse(raw: Mapping[bytes, bytes]) -> Clock | None:
    """A clock from its hash (None when the game has no clock)."""
    if b"move_seconds" not in raw:
        return None
    deadlines: dict[int, float] = {}
    timeouts: dict[int, int] = {}
    for name, value in raw.items():
        if name.startswith(b"d:"):
            deadlines[int(name[2:])] = float(value)
        elif name.startswith(b"t:"):
            timeouts[int(name[2:])] = int(value)
    forfeit = raw.get(b"forfeit")
    return Clock(
        move_seconds=float(raw[b"move_seconds"]),
        policy=orjson.loads(raw[b"policy"]),
        version=int(raw.get(b"version", b"-1")),
        deadlines=deadlines,
        timeouts=timeouts,
        forfeit=orjson.loads(forfeit) if forfeit else None,
    )


def read(r: Redis, game_id: str) -> Clock | None:
    """The game's clock, or None if it has none."""
    raw: dict[Any, Any] = r.hgetall(keys.game_clock(game_id))
    return parse(raw)


def read_many(r: Redis, game_ids: Sequence[str]) -> dict[str, Clock]:
    """The clocks of several games in one round trip (games without a clock are left out)."""
    pipe = r.pipeline(transaction=False)
    for gid in game_ids:
        pipe.hgetall(keys.game_clock(gid))
    found = {gid: parse(raw) for gid, raw in zip(game_ids, pipe.execute(), strict=True)}
    return {gid: clock for gid, clock in found.items() if clock is not None}


def arm(
    r: Redis,
    scripts: Scripts,
    game_id: str,
    *,
    version: int,
    to_move: Sequence[int],
    mover: int | None,
    fresh: float,
    restart: bool = False,
) -> dict[int, float] | None:
    """Set the deadlines for ``version`` (see ``lua/arm_clock.lua``); repeatable.

    Args:
        version: the game version just committed.
        to_move: the seats to move at that version.
        mover: the seat whose move made that version (it starts afresh if still to move).
        fresh: now + move_seconds.
        restart: give every seat to move a fresh deadline (a lost arming, found late).

    Returns:
        Seat -> deadline at ``version``, or None if the clock already covered it.
    """
    who = -2 if restart else (-1 if mover is None else mover)
    reply = scripts.arm_clock(
        keys=[keys.game_clock(game_id)],
        args=[version, repr(fresh), who, *to_move],
        client=r,
    )
    if reply[0] != 1:
        return None
    pairs = reply[1:]
    return {int(pairs[i]): float(pairs[i + 1]) for i in range(0, len(pairs), 2)}


def commit_timeout(
    r: Redis,
    scripts: Scripts,
    game_id: str,
    *,
    expected_version: int,
    state: dict[str, Any],
    status: str,
    move: dict[str, Any],
    seat: int,
    forfeit: dict[str, Any] | None,
    events: Sequence[dict[str, Any]],
) -> tuple[int, int]:
    """Commit a timeout's default move or forfeit with its timeout count, atomically.

    The new version's deadlines are set afterwards by :func:`arm`, as after any move.

    Returns:
        ``(new_version, last_event_number)``.

    Raises:
        StaleVersion: the game moved on (a move arrived in time); nothing was written.
        GameMissing: no such game.
    """
    args: list[Any] = [
        expected_version,
        orjson.dumps(state),
        status,
        orjson.dumps(move),
        seat,
        orjson.dumps(forfeit) if forfeit else "",
    ]
    args += [orjson.dumps(e) for e in events]
    reply = scripts.commit_timeout(
        keys=[
            keys.game_state(game_id),
            keys.game_events(game_id),
            keys.game_moves(game_id),
            keys.game_clock(game_id),
        ],
        args=args,
        client=r,
    )
    if reply[0] == 1:
        return int(reply[1]), int(reply[2])
    if reply[0] == 0:
        raise StaleVersion(int(reply[1]))
    raise GameMissing()


# -- the deadline index ------------------------------------------------------------------
def index(r: Redis, game_id: str, deadline: float | None) -> None:
    """Point the index at the game's earliest deadline (None: nothing to wait for)."""
    if deadline is None:
        r.zrem(keys.deadlines(), game_id)
    else:
        r.zadd(keys.deadlines(), {game_id: deadline})


def ensure_indexed(r: Redis, game_ids: Iterable[str], now: float) -> None:
    """Add the games missing from the index as due now (the scheduler then checks them).

    The safety net for a crash between a game's creation or commit and its
    indexing; games already indexed keep their score (``ZADD NX``).
    """
    mapping = {gid: now for gid in game_ids}
    if mapping:
        r.zadd(keys.deadlines(), mapping, nx=True)


def due(r: Redis, now: float, limit: int = 200) -> list[str]:
    """Ids of the games whose indexed deadline is at or before ``now``, earliest first."""
    ids: list[Any] = r.zrangebyscore(keys.deadlines(), "-inf", now, 0, limit)
    return [text(g) for g in ids]

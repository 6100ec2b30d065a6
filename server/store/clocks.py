"""Move clocks in Redis: per-seat deadlines, timeout counts, and the one deadline index.

Layout (names from :mod:`keys`):

* ``g:{id}:clock`` — one hash per clocked game, under the game's hash tag so that
  the scripts that commit a move or a timeout touch one cluster slot:
  ``move_seconds``, ``bank_ms`` (each seat's time bank at the start, ms; absent
  in games clocked before banks: none), ``policy`` (JSON), ``version`` (the game
  version its deadlines are for), ``d:<seat>`` (deadline of each seat to move,
  epoch seconds: its turn's start + ``move_seconds`` + its bank left), ``s:<seat>``
  (when that seat's turn began, epoch seconds), ``b:<seat>`` (its bank left, ms;
  absent: the whole ``bank_ms``), ``l:<seat>`` (its last latency, ms: turn begun
  to move committed), ``t:<seat>`` (timeouts so far) and ``forfeit`` (JSON, once
  a forfeit aborted the game). This hash is the truth about a game's deadlines.
* ``sched:deadlines`` — one sorted set, game id -> its earliest deadline, that the
  scheduler scans (:meth:`server.services.clocks.Clocks.due`). It is an index, kept up to date
  after each commit in a separate, repeatable step (another cluster slot): a
  stale or missing score delays a timeout until the scheduler checks the game
  again, never applies one early, because the scheduler re-reads the clock
  hash before it acts.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
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
    bank_ms: int = 0
    """Each seat's time bank at the start of the game (ms)."""
    banks: dict[int, int] = field(default_factory=dict)
    """Seat -> its bank left (ms), for the seats that spent some (the others: ``bank_ms``)."""
    starts: dict[int, float] = field(default_factory=dict)
    """Seat -> when its current turn began (epoch seconds), for the seats to move."""
    latencies: dict[int, int] = field(default_factory=dict)
    """Seat -> its last latency (ms): from its turn's start to its move's commit."""

    def earliest(self) -> float | None:
        """The earliest deadline of any seat, or None when nobody is waited for."""
        return min(self.deadlines.values(), default=None)

    def bank_left(self, seat: int) -> int:
        """The seat's time bank left (ms)."""
        return self.banks.get(seat, self.bank_ms)

    def spend(self, seat: int, now: float) -> tuple[int, int] | None:
        """What a move of ``seat`` committed at ``now`` does to its clock:
        ``(bank_left, latency_ms)``, or None when the seat has no turn running.

        The latency is the time from the start of its turn (for a turn armed before
        starts were kept: its deadline less the per-move time and its bank); what
        of it runs past ``move_seconds`` comes out of its bank (never below zero).

        >>> c = Clock(2.0, {}, 3, {1: 105.5}, {}, None, 4000, {1: 1500}, {1: 102.0}, {})
        >>> c.spend(1, 103.25), c.spend(1, 105.0), c.spend(1, 107.0)
        ((1500, 1250), (500, 3000), (0, 5000))
        >>> Clock(2.0, {}, 3, {0: 104.0}, {}, None, 1000).spend(0, 102.5)  # no start kept
        (1000, 1500)
        """
        start = self.starts.get(seat)
        if start is None and seat in self.deadlines:
            start = self.deadlines[seat] - self.move_seconds - self.bank_left(seat) / 1000
        if start is None:
            return None
        latency = max(0, round((now - start) * 1000))
        over = max(0, latency - round(self.move_seconds * 1000))
        return max(0, self.bank_left(seat) - over), latency


def initial(
    move_seconds: float,
    policy: Mapping[str, Any],
    to_move: Iterable[int],
    now: float,
    bank_ms: int = 0,
) -> dict[str, Any]:
    """The clock hash of a new game (version 0): every seat to move starts its turn now,
    with ``move_seconds`` and its whole bank (``bank_ms``) before its deadline."""
    fields: dict[str, Any] = {
        "move_seconds": repr(float(move_seconds)),
        "bank_ms": int(bank_ms),
        "policy": orjson.dumps(dict(policy)),
        "version": 0,
    }
    for seat in to_move:
        fields[f"d:{seat}"] = repr(now + move_seconds + bank_ms / 1000)
        fields[f"s:{seat}"] = repr(now)
    return fields


def parse(raw: Mapping[bytes, bytes]) -> Clock | None:
    """A clock from its hash (None when the game has no clock)."""
    if b"move_seconds" not in raw:
        return None
    floats: dict[bytes, dict[int, float]] = {b"d:": {}, b"s:": {}}
    ints: dict[bytes, dict[int, int]] = {b"t:": {}, b"b:": {}, b"l:": {}}
    for name, value in raw.items():
        kind = name[:2]
        if kind in floats:
            floats[kind][int(name[2:])] = float(value)
        elif kind in ints:
            ints[kind][int(name[2:])] = int(float(value))
    forfeit = raw.get(b"forfeit")
    return Clock(
        move_seconds=float(raw[b"move_seconds"]),
        policy=orjson.loads(raw[b"policy"]),
        version=int(raw.get(b"version", b"-1")),
        deadlines=floats[b"d:"],
        timeouts=ints[b"t:"],
        forfeit=orjson.loads(forfeit) if forfeit else None,
        bank_ms=int(raw.get(b"bank_ms", b"0")),
        banks=ints[b"b:"],
        starts=floats[b"s:"],
        latencies=ints[b"l:"],
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
    now: float,
    restart: bool = False,
) -> tuple[dict[int, float], dict[int, float]] | None:
    """Set the deadlines for ``version`` (see ``lua/arm_clock.lua``); repeatable.

    Args:
        version: the game version just committed.
        to_move: the seats to move at that version.
        mover: the seat whose move made that version (it starts afresh if still to move).
        now: when a fresh turn starts; its deadline is now + move_seconds + the
            seat's bank left.
        restart: give every seat to move a fresh deadline (a lost arming, found late).

    Returns:
        ``(deadlines, starts)``: seat -> deadline and seat -> its turn's start at
        ``version``, or None if the clock already covered it.
    """
    who = -2 if restart else (-1 if mover is None else mover)
    reply = scripts.arm_clock(
        keys=[keys.game_clock(game_id)],
        args=[version, repr(now), who, *to_move],
        client=r,
    )
    if reply[0] != 1:
        return None
    rows = reply[1:]
    deadlines = {int(rows[i]): float(rows[i + 1]) for i in range(0, len(rows), 3)}
    starts = {int(rows[i]): float(rows[i + 2]) for i in range(0, len(rows), 3)}
    return deadlines, starts


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
    """Commit a timeout's default move or forfeit with its timeout count, atomically;
    the seat's bank is spent (it ran to its deadline: per-move time and bank).

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
    mapping: dict[str | bytes, float] = {gid: now for gid in game_ids}
    if mapping:
        r.zadd(keys.deadlines(), mapping, nx=True)


def due(r: Redis, now: float, limit: int = 200) -> list[str]:
    """Ids of the games whose indexed deadline is at or before ``now``, earliest first."""
    ids: list[Any] = r.zrangebyscore(keys.deadlines(), "-inf", now, 0, limit)
    return [text(g) for g in ids]


def due_among(r: Redis, game_ids: Sequence[str], now: float) -> list[str]:
    """Those of ``game_ids`` whose indexed deadline is at or before ``now``."""
    if not game_ids:
        return []
    scores: list[Any] = r.zmscore(keys.deadlines(), list(game_ids))
    return [g for g, at in zip(game_ids, scores, strict=True) if at is not None and at <= now]

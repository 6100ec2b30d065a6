"""Games in Redis: creation, the one-read snapshot, the Lua compare-and-set, the seats.

Layout (all under the hash tag ``{<game_id>}``, names from :mod:`keys`):

* ``g:{id}:game``   hash ``version``, ``state`` (the engine's ``to_dict`` as
  JSON), ``meta`` (JSON: game, options, seats count, commitment...),
  ``status``, ``seq`` (number of events so far), ``opening`` (the state as
  created: with the moves, it rebuilds any version for a finished replay);
* ``g:{id}:seats``  hash seat -> ``{"player_id", "name"}``;
* ``g:{id}:events`` stream, entry ``0-<n>`` holding event ``n`` as JSON;
* ``g:{id}:moves``  hash version -> the move accepted at that version.

A move is one read (:func:`read`), the engine in Python, then :func:`commit`:
one script that checks the version, writes the state and appends the events,
or writes nothing at all. The events and moves are read back by
:mod:`server.store.game_events`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson
from redis import Redis
from redis.cluster import RedisCluster
from redis.exceptions import NoScriptError, WatchError

from . import keys, players
from .errors import (
    AlreadySeated,
    GameMissing,
    GameStarted,
    NoOpenSeat,
    SeatHeld,
    SeatNotYours,
    SeatOpen,
    SeatTaken,
    StaleVersion,
)
from .players import PlayerRecord
from .replies import text
from .scripts import Scripts

_FIELDS = ("version", "status", "state", "meta", "seq")


@dataclass(slots=True)
class GameRecord:
    """One game as stored. ``state`` is the engine's dict, ``meta`` the service's."""

    id: str
    version: int
    status: str
    state: dict[str, Any]
    meta: dict[str, Any]
    seq: int = 0
    seats: dict[int, dict[str, Any]] = field(default_factory=dict)
    clock: dict[bytes, bytes] | None = None
    """The game's clock hash as read in the same round trip (``read(with_clock=True)``;
    empty for a game without a clock), or None when it was not read."""


@dataclass(slots=True)
class GameRead:
    """What one round trip of :func:`read` returns."""

    game: GameRecord | None
    player: PlayerRecord | None = None
    accepted: dict[str, Any] | None = None
    """The move accepted at the version asked for, when one was asked for."""


def _queue(pipe, game_id: str) -> None:
    pipe.hmget(keys.game_state(game_id), *_FIELDS)
    pipe.hgetall(keys.game_seats(game_id))


def _parse(game_id: str, fields: list[bytes | None], seats: dict[bytes, bytes]):
    version, status, state, meta, seq = fields
    if version is None or state is None or meta is None:
        return None
    return GameRecord(
        id=game_id,
        version=int(version),
        status=status.decode() if status else "waiting",
        state=orjson.loads(state),
        meta=orjson.loads(meta),
        seq=int(seq or 0),
        seats={int(k): orjson.loads(v) for k, v in seats.items()},
    )


def read(
    r: Redis,
    game_id: str,
    *,
    player_id: str | None = None,
    accepted_at: int | None = None,
    with_clock: bool = False,
) -> GameRead:
    """The game, the calling player and a past move, in one round trip.

    Args:
        game_id: the game.
        player_id: also read this player's record (the token check), pipelined.
        accepted_at: also read the move accepted at this version (safe retries).
        with_clock: also read the game's clock hash into ``GameRecord.clock`` (a move
            and a view need it for clocked games: a read that costs nothing here
            instead of a round trip of its own).
    """
    pipe = r.pipeline(transaction=False)
    _queue(pipe, game_id)
    if with_clock:
        pipe.hgetall(keys.game_clock(game_id))
    if player_id is not None:
        players.queue_get(pipe, player_id)
    if accepted_at is not None:
        pipe.hget(keys.game_moves(game_id), str(accepted_at))
    replies = pipe.execute()
    out = GameRead(_parse(game_id, replies[0], replies[1]))
    rest = replies[2:]
    if with_clock:
        clock = rest.pop(0)
        if out.game is not None:
            out.game.clock = clock
    if player_id is not None:
        out.player = players.parse(player_id, rest.pop(0))
    if accepted_at is not None and rest[0] is not None:
        out.accepted = orjson.loads(rest[0])
    return out


def read_many(r: Redis, game_ids: Sequence[str]) -> list[GameRecord]:
    """Several games in one round trip; missing ones are left out."""
    pipe = r.pipeline(transaction=False)
    for gid in game_ids:
        _queue(pipe, gid)
    replies = pipe.execute()
    found = (_parse(gid, replies[2 * i], replies[2 * i + 1]) for i, gid in enumerate(game_ids))
    return [g for g in found if g is not None]


def create(
    r: Redis,
    game: GameRecord,
    events: Iterable[dict[str, Any]],
    *,
    clock: Mapping[str, Any] | None = None,
    only_new: bool = False,
) -> int | None:
    """Store a new game with its opening events, atomically (one MULTI/EXEC, one slot).

    Args:
        game: the record; its id must be new unless ``only_new``.
        events: the opening events.
        clock: the move clock's initial fields (:func:`server.store.clocks.initial`).
        only_new: create the game only if no game has this id yet (WATCH on the
            game's hash): the scheduler derives tournament game ids, so whichever
            scheduler gets there first creates the game and any other is a no-op.

    Returns:
        The number of events stored, or None when ``only_new`` and the game existed.
    """
    events = list(events)
    with r.pipeline(transaction=True) as pipe:
        if only_new:
            try:
                pipe.watch(keys.game_state(game.id))
                if pipe.exists(keys.game_state(game.id)):
                    return None
                pipe.multi()
                _queue_create(pipe, game, events, clock)
                pipe.execute()
            except WatchError:
                return None
        else:
            _queue_create(pipe, game, events, clock)
            pipe.execute()
    return len(events)


def _queue_create(
    pipe, game: GameRecord, events: Sequence[dict[str, Any]], clock: Mapping[str, Any] | None
) -> None:
    for seq, event in enumerate(events, start=1):
        pipe.xadd(keys.game_events(game.id), {"e": orjson.dumps(event)}, id=f"0-{seq}")
    pipe.hset(
        keys.game_state(game.id),
        mapping={
            "version": game.version,
            "status": game.status,
            "state": orjson.dumps(game.state),
            "meta": orjson.dumps(game.meta),
            "seq": len(events),
            "opening": orjson.dumps(game.state),  # frames of the replay start here
        },
    )
    if game.seats:
        pipe.hset(
            keys.game_seats(game.id),
            mapping={str(s): orjson.dumps(v) for s, v in game.seats.items()},
        )
    if clock:
        pipe.hset(keys.game_clock(game.id), mapping=dict(clock))


def commit(
    r: Redis,
    scripts: Scripts,
    game_id: str,
    *,
    expected_version: int,
    state: dict[str, Any],
    status: str,
    move: dict[str, Any],
    events: Sequence[dict[str, Any]],
    wake: Sequence[str] = (),
    turns: Mapping[str, bytes] | None = None,
    clock: Mapping[str, int] | None = None,
) -> tuple[int, int]:
    """Write a move's result if the game is still at ``expected_version``.

    Args:
        clock: a clocked game's fields of the mover written with the move
            (``{"b:<seat>": bank left ms, "l:<seat>": latency ms}``).
        wake: players to wake once the move is in (the repeatable hint step that
            follows a commit, docs/architecture.md). On one Redis server the wake-ups ride in
            the commit's round trip: a pipeline runs its commands in order, so no
            waiter can see the wake-up before the move, and the wake-up script
            writes nothing unless this move is the one accepted at its version (a
            loser's turns would show a move that never happened). On a cluster
            the two slots may live on two nodes with no order between them, so the
            wake-ups follow the commit's reply.
        turns: the woken players' new turns, rendered, for their turn streams
            (:func:`players.wake`).

    Returns:
        ``(new_version, last_event_number)``.

    Raises:
        StaleVersion: the game moved on; nothing was written.
        GameMissing: the game does not exist.
    """
    record = orjson.dumps(move)
    args: list[Any] = [expected_version, orjson.dumps(state), status, record]
    args.append(orjson.dumps({k: str(v) for k, v in clock.items()}) if clock else "")
    args += [orjson.dumps(e) for e in events]
    names = [keys.game_state(game_id), keys.game_events(game_id), keys.game_moves(game_id)]
    if clock:
        names.append(keys.game_clock(game_id))
    woken = sorted(set(wake))
    waking = [keys.game_moves(game_id)] + [keys.player_wake(p) for p in woken]
    told: list[Any] = [expected_version, record, game_id, expected_version + 1, players.WAKE_KEEP]
    told += [(turns or {}).get(p, b"") for p in woken]
    if woken and not isinstance(r, RedisCluster):
        pipe = r.pipeline(transaction=False)
        # EVALSHA itself, not the Script object: a Script in a pipeline makes redis-py
        # ask SCRIPT EXISTS first, one more round trip on every move. The wake-up only
        # goes out if this very move was committed (wake_committed.lua).
        # (typeshed's Script has no .sha; redis-py's has)
        pipe.evalsha(scripts.commit_move.sha, len(names), *names, *args)  # type: ignore[attr-defined]
        pipe.evalsha(scripts.wake_committed.sha, len(waking), *waking, *told)  # type: ignore[attr-defined]
        reply, woke = pipe.execute(raise_on_error=False)
        if isinstance(reply, NoScriptError):  # a restarted Redis: load the script, go again
            reply = scripts.commit_move(keys=names, args=args, client=r)
            woke = reply  # the wake-up ran before the move was in: it wrote nothing
        for failed in (reply, woke):
            if isinstance(failed, Exception) and not isinstance(failed, NoScriptError):
                raise failed
        if woke is reply or isinstance(woke, NoScriptError):  # once the move is in
            scripts.wake_committed(keys=waking, args=told, client=r)
    else:
        reply = scripts.commit_move(keys=names, args=args, client=r)
        if woken and reply[0] == 1:
            players.wake(r, woken, game_id, turns, expected_version + 1)
    code = reply[0]
    if code == 1:
        return int(reply[1]), int(reply[2])
    if code == 0:
        accepted = orjson.loads(reply[2]) if len(reply) > 2 and reply[2] else None
        raise StaleVersion(int(reply[1]), accepted)
    raise GameMissing()


def join(
    r: Redis,
    scripts: Scripts,
    game_id: str,
    *,
    seat: int | None,
    player: PlayerRecord,
    allow_multiple: bool,
    num_seats: int,
) -> tuple[int, str]:
    """Take ``seat`` (or the lowest open one) atomically.

    Returns:
        ``(seat, status)``: the status is ``active`` once every seat is taken.

    Raises:
        SeatTaken, AlreadySeated, NoOpenSeat, GameMissing.
    """
    entry = orjson.dumps({"player_id": player.id, "name": player.name})
    reply = scripts.join_seat(
        keys=[keys.game_state(game_id), keys.game_seats(game_id)],
        args=[
            -1 if seat is None else seat,
            player.id,
            entry,
            "1" if allow_multiple else "0",
            num_seats,
        ],
        client=r,
    )
    code = reply[0]
    if code == 1:
        return int(reply[1]), reply[2].decode()
    if code == 0:
        raise SeatTaken(int(reply[1]))
    if code == -2:
        raise AlreadySeated(int(reply[1]))
    if code == -3:
        raise NoOpenSeat()
    raise GameMissing()


def leave(
    r: Redis, scripts: Scripts, game_id: str, *, seat: int, player_id: str | None
) -> tuple[str, int]:
    """Free ``seat`` of a waiting game atomically; ``player_id`` None is the admin's leave.

    The version is left unchanged (no move was made: a move retried with the version it
    read still means what it meant).

    Returns:
        ``(holder, left)``: who sat there, and how many seats of the game they still hold.

    Raises:
        GameMissing, GameStarted, SeatOpen, SeatNotYours, SeatHeld.
    """
    reply = scripts.leave_seat(
        keys=[keys.game_state(game_id), keys.game_seats(game_id)],
        args=[seat, player_id or ""],
        client=r,
    )
    code = reply[0]
    if code == 1:
        return reply[1].decode(), int(reply[2])
    if code == -4:
        raise GameStarted(reply[1].decode())
    if code == -5:
        raise SeatOpen(seat)
    if code == -6:
        raise SeatNotYours(seat)
    if code == -7:
        raise SeatHeld(seat)
    raise GameMissing()


def server_secret(r: Redis, fresh: str) -> str:
    """The server's deal secret: set once to ``fresh`` if absent, then always the same."""
    r.set(keys.server_secret(), fresh, nx=True)
    secret = r.get(keys.server_secret())
    assert secret is not None  # set just above if it was not
    return text(secret)

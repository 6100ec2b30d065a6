"""Tournaments in Redis: the record, entries, rounds, the games of each table, results.

Layout (all under the hash tag ``{<tournament_id>}``, names from :mod:`keys`):

* ``t:{id}``          hash ``meta`` (JSON), ``status``, ``created``, ``started``,
  ``finished``, ``seats_per_entry``, ``next_entry``, ``games_planned``, ``consented``
  (every player of every entry accepted, recorded with the start), ``error``,
  ``registration`` (``closed`` once the organiser closes it), ``join_code``;
* ``t:{id}:entries``  hash entry id -> JSON ``{"players": [...]}``, plus
  ``"pending"``: the players who have not accepted their invitation yet
  (:mod:`server.store.invitations`), ``"name"``: its team name, ``"reference"``: a house bot the
  organiser invited, ``"withdrawn"``:
  the rounds paired when it withdrew (:mod:`server.store.events`);
* ``t:{id}:players``  set of the player ids entered;
* ``t:{id}:rounds``   hash round index -> the round's pairing (``pairing.Round``);
* ``t:{id}:games``    hash ``<round>:<table>`` -> game id;
* ``t:{id}:results``  hash ``<round>:<table>`` -> the table's result;
* ``t:{id}:voids``    hash ``<round>:<table>`` -> the table's voided game ids;
* ``sched:tournaments`` (its own slot): the ids of the tournaments to drive.

Exactly once without locks: a round and a result are written with ``HSETNX``
(whoever comes second writes nothing, and would have written the same thing:
pairings and results are pure functions of what is already stored), and a
table's game id is derived from the tournament, round and table, so creating
it twice is impossible (``store.games.create(only_new=True)``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson
from redis import Redis
from redis.exceptions import WatchError

from . import keys
from .errors import StoreError
from .replies import Fields, text
from .scripts import Scripts


class TournamentMissing(StoreError):
    """No such tournament."""

    def __init__(self) -> None:
        super().__init__("no such tournament")


class EntriesClosed(StoreError):
    """Entries (and the start) are only possible while the tournament is open."""

    def __init__(self, status: str) -> None:
        super().__init__(f"the tournament is {status}: entries are closed")
        self.status = status


class AlreadyEntered(StoreError):
    """A player may be in one entry of a tournament only."""

    def __init__(self, player: str) -> None:
        super().__init__(f"player {player} is already entered")
        self.player = player


class WrongEntrySize(StoreError):
    """Every entry of a tournament has the same number of players."""

    def __init__(self, size: int) -> None:
        super().__init__(f"an entry of this tournament has {size} player(s)")
        self.size = size


class EntriesChanged(StoreError):
    """An entry arrived between the start's check and the start itself (check again)."""

    def __init__(self) -> None:
        super().__init__("the entries changed while starting")


def slot(round_index: int, table: int) -> str:
    """The field naming one table in the games and results hashes."""
    return f"{round_index}:{table}"


@dataclass(slots=True)
class TournamentRecord:
    """One tournament as stored: everything a snapshot and the API need, read at once."""

    id: str
    status: str
    meta: dict[str, Any]
    seats_per_entry: int | None
    created: float
    started: float | None = None
    finished: float | None = None
    error: str | None = None
    games_planned: int | None = None
    consented: bool = False
    """Set by a start whose every entry was accepted by all its players: only then
    are the tournament's games rated (:mod:`server.services.ratings`)."""
    entries: list[tuple[str, tuple[str, ...]]] = field(default_factory=list)
    """``(entry id, players)`` in seed order."""
    pending: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Entry id -> its players who have not accepted yet (held entries only)."""
    rounds: list[dict[str, Any]] = field(default_factory=list)
    """Every round so far (``pairing.Round.to_dict``), in order."""
    games: dict[str, str] = field(default_factory=dict)
    results: dict[str, dict[str, Any]] = field(default_factory=dict)
    entry_names: dict[str, str] = field(default_factory=dict)
    """Entry id -> its team name, for the entries given one."""
    reference: set[str] = field(default_factory=set)
    """The reference entries: house bots the organiser invited (their games are unrated)."""
    withdrawn: dict[str, int] = field(default_factory=dict)
    """Entry id -> the number of rounds paired when it withdrew (a running tournament's
    withdrawn entries: every table of theirs with no game yet is forfeited)."""
    join_code: str | None = None
    """Set by the organiser: a player entering itself must give it (never shown)."""
    registration_closed: bool = False
    """The organiser closed registration: no entry may be added, the tournament is open."""
    voids: dict[str, list[str]] = field(default_factory=dict)
    """``<round>:<table>`` -> the table's voided game ids, oldest first."""


def _float(value: bytes | None) -> float | None:
    return None if value is None else float(value)


def create(r: Redis, tournament_id: str, meta: dict[str, Any], now: float) -> None:
    """Store a new, open tournament (ids are random: no existence check needed)."""
    mapping: Fields = {"meta": orjson.dumps(meta), "status": "open", "created": repr(now)}
    if meta.get("seats_per_entry"):
        mapping["seats_per_entry"] = meta["seats_per_entry"]
    r.hset(keys.tournament(tournament_id), mapping=mapping)


def read(r: Redis, tournament_id: str) -> TournamentRecord | None:
    """The whole tournament in one round trip, or None."""
    pipe = r.pipeline(transaction=False)
    pipe.hgetall(keys.tournament(tournament_id))
    pipe.hgetall(keys.tournament_entries(tournament_id))
    pipe.hgetall(keys.tournament_rounds(tournament_id))
    pipe.hgetall(keys.tournament_games(tournament_id))
    pipe.hgetall(keys.tournament_results(tournament_id))
    pipe.hgetall(keys.tournament_voids(tournament_id))
    head, entries, rounds, games, results, voids = pipe.execute()
    if b"meta" not in head:
        return None
    spe = head.get(b"seats_per_entry")
    planned = head.get(b"games_planned")
    error = head.get(b"error")
    ordered = [(k.decode(), orjson.loads(v)) for k, v in entries.items()]
    ordered.sort(key=lambda kv: int(kv[0][1:]))
    return TournamentRecord(
        id=tournament_id,
        status=head[b"status"].decode(),
        meta=orjson.loads(head[b"meta"]),
        seats_per_entry=int(spe) if spe else None,
        created=float(head[b"created"]),
        started=_float(head.get(b"started")),
        finished=_float(head.get(b"finished")),
        error=error.decode() if error else None,
        games_planned=int(planned) if planned else None,
        consented=head.get(b"consented") == b"1",
        entries=[(k, tuple(v["players"])) for k, v in ordered],
        pending={k: tuple(v["pending"]) for k, v in ordered if v.get("pending")},
        entry_names={k: v["name"] for k, v in ordered if v.get("name")},
        reference={k for k, v in ordered if v.get("reference")},
        withdrawn={k: int(v["withdrawn"]) for k, v in ordered if v.get("withdrawn") is not None},
        registration_closed=head.get(b"registration") == b"closed",
        join_code=text(head[b"join_code"]) if head.get(b"join_code") else None,
        voids={k.decode(): orjson.loads(v) for k, v in voids.items()},
        rounds=[orjson.loads(rounds[k]) for k in sorted(rounds, key=int)],
        games={k.decode(): v.decode() for k, v in games.items()},
        results={k.decode(): orjson.loads(v) for k, v in results.items()},
    )


def add_entry(
    r: Redis,
    scripts: Scripts,
    tournament_id: str,
    players: Sequence[str],
    pending: Sequence[str] = (),
    name: str | None = None,
    reference: bool = False,
) -> str:
    """Enter ``players`` as one entry; returns the entry id (``e1``, ``e2``… in seed order).

    ``pending``: the players whose place is held until they accept an invitation;
    ``name``: the entry's team name, if it has one; ``reference``: a house bot the
    organiser invited, whose games are not rated.

    Raises:
        TournamentMissing, EntriesClosed, AlreadyEntered, WrongEntrySize.
    """
    reply = scripts.add_entry(
        keys=[
            keys.tournament(tournament_id),
            keys.tournament_entries(tournament_id),
            keys.tournament_players(tournament_id),
        ],
        args=[
            orjson.dumps(
                {
                    "players": list(players),
                    **({"pending": list(pending)} if pending else {}),
                    **({"name": name} if name else {}),
                    **({"reference": True} if reference else {}),
                }
            ),
            len(players),
            *players,
        ],
        client=r,
    )
    code = reply[0]
    if code == 1:
        return reply[1].decode()
    if code == -2:
        raise EntriesClosed(reply[1].decode())
    if code == -3:
        raise AlreadyEntered(reply[1].decode())
    if code == -4:
        raise WrongEntrySize(int(reply[1]))
    raise TournamentMissing()


def start(
    r: Redis,
    scripts: Scripts,
    tournament_id: str,
    *,
    entries: int,
    now: float,
    games_planned: int | None,
    consented: bool = False,
) -> None:
    """Close the entries and mark the tournament running (see ``lua/start_tournament.lua``).

    ``consented``: every player of every entry accepted; recorded with the start.

    The tournament joins the scheduler's set *before* its status flips: a crash
    in between leaves an open tournament in the set, which the scheduler skips,
    never a running one that no scheduler knows about.

    Raises:
        TournamentMissing, EntriesClosed, EntriesChanged.
    """
    r.sadd(keys.tournaments_active(), tournament_id)
    code = scripts.start_tournament(
        keys=[keys.tournament(tournament_id), keys.tournament_entries(tournament_id)],
        args=[
            repr(now),
            entries,
            "" if games_planned is None else games_planned,
            "1" if consented else "0",
        ],
        client=r,
    )
    if code == 1:
        return
    if code == -2:
        status = r.hget(keys.tournament(tournament_id), "status")
        raise EntriesClosed(text(status) if status else "started")
    if code == -3:
        raise EntriesChanged()
    raise TournamentMissing()


def put_round(
    r: Redis,
    tournament_id: str,
    round_: dict[str, Any],
    voids: dict[str, list[str]] | None = None,
) -> bool:
    """Store a round's pairing once; False if that round was already stored, or if a
    table was voided since ``voids`` (the voids the pairing was computed with) were read:
    the pairing may have read a result that is gone."""
    voids_key = keys.tournament_voids(tournament_id)
    with r.pipeline(transaction=True) as watched:
        pipe: Any = watched  # after WATCH its reads answer at once
        try:
            pipe.watch(voids_key)
            now = {text(k): orjson.loads(v) for k, v in pipe.hgetall(voids_key).items()}
            if now != (voids or {}):
                return False
            pipe.multi()
            pipe.hsetnx(
                keys.tournament_rounds(tournament_id), str(round_["index"]), orjson.dumps(round_)
            )
            return bool(pipe.execute()[0])
        except WatchError:
            return False


def set_games(r: Redis, tournament_id: str, games: dict[str, str]) -> None:
    """Record the game id of tables (``slot`` -> id); rewriting the same id is harmless."""
    if games:
        r.hset(keys.tournament_games(tournament_id), mapping=dict[Any, Any](games))


def put_results(r: Redis, tournament_id: str, results: dict[str, dict[str, Any]]) -> int:
    """Store table results (``slot`` -> result) once each; returns how many were new."""
    if not results:
        return 0
    pipe = r.pipeline(transaction=False)
    for name, result in results.items():
        pipe.hsetnx(keys.tournament_results(tournament_id), name, orjson.dumps(result))
    return sum(pipe.execute())


def finish(r: Redis, tournament_id: str, now: float, *, error: str | None = None) -> None:
    """Mark the tournament finished (or aborted, with ``error``) and stop driving it.

    Repeatable: a second call rewrites the same status (the time may move by
    a few milliseconds, nothing else).
    """
    mapping: Fields = {"status": "aborted" if error else "finished", "finished": repr(now)}
    if error:
        mapping["error"] = error
    r.hset(keys.tournament(tournament_id), mapping=mapping)
    r.srem(keys.tournaments_active(), tournament_id)


def active(r: Redis) -> list[str]:
    """Ids of the tournaments the scheduler drives (some may still be starting)."""
    return sorted(text(t) for t in r.smembers(keys.tournaments_active()))

"""Ladders in Redis: the record, entries, matches, their games and results, "seen waiting".

Layout (a ladder's keys share the hash tag ``{L<ladder_id>}``; every name is built by
:mod:`server.store.keys`):

* ``L:{id}``          hash ``meta`` (JSON), ``created``;
* ``L:{id}:entries``  hash player id -> JSON ``{"joined": epoch}`` (who joined, themselves),
  with ``"partner": <player id>`` on a ladder of fixed pairs (a pair plays once each
  names the other), ``"max_games"``, the entry's own cap on games at once, if it
  gave one, and ``"validation"`` for an entry that must pass a validation game
  (``{"state": "pending" | "playing" | "passed" | "failed", "attempt", "game_id",
  "reason"}``, :func:`set_validation`);
* ``L:{id}:rt:<player>`` list: the player's latest response times (seconds) in the
  ladder's games; ``L:{id}:refused`` hash player id -> how many of its moves the
  engine refused there (its health);
* ``L:{id}:vrefused`` hash validation game id -> the moves of its entry the engine
  refused there;
* ``L:{id}:vleft``    hash validation game id -> its player, for the validation games
  under way when their player left (the scheduler plays its turns once it is gone,
  and drops the game once over);
* ``L:{id}:matches``  hash match number -> JSON ``{"tables": [[player per seat]...],
  "sides": [[players]...], "created"}``; numbers run 0, 1, 2… and each is written
  once, in a MULTI/EXEC guarded by WATCH on this hash (:func:`put_matches`);
* ``L:{id}:open``     set of the match numbers not rated yet;
* ``L:{id}:games``    hash ``<match>:<table>`` -> game id (derived: rewriting is harmless);
* ``L:{id}:results``  hash ``<match>:<table>`` -> the table's result, written with HSETNX;
* ``L:{id}:after``    hash match number -> JSON ``{player: {"mu", "sigma"}}``, each side's
  ratings once the match was rated, as earlier schedulers kept them (read only: the
  rating write now keeps them itself, ``store.ratings.after``);
* ``ladders``         sorted set of ladder ids by creation time;
* ``ladder:waiting``  sorted set player id -> when it was last seen waiting for a turn
  (epoch; 0: not yet), of the players on some ladder only: a player is added when it
  joins (and by the scheduler's pass over the entries, so none is ever missed), marked
  by ``ZADD XX`` (nobody else is added), and dropped when it has left its last ladder
  and its games there are over (until then its games go by whether it is still seen).

Exactly once without a lock: a match number is claimed by the transaction
that writes it, which fails if any other scheduler wrote a match since this
one read the ladder (it then reads again on its next pass); a table's game id
is derived from (ladder, match, table) and created only if new; a result is
HSETNX; a match's rating is applied once by its key (``store.ratings.apply``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson
from redis import Redis
from redis.exceptions import WatchError

from . import keys
from .replies import text

SEEN = keys.ladder_waiting()
INDEX = keys.ladders()


def slot(match: int, table: int) -> str:
    """The field naming one table in the games and results hashes."""
    return f"{match}:{table}"


@dataclass(slots=True)
class LadderRecord:
    """One ladder as stored, with its open matches (the ones the scheduler still drives)
    and those matches' games and results (by :func:`slot`)."""

    id: str
    meta: dict[str, Any]
    created: float
    entries: dict[str, dict[str, Any]] = field(default_factory=dict)
    matches_count: int = 0
    open: dict[int, dict[str, Any]] = field(default_factory=dict)
    games: dict[str, str] = field(default_factory=dict)
    results: dict[str, dict[str, Any]] = field(default_factory=dict)


def create(r: Redis, ladder_id: str, meta: dict[str, Any], now: float) -> None:
    """Store a new ladder (ids are random: no existence check needed)."""
    r.hset(keys.ladder(ladder_id), mapping={"meta": orjson.dumps(meta), "created": repr(now)})
    r.zadd(INDEX, {ladder_id: now})


def ids(r: Redis) -> list[str]:
    """Every ladder id, oldest first."""
    found: list[bytes] = r.zrange(INDEX, 0, -1)  # type: ignore[assignment]
    return [text(x) for x in found]


def read(r: Redis, ladder_id: str) -> LadderRecord | None:
    """The ladder with its entries, open matches and their games and results, or None.

    Only the open matches' games and results are read, so a scheduler's pass costs
    the same on a ladder's first day as after a million matches (the history is
    :func:`all_matches` and :func:`all_results`'s). Three round trips, each a pipeline
    of what the one before it tells (the ladder's keys share a cluster slot): the
    ladder, its entries and which matches are open; those matches; their tables'
    games and results.
    """
    pipe = r.pipeline(transaction=False)
    pipe.hgetall(keys.ladder(ladder_id))
    pipe.hgetall(keys.ladder_entries(ladder_id))
    pipe.hlen(keys.ladder_matches(ladder_id))
    pipe.smembers(keys.ladder_open(ladder_id))
    head, entries, count, members = pipe.execute()
    if b"meta" not in head:
        return None
    numbers = sorted(int(x) for x in members)
    stored = r.hmget(keys.ladder_matches(ladder_id), [str(n) for n in numbers]) if numbers else []
    open_ = {n: orjson.loads(m) for n, m in zip(numbers, stored, strict=True) if m}
    slots = [slot(n, t) for n, m in open_.items() for t in range(len(m["tables"]))]
    games: list[Any] = []
    results: list[Any] = []
    if slots:
        pipe.hmget(keys.ladder_games(ladder_id), slots)
        pipe.hmget(keys.ladder_results(ladder_id), slots)
        games, results = pipe.execute()
    return LadderRecord(
        id=ladder_id,
        meta=orjson.loads(head[b"meta"]),
        created=float(head[b"created"]),
        entries={text(k): orjson.loads(v) for k, v in entries.items()},
        matches_count=int(count),
        open=open_,
        games={k: text(v) for k, v in zip(slots, games, strict=True) if v},
        results={k: orjson.loads(v) for k, v in zip(slots, results, strict=True) if v},
    )


def matches(r: Redis, ladder_id: str, numbers: Sequence[int]) -> dict[int, dict[str, Any]]:
    """Some stored matches by number (absent ones left out)."""
    if not numbers:
        return {}
    raw = r.hmget(keys.ladder_matches(ladder_id), [str(n) for n in numbers])
    return {n: orjson.loads(m) for n, m in zip(numbers, raw, strict=True) if m}


def all_matches(r: Redis, ladder_id: str) -> dict[int, dict[str, Any]]:
    """Every match of the ladder (for the leaderboard and histories)."""
    raw = r.hgetall(keys.ladder_matches(ladder_id))
    return {int(k): orjson.loads(v) for k, v in raw.items()}


def join(
    r: Redis,
    ladder_id: str,
    player_id: str,
    now: float,
    partner: str | None = None,
    max_games: int | None = None,
    validation: dict[str, Any] | None = None,
) -> bool:
    """Enter the player (once), naming its partner on a ladder of fixed pairs, with its
    own cap on games at once if given and the validation it must pass if any; False if
    it was in already (its entry is left as it was)."""
    entry: dict[str, Any] = {"joined": now}
    if partner is not None:
        entry["partner"] = partner
    if max_games is not None:
        entry["max_games"] = max_games
    if validation is not None:
        entry["validation"] = validation
    pipe = r.pipeline()
    pipe.hsetnx(keys.ladder_entries(ladder_id), player_id, orjson.dumps(entry))
    pipe.zadd(SEEN, {player_id: 0}, nx=True)  # kept as seen waiting from now on
    return bool(pipe.execute()[0])


def set_validation(
    r: Redis,
    ladder_id: str,
    player_id: str,
    validation: dict[str, Any],
    expected: dict[str, Any] | None = None,
) -> bool:
    """Replace the entry's ``validation``; only if the player is still entered and, with
    ``expected``, its validation is still that one (a scheduler that read it earlier
    writes nothing over a newer state). Whether it was written.

    WATCHes the entries hash, so a leave in between makes this write nothing (it
    never brings back an entry that left)."""
    key = keys.ladder_entries(ladder_id)
    with r.pipeline() as pipe:
        try:
            pipe.watch(key)
            raw: Any = pipe.hget(key, player_id)  # WATCHing: the command runs at once
            if raw is None:
                return False
            entry = orjson.loads(raw)
            if expected is not None and entry.get("validation") != expected:
                return False
            entry["validation"] = validation
            pipe.multi()
            pipe.hset(key, player_id, orjson.dumps(entry))
            pipe.execute()
        except WatchError:
            return False
    return True


def validation_refused(r: Redis, ladder_id: str, game_id: str) -> None:
    """The engine refused a move of the entry its validation game ``game_id`` validates."""
    r.hincrby(keys.ladder_validation_refused(ladder_id), game_id, 1)


def validation_refusals(r: Redis, ladder_id: str, game_id: str) -> int:
    """How many moves of its entry the engine refused in the validation game ``game_id``."""
    got: Any = r.hget(keys.ladder_validation_refused(ladder_id), game_id)
    return int(got or 0)


def leave(
    r: Redis,
    ladder_id: str,
    player_id: str,
    *also: str,
    validations: dict[str, str] | None = None,
) -> bool:
    """Take the player out, and ``also`` these (its pair); its games go on, it is not
    paired again; ``validations`` (game id -> player) are the validation games under way
    of those leaving, kept in ``vleft`` for the scheduler. False if the player was not in."""
    pipe = r.pipeline()  # MULTI/EXEC: a pair leaves together
    pipe.hdel(keys.ladder_entries(ladder_id), player_id)
    if also:
        pipe.hdel(keys.ladder_entries(ladder_id), *also)
    if validations:
        pipe.hset(keys.ladder_left_validations(ladder_id), mapping=dict[Any, Any](validations))
    return bool(pipe.execute()[0])


def left_validations(r: Redis, ladder_id: str) -> dict[str, str]:
    """The validation games under way whose player left: game id -> player."""
    raw: Any = r.hgetall(keys.ladder_left_validations(ladder_id))
    return {text(k): text(v) for k, v in raw.items()}


def drop_left_validations(r: Redis, ladder_id: str, game_ids: Sequence[str]) -> None:
    """Those validation games of players who left are over."""
    if game_ids:
        r.hdel(keys.ladder_left_validations(ladder_id), *game_ids)


def put_matches(
    r: Redis, ladder_id: str, plan: Callable[[LadderRecord], Sequence[dict[str, Any]]]
) -> int:
    """Pair: read the ladder, ask ``plan`` for its new matches, and write them numbered
    on from the matches it read, in one transaction; returns how many were written.

    The ladder is read with its matches hash WATCHed, so the transaction fails if any
    match was written meanwhile (by another scheduler): then nothing is written and
    this returns 0, as it does when ``plan`` has nothing or the ladder is gone.
    """
    with r.pipeline() as pipe:
        pipe.watch(keys.ladder_matches(ladder_id))
        # read after the WATCH (on another connection: the watch holds whatever reads
        # come after it), so a match written since fails the transaction below
        record = read(r, ladder_id)
        if record is None:
            return 0
        new = plan(record)
        if not new:
            return 0
        try:
            pipe.multi()
            for i, match in enumerate(new):
                number = str(record.matches_count + i)
                pipe.hset(keys.ladder_matches(ladder_id), number, orjson.dumps(match))
                pipe.sadd(keys.ladder_open(ladder_id), number)
            pipe.execute()
        except WatchError:
            return 0
        return len(new)


def set_games(r: Redis, ladder_id: str, games: dict[str, str]) -> None:
    """Record the game id of tables (``slot`` -> id)."""
    if games:
        r.hset(keys.ladder_games(ladder_id), mapping=dict[Any, Any](games))


def put_results(r: Redis, ladder_id: str, results: dict[str, dict[str, Any]]) -> int:
    """Store table results once each; returns how many were new."""
    if not results:
        return 0
    pipe = r.pipeline(transaction=False)
    for name, result in results.items():
        pipe.hsetnx(keys.ladder_results(ladder_id), name, orjson.dumps(result))
    return sum(pipe.execute())


def close(r: Redis, ladder_id: str, numbers: Sequence[int]) -> None:
    """Matches rated: the scheduler stops driving them."""
    if numbers:
        r.srem(keys.ladder_open(ladder_id), *[str(n) for n in numbers])


def all_results(r: Redis, ladder_id: str) -> tuple[dict[str, str], dict[str, dict[str, Any]]]:
    """Every table's game id and every stored result."""
    pipe = r.pipeline(transaction=False)
    pipe.hgetall(keys.ladder_games(ladder_id))
    pipe.hgetall(keys.ladder_results(ladder_id))
    games, results = pipe.execute()
    return (
        {text(k): text(v) for k, v in games.items()},
        {text(k): orjson.loads(v) for k, v in results.items()},
    )


def after(r: Redis, ladder_id: str, numbers: Sequence[int]) -> dict[int, dict[str, Any]]:
    """The ratings recorded after each of the matches ``numbers`` (absent: left out) by
    schedulers that kept them apart from the rating write; they are now kept with it
    (``store.ratings.after``), and only matches rated before are read here."""
    if not numbers:
        return {}
    raw = r.hmget(keys.ladder_after(ladder_id), [str(n) for n in numbers])
    return {n: orjson.loads(v) for n, v in zip(numbers, raw, strict=True) if v}


# -- seen waiting ------------------------------------------------------------------------
def seen(r: Redis, player_id: str, now: float) -> None:
    """The player is waiting for a turn now (``/me/turns``, a game's events or stream);
    kept only if it is on some ladder (``ZADD XX``: one command, nothing added)."""
    r.zadd(SEEN, {player_id: now}, xx=True)


def last_seen(r: Redis, players: Sequence[str], *, enrol: bool = False) -> dict[str, float]:
    """When each of ``players`` was last seen waiting (never seen: left out). With
    ``enrol`` (``players`` are entries) each is first added if missing, in the same
    round trip: one whose join was not recorded here (it joined before this record
    existed, or raced a :func:`forget`) is kept from the next call of :func:`seen`."""
    if not players:
        return {}
    pipe = r.pipeline(transaction=False)
    if enrol:
        pipe.zadd(SEEN, dict.fromkeys(players, 0), nx=True)
    pipe.zmscore(SEEN, list(players))
    scores = pipe.execute()[-1]
    return {p: float(v) for p, v in zip(players, scores, strict=True) if v}


def forget(r: Redis, players: Sequence[str]) -> None:
    """Drop from the seen-waiting record those of ``players`` on no ladder any more."""
    ladders = ids(r)
    pipe = r.pipeline(transaction=False)
    for p in players:
        for ladder_id in ladders:
            pipe.hexists(keys.ladder_entries(ladder_id), p)
    found, n = pipe.execute(), len(ladders)
    gone = [p for i, p in enumerate(players) if not any(found[i * n : (i + 1) * n])]
    if gone:
        r.zrem(SEEN, *gone)


# -- per-entry move health (told by the ladders' play hook: services.ladder_play) -------
RESPONSE_SAMPLES = 500
"""Response times kept per entry (the latest ones): enough for a p99."""


def moved(r: Redis, ladder_id: str, player_id: str, seconds: float) -> None:
    """A move of the player in one of the ladder's games was accepted ``seconds`` after
    its seat's turn began."""
    key = keys.ladder_response_times(ladder_id, player_id)
    pipe = r.pipeline(transaction=False)
    pipe.lpush(key, f"{max(seconds, 0.0):.4f}")
    pipe.ltrim(key, 0, RESPONSE_SAMPLES - 1)
    pipe.execute()


def refused(r: Redis, ladder_id: str, player_id: str) -> None:
    """The engine refused a move of the player (illegal, malformed, not its turn) in one
    of the ladder's games."""
    r.hincrby(keys.ladder_refused(ladder_id), player_id, 1)


def move_health(
    r: Redis, ladder_id: str, players: Sequence[str]
) -> dict[str, tuple[list[float], int]]:
    """Each player's latest response times (seconds) and refused moves on the ladder."""
    if not players:
        return {}
    pipe = r.pipeline(transaction=False)
    for p in players:
        pipe.lrange(keys.ladder_response_times(ladder_id, p), 0, -1)
    pipe.hmget(keys.ladder_refused(ladder_id), list(players))
    *times, counts = pipe.execute()
    return {
        p: ([float(x) for x in t], int(c or 0))
        for p, t, c in zip(players, times, counts, strict=True)
    }

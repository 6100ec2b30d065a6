"""What an organiser changes in a stored tournament: its join code, close registration,
withdraw an entry, void tables (:mod:`server.services.events`).

Each is one optimistic transaction (WATCH/MULTI) on keys under the tournament's hash
tag, so it is applied whole or not at all:

* the join code is ``join_code`` in ``t:{id}``: while it is set, a player entering
  itself must give it;
* closing registration sets ``registration`` to ``closed`` in ``t:{id}``; the entry
  script (``lua/add_entry.lua``) then refuses entries while the tournament is open;
* withdrawing an entry of an open tournament deletes it (its players may enter
  again); of a running one, writes ``withdrawn`` (the rounds paired so far) into the
  entry's JSON, and the scheduler forfeits each of its tables that has no game yet;
* voiding tables deletes their results and game ids and appends the old game id to
  ``t:{id}:voids``: the scheduler creates each table's replay under a new id. It
  watches the rounds hash, and the scheduler's :func:`~server.store.tournaments.put_round`
  watches the voids, so a round is never paired from a result voided meanwhile.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import orjson
from redis import Redis
from redis.exceptions import WatchError

from . import keys
from .errors import StoreError
from .replies import text
from .tournaments import EntriesClosed, TournamentMissing


class EntryMissing(StoreError):
    """No such entry in the tournament."""

    def __init__(self, entry_id: str) -> None:
        super().__init__(f"no entry {entry_id}")
        self.entry_id = entry_id


class AlreadyWithdrawn(StoreError):
    """The entry withdrew already."""

    def __init__(self, entry_id: str) -> None:
        super().__init__(f"entry {entry_id} has withdrawn already")
        self.entry_id = entry_id


class NotVoidable(StoreError):
    """A table that cannot be voided now (not over, or a later round is paired)."""


class Busy(StoreError):
    """The tournament kept changing under the transaction: try again."""

    def __init__(self) -> None:
        super().__init__("the tournament changed meanwhile: try again")


ATTEMPTS = 5


def close_registration(r: Redis, tournament_id: str) -> None:
    """Close registration of an open tournament (repeating it changes nothing).

    Raises:
        TournamentMissing, EntriesClosed (not open).
    """
    key = keys.tournament(tournament_id)
    for _ in range(ATTEMPTS):
        with r.pipeline(transaction=True) as watched:
            pipe: Any = watched  # after WATCH its reads answer at once
            try:
                pipe.watch(key)
                status = pipe.hget(key, "status")
                if status is None:
                    raise TournamentMissing()
                if text(status) != "open":
                    raise EntriesClosed(text(status))
                pipe.multi()
                pipe.hset(key, "registration", "closed")
                pipe.execute()
                return
            except WatchError:
                continue
    raise Busy()


def set_join_code(r: Redis, tournament_id: str, code: str) -> None:
    """Store the join code of an open tournament (replacing any before it).

    Raises:
        TournamentMissing, EntriesClosed (not open).
    """
    key = keys.tournament(tournament_id)
    for _ in range(ATTEMPTS):
        with r.pipeline(transaction=True) as watched:
            pipe: Any = watched  # after WATCH its reads answer at once
            try:
                pipe.watch(key)
                status = pipe.hget(key, "status")
                if status is None:
                    raise TournamentMissing()
                if text(status) != "open":
                    raise EntriesClosed(text(status))
                pipe.multi()
                pipe.hset(key, "join_code", code)
                pipe.execute()
                return
            except WatchError:
                continue
    raise Busy()


def withdraw(r: Redis, tournament_id: str, entry_id: str) -> str:
    """Withdraw one entry: returns ``removed`` (the tournament was open) or ``withdrawn``
    (it is running: its tables without a game are forfeited from now on).

    Raises:
        TournamentMissing, EntryMissing, AlreadyWithdrawn, EntriesClosed (finished or
        aborted), Busy.
    """
    head, entries = keys.tournament(tournament_id), keys.tournament_entries(tournament_id)
    rounds = keys.tournament_rounds(tournament_id)
    for _ in range(ATTEMPTS):
        with r.pipeline(transaction=True) as watched:
            pipe: Any = watched  # after WATCH its reads answer at once
            try:
                pipe.watch(head, entries, rounds)
                status = pipe.hget(head, "status")
                if status is None:
                    raise TournamentMissing()
                raw = pipe.hget(entries, entry_id)
                if raw is None:
                    raise EntryMissing(entry_id)
                entry = orjson.loads(raw)
                if text(status) == "open":
                    pipe.multi()
                    pipe.hdel(entries, entry_id)
                    pipe.srem(keys.tournament_players(tournament_id), *entry["players"])
                    pipe.execute()
                    return "removed"
                if text(status) != "running":
                    raise EntriesClosed(text(status))
                if entry.get("withdrawn") is not None:
                    raise AlreadyWithdrawn(entry_id)
                entry["withdrawn"] = pipe.hlen(rounds)
                pipe.multi()
                pipe.hset(entries, entry_id, orjson.dumps(entry))
                pipe.execute()
                return "withdrawn"
            except WatchError:
                continue
    raise Busy()


def void(
    r: Redis, tournament_id: str, round_index: int, tables: Sequence[int], *, last_only: bool
) -> list[str]:
    """Void ``tables`` of round ``round_index`` of a running tournament: each result and
    game id goes, the game id is kept in the voids; returns the voided game ids.

    ``last_only``: refuse unless the round is the last paired (formats whose next round
    is paired from the results).

    Raises:
        TournamentMissing, EntriesClosed (not running), NotVoidable, Busy.
    """
    head = keys.tournament(tournament_id)
    rounds_key = keys.tournament_rounds(tournament_id)
    results_key = keys.tournament_results(tournament_id)
    games_key = keys.tournament_games(tournament_id)
    voids_key = keys.tournament_voids(tournament_id)
    slots = [f"{round_index}:{t}" for t in tables]
    for _ in range(ATTEMPTS):
        with r.pipeline(transaction=True) as watched:
            pipe: Any = watched  # after WATCH its reads answer at once
            try:
                pipe.watch(head, rounds_key, results_key, games_key, voids_key)
                status = pipe.hget(head, "status")
                if status is None:
                    raise TournamentMissing()
                if text(status) != "running":
                    raise EntriesClosed(text(status))
                paired = pipe.hlen(rounds_key)
                if round_index >= paired:
                    raise NotVoidable(f"round {round_index} is not paired")
                if last_only and round_index != paired - 1:
                    raise NotVoidable(
                        f"round {round_index + 1} is paired from this round's results: "
                        "only the last round paired may be voided"
                    )
                games = pipe.hmget(games_key, slots)
                results = pipe.hmget(results_key, slots)
                old = pipe.hmget(voids_key, slots)
                for name, result in zip(slots, results, strict=True):
                    if result is None:
                        raise NotVoidable(f"table {name} is not over: void it once it is")
                pipe.multi()
                voided = []
                for name, game, before in zip(slots, games, old, strict=True):
                    history = orjson.loads(before) if before else []
                    history.append(text(game) if game else "")
                    voided.append(history[-1])
                    pipe.hset(voids_key, name, orjson.dumps(history))
                pipe.hdel(results_key, *slots)
                pipe.hdel(games_key, *slots)
                pipe.execute()
                return voided
            except WatchError:
                continue
    raise Busy()

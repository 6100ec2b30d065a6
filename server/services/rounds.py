"""A running tournament played to its end, round by round: the scheduler's use case.

:meth:`Rounds.advance` moves one tournament on as far as it can go now:
create the current round's games; record the results of the games that are
over; rate them; once the round is complete, pair the next one
(``formats.next_round``) or finish the tournament. The scheduler
(:mod:`server.processes.scheduler`) calls it for every running tournament on
each pass.

**Exactly once, without trusting a lock.** Several schedulers may run at once
and any may die at any moment; correctness rests on idempotent writes:

* a round is stored with ``HSETNX`` under its index, and it is a pure
  function of the finished rounds (pairing randomness is seeded by the
  tournament and round), so a second scheduler computes the same round and
  writes nothing;
* a table's game id is derived from (tournament, round, table)
  (:func:`table_game_id`) and the game is created only if that id is new
  (WATCH/MULTI), so a table has one game;
* a table's result is stored with ``HSETNX``, and is a pure function of its
  finished game;
* each rated game has a stable key (``formats.RatingEvent.key``); the rating
  write is a compare-and-set that also adds the key to the pool's applied set
  (``lua/apply_rating.lua``), so it is applied once, whoever gets there;
* standings are never stored: they are computed from the stored results.

Every step it may be stopped in is repeated, harmlessly, by the next call. The
``checkpoint`` callable a caller passes is called at those step boundaries,
before each write, with the step's name (the fault tests stop a scheduler dead
there).
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable, Collection, Mapping
from typing import Any

from server.games import REGISTRY
from server.services.brackets import round_rng, snapshot
from server.services.clocks import Clocks
from server.services.core import Core
from server.services.games import Games
from server.services.ratings import Ratings, event_games
from server.store import tournaments as store
from server.store.tournaments import TournamentRecord
from server.tournaments.clock import forfeit_result
from server.tournaments.formats import (
    TableResult,
    TournamentSnapshot,
    next_round,
    rating_events,
    seat_players,
)
from server.tournaments.pairing.tables import PairingError, Table

log = logging.getLogger("server.tournaments")

Checkpoint = Callable[[str], None]
"""Called with a step's name at each step boundary, before the step's write."""

MAX_STEPS = 20
"""Passes of :meth:`Rounds.advance` over one tournament per call (rounds of byes only
may follow each other; anything left waits for the next call)."""


def no_checkpoint(step: str) -> None:
    """The default :data:`Checkpoint`: nothing to do at a step boundary."""


def table_game_id(tournament_id: str, round_index: int, table: int, replay: int = 0) -> str:
    """The id of a table's game: derived, so that creating it twice is impossible.
    ``replay``: how many of the table's games were voided before this one.

    >>> table_game_id("t1", 0, 0) == table_game_id("t1", 0, 0) != table_game_id("t1", 0, 1)
    True
    >>> table_game_id("t1", 0, 0) != table_game_id("t1", 0, 0, replay=1)
    True
    """
    name = f"{tournament_id}:{round_index}:{table}" + (f":{replay}" if replay else "")
    return hashlib.sha256(name.encode()).hexdigest()[:16]


def withdrawal_result(table: Table, withdrawn: Collection[str]) -> dict[str, Any]:
    """The stored result of a table one of whose entries had withdrawn before its game
    was made: no game; each withdrawn entry scores -1 and loses, the others score 0 and
    win (``withdrawn`` true, ``forfeit`` the first withdrawn entry).

    >>> withdrawal_result(Table(("A", "B")), {"B"})["winners"]
    [0]
    """
    out = [e in withdrawn for e in table.entries]
    return {
        "scores": [-1 if w else 0 for w in out],
        "winners": [p for p, w in enumerate(out) if not w],
        "forfeit": next(e for e in table.entries if e in withdrawn),
        "withdrawn": True,
        "game_id": None,
    }


def table_result(table: Table, final: Mapping[str, Any]) -> dict[str, Any]:
    """A table's stored result from its game's final result (``Clocks.final_results``).

    Scores and winners by table position; ``forfeit`` is the entry that
    forfeited, if any (see :func:`server.tournaments.clock.forfeit_result`).
    """
    if final.get("forfeit") is not None:
        result = forfeit_result(table, final["scores"], final["forfeit"])
        return result.to_dict() | {"forfeit": table.seats[final["forfeit"]]}
    result = TableResult.from_outcome(table, final["scores"], final["winners"])
    return result.to_dict() | {"forfeit": None}


class Rounds:
    """Running tournaments driven round by round, over the shared :class:`Core` and the
    games, clocks and ratings use cases."""

    def __init__(self, core: Core, games: Games, clocks: Clocks, ratings: Ratings) -> None:
        self.core = core
        self.r = core.r
        self.games = games
        self.clocks = clocks
        self.ratings = ratings

    def active(self) -> list[str]:
        """The ids of the tournaments to drive (running, or finishing)."""
        return store.active(self.r)

    def advance(self, tournament_id: str, checkpoint: Checkpoint = no_checkpoint) -> str:
        """Move one tournament on as far as it can go now; returns its state.

        Returns:
            ``playing`` (waiting for games), ``finished``, ``aborted`` (its next
            round could not be paired), ``open`` (not started yet), ``missing``,
            or ``busy`` (more to do on the next call).
        """
        for _ in range(MAX_STEPS):
            record = store.read(self.r, tournament_id)
            if record is None:
                return "missing"
            if record.status in ("finished", "aborted"):
                store.finish(
                    self.r, tournament_id, record.finished or time.time(), error=record.error
                )  # a finish cut short before it left the set
                return record.status
            if record.status != "running":
                return record.status  # still open: its start may be under way
            snap = snapshot(record)
            if snap is None:  # running with no entry cannot happen: start checks
                return "missing"
            self._rate(record, snap, checkpoint)
            unfinished = [p.round.index for p in snap.rounds if not p.is_finished]
            if unfinished:  # the last round, or one with a voided table being replayed
                wrote = [self._play_round(record, snap, i, checkpoint) for i in unfinished]
                if not any(wrote):
                    return "playing"
                continue
            try:
                upcoming = next_round(snap, round_rng(tournament_id, len(snap.rounds)))
            except PairingError as exc:
                log.error(
                    "tournament %s: cannot pair round %d: %s", tournament_id, len(snap.rounds), exc
                )
                checkpoint("abort")
                store.finish(self.r, tournament_id, time.time(), error=str(exc))
                return "aborted"
            checkpoint("pair" if upcoming else "finish")
            if upcoming is None:
                store.finish(self.r, tournament_id, time.time())
                return "finished"
            store.put_round(self.r, tournament_id, upcoming.to_dict(), record.voids)
        return "busy"

    def _play_round(
        self, record: TournamentRecord, snap: TournamentSnapshot, index: int, checkpoint: Checkpoint
    ) -> bool:
        """Create round ``index``'s missing games and record finished ones; True if
        anything was written. A table with a withdrawn entry and no game yet gets
        :func:`withdrawal_result` instead of a game."""
        played = snap.rounds[index]
        games = dict(record.games)
        created: dict[str, str] = {}
        forfeits: dict[str, dict[str, Any]] = {}
        for t, table in enumerate(played.round.tables):
            name = store.slot(index, t)
            gone = {e for e in table.entries if e in record.withdrawn}
            if name in games or name in record.results:
                continue
            if gone:
                forfeits[name] = withdrawal_result(table, gone)
            else:
                created[name] = self._create_game(record, snap, index, t, table, checkpoint)
        if forfeits:
            checkpoint("results")
            store.put_results(self.r, record.id, forfeits)
        if created:
            checkpoint("games")
            store.set_games(self.r, record.id, created)
            games.update(created)

        pending = {
            store.slot(index, t): games[store.slot(index, t)]
            for t, result in enumerate(played.results)
            if result is None and store.slot(index, t) in games
        }
        finals = self.clocks.final_results(list(pending.values()))
        results = {}
        for name, game_id in pending.items():
            if game_id in finals:
                table = played.round.tables[int(name.split(":")[1])]
                results[name] = table_result(table, finals[game_id]) | {"game_id": game_id}
        self.clocks.watch([g for g in pending.values() if g not in finals], time.time())
        if results:
            checkpoint("results")
            store.put_results(self.r, record.id, results)
        return bool(created or results or forfeits)

    def _create_game(
        self,
        record: TournamentRecord,
        snap: TournamentSnapshot,
        index: int,
        t: int,
        table: Table,
        checkpoint: Checkpoint,
    ) -> str:
        """Create (once) the game of table ``t`` of round ``index``; returns its id.

        Every table of a duplicate board is dealt from the board's seed, so
        they get the same cards in the same seats, each seating other entries
        (``pairing.duplicate``). Each knows its twins (the board's other
        tables), so that its cards open only once all are over.
        """
        meta = record.meta
        engine = REGISTRY[meta["game"]]
        options = dict(meta["options"])
        if engine.seat_option:  # the seats decide: a table may be smaller than the largest
            options.pop(engine.seat_option, None)
        game_id = table_game_id(
            record.id, index, t, len(record.voids.get(store.slot(index, t), ()))
        )
        seed, twins = None, None
        if table.board is not None:  # the board's other tables: same seed, other entries
            seed = self.core.board_seed(record.id, table.board)
            twins = [
                table_game_id(record.id, index, u, len(record.voids.get(store.slot(index, u), ())))
                for u, other in enumerate(snap.rounds[index].round.tables)
                if other.board == table.board and u != t
            ]
        checkpoint("create")
        self.games.create_tournament_game(
            game_id=game_id,
            game=meta["game"],
            options=options,
            seats=list(seat_players(snap, table)),
            seed=seed,
            clock={
                "move_seconds": meta["clock"]["move_seconds"],
                "bank_ms": meta["clock"].get("bank_ms", 0),
                "timeout_policy": meta["timeout_policy"],
            },
            tournament={
                "id": record.id,
                "round": index,
                "table": t,
                "board": table.board,
                "twins": twins,
            },
        )
        return game_id

    def _rate(
        self, record: TournamentRecord, snap: TournamentSnapshot, checkpoint: Checkpoint
    ) -> None:
        """Apply every rated game of the tournament not applied yet (each exactly once).

        Not rated: a table forfeited by a withdrawal (no game was played), and a table
        with a reference entry (a house bot the organiser invited)."""
        unrated = {
            f"r{name.replace(':', ':t')}"
            for name, result in record.results.items()
            if result.get("withdrawn")
        }
        house = {p for e, players in record.entries if e in record.reference for p in players}
        events = [
            e
            for e in rating_events(snap)
            if e.key not in unrated and not any(p in house for team in e.teams for p in team)
        ]
        if not events:
            return
        game = record.meta["game"]
        ids = [f"{record.id}:{e.key}" for e in events]
        for event, event_id, done in zip(events, ids, self.ratings.applied(game, ids), strict=True):
            if not done:
                checkpoint("rate")
                got = event_games(record.results, event.key)  # for the players' histories
                self.ratings.rate(game, event_id, event.teams, event.ranks, game_ids=got)

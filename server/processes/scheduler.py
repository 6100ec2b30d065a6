"""The scheduler: the process that runs move clocks out, plays started tournaments to the
end and drives ladders.

Each pass (:meth:`Runner.tick`) does three things, reading and writing only
through the functions of ``server.store`` and the use cases of ``server.services``
(never a Redis command of its own, never Flask):

1. **Clocks.** Every game whose indexed deadline has come gets
   :meth:`~server.services.clocks.Clocks.timeout` (a default move or a forfeit).
2. **Tournaments.** Every running tournament is advanced (:meth:`Runner.advance`):
   create the current round's games; record the results of the games that
   are over; rate them; once the round is complete, pair the next one
   (``formats.next_round``) or finish the tournament.
3. **Ladders.** Every ladder is driven (:meth:`Runner.advance_ladder`): create the
   games of its new matches, record results, rate finished matches, then match
   the entries available now (``services.ladders.plan``).

**Exactly once, without trusting a lock.** Several schedulers may run at once
and any may die at any moment; correctness rests on idempotent writes, so a
lock or lease could only save work, never prevent a duplicate:

* a round is stored with ``HSETNX`` under its index, and it is a pure
  function of the finished rounds (pairing randomness is seeded by the
  tournament and round), so a second scheduler computes the same round and
  writes nothing;
* a table's game id is derived from (tournament, round, table) and the game
  is created only if that id is new (WATCH/MULTI), so a table has one game;
* a table's result is stored with ``HSETNX``, and is a pure function of its
  finished game;
* each rated game has a stable key (``formats.RatingEvent.key``); the rating
  write is a compare-and-set that also adds the key to the pool's applied set
  (``lua/apply_rating.lua``), so it is applied once, whoever gets there;
* standings are never stored: they are computed from the stored results.
* a ladder's matches are numbered; new ones are written in a MULTI/EXEC that
  WATCHes the ladder's matches, so of two schedulers pairing at once one writes
  and the other, having read a stale ladder, writes nothing
  (:func:`server.store.ladders.put_matches`); each match's games and rating then follow the
  rules above (derived game ids, HSETNX results, keyed rating events); the
  ratings a match's rating wrote are kept as the match's by the same write, so
  no other rating of its players can come in between.

Killed and restarted, a scheduler holds nothing in memory worth losing: it
re-reads the tournament, and every step it may have been killed in is
repeated, harmlessly. :meth:`Runner.checkpoint` marks those step boundaries
(the fault tests kill a runner at each of them).
"""

from __future__ import annotations

import hashlib
import logging
import os
import threading
import time
from collections.abc import Mapping
from typing import Any

from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from server.games import REGISTRY
from server.processes.daemon import log_as, orphaned, stop_on_signals
from server.services.brackets import round_rng, snapshot
from server.services.bundle import Services
from server.services.ladders import pool as ladder_pool
from server.store import clocks as clock_store
from server.store import ladders as ladder_store
from server.store import ratings as rating_store
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
from server.tournaments.ladder import contest_ranks
from server.tournaments.pairing.tables import PairingError, Table

log = logging.getLogger("server.tournaments")

MAX_STEPS = 20
"""Passes of :meth:`Runner.advance` over one tournament per tick (rounds of byes only
may follow each other; anything left waits for the next tick)."""

MAX_TIMEOUTS = 16
"""Timeouts applied to one game per tick (several seats may be due at once)."""


def table_game_id(tournament_id: str, round_index: int, table: int) -> str:
    """The id of a table's game: derived, so that creating it twice is impossible.

    >>> table_game_id("t1", 0, 0) == table_game_id("t1", 0, 0) != table_game_id("t1", 0, 1)
    True
    """
    digest = hashlib.sha256(f"{tournament_id}:{round_index}:{table}".encode()).hexdigest()
    return digest[:16]


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


class Runner:
    """One scheduler. Any number may run at once, in threads or processes.

    Args:
        services: the use cases over the Redis to work on.
        interval: seconds between passes (a deadline is enforced at most this late).
    """

    def __init__(self, services: Services, *, interval: float = 0.2) -> None:
        self.services = services
        self.r = services.core.r
        self.interval = interval

    def checkpoint(self, step: str) -> None:
        """A step boundary (before each write). Does nothing; the fault tests replace it
        to stop a runner dead there, and check that a fresh one completes the work."""

    # -- the loop ----------------------------------------------------------------------
    def run(self, stop: threading.Event | None = None, parent_pid: int | None = None) -> None:
        """Pass after pass until ``stop`` is set (or the parent process is gone)."""
        stop = stop or threading.Event()
        while not stop.is_set():
            if orphaned(parent_pid):
                log.warning("parent process gone: scheduler stopping")
                return
            try:
                self.tick()
            except (RedisConnectionError, RedisTimeoutError) as exc:
                log.warning("redis unavailable (%s); retrying", exc)
            stop.wait(self.interval)

    def tick(self, now: float | None = None) -> None:
        """One pass: clocks first (a timeout may finish a game), then every tournament."""
        self.enforce_clocks(now)
        for tournament_id in store.active(self.r):
            try:
                self.advance(tournament_id)
            except (RedisConnectionError, RedisTimeoutError):
                raise
            except Exception:  # one broken tournament must not stop the others
                log.exception("tournament %s: pass failed", tournament_id)
        for ladder_id in ladder_store.ids(self.r):
            try:
                self.advance_ladder(ladder_id, now)
            except (RedisConnectionError, RedisTimeoutError):
                raise
            except Exception:
                log.exception("ladder %s: pass failed", ladder_id)

    def enforce_clocks(self, now: float | None = None) -> int:
        """Apply the timeout policy to every game whose deadline has come; returns how many."""
        now = time.time() if now is None else now
        applied = 0
        for game_id in clock_store.due(self.r, now):
            try:
                for _ in range(MAX_TIMEOUTS):
                    self.checkpoint("timeout")
                    outcome = self.services.clocks.timeout(game_id, now)
                    if outcome not in ("default_move", "forfeit"):
                        break
                    applied += 1
                    if outcome == "forfeit":
                        break
            except (RedisConnectionError, RedisTimeoutError):
                raise
            except Exception:
                log.exception("game %s: timeout failed", game_id)
        return applied

    # -- one tournament ------------------------------------------------------------------
    def advance(self, tournament_id: str) -> str:
        """Move one tournament on as far as it can go now; returns its state.

        Returns:
            ``playing`` (waiting for games), ``finished``, ``aborted`` (its next
            round could not be paired), ``open`` (not started yet), ``missing``,
            or ``busy`` (more to do on the next pass).
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
            self._rate(record, snap)
            if snap.rounds and not snap.rounds[-1].is_finished:
                if not self._play_round(record, snap):
                    return "playing"
                continue
            try:
                upcoming = next_round(snap, round_rng(tournament_id, len(snap.rounds)))
            except PairingError as exc:
                log.error(
                    "tournament %s: cannot pair round %d: %s", tournament_id, len(snap.rounds), exc
                )
                self.checkpoint("abort")
                store.finish(self.r, tournament_id, time.time(), error=str(exc))
                return "aborted"
            self.checkpoint("pair" if upcoming else "finish")
            if upcoming is None:
                store.finish(self.r, tournament_id, time.time())
                return "finished"
            store.put_round(self.r, tournament_id, upcoming.to_dict())
        return "busy"

    def _play_round(self, record: TournamentRecord, snap: TournamentSnapshot) -> bool:
        """Create the current round's missing games and record finished ones; True if
        anything was written."""
        played = snap.rounds[-1]
        index = played.round.index
        games = dict(record.games)
        created: dict[str, str] = {}
        for t, table in enumerate(played.round.tables):
            name = store.slot(index, t)
            if name not in games:
                created[name] = self._create_game(record, snap, index, t, table)
        if created:
            self.checkpoint("games")
            store.set_games(self.r, record.id, created)
            games.update(created)

        pending = {
            store.slot(index, t): games[store.slot(index, t)]
            for t, result in enumerate(played.results)
            if result is None
        }
        finals = self.services.clocks.final_results(list(pending.values()))
        results = {}
        for name, game_id in pending.items():
            if game_id in finals:
                table = played.round.tables[int(name.split(":")[1])]
                results[name] = table_result(table, finals[game_id]) | {"game_id": game_id}
        clock_store.ensure_indexed(
            self.r, [g for g in pending.values() if g not in finals], time.time()
        )
        if results:
            self.checkpoint("results")
            store.put_results(self.r, record.id, results)
        return bool(created or results)

    def _create_game(
        self, record: TournamentRecord, snap: TournamentSnapshot, index: int, t: int, table: Table
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
        game_id = table_game_id(record.id, index, t)
        seed, twins = None, None
        if table.board is not None:  # the board's other tables: same seed, other entries
            seed = self.services.core.board_seed(record.id, table.board)
            twins = [
                table_game_id(record.id, index, u)
                for u, other in enumerate(snap.rounds[-1].round.tables)
                if other.board == table.board and u != t
            ]
        self.checkpoint("create")
        self.services.games.create_tournament_game(
            game_id=game_id,
            game=meta["game"],
            options=options,
            seats=list(seat_players(snap, table)),
            seed=seed,
            clock={
                "move_seconds": meta["clock"]["move_seconds"],
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

    def _rate(self, record: TournamentRecord, snap: TournamentSnapshot) -> None:
        """Apply every rated game of the tournament not applied yet (each exactly once)."""
        events = rating_events(snap)
        if not events:
            return
        game = record.meta["game"]
        ids = [f"{record.id}:{e.key}" for e in events]
        for event, event_id, done in zip(
            events, ids, rating_store.applied(self.r, game, ids), strict=True
        ):
            if not done:
                self.checkpoint("rate")
                self.services.ratings.rate(game, event_id, event.teams, event.ranks)

    # -- one ladder ------------------------------------------------------------------------
    def advance_ladder(self, ladder_id: str, now: float | None = None) -> int:
        """Drive the ladder's open matches, then start new ones; returns how many started."""
        record = ladder_store.read(self.r, ladder_id)
        if record is None:
            return 0
        self._drive_ladder(record)

        def plan(record: ladder_store.LadderRecord) -> list[dict[str, Any]]:
            at = time.time() if now is None else now  # after the read: what it saw is older
            planned = self.services.ladders.plan(record, at)
            if planned:
                self.checkpoint("match")
            return planned

        started = ladder_store.put_matches(self.r, ladder_id, plan)
        if not started:
            return 0  # nothing to pair, or another scheduler matched first: again next pass
        fresh = ladder_store.read(self.r, ladder_id)
        if fresh is not None:
            self._drive_ladder(fresh)
        return started

    def _drive_ladder(self, record: ladder_store.LadderRecord) -> None:
        """Create the open matches' missing games, record results, rate finished matches."""
        created: dict[str, str] = {}
        for n, match in record.open.items():
            for t in range(len(match["tables"])):
                name = ladder_store.slot(n, t)
                if name not in record.games:
                    created[name] = self._create_ladder_game(record, n, t, match)
        if created:
            self.checkpoint("games")
            ladder_store.set_games(self.r, record.id, created)
        games = record.games | created
        pending = {
            name: games[name]
            for n, match in record.open.items()
            for t in range(len(match["tables"]))
            if (name := ladder_store.slot(n, t)) not in record.results
        }
        finals = self.services.clocks.final_results(list(pending.values()))
        clocks = clock_store.read_many(self.r, list(finals))
        results = {
            name: finals[game_id]
            | {
                "game_id": game_id,
                "ended": time.time(),
                "timeouts": {str(s): n for s, n in clocks[game_id].timeouts.items()}
                if game_id in clocks
                else {},
            }
            for name, game_id in pending.items()
            if game_id in finals
        }
        clock_store.ensure_indexed(
            self.r, [g for g in pending.values() if g not in finals], time.time()
        )
        if results:
            self.checkpoint("results")
            ladder_store.put_results(self.r, record.id, results)
            record = ladder_store.read(self.r, record.id) or record
        self._rate_ladder(record)

    def _rate_ladder(self, record: ladder_store.LadderRecord) -> None:
        """Rate each match whose tables are all over, once (a duplicate board is one contest)."""
        done: dict[int, tuple[int, ...]] = {}
        for n, match in record.open.items():
            names = [ladder_store.slot(n, t) for t in range(len(match["tables"]))]
            if all(name in record.results for name in names):
                sides = tuple(tuple(s) for s in match["sides"])
                finals = [record.results[name] for name in names]
                done[n] = contest_ranks(sides, match["tables"], finals)
        if not done:
            return
        rating_pool = ladder_pool(record.id)
        ids = [f"{record.id}:{n}" for n in done]
        for (n, ranks), event_id, applied in zip(
            done.items(), ids, rating_store.applied(self.r, rating_pool, ids), strict=True
        ):
            teams = tuple(tuple(s) for s in record.open[n]["sides"])
            if not applied:
                self.checkpoint("rate")
                # every entry joined the ladder itself: consent (docs/ladder.md); the
                # ratings written are kept as the match's, in the same write
                self.services.ratings.rate(
                    rating_pool, event_id, teams, ranks, consented=True, keep_after=True
                )
        self.checkpoint("close")
        ladder_store.close(self.r, record.id, list(done))

    def _create_ladder_game(
        self, record: ladder_store.LadderRecord, n: int, t: int, match: dict[str, Any]
    ) -> str:
        """Create (once) table ``t`` of match ``n``; both tables of a duplicate board (other
        players at each) are dealt from the match's board seed, each knowing its twin
        (its cards hidden until both are over). Every seat joined the ladder itself: that
        is its consent."""
        meta = record.meta
        engine = REGISTRY[meta["game"]]
        options = dict(meta["options"])
        if engine.seat_option:
            options[engine.seat_option] = meta["table_size"]
        game_id = table_game_id(f"ladder:{record.id}", n, t)
        seed, twins = None, None
        if len(match["tables"]) == 2:
            seed = self.services.core.board_seed(f"ladder:{record.id}", n)
            twins = [table_game_id(f"ladder:{record.id}", n, 1 - t)]
        seats = list(match["tables"][t])
        self.checkpoint("create")
        self.services.games.create_tournament_game(
            game_id=game_id,
            game=meta["game"],
            options=options,
            seats=seats,
            seed=seed,
            clock={
                "move_seconds": meta["clock"]["move_seconds"],
                "timeout_policy": meta["timeout_policy"],
            },
            tournament={
                "id": None,
                "ladder": record.id,
                "match": n,
                "table": t,
                "board": n if seed else None,
                "twins": twins,
                "consent": {"kind": "ladder_entry", "players": sorted(set(seats))},
            },
        )
        return game_id


# --------------------------------------------------------------------------- the process


def serve_forever(redis_url: str, *, interval: float = 0.2, parent_pid: int | None = None) -> int:
    """``parlour scheduler``: run one scheduler until SIGINT/SIGTERM (or the parent exits).

    Args:
        redis_url: the Redis the API uses.
        interval: seconds between passes.
        parent_pid: stop when this process is no longer the parent (``parlour
            serve`` starts its scheduler this way, so it never outlives the server).
    """
    log_as("scheduler")
    stop = stop_on_signals()
    services = Services.connect(
        redis_url,
        admin_token=None,
        seed_secret=os.environ.get("PARLOUR_SEED_SECRET") or None,
    )
    log.info("running on %s every %.2fs", redis_url, interval)
    Runner(services, interval=interval).run(stop, parent_pid=parent_pid)
    log.info("stopped")
    return 0

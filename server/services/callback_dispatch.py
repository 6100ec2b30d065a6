"""The callback turns' dispatch: the use cases of :mod:`server.processes.dispatch` over
the Redis stream of queued turns (registration and queueing: :mod:`.callbacks`).

**Dispatch** (:class:`Dispatch`, the use cases of :mod:`server.processes.dispatch`):
dispatchers share the stream through one consumer group. Each reads new turns,
claims the turns another dispatcher left pending past a bound (it died
mid-call), renders the turn as ``GET /v1/me/turns`` lists it (:func:`views.turn`)
plus a fresh call ``id``, and submits the answer with the turn's version; the
entry is acked once the move is submitted or the turn is stale. A turn answered
twice (a claimed turn whose first dispatcher got as far as the submit) fails the
compare-and-set harmlessly and counts as ``stale``.

**Books** (:meth:`Dispatch.record`): per player, calls, timeouts, errors,
refused moves, stale answers and moves played, the latest answer times and the
last few failures. A failure's reason is the dispatcher's own words (a kind, an
HTTP status, an error code), never the bot's body nor the engine's message: it
says nothing of any seat's cards, the bot's own included.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from server.games import BaseState
from server.services import bot_health, views, wire
from server.services.core import Core, Read
from server.services.feeds import OVER, Feeds
from server.services.games import Games
from server.services.queued_turns import Current, current_turn, play_answer
from server.store import bots as bot_store
from server.store import callbacks as store
from server.store import games as game_store
from server.store import players as player_store


@dataclass(frozen=True, slots=True)
class Job:
    """One queued turn: the stream entry, and the game, version and seat it is for."""

    entry: str
    game_id: str
    version: int
    seat: int
    player_id: str


@dataclass(frozen=True, slots=True)
class Call:
    """A turn to call: where, the secret that signs, the turn entry, the time by which
    the move must be submitted (epoch seconds), and the game as read for the turn with
    its engine state (the move is submitted over them: no second read nor parse)."""

    job: Job
    url: str
    secret: str
    turn: dict[str, Any]
    limit: float
    prepared: list[tuple[Read, BaseState]] = field(default_factory=list)
    """The game as read for the turn, and its engine state: the first submit plays over
    them (no second read nor parse); any later one reads afresh (the engine may have
    played on the state, and on the record's state with it)."""

    def request(self) -> tuple[str, bytes]:
        """A fresh call of this turn: its id and body, to be signed with :attr:`secret` as
        it is sent (a retry of the same turn gets a new id: the SDK refuses a repeated one
        as a replay)."""
        call_id = secrets.token_hex(12)
        return call_id, wire.dumps({"id": call_id, **self.turn})


"""What :meth:`Dispatch.prepare` answers while a clocked game's clock is not armed yet
for the version: ask again in a moment."""


class Dispatch:
    """The dispatchers' use cases over the turn stream (the HTTP is the process's)."""

    def __init__(self, core: Core, games: Games, feeds: Feeds) -> None:
        self.core = core
        self.r = core.r
        self.games = games
        self.feeds = feeds

    def start(self) -> None:
        """Make sure the dispatchers' consumer group exists."""
        store.ensure_group(self.r)

    def _jobs(self, entries: list[tuple[str, dict[str, str]]]) -> list[Job]:
        out = []
        for entry, f in entries:
            try:
                out.append(Job(entry, f["game"], int(f["version"]), int(f["seat"]), f["player"]))
            except (KeyError, ValueError):  # deleted meanwhile, or not ours: nothing to do
                store.ack(self.r, entry)
        return out

    def take(self, consumer: str, count: int, block_ms: int) -> list[Job]:
        """Up to ``count`` turns no dispatcher has taken (waiting up to ``block_ms``)."""
        return self._jobs(store.read_new(self.r, consumer, count, block_ms))

    def reclaim(self, consumer: str, min_idle: float, count: int) -> list[Job]:
        """Up to ``count`` turns another dispatcher took ``min_idle`` seconds ago or more
        and has not finished (it died mid-call)."""
        return self._jobs(store.claim_idle(self.r, consumer, int(min_idle * 1000), count))

    def hold(self, consumer: str, jobs: list[Job]) -> None:
        """``consumer`` still has ``jobs`` in hand: their idle time starts again, so no
        other dispatcher's :meth:`reclaim` takes them (those acked meanwhile stay done)."""
        store.hold(self.r, consumer, [job.entry for job in jobs])

    def ack(self, job: Job) -> None:
        """The turn is answered, or stale: no dispatcher takes it again."""
        store.ack(self.r, job.entry)

    def pending(self) -> int:
        """Turns taken by some dispatcher and not finished."""
        return store.pending(self.r)

    def prepare(self, job: Job, max_seconds: float, now: float | None = None) -> Call | str | None:
        """The call to make for ``job``; None when the turn is stale (the game moved on,
        is over, the seat changed hands, the callback was removed): ack it; or
        :data:`LATER` while a clocked game's deadline for the version is not set yet.

        The time by which to answer is the seat's deadline (which holds its time bank,
        where the turn has one), at most ``max_seconds`` from now.
        """
        now = time.time() if now is None else now
        callback = store.get(self.r, job.player_id)
        if callback is None:
            return None
        got = current_turn(self.core, job, now, max_seconds)
        if not isinstance(got, Current):
            return got
        prepared = [(got.read, got.state)]
        return Call(job, callback["url"], callback["secret"], got.turn, got.limit, prepared)

    def submit(self, call: Call, move: Any) -> tuple[str, Exception | None]:
        """Play the answered ``move`` with the turn's version: the first time over the
        game as :meth:`prepare` read it (:attr:`Call.prepared`), a retry over a fresh read.

        Returns:
            ``("moved", None)``; ``("stale", None)``: the turn was answered already (by
            the player another way, by an earlier dispatcher, by the clock), or
            ``("stale", refusal)``: it is no turn now (not started, invitations
            pending); ``("late", None)``: the deadline passed; ``("refused_move",
            refusal)``: the engine refused it. ``refusal`` is the exception, which the
            dispatcher names by the API's error code.
        """
        return play_answer(self.games, call.job, move, call.prepared)

    def record(
        self,
        job: Job,
        *,
        called: bool,
        outcome: str,
        latency_ms: int | None = None,
        detail: str | None = None,
    ) -> None:
        """Count one attempt of ``job`` in its player's books.

        ``outcome``: ``moved``, ``stale``, or one of :data:`.callbacks.FAILURE_KINDS` (then kept
        among the last failures, with ``detail``: the dispatcher's words only).
        """
        store.record(self.r, job.player_id, *self._books(job, called, outcome, latency_ms, detail))

    @staticmethod
    def _books(
        job: Job, called: bool, outcome: str, latency_ms: int | None, detail: str | None
    ) -> tuple[dict[str, int], int | None, dict[str, Any] | None]:
        """What one attempt adds to the books: counters, the answer time, the failure."""
        counts = {"calls": 1} if called else {}
        failure = None
        if outcome == "moved":
            counts["moves"] = 1
        elif outcome == "stale":
            counts["stale"] = 1
        else:
            counter = {"timeout": "timeouts", "late": "timeouts", "refused_move": "refused_moves"}
            counts[counter.get(outcome, "errors")] = 1
            failure = {
                "at": wire.iso(time.time()),
                "game_id": job.game_id,
                "version": job.version,
                "seat": job.seat,
                "kind": outcome,
                "detail": detail,
            }
        return counts, latency_ms, failure

    def finish(self, job: Job, last: dict[str, Any] | None) -> None:
        """Done with ``job``: its last attempt counted in its player's books (``last``:
        :meth:`record`'s arguments; None: no call was made) and the turn acked, in
        one round trip."""
        books = None
        if last is not None:
            books = (job.player_id, *self._books(job, **last))
        store.finish(self.r, job.entry, books)
        if last is not None and last["outcome"] != "stale":
            self._health(job, last["outcome"])

    def _health(self, job: Job, outcome: str) -> None:
        """A player bot's turn ended (:mod:`server.services.bot_health`): moved, or failed
        as its last attempt did."""
        bot_id = bot_store.bots_of(self.r, [job.player_id]).get(job.player_id)
        if bot_id is None:
            return
        if outcome == "moved":
            bot_health.played(self.r, bot_id)
        else:
            bot_health.failed(self.r, bot_id, outcome, job.game_id, job.seat)

    def sweep(self) -> int:
        """Queue every current turn of every callback player that is not queued yet: the
        safety net of the step after a commit (:meth:`Core.queue_callbacks`), for a
        callback set since the committing process last looked, or a crash between a
        commit and its queueing. Returns how many turns were queued.

        Cheap when nothing is due: the players' games in one batch, each game read once
        (no turn rendered), the turns' markers in one command; only a turn with no
        marker is queued (a script of its own)."""
        pids = store.players(self.r)
        if not pids:
            return 0
        games = store.games_of(self.r, pids)
        ids = sorted(set().union(*games.values()))
        records = {g.id: g for g in game_store.read_many(self.r, ids)}
        turns: list[tuple[str, int, int, str]] = []
        to_move: dict[str, list[int]] = {}
        for pid in pids:
            done = []
            for gid in games[pid]:
                record = records.get(gid)
                if record is None:
                    continue
                if record.status in OVER:
                    done.append(gid)
                if record.status != "active":
                    continue
                if gid not in to_move:
                    to_move[gid] = views.state_of(record).to_move()
                for seat in views.seats_of(record, pid):
                    if seat in to_move[gid]:
                        turns.append((gid, record.version, seat, pid))
            if done:  # a cleanup that an earlier step did not get to finish
                player_store.forget_games(self.r, pid, done)
        queued = 0
        for gid, version, seat, pid in store.unqueued(self.r, turns):
            queued += store.queue(self.r, self.core.scripts, gid, version, [(seat, pid)])
        return queued

    def keep_waiting(self, until: float) -> int:
        """Every callback player that can be called counts as waiting for a turn (the
        ladders match it): its dispatcher is. Not one whose callback was removed nor
        whose token was revoked (:func:`store.live`). Returns how many."""
        players = store.live(self.r)
        for pid in players:
            self.core.waiting(pid, until)
        return len(players)

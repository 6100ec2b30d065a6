"""Hosted turns: the sandbox workers' use cases (``parlour sandbox``,
:mod:`server.processes.sandboxd`), the callbacks' design over a stream of their own.

**Queueing.** After each commit (:meth:`Core.queue_callbacks`) the turns of the seats
to move whose player is a hosted bot's identity are added to ``hb:{q}:turns``, each
once; the workers sweep the hosted identities' turns every few seconds for any the
step missed (:meth:`HostedTurns.sweep`).

**Taking.** Workers share the stream through one consumer group: each reads new turns,
claims those another worker left pending past a bound (it died mid-turn: kill -9 loses
nothing, and the clock's default move stands behind it), keeps claiming those it holds,
and acks a turn once its move is submitted or it is stale. A turn played twice fails
the version's compare-and-set harmlessly (``stale``).

**A turn** (:meth:`HostedTurns.prepare`): the seat's own view (:func:`views.turn`, as
``GET /v1/me/turns`` lists it: the same hidden-information filter), the bot and the
version the seat plays (pinned at its first turn: a new upload plays from the next
game), and the time left. The worker's sandbox answers a move, or the documented
default move after a failure; :meth:`HostedTurns.submit` plays it with the turn's
version; :meth:`HostedTurns.log` keeps the seat's stderr tail and failures with the
game, for its owner once the game is over.

**Health.** Each failed turn (any kind the sandbox counts: ``crash``, ``timeout``,
``garbage``, ``illegal``; over all the bot's seats and games) counts toward its health
sweep (:mod:`server.services.bot_health`: :data:`~server.services.bot_health.FAILED_TURNS`
in a row pause it); a turn played well ends the run.

**Hosts.** Each worker says every few seconds whether its host can sandbox
(:meth:`HostedTurns.heartbeat`); creating a hosted bot needs one that can.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from server.games import BaseState
from server.services import boards, bot_health, views
from server.services.bot_health import FAILED_TURNS
from server.services.core import Core, Read
from server.services.feeds import OVER
from server.services.games import Games
from server.services.queued_turns import Current, current_turn, play_answer
from server.store import bots as store
from server.store import callbacks as callback_store  # its per-player game index
from server.store import games as game_store

__all__ = ["FAILED_TURNS", "HostedTurn", "HostedTurns", "Job"]

HEARTBEAT_TTL = 15.0
"""Seconds a worker's heartbeat counts for."""


@dataclass(frozen=True, slots=True)
class Job:
    """One queued hosted turn: the stream entry, and the game, version and seat."""

    entry: str
    game_id: str
    version: int
    seat: int
    player_id: str

    @property
    def key(self) -> tuple[str, int]:
        """The live sandbox this turn is for: one per (game, seat)."""
        return self.game_id, self.seat


@dataclass(frozen=True, slots=True)
class HostedTurn:
    """A turn to play: the job, the bot and pinned version, the seat's turn entry (its
    view), the time by which the move must be submitted, and the game as read."""

    job: Job
    bot_id: str
    version: int
    turn: dict[str, Any]
    limit: float
    prepared: list[tuple[Read, BaseState]] = field(default_factory=list)


class HostedTurns:
    """The sandbox workers' use cases over the hosted turn stream."""

    def __init__(self, core: Core, games: Games) -> None:
        self.core = core
        self.r = core.r
        self.games = games

    def start(self) -> None:
        store.ensure_group(self.r)

    def _jobs(self, entries: list[tuple[str, dict[str, str]]]) -> list[Job]:
        out = []
        for entry, f in entries:
            try:
                out.append(Job(entry, f["game"], int(f["version"]), int(f["seat"]), f["player"]))
            except (KeyError, ValueError):
                store.ack(self.r, entry)
        return out

    def take(self, consumer: str, count: int, block_ms: int) -> list[Job]:
        return self._jobs(store.read_new(self.r, consumer, count, block_ms))

    def reclaim(self, consumer: str, min_idle: float, count: int) -> list[Job]:
        return self._jobs(store.claim_idle(self.r, consumer, int(min_idle * 1000), count))

    def hold(self, consumer: str, jobs: list[Job]) -> None:
        store.hold(self.r, consumer, [job.entry for job in jobs])

    def ack(self, job: Job) -> None:
        store.ack(self.r, job.entry)

    def pending(self) -> int:
        return store.pending(self.r)

    def prepare(
        self,
        job: Job,
        max_seconds: float,
        now: float | None = None,
        pinned: tuple[str, int] | None = None,
    ) -> HostedTurn | str | None:
        """The turn to play for ``job``; None when it is stale (ack it), :data:`LATER`
        while the game's clock is not armed for the version yet. ``pinned``: the bot and
        version this seat plays, known from an earlier turn (no look-up again)."""
        now = time.time() if now is None else now
        latest = 0
        if pinned is None:
            found = store.bots_of(self.r, [job.player_id]).get(job.player_id)
            bot = store.get(self.r, found) if found is not None else None
            if bot is None or bot["kind"] != "hosted" or not bot["version"]:
                return None
            pinned, latest = (bot["id"], 0), bot["version"]
        got = current_turn(self.core, job, now, max_seconds)
        if not isinstance(got, Current):
            return got
        bot_id, version = pinned
        if latest:  # this worker's first turn of the seat: the version pinned at its first
            version = store.pin(self.r, job.game_id, job.seat, bot_id, latest)
        return HostedTurn(job, bot_id, version, got.turn, got.limit, [(got.read, got.state)])

    def bundle(self, bot_id: str, version: int) -> bytes | None:
        """The normalized bundle (a gzipped tar) of the bot's version."""
        got = store.version(self.r, bot_id, version)
        return None if got is None else got["bundle"]

    def submit(self, turn: HostedTurn, move: Any) -> tuple[str, Exception | None]:
        """Play ``move`` with the turn's version: ``moved``, ``stale``, ``late`` or
        ``refused_move`` (with the refusal), as :meth:`Dispatch.submit` answers."""
        return play_answer(self.games, turn.job, move, turn.prepared)

    def log(self, job: Job, stderr: str, failure: str | None, now: float | None = None) -> None:
        """Keep the seat's stderr tail (bounded by the sandbox) and count ``failure``,
        with the seat's game and for its bot's health: :data:`FAILED_TURNS` in a row
        pause the bot."""
        bot_id = store.seat_log(self.r, job.game_id, job.seat, stderr[-2048:], failure)
        if failure and bot_id is not None:
            bot_health.failed(self.r, bot_id, failure, job.game_id, job.seat, now)

    def played(self, bot_id: str) -> None:
        """A turn of the bot's played without failing: its run of failed turns ends."""
        bot_health.played(self.r, bot_id)

    def over(self, game_ids: list[str]) -> dict[str, dict[int, Any] | None]:
        """Of ``game_ids``, those over (or gone): each seat's final view for
        ``on_game_over`` (None when the game is gone). A table of a duplicate board whose
        other tables still play gets the view sealed, as the API answers its seats
        (:func:`.boards.sealed`: the result, nothing of the deal)."""
        out: dict[str, dict[int, Any] | None] = {}
        ended = [r for r in game_store.read_many(self.r, game_ids) if r.status in OVER]
        in_play = boards.in_play_among(self.core, ended)
        for record in ended:
            state = views.state_of(record)
            shown = {s: views.view(record, state, s) for s in record.seats}
            if record.id in in_play:
                shown = {s: boards.sealed(v) for s, v in shown.items()}
            out[record.id] = shown
        for gid in game_ids:
            if gid not in out and self.core.game(gid) is None:
                out[gid] = None
        return out

    def heartbeat(self, consumer: str, ok: bool, reason: str, seats: int) -> None:
        """``consumer`` can sandbox (or not, and why), with ``seats`` live; the
        heartbeats of workers gone an hour are dropped."""
        now = time.time()
        beat = {"ok": ok, "reason": reason[:200], "until": now + HEARTBEAT_TTL, "seats": seats}
        store.heartbeat(self.r, consumer, beat)
        for name, got in store.hosts(self.r).items():
            if got.get("until", 0) < now - 3600:
                store.forget_host(self.r, name)

    def forget(self, consumer: str) -> None:
        store.forget_host(self.r, consumer)

    def sweep(self) -> int:
        """Queue every current turn of every hosted identity not queued yet (the safety
        net of the step after a commit). Returns how many were queued."""
        pids = store.hosted_players(self.r)
        if not pids:
            return 0
        games = callback_store.games_of(self.r, pids)
        ids = sorted(set().union(*games.values()))
        records = {g.id: g for g in game_store.read_many(self.r, ids)}
        turns: list[tuple[str, int, int, str]] = []
        for pid in pids:
            for gid in games[pid]:
                record = records.get(gid)
                if record is None or record.status != "active":
                    continue
                to_move = views.state_of(record).to_move()
                turns += [
                    (gid, record.version, s, pid)
                    for s in views.seats_of(record, pid)
                    if s in to_move
                ]
        queued = 0
        for gid, version, seat, pid in store.unqueued(self.r, turns):
            queued += store.queue(self.r, self.core.scripts, gid, version, [(seat, pid)])
        return queued

    def keep_waiting(self, until: float) -> int:
        """Every hosted identity counts as waiting for a turn (the ladders match it):
        a worker is. Returns how many."""
        players = store.hosted_players(self.r)
        for pid in players:
            self.core.waiting(pid, until)
        return len(players)

"""Callbacks: a bot that is a URL. The server POSTs each turn of the player's seats to it
and plays the move it answers (docs/api.md, "Callbacks").

**Registration** (:class:`Callbacks`, ``/v1/me/callback``): a player sets,
replaces, rotates the secret of, and removes its own callback. The URL passes the
outbound guard (:func:`server.services.targets.check_target_url`, the webhooks'
one, with the operator's ``PARLOUR_WEBHOOK_ALLOW``) at registration; the
dispatcher's outbound stack (:mod:`server.processes.outbound`, the webhooks' too)
checks it again after resolving the name, before each call. The secret
(``cbs_...``) is shown once, in the answer that made it; it signs each call
exactly like a webhook (:func:`server.services.notifications.signature`, applied
by that stack). A callback ends with
the token that could set it: a revocation removes it, a rotation too unless asked
to keep it (then with a new secret), in the token's own swap
(:mod:`server.services.players`); a revoked player's seats are not played even by
a callback left from before (:meth:`Core.read_as` refuses it).

**Queueing.** After each commit (a repeatable step, :meth:`Core.queue_callbacks`)
the turns of the seats to move whose player has a callback are added to a Redis
stream, each once; the dispatchers sweep the callback players' turns every few
seconds for any the step missed (:meth:`Dispatch.sweep`). While a callback is set
the player's turn streams and long-polls keep working: a move made either way is accepted once (the
version compare-and-set).

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
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from server.games import BaseState
from server.services import targets, views, wire
from server.services.core import Core, Read
from server.services.errors import (
    DeadlinePassed,
    Forbidden,
    GameOver,
    IllegalMove,
    InvalidRequest,
    MalformedMove,
    NotFound,
    NotYourTurn,
    ServiceError,
    StaleVersion,
    Unauthorized,
)
from server.services.feeds import OVER, Feeds
from server.services.games import Games
from server.services.targets import check_target_url
from server.store import callbacks as store
from server.store import games as game_store
from server.store import players as player_store
from server.store.players import PlayerRecord
from server.tournaments.ladder import percentile

MAX_URL = 2048
"""Longest callback URL."""
SECRET_PREFIX = "cbs_"
FAILURE_KINDS = (
    "timeout",  # no answer in the time left
    "late",  # an answer, after the deadline
    "unreachable",  # no connection, or it broke
    "refused_address",  # the name resolves to an address the guard refuses
    "status",  # an answer other than 200
    "not_a_move",  # a body that is not {"move": ...}
    "too_large",  # a body past the bound
    "refused_move",  # the engine refused the move
)


def new_secret() -> str:
    """A fresh signing secret (``cbs_...``)."""
    return SECRET_PREFIX + secrets.token_urlsafe(32)


def health(books: tuple[dict[str, int], list[int], list[dict[str, Any]]]) -> dict[str, Any]:
    """A callback's health as the API shows it: counters, answer times, last failures."""
    counts, latencies, failures = books
    return {
        **counts,
        "latency_p50_ms": percentile(latencies, 0.50),
        "latency_p99_ms": percentile(latencies, 0.99),
        "latency_samples": len(latencies),
        "last_failures": failures,
    }


class Callbacks:
    """A player's own callback, over the shared :class:`Core`.

    Args:
        allow: internal ranges callbacks may target all the same (the webhooks'
            ``PARLOUR_WEBHOOK_ALLOW``).
        changed: called with the player's id when its callback is set to a new URL
            (the bot that plays its seats may be another one now): the ladders ask a
            validation game again (:meth:`server.services.ladders.Ladders.revalidate`).
    """

    def __init__(
        self,
        core: Core,
        allow: tuple[targets.Network, ...] = (),
        changed: Callable[[str], object] = lambda player_id: None,
    ) -> None:
        self.core = core
        self.r = core.r
        self.allow = allow
        self.changed = changed

    def show(self, token: str | None) -> dict[str, Any]:
        """The caller's callback (the secret's last 4 characters only) and its health.

        Raises:
            Unauthorized, Forbidden (the admin), NotFound: no callback is set.
        """
        player = self.core.player(token)
        got = store.get(self.r, player.id)
        if got is None:
            raise NotFound("no callback is set")
        return {
            "url": got["url"],
            "secret_hint": got["secret"][-4:],
            "since": wire.iso(got["since"]),
            "health": self.health([player.id])[player.id],
        }

    def put(self, token: str | None, url: Any) -> dict[str, Any]:
        """Set or replace the caller's callback, with a fresh secret (shown this once).
        A new URL (none before, or another) is a change of bot: ``changed`` is told.

        Raises:
            Unauthorized (also: the token was rotated or revoked while this ran; the
            callback is not left set), Forbidden, InvalidRequest: not an http(s) URL,
            too long, or an address the server must not reach.
        """
        player = self.core.player(token)
        if not isinstance(url, str) or not url:
            raise InvalidRequest("url must be an http(s) URL", {"url": ["an absolute http(s) URL"]})
        if len(url) > MAX_URL:
            raise InvalidRequest("url is too long", {"url": [f"at most {MAX_URL} characters"]})
        check_target_url(url, self.allow, "callbacks")
        secret = new_secret()
        before = store.get(self.r, player.id)
        store.put(self.r, player.id, url, secret, time.time())
        if not self._token_holds(player):
            raise Unauthorized("unknown token")
        if before is None or before["url"] != url:
            self.changed(player.id)
        return {"url": url, "secret": secret}

    def _token_holds(self, player: PlayerRecord) -> bool:
        """After a write with ``player``'s token: whether it is still the player's. A
        token rotated or revoked meanwhile removed the callback before the write or
        will not see it: the write is undone (the revocation's own removal, done late)."""
        now = player_store.get(self.r, player.id)
        if now is not None and now.token_sha256 == player.token_sha256:
            return True
        store.delete(self.r, player.id)
        return False

    def rotate(self, token: str | None) -> dict[str, Any]:
        """A new secret for the caller's callback; the old one signs nothing more.

        Raises:
            Unauthorized, Forbidden, NotFound: no callback is set.
        """
        player = self.core.player(token)
        secret = new_secret()
        url = store.rotate(self.r, self.core.scripts, player.id, secret)
        if url is None:
            raise NotFound("no callback is set")
        return {"url": url, "secret": secret}

    def delete(self, token: str | None) -> None:
        """Remove the caller's callback: its turns are no longer called (the turns
        queued already are dropped by the dispatcher).

        Raises:
            Unauthorized, Forbidden, NotFound: no callback is set.
        """
        player = self.core.player(token)
        if not store.delete(self.r, player.id):
            raise NotFound("no callback is set")

    def health(self, player_ids: list[str]) -> dict[str, dict[str, Any]]:
        """Each player's callback health (zeros for a player never called)."""
        return {pid: health(b) for pid, b in store.books(self.r, player_ids).items()}

    def with_callback(self, player_ids: list[str]) -> set[str]:
        """Those of ``player_ids`` that have a callback now."""
        return set(store.players(self.r)) & set(player_ids)


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


LATER = "later"
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
        try:  # the game, its clock and the player in one round trip
            read = self.core.read_as(job.player_id, job.game_id)
        except (Unauthorized, NotFound):  # the player or the game is gone
            return None
        record = read.game
        if record.status != "active":
            return None
        if record.version != job.version or views.holder(record, job.seat) != job.player_id:
            return None
        state = views.state_of(record)
        if job.seat not in state.to_move():
            return None
        clock = self.core.clock(record)
        if clock is not None and clock.version < record.version:
            return LATER
        turn = views.turn(record, state, job.seat, clock)
        limit = now + max_seconds
        deadline = clock.deadlines.get(job.seat) if clock is not None else None
        if deadline is not None:
            limit = min(limit, deadline)
        return Call(job, callback["url"], callback["secret"], turn, limit, [(read, state)])

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
        job = call.job
        try:
            read, state = call.prepared.pop() if call.prepared else (None, None)
            self.games.move_as(job.player_id, job.game_id, move, job.version, job.seat, read, state)
        except (StaleVersion, GameOver, NotYourTurn, Forbidden, NotFound, Unauthorized):
            return "stale", None
        except DeadlinePassed:
            return "late", None
        except (IllegalMove, MalformedMove) as exc:
            return "refused_move", exc
        except ServiceError as exc:  # not started, invitations pending: the turn is not one
            return "stale", exc
        return "moved", None

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

        ``outcome``: ``moved``, ``stale``, or one of :data:`FAILURE_KINDS` (then kept
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

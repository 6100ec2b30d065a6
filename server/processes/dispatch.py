"""The callback dispatcher: ``parlour dispatch``, run by ``parlour serve`` beside the API.

A loop over the dispatch use cases (:class:`server.services.callback_dispatch.Dispatch`):
it takes the turns of callback players from the turn stream (a Redis Streams
consumer group, so any number of dispatchers share the work), POSTs each to the
player's URL, and submits the answered move with the turn's version.

* **Nothing lost, nothing twice.** A turn stays pending for its dispatcher until
  it is acked, after the move is submitted or the turn found stale. A dispatcher
  that dies mid-call leaves it pending: another claims it once it has been idle
  ``claim_idle`` seconds and calls again, with a new call id. A live dispatcher's
  turns never get that idle: every ``claim_idle / 4`` seconds it claims again,
  for itself, every turn it holds (running, or waiting for a call to its host to
  end), which resets their idle time (:meth:`Dispatch.hold`). That holds however
  long a turn is held, so nothing rests on a bound of a call's length. If a
  first dispatcher got as far as submitting, the second submit fails the
  version's compare-and-set and counts as ``stale``: a turn is played once.
* **A slow bot costs its own seats' time.** A call ends at its deadline, whatever
  the bot sends and however slowly (the connect, the TLS handshake, the status
  line, the headers and the body are one wall-clock deadline). At most
  ``per_host`` calls to one host name run at once: a turn for a host at its cap
  waits, holding no thread, until one of them ends.
* **Failures.** No answer in the time left, a status other than 200, a body that
  is not ``{"move": ...}`` or too large, a refused move: one retry while time is
  left; then nothing, and the clock plays its default move at the deadline
  (an unclocked game's turn waits for the player's other paths). Each attempt
  counts in the player's books (:meth:`Dispatch.record`); a refused move by the
  API's error code for it, read from the API's one table (:func:`refusal_code`).
* **Outbound HTTP.** The call goes through the server's one outbound stack
  (:mod:`server.processes.outbound`, the webhooks' too): the host resolved and
  every address checked by the guard before each call, the connection to a checked
  address, the body signed with the callback's secret, the whole call within the
  time left, keep-alive connections per bot host (kept once an answer is read to its
  end), no redirect followed, TLS verified for the URL's host (against certifi's
  certificates), the answer read as sent up to :data:`MAX_ANSWER` bytes, a failure
  logged as one short line.
* **Round trips.** A turn is read once (:meth:`Dispatch.prepare`: the callback,
  then the game with its clock and the player) and its engine state parsed once:
  the first submit plays over them (a retry reads afresh); the last attempt's books
  and the turn's ack go in one batch (:meth:`Dispatch.finish`).
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
from collections import Counter, deque
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from urllib.parse import urlsplit

import certifi
import orjson

from server.api.errors import ERRORS
from server.processes import outbound
from server.processes.daemon import log_as, orphaned, stop_on_signals
from server.services import targets
from server.services.bundle import Services
from server.services.callback_dispatch import Call, Dispatch, Job
from server.services.queued_turns import LATER

log = logging.getLogger("server.processes.dispatch")

USER_AGENT = "parlour-dispatch/0.1"
MAX_ANSWER = 64 * 1024
"""Largest answer body read, in bytes; a longer one is a failure (``too_large``)."""
SUBMIT_MARGIN = 0.05
"""Seconds kept before the limit to submit the move (a call's timeout is the rest)."""
MIN_CALL = 0.05
"""A call with less time than this left is not made."""
WAITING_EVERY = 2.0
"""Seconds between two marks of every callback player as waiting (the ladders match it),
and two sweeps of their turns for any not queued (:meth:`Dispatch.sweep`)."""
QUEUED = "queued"
""":meth:`Dispatcher.handle`'s answer for a turn left waiting for its host's cap."""


class Answer:
    """What one call got: a move, or a failure kind (and its detail), and how long it took."""

    __slots__ = ("move", "failure", "detail", "latency_ms", "called")

    def __init__(
        self,
        *,
        move: Any = None,
        failure: str | None = None,
        detail: str | None = None,
        latency_ms: int | None = None,
        called: bool = True,
    ) -> None:
        self.move, self.failure, self.detail = move, failure, detail
        self.latency_ms, self.called = latency_ms, called


class Dispatcher:
    """Dispatches callback turns; several may run at once, in any number of processes.

    Args:
        dispatch: the dispatch use cases over the server's Redis.
        consumer: this dispatcher's name in the consumer group (unique per process).
        concurrency: calls in flight at once (threads).
        per_host: calls in flight at once to one host name (the URL's); a turn for a
            host at its cap waits, holding no thread, for one of them to end.
        timeout: the longest a call may take, whatever the deadline (unclocked games).
        claim_idle: seconds after which a turn another dispatcher took and did not
            finish is claimed (at least ``timeout`` + 2). A turn this dispatcher
            holds is claimed again by it every ``claim_idle / 4`` seconds, which
            resets its idle time: it is never taken from a live dispatcher.
        allow: internal ranges callbacks may reach all the same (CIDR list,
            ``PARLOUR_WEBHOOK_ALLOW``).
        resolve: host, port -> addresses (the system's resolver by default).
        ca_bundle: the certificates TLS trusts (a PEM file); by default certifi's.
    """

    def __init__(
        self,
        dispatch: Dispatch,
        *,
        consumer: str | None = None,
        concurrency: int = 32,
        per_host: int = 8,
        timeout: float = 10.0,
        claim_idle: float | None = None,
        allow: str | Sequence[targets.Network] = "",
        resolve: targets.Resolver = targets.resolve,
        ca_bundle: str | None = None,
    ) -> None:
        self.dispatch = dispatch
        self.consumer = consumer or f"{socket.gethostname()}-{os.getpid()}"
        self.concurrency = concurrency
        self.per_host = max(1, per_host)
        self.timeout = timeout
        self.claim_idle = max(claim_idle or 0.0, timeout + 2.0)
        self.http = outbound.Outbound(
            USER_AGENT,
            allow=allow,
            resolve=resolve,
            ca_bundle=ca_bundle or certifi.where(),
            connections=concurrency,
        )
        self._pool = ThreadPoolExecutor(concurrency, thread_name_prefix="dispatch")
        self._free = threading.Semaphore(concurrency)
        self._held: dict[str, Job] = {}  # entry -> a turn taken and not done with
        self._calls: Counter[str] = Counter()  # host -> calls in flight
        self._queued: dict[str, deque[Job]] = {}  # host -> turns waiting for a call to end
        self._ready: deque[Job] = deque()  # turns a call's end let through: started first
        self._turns_lock = threading.Lock()
        self._next_claim = 0.0
        self._next_hold = 0.0
        self._next_waiting = 0.0
        self._stopping = threading.Event()

    # -- the loop -------------------------------------------------------------------
    def tick(self, block: float = 1.0) -> int:
        """Start the turns waiting (those a host's cap let through, then claimed ones,
        then new ones); returns how many were started."""
        now = time.monotonic()
        if now >= self._next_waiting:  # the ladders' books, and turns the commits missed
            self._next_waiting = now + WAITING_EVERY
            self.dispatch.keep_waiting(time.time())
            self.dispatch.sweep()
        if now >= self._next_hold:  # the turns held stay ours: their idle time reset
            self._next_hold = now + self.claim_idle / 4
            with self._turns_lock:
                held = list(self._held.values())
            self.dispatch.hold(self.consumer, held)
        free = self._free_slots()
        with self._turns_lock:
            jobs = [self._ready.popleft() for _ in range(min(free, len(self._ready)))]
            queued = bool(self._queued)
        if free - len(jobs) > 0 and now >= self._next_claim:
            self._next_claim = now + min(1.0, self.claim_idle / 4)
            jobs += self.dispatch.reclaim(self.consumer, self.claim_idle, free - len(jobs))
        if free - len(jobs) > 0:  # a turn queued for its host: back soon for it
            wait = min(block, 0.05) if queued else block
            jobs += self.dispatch.take(self.consumer, free - len(jobs), int(wait * 1000))
        started = 0
        for job in jobs:
            with self._turns_lock:
                if self._held.get(job.entry, job) is not job:  # running here already
                    continue
                self._held[job.entry] = job
            self._free.acquire()
            self._pool.submit(self._run, job)
            started += 1
        return started

    def _free_slots(self) -> int:
        n = 0
        while self._free.acquire(blocking=False):
            n += 1
        for _ in range(n):
            self._free.release()
        return n

    def _run(self, job: Job) -> None:
        outcome = None
        try:
            outcome = self.handle(job)
        except Exception:  # noqa: BLE001 - Redis away a moment: the turn stays pending
            if self._stopping.is_set():  # Redis stopped with us (Ctrl-C): the turn waits
                log.info("turn %s of game %s: left pending at stop", job.version, job.game_id)
            else:
                log.exception("turn %s of game %s: dispatch failed", job.version, job.game_id)
        finally:
            if outcome != QUEUED:  # done, or left pending for another dispatcher to claim
                with self._turns_lock:
                    self._held.pop(job.entry, None)
            self._free.release()

    def run(self, stop: threading.Event, parent_pid: int | None = None) -> None:
        """Dispatch until ``stop`` is set (or the parent process is gone)."""
        self._stopping = stop
        self.dispatch.start()
        while not stop.is_set():
            if orphaned(parent_pid):
                log.warning("parent process gone: dispatcher stopping")
                break
            try:
                if not self._free_slots():
                    stop.wait(0.01)
                    continue
                self.tick(block=0.5)
            except Exception:  # noqa: BLE001 - Redis away for a moment: try again
                if stop.is_set():  # Redis stopped with us (Ctrl-C reaches it too)
                    break
                log.exception("dispatch pass failed")
                stop.wait(0.5)

    def close(self) -> None:
        self._pool.shutdown(wait=True)
        self.http.close()

    # -- one turn ---------------------------------------------------------------------
    def handle(self, job: Job) -> str:
        """Call ``job``'s turn (twice at most) and submit the move; ack it. Returns the
        last outcome (``moved``, ``stale``, or a failure kind), or :data:`QUEUED`: its
        host is at its cap, the turn waits (pending, held) for a call to it to end."""
        call = self._prepare(job)
        if call is None:
            log.info("game %s v%s seat %s: stale", job.game_id, job.version, job.seat)
            self.dispatch.ack(job)
            return "stale"
        host = (urlsplit(call.url).hostname or "").lower()
        if not self._enter(host, job):
            return QUEUED
        try:
            return self._attempts(job, call)
        finally:
            self._leave(host)

    def _enter(self, host: str, job: Job) -> bool:
        """A call slot of ``host``; or False, and ``job`` queued for the next one free."""
        with self._turns_lock:
            if self._calls[host] >= self.per_host:
                self._queued.setdefault(host, deque()).append(job)
                return False
            self._calls[host] += 1
            return True

    def _leave(self, host: str) -> None:
        """A call to ``host`` ended: the next turn queued for it is started first."""
        with self._turns_lock:
            self._calls[host] -= 1
            if not self._calls[host]:
                del self._calls[host]
            waiting = self._queued.get(host)
            if waiting:
                self._ready.append(waiting.popleft())
                if not waiting:
                    del self._queued[host]

    def _attempts(self, job: Job, call: Call) -> str:
        """The call and its retry, the move submitted, the turn finished."""
        outcome = "timeout"
        last: dict[str, Any] | None = None  # the last attempt's books, written with the ack
        for _ in range(2):  # one retry while time is left
            left = call.limit - time.time() - SUBMIT_MARGIN
            if left < MIN_CALL:
                log.info("game %s v%s: no time left to call", job.game_id, job.version)
                break
            if last is not None:  # the first attempt failed: its books now
                self.dispatch.record(job, **last)
            answer = self.call(call, left)
            if answer.failure is None:
                outcome, refusal = self.dispatch.submit(call, answer.move)
                detail = refusal_code(refusal)
            else:
                outcome, detail = answer.failure, answer.detail
            last = {
                "called": answer.called,
                "outcome": outcome,
                "latency_ms": answer.latency_ms,
                "detail": detail,
            }
            if outcome in ("moved", "stale", "late"):
                break
        self.dispatch.finish(job, last)
        return outcome

    def _prepare(self, job: Job) -> Call | None:
        """The call for ``job``, waiting a moment for a clock being armed."""
        for _ in range(50):  # a second at most
            got = self.dispatch.prepare(job, self.timeout)
            if got != LATER:
                return got if isinstance(got, Call) else None
            time.sleep(0.02)
        return None

    def call(self, call: Call, left: float) -> Answer:
        """POST the turn to the bot (:meth:`Outbound.post`), reading at most
        :data:`MAX_ANSWER` bytes in ``left`` seconds."""
        _, body = call.request()
        try:
            reply = self.http.post(
                call.url,
                body,
                secret=call.secret,
                timeout=left,
                most=MAX_ANSWER,
                what=f"callback of {call.job.player_id}",
            )
        except outbound.Refused:
            return Answer(failure="refused_address", called=False)
        except outbound.Unresolved:
            return Answer(failure="unreachable", detail="the name does not resolve", called=False)
        except outbound.Late:
            return Answer(failure="timeout", detail=f"no answer in {left:.2f} s")
        except outbound.Unreachable as exc:
            return Answer(failure="unreachable", detail=exc.kind)
        return _judge(reply.status, reply.body, int(reply.took * 1000))


def _judge(status: int, raw: bytes, latency: int) -> Answer:
    """The answer a reply in time makes: a move, or why not."""
    if status != 200:
        return Answer(failure="status", detail=f"HTTP {status}", latency_ms=latency)
    if len(raw) > MAX_ANSWER:
        return Answer(failure="too_large", detail=f"over {MAX_ANSWER} bytes", latency_ms=latency)
    try:
        answer = orjson.loads(raw)
    except orjson.JSONDecodeError:
        return Answer(failure="not_a_move", detail="not JSON", latency_ms=latency)
    if not isinstance(answer, dict) or "move" not in answer:
        return Answer(failure="not_a_move", detail='no "move"', latency_ms=latency)
    return Answer(move=answer["move"], latency_ms=latency)


def refusal_code(refusal: Exception | None) -> str | None:
    """The API's error code for a refused answer (``server/api/errors.py``'s table, read
    along the class hierarchy), as a caller of the move endpoint would read it: a move
    that is no move of the game is ``invalid_request`` there, an illegal one
    ``illegal_move``."""
    if refusal is None:
        return None
    return next((ERRORS[cls][1] for cls in type(refusal).__mro__ if cls in ERRORS), None)


def serve_forever(
    redis_url: str,
    *,
    parent_pid: int | None = None,
    make: Callable[..., Dispatcher] = Dispatcher,
) -> int:
    """``parlour dispatch``: dispatch until SIGINT/SIGTERM (or the parent exits).

    Settings from the environment: ``PARLOUR_DISPATCH_CONCURRENCY`` (calls in
    flight, default 32), ``PARLOUR_DISPATCH_PER_HOST`` (calls in flight to one
    host name, default 8), ``PARLOUR_CALLBACK_TIMEOUT`` (the longest call, seconds,
    default 10), ``PARLOUR_DISPATCH_CLAIM_IDLE`` (seconds before a dead
    dispatcher's turn is claimed, at least and by default the timeout + 2),
    ``PARLOUR_WEBHOOK_ALLOW`` (internal ranges callbacks may reach, CIDR list).
    """
    log_as("dispatch")
    stop = stop_on_signals()
    claim = os.environ.get("PARLOUR_DISPATCH_CLAIM_IDLE")
    dispatcher = make(
        Services.connect(redis_url, admin_token=None).dispatch,
        concurrency=int(os.environ.get("PARLOUR_DISPATCH_CONCURRENCY", "32")),
        per_host=int(os.environ.get("PARLOUR_DISPATCH_PER_HOST", "8")),
        timeout=float(os.environ.get("PARLOUR_CALLBACK_TIMEOUT", "10")),
        claim_idle=float(claim) if claim else None,
        allow=os.environ.get("PARLOUR_WEBHOOK_ALLOW", ""),
    )
    log.info("dispatching from %s as %s", redis_url, dispatcher.consumer)
    try:
        dispatcher.run(stop, parent_pid)
    finally:
        dispatcher.close()
    log.info("stopped")
    return 0

"""The callback dispatcher: ``parlour dispatch``, run by ``parlour serve`` beside the API.

A loop over the dispatch use cases (:class:`server.services.callbacks.Dispatch`):
it takes the turns of callback players from the turn stream (a Redis Streams
consumer group, so any number of dispatchers share the work), POSTs each to the
player's URL, and submits the answered move with the turn's version.

* **Nothing lost, nothing twice.** A turn stays pending for its dispatcher until
  it is acked, after the move is submitted or the turn found stale. A dispatcher
  that dies mid-call leaves it pending: another claims it once it has been idle
  ``claim_idle`` seconds (longer than any call may take) and calls again, with a
  new call id. If the first got as far as submitting, the second submit fails
  the version's compare-and-set and counts as ``stale``: a turn is played once.
* **Failures.** No answer in the time left, a status other than 200, a body that
  is not ``{"move": ...}`` or too large, a refused move: one retry while time is
  left; then nothing, and the clock plays its default move at the deadline
  (an unclocked game's turn waits for the player's other paths). Each attempt
  counts in the player's books (:meth:`Dispatch.record`).
* **Outbound HTTP.** A urllib3 ``PoolManager`` per bot host (keep-alive
  connections, kept for the next call once an answer is read to its end; no
  retries, no proxy), redirects not followed, TLS verified for the URL's host, the
  answer read in a stream up to :data:`MAX_ANSWER` bytes and within the time left
  (the whole answer, not each read). Before each call the host is resolved and
  every address checked by the webhooks' guard
  (:func:`server.services.notifications.check_target`); the connection goes to a
  checked address (the URL's host in ``Host`` and in TLS; the next one if it
  refuses), so a name rebound to an internal address in between is never reached.
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
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from urllib.parse import urlsplit

import certifi
import orjson
import urllib3
from urllib3.exceptions import HTTPError, NewConnectionError, ReadTimeoutError
from urllib3.exceptions import TimeoutError as Urllib3Timeout

from server.processes.daemon import log_as, orphaned, stop_on_signals
from server.services import notifications
from server.services.bundle import Services
from server.services.callbacks import LATER, Call, Dispatch, Job

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
        concurrency: calls in flight at once (a slow bot delays no other).
        timeout: the longest a call may take, whatever the deadline (unclocked games).
        claim_idle: seconds after which a turn another dispatcher took and did not
            finish is claimed (at least ``timeout`` + 2: a live call is never taken).
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
        timeout: float = 10.0,
        claim_idle: float | None = None,
        allow: str | Sequence[notifications.Network] = "",
        resolve: notifications.Resolver = notifications.resolve,
        ca_bundle: str | None = None,
    ) -> None:
        self.dispatch = dispatch
        self.ca_bundle = ca_bundle or certifi.where()
        self.consumer = consumer or f"{socket.gethostname()}-{os.getpid()}"
        self.concurrency = concurrency
        self.timeout = timeout
        self.claim_idle = max(claim_idle or 0.0, timeout + 2.0)
        self.allow = notifications.allowlist(allow) if isinstance(allow, str) else tuple(allow)
        self.resolve = resolve
        self._pool = ThreadPoolExecutor(concurrency, thread_name_prefix="dispatch")
        self._free = threading.Semaphore(concurrency)
        self._hosts: dict[tuple[str, str, int], urllib3.PoolManager] = {}
        self._hosts_lock = threading.Lock()
        self._next_claim = 0.0
        self._next_waiting = 0.0
        self._stopping = threading.Event()

    # -- the loop -------------------------------------------------------------------
    def tick(self, block: float = 1.0) -> int:
        """Start the turns waiting (claimed ones first); returns how many were started."""
        now = time.monotonic()
        if now >= self._next_waiting:  # the ladders' books, and turns the commits missed
            self._next_waiting = now + WAITING_EVERY
            self.dispatch.keep_waiting(time.time())
            self.dispatch.sweep()
        free = self._free_slots()
        jobs: list[Job] = []
        if free and now >= self._next_claim:
            self._next_claim = now + min(1.0, self.claim_idle / 4)
            jobs = self.dispatch.reclaim(self.consumer, self.claim_idle, free)
        if free - len(jobs) > 0:
            jobs += self.dispatch.take(self.consumer, free - len(jobs), int(block * 1000))
        for job in jobs:
            self._free.acquire()
            self._pool.submit(self._run, job)
        return len(jobs)

    def _free_slots(self) -> int:
        n = 0
        while self._free.acquire(blocking=False):
            n += 1
        for _ in range(n):
            self._free.release()
        return n

    def _run(self, job: Job) -> None:
        try:
            self.handle(job)
        except Exception:  # noqa: BLE001 - Redis away a moment: the turn stays pending
            if self._stopping.is_set():  # Redis stopped with us (Ctrl-C): the turn waits
                log.info("turn %s of game %s: left pending at stop", job.version, job.game_id)
            else:
                log.exception("turn %s of game %s: dispatch failed", job.version, job.game_id)
        finally:
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
        for manager in self._hosts.values():
            manager.clear()

    # -- one turn ---------------------------------------------------------------------
    def handle(self, job: Job) -> str:
        """Call ``job``'s turn (twice at most) and submit the move; ack it. Returns the
        last outcome (``moved``, ``stale``, or a failure kind)."""
        call = self._prepare(job)
        if call is None:
            log.info("game %s v%s seat %s: stale", job.game_id, job.version, job.seat)
            self.dispatch.ack(job)
            return "stale"
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
                outcome, detail = self.dispatch.submit(call, answer.move)
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
        """POST the turn to the bot, reading at most :data:`MAX_ANSWER` bytes in ``left``
        seconds."""
        url = call.url
        parts = urlsplit(url)
        try:
            host, port = notifications.target(url)
            addresses = notifications.check_target(url, self.allow, self.resolve)
        except notifications.TargetRefused as exc:
            log.warning("callback of %s refused: %s", call.job.player_id, exc)
            return Answer(failure="refused_address", called=False)
        except (OSError, UnicodeError, ValueError):
            return Answer(failure="unreachable", detail="the name does not resolve", called=False)
        _, body, headers = call.request()
        headers = headers | {
            "User-Agent": USER_AGENT,
            "Host": parts.netloc.rpartition("@")[2],
            "Accept-Encoding": "identity",
            "Accept": "*/*",
        }
        path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        manager = self._manager(parts.scheme, host, port)
        started = time.monotonic()
        for n, address in enumerate(addresses):  # the first checked address that answers
            shown = f"[{address}]" if ":" in address else address
            try:
                status, raw = _post(
                    manager,
                    f"{parts.scheme}://{shown}:{port}{path}",
                    body,
                    headers,
                    started + left,
                )
                break
            except Urllib3Timeout as exc:
                if not isinstance(exc, NewConnectionError):  # no answer in the time left
                    return Answer(failure="timeout", detail=f"no answer in {left:.2f} s")
                failed: Exception = exc  # refused, unroutable: the next address
            except (HTTPError, OSError) as exc:
                failed = exc
            log.info("callback of %s via %s: %s", call.job.player_id, address, failed)
            if n == len(addresses) - 1:
                return Answer(failure="unreachable", detail=_kind(failed))
        else:  # no address at all (the guard never answers so)
            return Answer(failure="unreachable", called=False)
        latency = int((time.monotonic() - started) * 1000)
        if time.monotonic() - started > left:
            return Answer(failure="timeout", detail="answered late", latency_ms=latency)
        return _judge(status, raw, latency)

    def _manager(self, scheme: str, host: str, port: int) -> urllib3.PoolManager:
        """The keep-alive connections of one bot host (to its checked addresses: TLS
        names and verifies the host)."""
        key = (scheme, host, port)
        with self._hosts_lock:
            manager = self._hosts.get(key)
            if manager is None:
                manager = urllib3.PoolManager(
                    num_pools=4,
                    maxsize=self.concurrency,
                    block=False,
                    retries=False,
                    cert_reqs="CERT_REQUIRED",
                    ca_certs=self.ca_bundle,
                    server_hostname=host,
                    assert_hostname=host,
                )
                self._hosts[key] = manager
            return manager


def _post(
    manager: urllib3.PoolManager, url: str, body: bytes, headers: dict[str, str], deadline: float
) -> tuple[int, bytes]:
    """POST ``body`` to ``url`` by ``deadline`` (monotonic); the status and the answer
    (:func:`_read`). A connection is kept for the next call only if its answer was read
    to its end.

    Raises:
        urllib3's errors (a timeout, a refused connection, TLS), OSError.
    """
    reply = manager.urlopen(
        "POST",
        url,
        body=body,
        headers=headers,
        timeout=urllib3.Timeout(max(deadline - time.monotonic(), MIN_CALL)),
        retries=False,
        redirect=False,
        preload_content=False,
    )
    done = False
    try:
        raw = _read(reply, MAX_ANSWER + 1, deadline)
        done = len(raw) <= MAX_ANSWER
        return reply.status, raw
    finally:
        if not done:  # not read to its end: the connection is dropped
            reply.close()
        reply.release_conn()


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


def _kind(exc: Exception) -> str:
    """The failure's name as the books show it (as requests named them: the name of a
    connection that broke or was refused is ``ConnectionError``, of TLS ``SSLError``)."""
    return "SSLError" if isinstance(exc, urllib3.exceptions.SSLError) else "ConnectionError"


def _read(reply: urllib3.BaseHTTPResponse, most: int, deadline: float) -> bytes:
    """The answer's body, up to ``most`` bytes, read as it comes until ``deadline``
    (monotonic): a body dripped slowly stops at the first piece past it (each piece
    waits at most the call's timeout).

    Raises:
        ReadTimeoutError: the deadline passed before the body ended.
    """
    got = bytearray()
    while len(got) < most:
        piece = reply.read1(most - len(got), decode_content=True)
        if not piece:
            break
        got += piece
        if time.monotonic() > deadline:
            raise ReadTimeoutError(None, None, "the answer came past the deadline")  # type: ignore[arg-type]
    return bytes(got)


def serve_forever(
    redis_url: str,
    *,
    parent_pid: int | None = None,
    make: Callable[..., Dispatcher] = Dispatcher,
) -> int:
    """``parlour dispatch``: dispatch until SIGINT/SIGTERM (or the parent exits).

    Settings from the environment: ``PARLOUR_DISPATCH_CONCURRENCY`` (calls in
    flight, default 32), ``PARLOUR_CALLBACK_TIMEOUT`` (the longest call, seconds,
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

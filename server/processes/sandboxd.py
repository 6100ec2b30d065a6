"""The sandbox worker: ``parlour sandbox``, run by ``parlour serve`` beside the API.

A loop over the hosted turns' use cases (:class:`server.services.hosted.HostedTurns`):
it takes hosted bots' turns from their stream (a Redis Streams consumer group, so any
number of workers on any number of hosts share them), keeps one sandboxed process per
(game, seat) alive between turns (:class:`server.sandbox.Seat`, docs/sandbox.md),
asks it the move for the seat's own view and plays it through the services.

* **Never unsandboxed.** At start the worker asks :func:`server.sandbox.available`;
  where the host cannot sandbox it takes no turn at all, and says why in its heartbeat
  (so the API refuses new hosted bots with the reason). A seat that cannot start is a
  failed turn, never a plain process.
* **Failures.** A crash, a timeout, garbage, an illegal move or a bot's exception gets
  the documented default move (``Seat.play``) and, but for the last two, a restarted
  process; the failure is counted with the game and the stderr tail kept
  (:meth:`HostedTurns.log`), for the owner once the game is over.
* **Nothing lost.** A turn stays pending until its move is submitted or it is stale;
  a worker killed mid-turn (kill -9) leaves it pending and another claims it after
  ``claim_idle`` seconds (a live worker claims its own again every ``claim_idle / 4``);
  past the seat's deadline the clock's default move stands behind it.
* **A cap per host.** At most ``seats`` sandboxes live at once (``PARLOUR_SANDBOX_SEATS``):
  a new one past the cap closes the least recently used idle one first (it restarts,
  cold, at its next turn). Turns run in as many threads.
* **Cleanup.** Every few seconds the seats of games that are over are told so
  (``on_game_over``) and closed; all are closed when the worker stops.
"""

from __future__ import annotations

import contextlib
import io
import logging
import os
import shutil
import socket
import tarfile
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from server.games.record import default_move
from server.processes.daemon import log_as, orphaned, stop_on_signals
from server.sandbox import BundleError, Capability, Limits, SandboxUnavailable, Seat, available
from server.services.bundle import Services
from server.services.hosted import HostedTurn, HostedTurns, Job
from server.services.queued_turns import LATER

log = logging.getLogger("server.processes.sandboxd")

STDERR_KEPT = 2048
"""Characters of a seat's log kept with the game: its stderr's tail and failures' lines."""
EVERY = 2.0
"""Seconds between two heartbeats, sweeps of missed turns and looks for games over."""


@dataclass
class Live:
    """One (game, seat)'s sandbox: its process, the bot version it runs, its last use."""

    seat: Seat
    bot_id: str
    version: int
    used: float = field(default_factory=time.monotonic)
    busy: bool = False
    kept: str = ""
    """The failures' lines (and so the words of processes restarted since)."""
    logged: str = ""
    """The log as last written with the game: a turn that changes nothing writes nothing."""


class SandboxWorker:
    """Plays hosted turns in sandboxes; several may run, on any number of hosts.

    Args:
        hosted: the hosted turns' use cases over the server's Redis.
        consumer: this worker's name in the consumer group (unique per process).
        seats: the most sandboxes alive at once on this host (and turns at once).
        limits: what each seat may use.
        claim_idle: seconds after which a turn another worker took is claimed (by
            default the longest turn, cold, and 5 s more); this worker claims its own
            again every quarter of it, so a live worker's turn is never taken.
        capability: the host's sandbox (probed when not given).
    """

    def __init__(
        self,
        hosted: HostedTurns,
        *,
        consumer: str | None = None,
        seats: int = 16,
        limits: Limits | None = None,
        claim_idle: float | None = None,
        capability: Capability | None = None,
        workdir: str | None = None,
    ) -> None:
        self.hosted = hosted
        self.consumer = consumer or f"{socket.gethostname()}-{os.getpid()}-sandbox"
        self.cap = max(1, seats)
        self.limits = limits or Limits()
        self.claim_idle = claim_idle or self.limits.turn_deadline(cold=True) + 5.0
        self.capability = capability or available()
        self.workdir = Path(tempfile.mkdtemp(prefix="parlour-sandboxd-", dir=workdir))
        self._pool = ThreadPoolExecutor(self.cap, thread_name_prefix="sandbox")
        self._free = threading.Semaphore(self.cap)
        self._lock = threading.Lock()
        self._live: dict[tuple[str, int], Live] = {}
        self._held: dict[str, Job] = {}
        self._bundles: dict[tuple[str, int], Path] = {}
        self._next = 0.0
        self._next_hold = 0.0
        self._next_claim = 0.0
        self._started = False

    # -- the loop ------------------------------------------------------------------------
    def tick(self, block: float = 0.5) -> int:
        """Housekeeping when due, then start the turns there are threads for."""
        now = time.monotonic()
        ok = self.capability.ok
        if not self._started:
            self.hosted.start()
            self._started = True
        if now >= self._next:
            self._next = now + EVERY
            self.hosted.heartbeat(self.consumer, ok, self.capability.reason, len(self._live))
            if ok:
                self.hosted.keep_waiting(time.time())
                self.hosted.sweep()
                self.close_over()
        if not ok:  # nothing runs where nothing can be sandboxed
            time.sleep(block)
            return 0
        if now >= self._next_hold:
            self._next_hold = now + self.claim_idle / 4
            with self._lock:
                held = list(self._held.values())
            self.hosted.hold(self.consumer, held)
        free = self._free_slots()
        jobs: list[Job] = []
        if free and now >= self._next_claim:
            self._next_claim = now + 1.0
            jobs += self.hosted.reclaim(self.consumer, self.claim_idle, free)
        if free - len(jobs) > 0:
            jobs += self.hosted.take(self.consumer, free - len(jobs), int(block * 1000))
        started = 0
        for job in jobs:
            with self._lock:
                if job.entry in self._held:
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
        try:
            self.handle(job)
        except Exception:  # noqa: BLE001 - Redis away a moment: the turn stays pending
            log.exception("hosted turn %s of game %s failed", job.version, job.game_id)
        finally:
            with self._lock:
                self._held.pop(job.entry, None)
            self._free.release()

    def run(self, stop: threading.Event, parent_pid: int | None = None) -> None:
        """Work until ``stop`` is set (or the parent process is gone)."""
        if not self.capability.ok:
            log.warning("%s: no hosted turn will run here", self.capability.describe())
        while not stop.is_set():
            if orphaned(parent_pid):
                break
            try:
                if not self._free_slots():
                    stop.wait(0.01)
                    continue
                self.tick()
            except Exception:  # noqa: BLE001 - Redis away for a moment: try again
                if stop.is_set():
                    break
                log.exception("sandbox pass failed")
                stop.wait(0.5)

    def close(self) -> None:
        self._pool.shutdown(wait=True)
        with self._lock:
            live, self._live = list(self._live.values()), {}
        for one in live:
            one.seat.close()
        with contextlib.suppress(Exception):  # Redis gone first: the heartbeat expires
            self.hosted.forget(self.consumer)
        shutil.rmtree(self.workdir, ignore_errors=True)

    # -- one turn --------------------------------------------------------------------------
    def handle(self, job: Job) -> str:
        """Play ``job``'s turn in its seat's sandbox and submit the move; ack it."""
        turn = self._prepare(job)
        if turn is None:
            self.hosted.ack(job)
            return "stale"
        view = turn.turn["view"]
        failure: str | None = None
        live: Live | None = None
        try:
            live = self._seat(job, turn)
        except (BundleError, SandboxUnavailable, OSError) as exc:
            move, failure, stderr = default_move(view.get("legal_moves") or []), "crash", str(exc)
        else:
            try:
                played = live.seat.play(view)
                move = played.move
                if played.failure is not None:  # a restart's new process has a new stderr
                    failure = played.failure.kind
                    said = f"[turn {job.version}: {failure}] {played.failure.detail}\n"
                    live.kept = (live.kept + said)[-STDERR_KEPT:]
                stderr = (live.kept + live.seat.stderr_tail)[-STDERR_KEPT:]
            finally:
                live.busy, live.used = False, time.monotonic()
        outcome, _ = self.hosted.submit(turn, move)
        if outcome == "refused_move":  # the engine's word over the view's list
            failure = failure or "illegal"
            outcome, _ = self.hosted.submit(turn, default_move(view.get("legal_moves") or []))
        if failure is not None or live is None or stderr != live.logged:
            self.hosted.log(job, stderr, failure)
            if live is not None:
                live.logged = stderr
        if failure is None:
            self.hosted.played(turn.bot_id)
        self.hosted.ack(job)
        return outcome

    def _prepare(self, job: Job) -> HostedTurn | None:
        with self._lock:
            live = self._live.get(job.key)
        pinned = (live.bot_id, live.version) if live is not None else None
        for _ in range(50):
            got = self.hosted.prepare(job, self.limits.turn_deadline(cold=True), pinned=pinned)
            if got != LATER:
                return got if isinstance(got, HostedTurn) else None
            time.sleep(0.02)
        return None

    def _seat(self, job: Job, turn: HostedTurn) -> Live:
        """The live sandbox of the turn's (game, seat), started (or replaced, when the
        bot's pinned version differs) as needed, within the host's cap."""
        closing: list[Live] = []
        with self._lock:
            live = self._live.get(job.key)
            if live is not None and (live.bot_id, live.version) != (turn.bot_id, turn.version):
                closing.append(self._live.pop(job.key))
                live = None
            if live is None:
                while len(self._live) >= self.cap:
                    idle = [(v.used, k) for k, v in self._live.items() if not v.busy]
                    if not idle:
                        break
                    closing.append(self._live.pop(min(idle)[1]))
            else:
                live.busy = True
        for old in closing:
            old.seat.close()
        if live is not None:
            return live
        bundle = self._bundle(turn.bot_id, turn.version)
        name = f"{job.game_id}-{job.seat}"[-60:]
        seat = Seat(bundle, self.limits, name=name, capability=self.capability)
        live = Live(seat, turn.bot_id, turn.version, busy=True)
        with self._lock:
            self._live[job.key] = live
        return live

    def _bundle(self, bot_id: str, version: int) -> Path:
        """The bot version's bundle, unpacked once into this worker's directory."""
        key = (bot_id, version)
        with self._lock:
            got = self._bundles.get(key)
        if got is not None:
            return got
        blob = self.hosted.bundle(bot_id, version)
        if blob is None:
            raise BundleError(f"no version {version} of bot {bot_id}")
        target = self.workdir / f"{bot_id}-{version}"
        if not target.exists():
            part = Path(tempfile.mkdtemp(dir=self.workdir))
            with tarfile.open(fileobj=io.BytesIO(blob)) as tar:
                tar.extractall(part, filter="data")
            os.replace(part, target)
        with self._lock:
            self._bundles[key] = target
        return target

    def close_over(self) -> int:
        """Tell the seats of games that are over, keep their logs, and close them."""
        with self._lock:
            games = sorted({g for g, _ in self._live})
        if not games:
            return 0
        over = self.hosted.over(games)
        closed = 0
        for (gid, seat_no), live in list(self._live.items()):
            if gid not in over or live.busy:
                continue
            views: dict[int, Any] | None = over[gid]
            if views is not None and seat_no in views:
                live.seat.game_over(views[seat_no])
            with self._lock:
                self._live.pop((gid, seat_no), None)
            live.seat.close()
            closed += 1
        return closed

    @property
    def live(self) -> int:
        """Sandboxes alive now."""
        return len(self._live)


def serve_forever(redis_url: str, *, parent_pid: int | None = None) -> int:
    """``parlour sandbox``: play hosted turns until SIGINT/SIGTERM (or the parent exits).

    Settings: ``PARLOUR_SANDBOX_SEATS`` (sandboxes alive at once on this host, default
    16), ``PARLOUR_SANDBOX_TURN_SECONDS`` (a turn's wall time, default 5),
    ``PARLOUR_SANDBOX_MEMORY_MB`` (each seat's memory, default 256).
    """
    log_as("sandbox")
    stop = stop_on_signals()
    limits = Limits(
        turn_seconds=float(os.environ.get("PARLOUR_SANDBOX_TURN_SECONDS", "5")),
        memory_bytes=int(os.environ.get("PARLOUR_SANDBOX_MEMORY_MB", "256")) * 1024 * 1024,
    )
    worker = SandboxWorker(
        Services.connect(redis_url, admin_token=None).hosted,
        seats=int(os.environ.get("PARLOUR_SANDBOX_SEATS", "16")),
        limits=limits,
    )
    log.info(
        "%s; sandbox worker %s on %s", worker.capability.describe(), worker.consumer, redis_url
    )
    try:
        worker.run(stop, parent_pid)
    finally:
        worker.close()
    log.info("stopped")
    return 0

"""The scheduler: the process that runs move clocks out, plays started tournaments to the
end and drives ladders, a loop over the services' methods.

Each pass (:meth:`Runner.tick`) calls, in turn:

1. **Clocks.** :meth:`~server.services.clocks.Clocks.timeout` for every game whose
   indexed deadline has come (:meth:`~server.services.clocks.Clocks.due`): a default
   move or a forfeit.
2. **Tournaments.** :meth:`~server.services.rounds.Rounds.advance` for every running
   tournament: its round's games, results, ratings, the next round or the end.
3. **Ladders.** :meth:`~server.services.ladder_play.LadderPlay.advance` for every
   ladder: its matches' games, results and ratings, then new matches.

The use cases, and how each is done exactly once without a lock while several
schedulers run and any may die at any moment, are those modules'. This one
holds no Redis command, no store call and nothing in memory worth losing:
killed and restarted, a scheduler re-reads everything, and every step it may
have been killed in is repeated, harmlessly. :meth:`Runner.checkpoint` is handed
to the services, which call it at those step boundaries (the fault tests kill a
runner at each of them).
"""

from __future__ import annotations

import logging
import os
import threading
import time

from server.processes.daemon import log_as, orphaned, stop_on_signals
from server.services.bundle import Services
from server.services.errors import StorageTimeout, StorageUnavailable

log = logging.getLogger("server.tournaments")

UNAVAILABLE = (StorageUnavailable, StorageTimeout)
"""Redis away for a moment: the pass stops, and the next one tries again."""

MAX_TIMEOUTS = 16
"""Timeouts applied to one game per tick (several seats may be due at once)."""


class Runner:
    """One scheduler. Any number may run at once, in threads or processes.

    Args:
        services: the use cases over the Redis to work on.
        interval: seconds between passes (a deadline is enforced at most this late).
    """

    def __init__(self, services: Services, *, interval: float = 0.2) -> None:
        self.services = services
        self.interval = interval

    def checkpoint(self, step: str) -> None:
        """A step boundary (before each write). Does nothing; the fault tests replace it
        to stop a runner dead there, and check that a fresh one completes the work."""

    def run(self, stop: threading.Event | None = None, parent_pid: int | None = None) -> None:
        """Pass after pass until ``stop`` is set (or the parent process is gone)."""
        stop = stop or threading.Event()
        while not stop.is_set():
            if orphaned(parent_pid):
                log.warning("parent process gone: scheduler stopping")
                return
            try:
                self.tick()
            except UNAVAILABLE as exc:
                log.warning("redis unavailable (%s); retrying", exc)
            stop.wait(self.interval)

    def tick(self, now: float | None = None) -> None:
        """One pass: clocks first (a timeout may finish a game), then every tournament,
        every match, then every ladder."""
        self.enforce_clocks(now)
        rounds, ladders = self.services.rounds, self.services.ladder_play
        for tournament_id in rounds.active():
            try:
                rounds.advance(tournament_id, self.checkpoint)
            except UNAVAILABLE:
                raise
            except Exception:  # one broken tournament must not stop the others
                log.exception("tournament %s: pass failed", tournament_id)
        for match_id in self.services.matches.active():
            try:
                self.services.matches.advance(match_id)
            except UNAVAILABLE:
                raise
            except Exception:
                log.exception("match %s: pass failed", match_id)
        for ladder_id in ladders.ids():
            try:
                ladders.advance(ladder_id, now, self.checkpoint)
            except UNAVAILABLE:
                raise
            except Exception:
                log.exception("ladder %s: pass failed", ladder_id)

    def enforce_clocks(self, now: float | None = None) -> int:
        """Apply the timeout policy to every game whose deadline has come; returns how many."""
        now = time.time() if now is None else now
        applied = 0
        for game_id in self.services.clocks.due(now):
            try:
                for _ in range(MAX_TIMEOUTS):
                    self.checkpoint("timeout")
                    outcome = self.services.clocks.timeout(game_id, now)
                    if outcome not in ("default_move", "forfeit"):
                        break
                    applied += 1
                    if outcome == "forfeit":
                        break
            except UNAVAILABLE:
                raise
            except Exception:
                log.exception("game %s: timeout failed", game_id)
        return applied


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

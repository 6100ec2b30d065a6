"""Metrics in Redis: the counters every API worker adds to, and the fleet's gauges.

Layout (names from :mod:`keys`, one hash tag ``{m}``):

* ``metrics:{m}:counters`` hash, series -> value. Each worker keeps its counts in
  memory and adds them here as deltas about once a second (``HINCRBY`` /
  ``HINCRBYFLOAT`` in one pipeline), so a request costs a few dict updates and
  Redis sees one small batch per worker per second, however busy it is.
* ``metrics:{m}:waiting`` hash, worker -> ``"<long-polls waiting> <time>"``: a
  gauge cannot be added up as deltas (a worker killed with its waiters would leave
  them counted forever), so each worker reports its own value with a timestamp and
  the reader sums the fresh ones.

The other gauges are read from what the server keeps anyway (the lobby's live
index, the scheduler's sets), at scrape time: nothing extra on the move path.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from redis import Redis

from . import keys

OVERDUE_AFTER = 5.0
"""A move clock whose deadline passed longer ago than this is *overdue*: the scheduler
should have applied its timeout by now (a sign that no scheduler is running)."""


@dataclass(frozen=True, slots=True)
class Snapshot:
    """Everything ``GET /metrics`` shows, read in one round trip."""

    counters: dict[str, float]
    waiting: int
    workers: int
    games_live: int
    tournaments_running: int
    clocks_pending: int
    clocks_overdue: int


def flush(r: Redis, deltas: Mapping[str, float], worker: str, waiting: int, now: float) -> None:
    """Add one worker's counts since its last flush, and report its gauge."""
    pipe = r.pipeline(transaction=False)
    for series, value in deltas.items():
        if isinstance(value, float):
            pipe.hincrbyfloat(keys.metrics_counters(), series, value)
        else:
            pipe.hincrby(keys.metrics_counters(), series, value)
    pipe.hset(keys.metrics_waiting(), worker, f"{waiting} {now:.3f}")
    pipe.execute()


def read(r: Redis, now: float, stale_after: float) -> Snapshot:
    """The fleet's counters and gauges; workers silent for ``stale_after`` s are dropped."""
    pipe = r.pipeline(transaction=False)
    pipe.hgetall(keys.metrics_counters())
    pipe.hgetall(keys.metrics_waiting())
    pipe.zcard(keys.lobby_live_games())
    pipe.scard(keys.tournaments_active())
    pipe.zcard(keys.deadlines())
    pipe.zcount(keys.deadlines(), "-inf", now - OVERDUE_AFTER)
    counters, reports, live, running, pending, overdue = pipe.execute()
    waiting = workers = 0
    stale = []
    for worker, report in reports.items():
        count, _, at = report.decode().partition(" ")
        if now - float(at) > stale_after:
            stale.append(worker)
            continue
        waiting += int(count)
        workers += 1
    if stale:
        r.hdel(keys.metrics_waiting(), *stale)
    return Snapshot(
        counters={k.decode(): float(v) for k, v in counters.items()},
        waiting=waiting,
        workers=workers,
        games_live=int(live),
        tournaments_running=int(running),
        clocks_pending=int(pending),
        clocks_overdue=int(overdue),
    )

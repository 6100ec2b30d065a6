"""The fleet's metrics in Redis: each API worker adds its counts, any worker reads them all.

The HTTP side (what is counted per request, the Prometheus text format) is
``server/api/metrics.py``; this is its way to Redis (:mod:`server.store.metrics`).
"""

from __future__ import annotations

from collections.abc import Mapping

from server.services.core import Core
from server.store import metrics as metrics_store
from server.store.metrics import Snapshot

__all__ = ["Metrics", "Snapshot"]


class Metrics:
    """Flushing and reading the shared counters, over the shared :class:`Core`."""

    def __init__(self, core: Core) -> None:
        self.core = core

    def flush(self, deltas: Mapping[str, float], worker: str, waiting: int, now: float) -> None:
        """Add one worker's counts since its last flush, and report its long-polls waiting."""
        metrics_store.flush(self.core.r, deltas, worker, waiting, now)

    def read(self, now: float, stale_after: float) -> Snapshot:
        """The fleet's counters and gauges; workers silent for ``stale_after`` s are dropped."""
        return metrics_store.read(self.core.r, now, stale_after)

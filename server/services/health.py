"""Health: whether the server can reach its storage, for ``/healthz`` and the benchmark's
``/v1/_ping_redis`` (server/api/health.py)."""

from __future__ import annotations

from typing import Any

from server.services.core import Core
from server.store import connection


class Health:
    """Round trips to Redis and nothing else, over the shared :class:`Core`."""

    def __init__(self, core: Core) -> None:
        self.core = core

    def ping(self, round_trips: int = 1, reply_bytes: int = 0) -> dict[str, Any]:
        """Redis round trips, one after the other: readiness, and the stack's ceiling
        in benchmarks (one trip), or the floor under a move (two trips, read then
        commit, and ``reply_bytes`` of padding: a view's size, with no work)."""
        for _ in range(round_trips):
            connection.ping(self.core.r)
        return {"ok": True, "padding": "." * reply_bytes} if reply_bytes else {"ok": True}

"""Webhooks in Redis: each app's registered URLs, and the queue of deliveries to make.

* ``a:{app}:webhooks`` — the app's webhooks (URL, events, signing secret).
  The secret is kept as given (it must be, to sign), unlike tokens.
* ``wh:{q}:pending`` + ``wh:{q}:due`` — one queue for the whole server, in one
  cluster slot so that claiming is one script (``lua/claim_webhooks.lua``):
  a delivery record, and when it is next due. A claim leases it; success or
  giving up removes it; a failure pushes it back by the backoff.
* ``a:{app}:deliveries`` — the app's latest outcomes, for ``GET /v1/apps/{id}``.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any

import orjson
from redis import Redis

from . import keys
from .scripts import source

DELIVERIES_KEPT = 50
"""Outcomes kept per app (newest first)."""


# -- registration --------------------------------------------------------------------
def add(r: Redis, app_id: str, hook: dict[str, Any]) -> None:
    """Register ``hook`` (``{"id", "url", "events", "secret", "created"}``)."""
    r.hset(keys.app_webhooks(app_id), hook["id"], orjson.dumps(hook))


def of_app(r: Redis, app_id: str) -> list[dict[str, Any]]:
    """The app's webhooks, oldest first (with their secrets: callers strip them)."""
    hooks = [orjson.loads(v) for v in r.hvals(keys.app_webhooks(app_id))]
    return sorted(hooks, key=lambda h: (h["created"], h["id"]))


def remove(r: Redis, app_id: str, hook_id: str) -> bool:
    """Remove one webhook; False if the app had none by that id. Its queued
    deliveries stay queued: the deliverer drops them (``dropped``), sending nothing."""
    return bool(r.hdel(keys.app_webhooks(app_id), hook_id))


def get(r: Redis, app_id: str, hook_id: str) -> dict[str, Any] | None:
    raw = r.hget(keys.app_webhooks(app_id), hook_id)
    return None if raw is None else orjson.loads(raw)


# -- the delivery queue --------------------------------------------------------------
def enqueue(r: Redis, deliveries: Iterable[dict[str, Any]], now: float | None = None) -> int:
    """Queue deliveries (each with a fresh ``id``), due at once. Returns how many."""
    now = time.time() if now is None else now
    pipe = r.pipeline(transaction=True)
    n = 0
    for d in deliveries:
        pipe.hset(keys.webhook_pending(), d["id"], orjson.dumps(d))
        pipe.zadd(keys.webhook_due(), {d["id"]: now})
        n += 1
    if n:
        pipe.execute()
    return n


class Queue:
    """The claim script registered on one client (for the deliverer)."""

    def __init__(self, r: Redis) -> None:
        self.r = r
        self._claim = r.register_script(source("claim_webhooks"))

    def claim(self, now: float, lease: float, limit: int) -> list[dict[str, Any]]:
        """Deliveries due at ``now``, each leased for ``lease`` seconds."""
        reply = self._claim(
            keys=[keys.webhook_due(), keys.webhook_pending()],
            args=[now, lease, limit],
            client=self.r,
        )
        return [orjson.loads(reply[i + 1]) for i in range(0, len(reply), 2)]

    def retry(self, delivery: dict[str, Any], due: float) -> None:
        """Store the delivery's new attempt count and make it due again at ``due``."""
        pipe = self.r.pipeline(transaction=True)
        pipe.hset(keys.webhook_pending(), delivery["id"], orjson.dumps(delivery))
        pipe.zadd(keys.webhook_due(), {delivery["id"]: due})
        pipe.execute()

    def done(self, delivery: dict[str, Any], outcome: dict[str, Any]) -> None:
        """Drop a delivery that succeeded (or was given up) and log its outcome."""
        pipe = self.r.pipeline(transaction=True)
        pipe.hdel(keys.webhook_pending(), delivery["id"])
        pipe.zrem(keys.webhook_due(), delivery["id"])
        pipe.execute()
        log_outcome(self.r, delivery["app"], outcome)


def log_outcome(r: Redis, app_id: str, outcome: dict[str, Any]) -> None:
    pipe = r.pipeline(transaction=False)
    pipe.lpush(keys.app_deliveries(app_id), orjson.dumps(outcome))
    pipe.ltrim(keys.app_deliveries(app_id), 0, DELIVERIES_KEPT - 1)
    pipe.execute()


def outcomes(r: Redis, app_id: str) -> list[dict[str, Any]]:
    """The app's latest delivery outcomes, newest first."""
    return [orjson.loads(v) for v in r.lrange(keys.app_deliveries(app_id), 0, -1)]


def pending_count(r: Redis) -> int:
    return int(r.hlen(keys.webhook_pending()))

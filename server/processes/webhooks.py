"""The webhook deliverer: ``parlour webhooks``, run by ``parlour serve`` beside the API.

Notifications are queued by :mod:`server.services.notifications` after each
commit. A 2xx answer is success; anything else is retried with exponential
backoff and jitter, up to ``max_attempts``; success stops the retries.
Deliveries may arrive more than once or out of order: ``id`` is stable per
notification, and ``version`` orders a game's notifications.

Each attempt is one POST through the server's one outbound stack
(:mod:`server.processes.outbound`, the callback dispatcher's too): the URL's host
resolved and every address checked by the guard, the connection to a checked
address (so a name rebound to an internal address in between is never reached),
the body signed with the webhook's secret, the whole attempt (to every address it
tries) ended at one deadline, ``timeout``; no redirect followed, TLS verified for
the URL's host (against the system's certificates). Only the status is read: the
answer's body is not, and its connection is dropped. A refused delivery is final,
and the app sees only ``"refused"`` (the reason goes to the server's log): its
outcomes must not tell what answers inside the server's network.
"""

from __future__ import annotations

import logging
import os
import random
import threading
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import orjson

from server.processes import outbound
from server.processes.daemon import log_as, orphaned, stop_on_signals
from server.services import targets
from server.services.bundle import Services
from server.services.notifications import Deliveries

log = logging.getLogger("server.processes.webhooks")

USER_AGENT = "parlour-webhooks/0.1"


class Deliverer:
    """Sends queued deliveries; several may run at once (claims are leased). A loop over
    the queue's use cases (:class:`~server.services.notifications.Deliveries`): the
    HTTP is the outbound stack's (:class:`~server.processes.outbound.Outbound`), the
    records are the services'.

    Args:
        deliveries: the queue's use cases over the server's Redis.
        backoff: delay before the first retry, in seconds; doubles per attempt
            (with jitter: between half and all of it), up to ``max_backoff``.
        max_attempts: give up (and log ``failed``) after this many attempts.
        timeout: seconds an attempt may take, whole (connect, TLS, status line, headers).
        lease: seconds a claimed delivery stays invisible to other deliverers.
        concurrency: deliveries sent at once (a slow receiver delays no other).
        allow: internal ranges webhooks may reach all the same (a CIDR list,
            ``PARLOUR_WEBHOOK_ALLOW``); by default none.
        resolve: host, port -> addresses (the system's resolver by default).
    """

    def __init__(
        self,
        deliveries: Deliveries,
        *,
        backoff: float = 1.0,
        max_backoff: float = 600.0,
        max_attempts: int = 8,
        timeout: float = 5.0,
        lease: float = 30.0,
        concurrency: int = 4,
        rng: random.Random | None = None,
        allow: str | Sequence[targets.Network] = "",
        resolve: targets.Resolver = targets.resolve,
    ) -> None:
        self.queue = deliveries
        self.backoff, self.max_backoff, self.max_attempts = backoff, max_backoff, max_attempts
        self.timeout = timeout
        self.lease = max(lease, timeout * 2)
        self.concurrency = concurrency
        self.http = outbound.Outbound(
            USER_AGENT, allow=allow, resolve=resolve, connections=concurrency
        )
        self._rng = rng or random.Random()
        self._pool = ThreadPoolExecutor(concurrency, thread_name_prefix="webhook")

    def delay(self, attempts: int) -> float:
        """Seconds before attempt ``attempts + 1``: exponential, with jitter."""
        full = min(self.max_backoff, self.backoff * 2 ** (attempts - 1))
        return full * (0.5 + self._rng.random() / 2)

    def tick(self, now: float | None = None) -> int:
        """Send every delivery due now (waiting for them); returns how many were tried."""
        due = self.queue.claim(
            time.time() if now is None else now, self.lease, self.concurrency * 8
        )
        list(self._pool.map(self.send, due))
        return len(due)

    def send(self, delivery: dict[str, Any]) -> bool:
        """One attempt; then done, or due again after the backoff. True on success."""
        hook = self.queue.hook(delivery["app"], delivery["hook"])
        outcome = {
            "delivery": delivery["id"],
            "event": delivery["event"],
            "hook": delivery["hook"],
            "body_id": orjson.loads(delivery["body"])["id"],
        }
        if hook is None:
            self.queue.done(delivery, outcome | {"status": "dropped", "at": time.time()})
            return False
        body = delivery["body"].encode()
        attempt = delivery["attempts"] + 1
        code: int | None = None
        try:
            code = self.http.post(
                hook["url"],
                body,
                secret=hook["secret"],
                timeout=self.timeout,
                headers={"Parlour-Event": delivery["event"], "Parlour-Delivery": delivery["id"]},
                what=f"webhook {hook['id']} of app {delivery['app']} ({delivery['id']})",
            ).status
        except outbound.Refused:
            self.queue.done(delivery, outcome | {"status": "refused", "at": time.time()})
            return False
        except outbound.Late as exc:  # no answer: tried again after the backoff
            log.info("webhook %s: %s", delivery["id"], exc)
        except outbound.Failed:  # no connection (the stack logged why): likewise
            pass
        if code is not None and 200 <= code < 300:
            self.queue.done(
                delivery,
                outcome
                | {"status": "delivered", "attempts": attempt, "code": code, "at": time.time()},
            )
            return True
        if attempt >= self.max_attempts:
            log.warning(
                "webhook %s to %s: giving up after %d attempts",
                delivery["id"],
                hook["url"],
                attempt,
            )
            self.queue.done(
                delivery,
                outcome
                | {"status": "failed", "attempts": attempt, "code": code, "at": time.time()},
            )
            return False
        self.queue.retry(
            delivery | {"attempts": attempt, "last_code": code}, time.time() + self.delay(attempt)
        )
        return False

    def run(
        self, stop: threading.Event, interval: float = 0.1, parent_pid: int | None = None
    ) -> None:
        """Tick until ``stop`` is set (or the parent process is gone)."""
        while not stop.is_set():
            if orphaned(parent_pid):
                log.warning("parent process gone: webhook deliverer stopping")
                break
            try:
                busy = self.tick()
            except Exception:  # noqa: BLE001 - Redis away for a moment: try again
                log.exception("webhook pass failed")
                busy = 0
            if not busy:
                stop.wait(interval)

    def close(self) -> None:
        self._pool.shutdown(wait=True)
        self.http.close()


def serve_forever(redis_url: str, *, interval: float = 0.1, parent_pid: int | None = None) -> int:
    """``parlour webhooks``: deliver until SIGINT/SIGTERM (or the parent exits).

    Settings from the environment: ``PARLOUR_WEBHOOK_BACKOFF`` (first retry
    delay, seconds, default 1), ``PARLOUR_WEBHOOK_MAX_ATTEMPTS`` (default 8),
    ``PARLOUR_WEBHOOK_ALLOW`` (internal ranges webhooks may reach, CIDR list).
    """
    log_as("webhooks")
    stop = stop_on_signals()
    deliverer = Deliverer(
        Services.connect(redis_url, admin_token=None).deliveries,
        backoff=float(os.environ.get("PARLOUR_WEBHOOK_BACKOFF", "1")),
        max_attempts=int(os.environ.get("PARLOUR_WEBHOOK_MAX_ATTEMPTS", "8")),
        allow=os.environ.get("PARLOUR_WEBHOOK_ALLOW", ""),
    )
    log.info("delivering from %s", redis_url)
    try:
        deliverer.run(stop, interval, parent_pid)
    finally:
        deliverer.close()
    log.info("stopped")
    return 0

"""The webhook deliverer: ``parlour webhooks``, run by ``parlour serve`` beside the API.

Notifications are queued by :mod:`server.services.notifications` after each
commit. A 2xx answer is success; anything else is retried with exponential
backoff and jitter, up to ``max_attempts``; success stops the retries.
Deliveries may arrive more than once or out of order: ``id`` is stable per
notification, and ``version`` orders a game's notifications.

Before each attempt the URL's host is resolved and every address checked
(:func:`server.services.notifications.check_target`); the connection then goes
to a checked address, so a name rebound to an internal address in between is
never reached. A refused delivery is final, and the app sees only
``"refused"`` (the reason goes to the server's log): its outcomes must not
tell what answers inside the server's network.
"""

from __future__ import annotations

import http.client
import logging
import os
import random
import socket
import ssl
import threading
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from urllib.parse import urlsplit

import orjson

from server.processes import deadline
from server.processes.daemon import log_as, orphaned, stop_on_signals
from server.services import notifications
from server.services.bundle import Services
from server.services.notifications import SIGNATURE_HEADER, Deliveries, signature

log = logging.getLogger("server.processes.webhooks")

USER_AGENT = "parlour-webhooks/0.1"


# -- delivery --------------------------------------------------------------------------
class _Pinned(http.client.HTTPConnection):
    """HTTP to ``address`` (checked already), with the URL's host in ``Host``."""

    def __init__(self, host: str, port: int, address: str, timeout: float) -> None:
        super().__init__(host, port, timeout=timeout)
        self.address = address

    def connect(self) -> None:
        self.sock = socket.create_connection((self.address, self.port), self.timeout)
        deadline.watch(self.sock)


class _PinnedTLS(http.client.HTTPSConnection):
    """HTTPS to ``address``; the certificate is verified for the URL's host (SNI too)."""

    def __init__(self, host: str, port: int, address: str, timeout: float) -> None:
        self.tls = ssl.create_default_context()
        super().__init__(host, port, timeout=timeout, context=self.tls)
        self.address = address

    def connect(self) -> None:
        raw = socket.create_connection((self.address, self.port), self.timeout)
        deadline.watch(raw)  # before TLS: the handshake is bounded too
        self.sock = self.tls.wrap_socket(raw, server_hostname=self.host)


def post(url: str, address: str, body: bytes, headers: dict[str, str], timeout: float) -> int:
    """POST ``body`` to ``url`` over a connection to ``address``; the answer's status.

    Redirects are not followed (a redirect is an answer that is not 2xx: the
    webhook URL must be the real one). ``timeout`` bounds the whole call, as the
    dispatcher's calls are bounded (:mod:`server.processes.deadline`): a receiver
    that drips its status line or headers is cut off then, not at its leisure.
    """
    host, port = notifications.target(url)
    parts = urlsplit(url)
    kind = _PinnedTLS if parts.scheme == "https" else _Pinned
    conn = kind(host, port, address, timeout)
    with deadline.REAPER.bounded(time.monotonic() + timeout) as call:
        try:
            path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
            conn.request("POST", path, body=body, headers=headers)
            status = conn.getresponse().status
        except (OSError, http.client.HTTPException):
            if call.fired:
                raise TimeoutError(f"no answer in {timeout:g} s") from None
            raise
        finally:
            conn.close()
        if call.fired:  # cut mid-headers, http.client takes the end for theirs: no answer
            raise TimeoutError(f"no answer in {timeout:g} s")
        return status


class Deliverer:
    """Sends queued deliveries; several may run at once (claims are leased). A loop over
    the queue's use cases (:class:`~server.services.notifications.Deliveries`): the
    HTTP is this process's, the records are the services'.

    Args:
        deliveries: the queue's use cases over the server's Redis.
        backoff: delay before the first retry, in seconds; doubles per attempt
            (with jitter: between half and all of it), up to ``max_backoff``.
        max_attempts: give up (and log ``failed``) after this many attempts.
        timeout: seconds to wait for the receiver's answer.
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
        allow: str | Sequence[notifications.Network] = "",
        resolve: notifications.Resolver = notifications.resolve,
    ) -> None:
        self.queue = deliveries
        self.backoff, self.max_backoff, self.max_attempts = backoff, max_backoff, max_attempts
        self.timeout = timeout
        self.lease = max(lease, timeout * 2)
        self.concurrency = concurrency
        self.allow = notifications.allowlist(allow) if isinstance(allow, str) else tuple(allow)
        self.resolve = resolve
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
        try:
            addresses = notifications.check_target(hook["url"], self.allow, self.resolve)
        except notifications.TargetRefused as exc:
            log.warning("webhook %s of app %s refused: %s", hook["id"], delivery["app"], exc)
            self.queue.done(delivery, outcome | {"status": "refused", "at": time.time()})
            return False
        except (OSError, UnicodeError, ValueError) as exc:  # the name does not resolve
            log.info("webhook %s: %s", delivery["id"], exc)
            addresses = []
        headers = {
            "Content-Type": "application/json",
            "User-Agent": USER_AGENT,
            SIGNATURE_HEADER: signature(hook["secret"], body, int(time.time())),
            "Parlour-Event": delivery["event"],
            "Parlour-Delivery": delivery["id"],
        }
        code: int | None = None
        for address in addresses:  # the first checked address that answers
            try:
                code = post(hook["url"], address, body, headers, self.timeout)
                break
            except (OSError, ValueError, http.client.HTTPException) as exc:
                log.info("webhook %s via %s: %s", delivery["id"], address, exc)
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

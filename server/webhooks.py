"""Webhooks for apps: what is notified after a commit, how it is signed, and the deliverer.

An app (see :mod:`server.apps_service`) registers URLs; for each of its games
the server then POSTs JSON notifications:

* ``game_start`` — the game, its options and seats (name and kind of each);
* ``turn`` — one of the app's guests is to move: ``to_move`` lists the seats
  to move. Bots' turns are not notified (they need nobody);
* ``game_end`` — the final public result (``status``, ``scores``, ``result``).

None carries a card: they are built from public facts only (the spectator's
view), never from a seat's view, so no seat's hidden cards can leak.

**Signature.** ``Parlour-Signature: t=<unix seconds>,v1=<hex>`` where ``v1`` is
HMAC-SHA256 under the webhook's secret of ``"<t>.<raw body>"`` (Stripe's
scheme: the timestamp stops replays of an old body). See :func:`verify`.

**Delivery.** A notification is queued in Redis after the commit (a
repeatable step, like wake-ups) and sent by ``parlour webhooks``
(:class:`Deliverer`), which ``parlour serve`` runs alongside the API. A 2xx
answer is success; anything else is retried with exponential backoff and
jitter, up to ``max_attempts``; success stops the retries. Deliveries may
arrive more than once or out of order: ``id`` is stable per notification, and
``version`` orders a game's notifications.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import os
import random
import secrets
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import orjson
from redis import Redis

from server.daemon import log_as, orphaned, stop_on_signals
from server.games import BaseState
from server.store import apps as app_store
from server.store import connect
from server.store import webhooks as webhook_store
from server.store.games import GameRecord

log = logging.getLogger("server.webhooks")

EVENTS = ("game_start", "turn", "game_end")
SIGNATURE_HEADER = "Parlour-Signature"
USER_AGENT = "parlour-webhooks/0.1"


# -- signing -------------------------------------------------------------------------
def signature(secret: str, body: bytes, timestamp: int) -> str:
    """The ``Parlour-Signature`` header value for ``body`` sent at ``timestamp``.

    >>> signature("s", b"{}", 1)
    't=1,v1=b253639bcd705ed1cda3073f66104f16988bd40272584dea7d0d345ae93e61cc'
    """
    mac = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256)
    return f"t={timestamp},v1={mac.hexdigest()}"


def verify(
    secret: str, header: str, body: bytes, *, now: float | None = None, tolerance: float = 300
) -> bool:
    """Is ``header`` a valid signature of ``body``, made less than ``tolerance`` s ago?

    >>> verify("s", signature("s", b"{}", 100), b"{}", now=150)
    True
    >>> verify("s", signature("s", b"{}", 100), b"{ }", now=150)
    False
    """
    parts = dict(p.split("=", 1) for p in header.split(",") if "=" in p)
    try:
        timestamp = int(parts["t"])
    except (KeyError, ValueError):
        return False
    now = time.time() if now is None else now
    if abs(now - timestamp) > tolerance:
        return False
    expected = signature(secret, body, timestamp).split("v1=", 1)[1]
    return hmac.compare_digest(expected, parts.get("v1", ""))


# -- what a commit notifies ------------------------------------------------------------
def _guest_seats(record: GameRecord) -> list[int]:
    return sorted(s for s, v in record.seats.items()
                  if v["player_id"].startswith(app_store.GUEST_PREFIX))


def _kind(player_id: str) -> str:
    if player_id.startswith(app_store.GUEST_PREFIX):
        return "guest"
    return "bot" if player_id.startswith(app_store.BOT_PREFIX) else "player"


def _base(kind: str, record: GameRecord, app_id: str) -> dict[str, Any]:
    return {"id": f"{record.id}:{record.version}:{kind}", "type": kind, "app_id": app_id,
            "game_id": record.id, "version": record.version, "status": record.status}


def notifications(record: GameRecord, state: BaseState, *, start: bool = False) -> list[dict]:
    """The notifications one commit of an app's game makes (public facts only).

    Args:
        record: the game as committed (``status`` and ``version`` current).
        state: the engine state after the commit.
        start: this is the game's creation (adds ``game_start``).
    """
    app = record.meta.get("app")
    if not app:
        return []
    public = state.view(None)  # the spectator's view: nothing hidden in it
    out = []
    if start:
        out.append(_base("game_start", record, app["id"]) | {
            "game": record.meta["game"], "options": record.meta["options"],
            "seats": [{"seat": s, "name": v["name"], "kind": _kind(v["player_id"])}
                      for s, v in sorted(record.seats.items())],
        })
    if record.status in ("finished", "aborted"):
        out.append(_base("game_end", record, app["id"]) | {
            "scores": public.get("scores"), "result": public.get("result"),
        })
    elif record.status == "active":
        to_move = list(public.get("to_move") or [])
        if set(to_move) & set(_guest_seats(record)):
            out.append(_base("turn", record, app["id"]) | {"to_move": to_move})
    return out


def after_commit(r: Redis, record: GameRecord, state: BaseState, *, start: bool = False) -> None:
    """The app's part of the repeatable step after a commit: queue its notifications,
    and once the game is over, bring its guests' expiry forward to the grace period.

    Nothing happens for games that no app created. A failure here is logged and
    swallowed: the move is committed already, and notifications are hints (the
    truth is in the game, readable through the API).
    """
    app = record.meta.get("app")
    if not app:
        return
    try:
        notes = notifications(record, state, start=start)
        if record.status in ("finished", "aborted"):
            app_store.shorten_guests(
                r, [record.seats[s]["player_id"] for s in _guest_seats(record)],
                time.time() + float(app.get("guest_grace", 0)),
            )
        if notes:
            queue(r, app["id"], notes)
    except Exception:  # noqa: BLE001 - see the docstring: never fail a committed move
        log.exception("game %s: could not queue the app's notifications", record.id)


def queue(r: Redis, app_id: str, notes: Sequence[dict[str, Any]]) -> int:
    """Queue one delivery per note and per webhook of the app subscribed to its type."""
    hooks = webhook_store.of_app(r, app_id)
    now = time.time()
    deliveries = [
        {"id": secrets.token_hex(8), "app": app_id, "hook": hook["id"], "event": note["type"],
         "body": orjson.dumps(note).decode(), "attempts": 0, "created": now}
        for note in notes for hook in hooks if note["type"] in hook["events"]
    ]
    return webhook_store.enqueue(r, deliveries, now)


# -- delivery --------------------------------------------------------------------------
class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """A redirect is an answer that is not 2xx: the webhook URL must be the real one."""

    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


class Deliverer:
    """Sends queued deliveries; several may run at once (claims are leased).

    Args:
        r: the server's Redis.
        backoff: delay before the first retry, in seconds; doubles per attempt
            (with jitter: between half and all of it), up to ``max_backoff``.
        max_attempts: give up (and log ``failed``) after this many attempts.
        timeout: seconds to wait for the receiver's answer.
        lease: seconds a claimed delivery stays invisible to other deliverers.
        concurrency: deliveries sent at once (a slow receiver delays no other).
    """

    def __init__(
        self,
        r: Redis,
        *,
        backoff: float = 1.0,
        max_backoff: float = 600.0,
        max_attempts: int = 8,
        timeout: float = 5.0,
        lease: float = 30.0,
        concurrency: int = 4,
        rng: random.Random | None = None,
    ) -> None:
        self.r = r
        self.queue = webhook_store.Queue(r)
        self.backoff, self.max_backoff, self.max_attempts = backoff, max_backoff, max_attempts
        self.timeout = timeout
        self.lease = max(lease, timeout * 2)
        self.concurrency = concurrency
        self._opener = urllib.request.build_opener(_NoRedirect)
        self._rng = rng or random.Random()
        self._pool = ThreadPoolExecutor(concurrency, thread_name_prefix="webhook")

    def delay(self, attempts: int) -> float:
        """Seconds before attempt ``attempts + 1``: exponential, with jitter."""
        full = min(self.max_backoff, self.backoff * 2 ** (attempts - 1))
        return full * (0.5 + self._rng.random() / 2)

    def tick(self, now: float | None = None) -> int:
        """Send every delivery due now (waiting for them); returns how many were tried."""
        due = self.queue.claim(time.time() if now is None else now, self.lease,
                               self.concurrency * 8)
        list(self._pool.map(self.send, due))
        return len(due)

    def send(self, delivery: dict[str, Any]) -> bool:
        """One attempt; then done, or due again after the backoff. True on success."""
        hook = webhook_store.get(self.r, delivery["app"], delivery["hook"])
        outcome = {"delivery": delivery["id"], "event": delivery["event"],
                   "hook": delivery["hook"], "body_id": orjson.loads(delivery["body"])["id"]}
        if hook is None:
            self.queue.done(delivery, outcome | {"status": "dropped", "at": time.time()})
            return False
        body = delivery["body"].encode()
        attempt = delivery["attempts"] + 1
        request = urllib.request.Request(hook["url"], data=body, method="POST", headers={
            "Content-Type": "application/json", "User-Agent": USER_AGENT,
            SIGNATURE_HEADER: signature(hook["secret"], body, int(time.time())),
            "Parlour-Event": delivery["event"], "Parlour-Delivery": delivery["id"],
        })
        code: int | None = None
        try:
            with self._opener.open(request, timeout=self.timeout) as response:
                code = response.status
        except urllib.error.HTTPError as exc:
            code = exc.code
        except (OSError, ValueError) as exc:  # refused, timed out, bad URL
            log.info("webhook %s: %s", delivery["id"], exc)
        if code is not None and 200 <= code < 300:
            self.queue.done(delivery, outcome | {"status": "delivered", "attempts": attempt,
                                                 "code": code, "at": time.time()})
            return True
        if attempt >= self.max_attempts:
            log.warning("webhook %s to %s: giving up after %d attempts",
                        delivery["id"], hook["url"], attempt)
            self.queue.done(delivery, outcome | {"status": "failed", "attempts": attempt,
                                                 "code": code, "at": time.time()})
            return False
        self.queue.retry(delivery | {"attempts": attempt, "last_code": code},
                         time.time() + self.delay(attempt))
        return False

    def run(self, stop: threading.Event, interval: float = 0.1,
            parent_pid: int | None = None) -> None:
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
    delay, seconds, default 1), ``PARLOUR_WEBHOOK_MAX_ATTEMPTS`` (default 8).
    """
    log_as("webhooks")
    stop = stop_on_signals()
    deliverer = Deliverer(
        connect(redis_url),
        backoff=float(os.environ.get("PARLOUR_WEBHOOK_BACKOFF", "1")),
        max_attempts=int(os.environ.get("PARLOUR_WEBHOOK_MAX_ATTEMPTS", "8")),
    )
    log.info("delivering from %s", redis_url)
    try:
        deliverer.run(stop, interval, parent_pid)
    finally:
        deliverer.close()
    log.info("stopped")
    return 0

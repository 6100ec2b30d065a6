"""Webhook notifications for apps: what a commit notifies, and how it is signed.

An app (see :mod:`server.services.apps`) registers URLs; for each of its games
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

Notifications are queued in Redis after the commit (a repeatable step, like
wake-ups); :mod:`server.processes.webhooks` delivers them, through the queue's use
cases here (:class:`Deliveries`).

**Targets.** A webhook may not reach the server's own network: loopback,
private, link-local, site-local, multicast, unspecified and reserved addresses, and IPv6
forms that carry such an IPv4 address (mapped, compatible, SIIT, NAT64, 6to4,
Teredo), are refused at registration and again at delivery, after the name is
resolved, unless the operator allows their ranges (``PARLOUR_WEBHOOK_ALLOW``).
The guard is :mod:`server.services.targets`; the deliverer's calls go through the
outbound stack (:mod:`server.processes.outbound`), which checks and signs.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import secrets
import time
from collections.abc import Sequence
from typing import Any

from redis import Redis

from server.games import BaseState
from server.services import wire
from server.store import apps as app_store
from server.store import players as player_store
from server.store import webhooks as webhook_store
from server.store.games import GameRecord

log = logging.getLogger("server.services.notifications")

EVENTS = ("game_start", "turn", "game_end")
SIGNATURE_HEADER = "Parlour-Signature"


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
    return sorted(
        s for s, v in record.seats.items() if v["player_id"].startswith(app_store.GUEST_PREFIX)
    )


def _kind(player_id: str) -> str:
    if player_id.startswith(app_store.GUEST_PREFIX):
        return "guest"
    return "bot" if player_id.startswith(app_store.BOT_PREFIX) else "player"


def _base(kind: str, record: GameRecord, app_id: str) -> dict[str, Any]:
    return {
        "id": f"{record.id}:{record.version}:{kind}",
        "type": kind,
        "app_id": app_id,
        "game_id": record.id,
        "version": record.version,
        "status": record.status,
    }


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
        out.append(
            _base("game_start", record, app["id"])
            | {
                "game": record.meta["game"],
                "options": record.meta["options"],
                "seats": [
                    {"seat": s, "name": v["name"], "kind": _kind(v["player_id"])}
                    for s, v in sorted(record.seats.items())
                ],
            }
        )
    if record.status in ("finished", "aborted"):
        out.append(
            _base("game_end", record, app["id"])
            | {
                "scores": public.get("scores"),
                "result": public.get("result"),
            }
        )
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
                r,
                [record.seats[s]["player_id"] for s in _guest_seats(record)],
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
        {
            "id": secrets.token_hex(8),
            "app": app_id,
            "hook": hook["id"],
            "event": note["type"],
            "body": wire.dumps(note).decode(),
            "attempts": 0,
            "created": now,
        }
        for note in notes
        for hook in hooks
        if note["type"] in hook["events"]
    ]
    return webhook_store.enqueue(r, deliveries, now)


class Deliveries:
    """The webhook deliverer's use cases over the queue: claim the deliveries due (each
    leased to one deliverer), read a delivery's webhook, record an outcome or a retry."""

    def __init__(self, r: Redis) -> None:
        self.r = r
        self.queue = webhook_store.Queue(r)

    def claim(self, now: float, lease: float, limit: int) -> list[dict[str, Any]]:
        """Up to ``limit`` deliveries due by ``now``, hidden from other deliverers for
        ``lease`` seconds."""
        return self.queue.claim(now, lease, limit)

    def hook(self, app_id: str, hook_id: str) -> dict[str, Any] | None:
        """The app's webhook, or None if it was removed since the delivery was queued, or
        its app's token is revoked (a revocation removes the webhooks; one stored before
        revocations did is never delivered either)."""
        app = app_store.get_app(self.r, app_id)
        if app is None or app.token_sha256 == player_store.REVOKED:
            return None
        return webhook_store.get(self.r, app_id, hook_id)

    def done(self, delivery: dict[str, Any], outcome: dict[str, Any]) -> None:
        """The delivery is over (delivered, refused, dropped or failed): its ``outcome``
        is what the app sees."""
        self.queue.done(delivery, outcome)

    def retry(self, delivery: dict[str, Any], due: float) -> None:
        """Try the delivery again at ``due``."""
        self.queue.retry(delivery, due)

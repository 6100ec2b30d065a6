"""Apps, their guests, and the identities of the server's bot pool, in Redis.

* An **app** is a backend that embeds Parlour for its own people (``a:{id}``);
  its token is stored as a SHA-256 like a player's.
* A **guest** is a player record made for one open seat of an app's game (its
  token is the invitation), plus a binding ``p:{id}:guest`` naming that game,
  seat and expiry. Both keys carry a Redis expiry too, so abandoned guests go.
* The **bot pool** hash maps a bot name to the player ids that play
  ``"bot:<name>"`` seats, and the games that bot can play.

Key names come from :mod:`keys`; the service decides what a record allows.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import orjson
from redis import Redis

from . import keys, players
from .players import PlayerRecord
from .replies import text
from .scripts import Scripts

APP_PREFIX = "app"
"""App ids start with it; ``p`` is not a hex digit, so no player id (hex) can."""
GUEST_PREFIX = "gst"
"""Guest player ids start with it (not hex either): a token says at once it is a guest's."""
BOT_PREFIX = "bot"
"""Bot-pool player ids start with it."""


@dataclass(frozen=True, slots=True)
class AppRecord:
    id: str
    name: str
    token_sha256: str
    invite_url: str | None


@dataclass(frozen=True, slots=True)
class GuestBinding:
    """What a guest token may touch: one seat of one game, until ``expires``."""

    guest_id: str
    game_id: str
    seat: int
    app_id: str
    expires: float

    def expired(self, now: float) -> bool:
        return now >= self.expires


# -- apps --------------------------------------------------------------------------------
def create_app(r: Redis, record: AppRecord) -> None:
    """Store a new app (ids are random)."""
    r.hset(
        keys.app(record.id),
        mapping={
            "name": record.name,
            "token_sha256": record.token_sha256,
            "invite_url": record.invite_url or "",
            "created": f"{time.time():.3f}",
        },
    )


def get_app(r: Redis, app_id: str) -> AppRecord | None:
    name, digest, invite = r.hmget(keys.app(app_id), "name", "token_sha256", "invite_url")
    if name is None or digest is None:
        return None
    return AppRecord(app_id, text(name), text(digest), text(invite or b"") or None)


def swap_app_token(
    r: Redis, scripts: Scripts, app_id: str, old: str | None, new: str, keep_webhooks: bool
) -> int | None:
    """Replace the app's token hash (rotation; ``players.REVOKED`` revokes), as
    :func:`players.swap_digest` does, and in the same script remove the app's webhooks
    (unless ``keep_webhooks``): a queued delivery to a removed one is dropped.

    Returns how many webhooks the app had, or None when nothing changed (no such app,
    or its hash is no longer ``old``).
    """
    got = int(
        scripts.swap_app_token(
            keys=[keys.app(app_id), keys.app_webhooks(app_id)],
            args=[old or "", new, "1" if keep_webhooks else ""],
            client=r,
        )
    )
    return None if got < 0 else got


# -- guests ------------------------------------------------------------------------------
def create_guests(r: Redis, guests: Sequence[tuple[PlayerRecord, GuestBinding]]) -> None:
    """Store guest players with their bindings, both expiring at the binding's expiry."""
    for player, _ in guests:
        players.create(r, player)
    pipe = r.pipeline(transaction=False)
    for player, binding in guests:
        at = int(binding.expires) + 1
        pipe.hset(
            keys.guest(player.id),
            mapping={
                "game": binding.game_id,
                "seat": binding.seat,
                "app": binding.app_id,
                "expires": f"{binding.expires:.3f}",
            },
        )
        pipe.expireat(keys.player(player.id), at)
        pipe.expireat(keys.guest(player.id), at)
    pipe.execute()


def guest(r: Redis, guest_id: str) -> GuestBinding | None:
    """The guest's binding, or None once it is gone (expired)."""
    game, seat, app_id, expires = r.hmget(keys.guest(guest_id), "game", "seat", "app", "expires")
    if game is None or seat is None or expires is None:
        return None
    return GuestBinding(guest_id, text(game), int(seat), text(app_id or b""), float(expires))


def shorten_guests(r: Redis, guest_ids: Sequence[str], expires: float) -> None:
    """Bring the guests' expiry forward to ``expires`` (never later than it was).

    Called once their game is over: the token then reads the final view for a
    grace period and stops working. Repeatable.
    """
    if not guest_ids:
        return
    pipe = r.pipeline(transaction=False)
    for gid in guest_ids:
        pipe.hget(keys.guest(gid), "expires")
    current = pipe.execute()
    pipe = r.pipeline(transaction=False)
    for gid, old in zip(guest_ids, current, strict=True):
        if old is None or float(old) <= expires:
            continue
        at = int(expires) + 1
        pipe.hset(keys.guest(gid), "expires", f"{expires:.3f}")
        pipe.expireat(keys.guest(gid), at)
        pipe.expireat(keys.player(gid), at)
    pipe.execute()


# -- the bot pool ------------------------------------------------------------------------
def bot_pool(r: Redis) -> dict[str, dict[str, Any]]:
    """Every pool bot: name -> ``{"games": [...] | None, "players": [ids]}``."""
    return {text(k): orjson.loads(v) for k, v in r.hgetall(keys.bot_pool()).items()}


def set_bot(r: Redis, name: str, games: list[str] | None, player_ids: list[str]) -> None:
    r.hset(keys.bot_pool(), name, orjson.dumps({"games": games, "players": player_ids}))

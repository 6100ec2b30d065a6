"""Who is calling: a bearer token resolved to the admin, a player or a guest.

Tokens are stored hashed (:func:`sha256`) and compared in constant time. A player's
token is ``<player_id>.<secret>`` (:func:`split_token`): the record is read by id, so
the secret's hash is never a lookup key. A guest's token (an app's invitation) is a
player's bound to one seat of one game, for a limited time. :class:`Callers` is what
:class:`~server.services.core.Core` resolves tokens with (``Core.caller``,
``Core.verify``, ...).
"""

from __future__ import annotations

import hashlib
import hmac
import time
from dataclasses import dataclass

from redis import Redis

from server.services.errors import Forbidden, Unauthorized
from server.store import apps as app_store
from server.store import players as player_store
from server.store.apps import GuestBinding
from server.store.players import PlayerRecord


@dataclass(frozen=True, slots=True)
class Caller:
    """Who is calling: a player, the admin, or (``None`` in place of a Caller) nobody."""

    player: PlayerRecord | None
    is_admin: bool = False
    guest: GuestBinding | None = None
    """Set for a guest's token (an app's invitation): valid for one seat of one game only."""


def sha256(text: str) -> str:
    """SHA-256 hex of ``text``: how tokens and secrets are stored."""
    return hashlib.sha256(text.encode()).hexdigest()


def split_token(token: str) -> tuple[str, str] | None:
    """A player token is ``<player_id>.<secret>``; None when it has another shape.

    Carrying the id lets the record be read by id, so the secret's hash is
    compared in constant time instead of being used as a lookup key.
    """
    pid, dot, secret = token.partition(".")
    if not dot or not pid or not secret or not pid.isalnum() or len(pid) > 32:
        return None
    return pid, secret


class Callers:
    """Tokens resolved to callers over one Redis client.

    Args:
        r: the Redis client.
        admin_token: the admin's bearer token, or None for no admin.
    """

    def __init__(self, r: Redis, admin_token: str | None) -> None:
        self.r = r
        self._admin_digest = sha256(admin_token).encode() if admin_token else None

    def is_admin(self, token: str) -> bool:
        """Whether ``token`` is the admin's (compared in constant time)."""
        return self._admin_digest is not None and hmac.compare_digest(
            sha256(token).encode(), self._admin_digest
        )

    def verify(self, token: str, record: PlayerRecord | None, game_id: str | None = None) -> Caller:
        """Check a player token against the record read for its id (constant time), where
        that read rode with another (a move's game read, a turn stream's wait).

        A guest's token (an app's invitation) is bound to one game: anywhere
        else it is refused, and once expired it is unknown.
        """
        parts = split_token(token)
        if (
            record is None
            or parts is None
            or not hmac.compare_digest(sha256(parts[1]).encode(), record.token_sha256.encode())
        ):
            raise Unauthorized("unknown token")
        if not record.id.startswith(app_store.GUEST_PREFIX):
            return Caller(record)
        guest = app_store.guest(self.r, record.id)
        if guest is None or guest.expired(time.time()):
            raise Unauthorized("this guest token has expired")
        if guest.game_id != game_id:
            raise Forbidden("a guest token is valid only in its own game")
        return Caller(record, guest=guest)

    def caller(self, token: str | None) -> Caller:
        """Resolve a required bearer token (one round trip for a player token).

        Raises:
            Unauthorized: the token is missing or unknown.
        """
        if token is None:
            raise Unauthorized("missing bearer token")
        if self.is_admin(token):
            return Caller(None, is_admin=True)
        parts = split_token(token)
        if parts is None:
            raise Unauthorized("unknown token")
        return self.verify(token, player_store.get(self.r, parts[0]))

    def claimed_player(self, token: str | None) -> str:
        """The player id a token claims, before its record is read and checked
        (:meth:`verify`): for a read that carries the token check with it.

        Raises:
            Unauthorized: no token, or not a player token's shape; Forbidden: the admin's.
        """
        if token is None:
            raise Unauthorized("missing bearer token")
        if self.is_admin(token):
            raise Forbidden("the admin token is not a player")
        parts = split_token(token)
        if parts is None:
            raise Unauthorized("unknown token")
        return parts[0]

    def player(self, token: str | None) -> PlayerRecord:
        """The calling player (the admin is not one).

        Raises:
            Unauthorized; Forbidden: the admin's token.
        """
        caller = self.caller(token)
        if caller.player is None:
            raise Forbidden("the admin token is not a player")
        return caller.player

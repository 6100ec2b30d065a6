"""Players: register (a token shown once), the caller's own profile, and tokens.

**Tokens** (docs/api.md#tokens-rotate-and-revoke): a player may rotate its
token (a new one, shown once; the old one dies at once) or revoke it; the
admin may do either to any player. Only the token's SHA-256 is stored, read
from Redis on every request and compared in constant time
(:meth:`server.services.core.Core.caller`): no API process keeps a copy, so a
change holds in every process from the next request on.
"""

from __future__ import annotations

import secrets
from typing import Any

from server.games import REGISTRY
from server.services import names, views
from server.services.core import Core, sha256
from server.services.errors import Forbidden, NotFound, Unauthorized
from server.store import apps as app_store
from server.store import players as player_store
from server.store import ratings as rating_store
from server.store.players import PlayerRecord


class Players:
    """Registration and profiles, over the shared :class:`Core`."""

    def __init__(self, core: Core) -> None:
        self.core = core
        self.r = core.r

    def register(self, token: str | None, name: str) -> dict[str, Any]:
        """A new player and its token, shown this once.

        The name is checked by :func:`server.services.names.clean_player_name` (NFC,
        no control, bidi or invisible characters, not blank, not a house bot's).

        A token, when one is sent, must be good even where registration is open: a
        mistyped admin token is refused, not taken for nobody.

        Raises:
            Unauthorized: a token that is not known, or none while registration is closed.
            Forbidden: registration is closed and the caller is not the admin.
            InvalidRequest: the name is refused (``details.name`` names the class).
        """
        if token is not None or not self.core.open_registration:
            is_admin = self.core.caller(token).is_admin
            if not self.core.open_registration and not is_admin:
                raise Forbidden("registration is closed")
        name = names.clean_player_name(name, app_store.bot_pool(self.r))
        player_id = secrets.token_hex(8)
        token = f"{player_id}.{secrets.token_urlsafe(32)}"
        record = PlayerRecord(player_id, name, sha256(token.partition(".")[2]))
        player_store.create(self.r, record)
        return {"id": player_id, "name": name, "token": token}

    def me(self, token: str | None) -> dict[str, Any]:
        """The caller's profile, ratings (per game it has played rated) and unfinished games."""
        player = self.core.player(token)
        ratings = rating_store.of_player(self.r, REGISTRY, player.id)
        return {
            "id": player.id,
            "name": player.name,
            "ratings": {game: views.rating_out(r) for game, r in ratings.items()},
            "games": player_store.games(self.r, player.id),
        }

    # -- tokens -----------------------------------------------------------------------
    def _new_token(self, player_id: str) -> tuple[str, str]:
        token = f"{player_id}.{secrets.token_urlsafe(32)}"
        return token, sha256(token.partition(".")[2])

    def rotate_own(self, token: str | None) -> dict[str, Any]:
        """A new token for the calling player (shown this once); the old one dies.

        Raises:
            Unauthorized: the token is unknown (or was rotated meanwhile).
            Forbidden: the admin's token, or a guest's (an invitation is not rotated).
        """
        player = self.core.player(token)
        new, digest = self._new_token(player.id)
        if not player_store.swap_token(self.r, player.id, player.token_sha256, digest):
            raise Unauthorized("unknown token")
        return {"id": player.id, "name": player.name, "token": new}

    def revoke_own(self, token: str | None) -> None:
        """The calling player's token stops working (the admin may issue a new one)."""
        player = self.core.player(token)
        if not player_store.swap_token(
            self.r, player.id, player.token_sha256, player_store.REVOKED
        ):
            raise Unauthorized("unknown token")

    def _admin(self, token: str | None) -> None:
        if not self.core.caller(token).is_admin:
            raise Forbidden("only the admin may change another player's token")

    def rotate(self, token: str | None, player_id: str) -> dict[str, Any]:
        """A new token for any player (admin only): how a revoked player gets back in."""
        self._admin(token)
        record = player_store.get(self.r, player_id)
        new, digest = self._new_token(player_id)
        if record is None or not player_store.swap_token(self.r, player_id, None, digest):
            raise NotFound("no such player", {"player_id": player_id})
        return {"id": player_id, "name": record.name, "token": new}

    def revoke(self, token: str | None, player_id: str) -> None:
        """Any player's token stops working (admin only)."""
        self._admin(token)
        if not player_store.swap_token(self.r, player_id, None, player_store.REVOKED):
            raise NotFound("no such player", {"player_id": player_id})

"""Players: register (a token shown once), the caller's own profile, and tokens.

**Tokens** (docs/api.md#tokens-rotate-and-revoke): a player may rotate its
token (a new one, shown once; the old one dies at once) or revoke it; the
admin may do either to any player. Only the token's SHA-256 is stored, read
from Redis on every request and compared in constant time
(:meth:`server.services.core.Core.caller`): no API process keeps a copy, so a
change holds in every process from the next request on.

A player's **callback** (:mod:`server.services.callbacks`) ends with the token:
whoever held the token may have set it, to read and play the player's seats. A
revocation removes it, in the same script as the token's swap; so does a rotation,
unless the caller asks to keep it, and then its signing secret is rotated too
(docs/callbacks.md#tokens-and-your-callback).
"""

from __future__ import annotations

import secrets
from typing import Any

from server.games import REGISTRY
from server.services import callbacks, names, views
from server.services.callers import sha256
from server.services.core import Core
from server.services.errors import Forbidden, NotFound, Unauthorized
from server.store import apps as app_store
from server.store import callbacks as callback_store
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
        return self.make(names.clean_player_name(name, app_store.bot_pool(self.r)))

    def make(self, name: str) -> dict[str, Any]:
        """Store a new player named ``name`` (already cleaned) and answer its token, this
        once (:meth:`register`, and an organiser's roster: :mod:`server.services.events`)."""
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

    def _swap(
        self, player_id: str, old: str | None, new: str, keep_callback: bool = False
    ) -> tuple[bool, dict[str, Any] | None]:
        """Swap the token hash and end the callback with the old token (or, with
        ``keep_callback``, give it a new secret), in one script: whether the swap was
        made, and the answer's ``callback`` (None: none was set)."""
        secret = callbacks.new_secret() if keep_callback else None
        swapped, url = callback_store.swap_token(
            self.r, self.core.scripts, player_id, old, new, secret
        )
        if url is None:
            return swapped, None
        if secret is None:
            return swapped, {"url": url, "kept": False}
        return swapped, {"url": url, "kept": True, "secret": secret}

    def rotate_own(self, token: str | None, keep_callback: bool = False) -> dict[str, Any]:
        """A new token for the calling player (shown this once); the old one dies.

        The player's callback dies with the old token (whoever held it may have set
        it), unless ``keep_callback``: then it gets a new secret, shown this once.
        The answer's ``callback`` says which (None: no callback was set).

        Raises:
            Unauthorized: the token is unknown (or was rotated meanwhile).
            Forbidden: the admin's token, or a guest's (an invitation is not rotated).
        """
        player = self.core.player(token)
        new, digest = self._new_token(player.id)
        swapped, callback = self._swap(player.id, player.token_sha256, digest, keep_callback)
        if not swapped:
            raise Unauthorized("unknown token")
        return {"id": player.id, "name": player.name, "token": new, "callback": callback}

    def revoke_own(self, token: str | None) -> None:
        """The calling player's token stops working (the admin may issue a new one), and
        its callback is removed with it: no turn is called any more."""
        player = self.core.player(token)
        if not self._swap(player.id, player.token_sha256, player_store.REVOKED)[0]:
            raise Unauthorized("unknown token")

    def _admin(self, token: str | None) -> None:
        if not self.core.caller(token).is_admin:
            raise Forbidden("only the admin may change another player's token")

    def rotate(
        self, token: str | None, player_id: str, keep_callback: bool = False
    ) -> dict[str, Any]:
        """A new token for any player (admin only): how a revoked player gets back in.
        The callback as in :meth:`rotate_own`."""
        self._admin(token)
        record = player_store.get(self.r, player_id)
        if record is None:
            raise NotFound("no such player", {"player_id": player_id})
        new, digest = self._new_token(player_id)
        swapped, callback = self._swap(player_id, None, digest, keep_callback)
        if not swapped:
            raise NotFound("no such player", {"player_id": player_id})
        return {"id": player_id, "name": record.name, "token": new, "callback": callback}

    def revoke(self, token: str | None, player_id: str) -> None:
        """Any player's token stops working (admin only); its callback is removed."""
        self._admin(token)
        if not self._swap(player_id, None, player_store.REVOKED)[0]:
            raise NotFound("no such player", {"player_id": player_id})

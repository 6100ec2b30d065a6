"""Players: register (a token shown once), and the caller's own profile."""

from __future__ import annotations

import secrets
from typing import Any

from server.games import REGISTRY
from server.services import views
from server.services.core import Core, sha256
from server.services.errors import Forbidden
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

        Raises:
            Forbidden: registration is closed and the caller is not the admin.
        """
        if not self.core.open_registration and not self.core.caller(token).is_admin:
            raise Forbidden("registration is closed")
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

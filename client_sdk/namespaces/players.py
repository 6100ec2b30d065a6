"""``client.players``: registration and the caller's profile."""

from __future__ import annotations

from typing import cast

from ..types import NewPlayer, Player
from .base import _Namespace


class Players(_Namespace):
    """Players: registration and the caller's profile."""

    def register(self, name: str) -> NewPlayer:
        """``POST /v1/players``: a new player; its token is shown only this once."""
        return cast(NewPlayer, self._r.request("POST", "/v1/players", json={"name": name}))

    def me(self) -> Player:
        """``GET /v1/players/me``: the caller's profile, ratings and current games."""
        return cast(Player, self._r.request("GET", "/v1/players/me"))

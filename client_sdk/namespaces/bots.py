"""``client.bots``: the server's own bots, which play ``"bot:<name>"`` seats."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from .base import _Namespace


class Bots(_Namespace):
    """The server's own bots, which play ``"bot:<name>"`` seats."""

    def list(self) -> dict[str, Any]:
        """``GET /v1/bots``: the bots a seat can name, and the games each plays."""
        return cast(dict[str, Any], self._r.request("GET", "/v1/bots"))

    def ensure(self, bots: Sequence[str]) -> dict[str, Any]:
        """``POST /v1/bots`` (admin): the bot pool's identities and tokens."""
        return cast(dict[str, Any], self._r.request("POST", "/v1/bots", json={"bots": list(bots)}))

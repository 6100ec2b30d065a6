"""``client.visitors``: a game against the server's bots without an account.

See docs/web.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from .base import _Namespace


class Visitors(_Namespace):
    """What the web lobby's "Play against bots" calls; a client with no token may use it."""

    def settings(self) -> dict[str, Any]:
        """``GET /v1/visitors``: whether visitors may play here, and the bots per game."""
        return cast(dict[str, Any], self._r.request("GET", "/v1/visitors"))

    def play(
        self, game: str, options: Mapping[str, Any] | None = None, name: str | None = None
    ) -> dict[str, Any]:
        """``POST /v1/visitors/games``: a new game against the bots; the answer holds the
        visitor's seat and guest token (shown once)."""
        body: dict[str, Any] = {"game": game}
        if options is not None:
            body["options"] = dict(options)
        if name is not None:
            body["name"] = name
        return cast(dict[str, Any], self._r.request("POST", "/v1/visitors/games", json=body))

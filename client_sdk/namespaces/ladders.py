"""``client.ladders``: join a ladder, follow an entry, the leaderboard.

See docs/ladder.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from .base import _Namespace, _q


class Ladders(_Namespace):
    """Ladders: join once, be matched and rated for as long as the bot plays."""

    def create(
        self, game: str, *, options: Mapping[str, Any] | None = None, **settings: Any
    ) -> dict[str, Any]:
        """``POST /v1/ladders`` (admin); ``settings`` passes the other fields of the body
        (``table_size``, ``side_size``, ``duplicate``, ``clock``, ``timeout_policy``,
        ``max_games``, ``provisional_games``, ``pause_after``, ``pause_seconds``,
        ``seen_seconds``, ``rematch_seconds``, ``sides``, ``name``)."""
        body: dict[str, Any] = {"game": game, "options": dict(options or {})}
        body.update({k: v for k, v in settings.items() if v is not None})
        return cast(dict[str, Any], self._r.request("POST", "/v1/ladders", json=body))

    def list(self) -> dict[str, Any]:
        """``GET /v1/ladders``."""
        return cast(dict[str, Any], self._r.request("GET", "/v1/ladders"))

    def get(self, ladder_id: str) -> dict[str, Any]:
        """``GET /v1/ladders/{id}``: settings and entries with their status."""
        return cast(dict[str, Any], self._r.request("GET", f"/v1/ladders/{_q(ladder_id)}"))

    def join(
        self,
        ladder_id: str,
        player_id: str | None = None,
        *,
        partner: str | None = None,
        max_games: int | None = None,
    ) -> dict[str, Any]:
        """``POST /v1/ladders/{id}/entries``: join (the caller; the admin names a player).
        Joining twice is harmless. On a ladder of fixed pairs name the ``partner``: the
        pair plays once the partner joins naming the caller back. ``max_games``: the
        entry's own cap on games at once (below the ladder's), kept from the first join."""
        body: dict[str, Any] = {"player_id": player_id} if player_id else {}
        if partner:
            body["partner"] = partner
        if max_games is not None:
            body["max_games"] = max_games
        return cast(
            dict[str, Any],
            self._r.request(
                "POST", f"/v1/ladders/{_q(ladder_id)}/entries", json=body, idempotent=True
            ),
        )

    def leave(self, ladder_id: str, player_id: str | None = None) -> dict[str, Any]:
        """``DELETE /v1/ladders/{id}/entries``: leave (games in progress go on; a fixed
        pair leaves together)."""
        return cast(
            dict[str, Any],
            self._r.request(
                "DELETE",
                f"/v1/ladders/{_q(ladder_id)}/entries",
                params={"player_id": player_id},
            ),
        )

    def entry(self, ladder_id: str, player_id: str) -> dict[str, Any]:
        """``GET /v1/ladders/{id}/entries/{player_id}``: status, health, rating, history."""
        return cast(
            dict[str, Any],
            self._r.request("GET", f"/v1/ladders/{_q(ladder_id)}/entries/{_q(player_id)}"),
        )

    def leaderboard(self, ladder_id: str) -> dict[str, Any]:
        """``GET /v1/ladders/{id}/leaderboard``."""
        return cast(
            dict[str, Any], self._r.request("GET", f"/v1/ladders/{_q(ladder_id)}/leaderboard")
        )

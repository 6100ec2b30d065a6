"""``client.tournaments``: create, enter, start and follow tournaments."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from .base import _Namespace, _q


class Tournaments(_Namespace):
    """Tournaments: create, enter, start, follow."""

    def create(
        self,
        game: str,
        format: str,
        *,
        options: Mapping[str, Any] | None = None,
        rounds: int | None = None,
        clock: Mapping[str, Any] | None = None,
        timeout_policy: Any = None,
        **settings: Any,
    ) -> dict[str, Any]:
        """``POST /v1/tournaments``; ``settings`` passes the other fields of the body
        (``name``, ``boards_per_match``, ``seats_per_entry``, ``min_table_size``)."""
        body: dict[str, Any] = {"game": game, "format": format, "options": dict(options or {})}
        for key, value in (("rounds", rounds), ("clock", clock),
                           ("timeout_policy", timeout_policy), *settings.items()):  # fmt: skip
            if value is not None:
                body[key] = value
        return cast(dict[str, Any], self._r.request("POST", "/v1/tournaments", json=body))

    def enter(self, tournament_id: str, players: Sequence[str]) -> dict[str, Any]:
        """``POST /v1/tournaments/{id}/entries``: one entry."""
        return cast(
            dict[str, Any],
            self._r.request(
                "POST",
                f"/v1/tournaments/{_q(tournament_id)}/entries",
                json={"players": list(players)},
            ),
        )

    def start(self, tournament_id: str) -> dict[str, Any]:
        """``POST /v1/tournaments/{id}/start``."""
        return cast(
            dict[str, Any],
            self._r.request("POST", f"/v1/tournaments/{_q(tournament_id)}/start", json={}),
        )

    def get(self, tournament_id: str) -> dict[str, Any]:
        """``GET /v1/tournaments/{id}``: status, rounds, games, standings."""
        return cast(dict[str, Any], self._r.request("GET", f"/v1/tournaments/{_q(tournament_id)}"))

    def list(self, limit: int | None = None) -> dict[str, Any]:
        """``GET /v1/tournaments``: the newest tournaments with their leaders."""
        return cast(
            dict[str, Any], self._r.request("GET", "/v1/tournaments", params={"limit": limit})
        )

    def standings(self, tournament_id: str) -> dict[str, Any]:
        """``GET /v1/tournaments/{id}/standings``."""
        return cast(
            dict[str, Any],
            self._r.request("GET", f"/v1/tournaments/{_q(tournament_id)}/standings"),
        )

"""``client.invitations``: seats and entries others named you in, and blocks.

See docs/api.md#consent-and-invitations.
"""

from __future__ import annotations

from typing import Any, cast

from .base import _Namespace, _q


class Invitations(_Namespace):
    """Invitations: seats and tournament entries someone else named you in.

    A seat or entry naming you is held until you accept; declining frees it.
    The admin seats and enters players without asking.
    """

    def mine(self) -> list[dict[str, Any]]:
        """``GET /v1/me/invitations``: your open invitations, oldest first (every page)."""
        out: list[dict[str, Any]] = []
        cursor: str | None = None
        while True:
            params = {"limit": 200} | ({"cursor": cursor} if cursor else {})
            page = cast(dict[str, Any], self._r.request("GET", "/v1/me/invitations", params=params))
            out += page.get("invitations", [])
            cursor = page.get("next_cursor")
            if not cursor:
                return out

    def accept(self, invitation_id: str) -> dict[str, Any]:
        """``POST /v1/invitations/{id}/accept``: take the held seat(s) or entry."""
        return cast(
            dict[str, Any],
            self._r.request("POST", f"/v1/invitations/{_q(invitation_id)}/accept", json={}),
        )

    def decline(self, invitation_id: str) -> dict[str, Any]:
        """``POST /v1/invitations/{id}/decline``: free the held seat(s), withdraw the entry."""
        return cast(
            dict[str, Any],
            self._r.request("POST", f"/v1/invitations/{_q(invitation_id)}/decline", json={}),
        )

    def block(self, player_id: str) -> dict[str, Any]:
        """``PUT /v1/me/blocks/{player_id}``: refuse that player's invitations from now on
        (their open ones are declined); they are not told."""
        return cast(
            dict[str, Any],
            self._r.request("PUT", f"/v1/me/blocks/{_q(player_id)}", json={}, idempotent=True),
        )

    def unblock(self, player_id: str) -> None:
        """``DELETE /v1/me/blocks/{player_id}``: take that player's invitations again."""
        self._r.request("DELETE", f"/v1/me/blocks/{_q(player_id)}", idempotent=True)

    def blocks(self) -> list[dict[str, Any]]:
        """``GET /v1/me/blocks``: the players you block, oldest first (every page)."""
        out: list[dict[str, Any]] = []
        cursor: str | None = None
        while True:
            params = {"limit": 200} | ({"cursor": cursor} if cursor else {})
            page = cast(dict[str, Any], self._r.request("GET", "/v1/me/blocks", params=params))
            out += page.get("blocks", [])
            cursor = page.get("next_cursor")
            if not cursor:
                return out

"""``client.tokens``: rotate and revoke tokens.

See docs/api.md#tokens-rotate-and-revoke.
"""

from __future__ import annotations

from typing import Any, cast

from ..types import RotatedToken
from .base import _Namespace, _q


class Tokens(_Namespace):
    """Rotating and revoking tokens (docs/api.md#tokens-rotate-and-revoke).

    A rotated or revoked token stops working at once, and a player's callback (an
    app's webhooks) is removed with it (a rotation may keep it, with a new secret; or
    keep them). Rotating the client's own
    token (the player's, or the app's) makes the client use the new one.
    Never retried after a lost answer: a repeat would kill the token it returned.
    """

    def rotate(self, keep_callback: bool = False) -> RotatedToken:
        """``POST /v1/players/me/token``: a new token for the caller (shown once).

        The player's callback is removed with the old token, unless ``keep_callback``:
        then it stays with a new secret, in the answer's ``callback`` (shown once).
        """
        body = {"keep_callback": True} if keep_callback else None
        new = cast(RotatedToken, self._r.request("POST", "/v1/players/me/token", json=body))
        self._r.token = new.get("token", self._r.token)
        return new

    def revoke(self) -> None:
        """``DELETE /v1/players/me/token``: the caller's token stops working."""
        self._r.request("DELETE", "/v1/players/me/token")
        self._r.token = None

    def rotate_player(self, player_id: str, keep_callback: bool = False) -> RotatedToken:
        """``POST /v1/players/{id}/token`` (admin): a new token for any player; its
        callback as in :meth:`rotate`."""
        body = {"keep_callback": True} if keep_callback else None
        path = f"/v1/players/{_q(player_id)}/token"
        return cast(RotatedToken, self._r.request("POST", path, json=body))

    def revoke_player(self, player_id: str) -> None:
        """``DELETE /v1/players/{id}/token`` (admin): that player's token stops working."""
        self._r.request("DELETE", f"/v1/players/{_q(player_id)}/token")

    def rotate_app(self, app_id: str, keep_webhooks: bool = False) -> dict[str, Any]:
        """``POST /v1/apps/{id}/token`` (the app or the admin): a new app token.

        The app's webhooks are removed with the old token, unless ``keep_webhooks``
        (then list them, ``client.apps.webhooks``, and remove any the app did not add);
        the answer's ``webhooks`` says how many there were and whether they were kept.
        """
        body = {"keep_webhooks": True} if keep_webhooks else None
        path = f"/v1/apps/{_q(app_id)}/token"
        new = cast(dict[str, Any], self._r.request("POST", path, json=body))
        if (self._r.token or "").startswith(f"{app_id}."):
            self._r.token = new.get("token", self._r.token)
        return new

    def revoke_app(self, app_id: str) -> None:
        """``DELETE /v1/apps/{id}/token`` (the app or the admin): the app token stops
        working, and the app's webhooks are removed with it."""
        self._r.request("DELETE", f"/v1/apps/{_q(app_id)}/token")

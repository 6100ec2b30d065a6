"""``client.players``: registration, the caller's profile and its callback."""

from __future__ import annotations

from typing import Any, cast

from ..types import NewPlayer, Player
from .base import _Namespace


class Players(_Namespace):
    """Players: registration, the caller's profile, and its callback (the URL the server
    POSTs the caller's turns to: docs/callbacks.md)."""

    def register(self, name: str) -> NewPlayer:
        """``POST /v1/players``: a new player; its token is shown only this once."""
        return cast(NewPlayer, self._r.request("POST", "/v1/players", json={"name": name}))

    def me(self) -> Player:
        """``GET /v1/players/me``: the caller's profile, ratings and current games."""
        return cast(Player, self._r.request("GET", "/v1/players/me"))

    def callback(self) -> dict[str, Any]:
        """``GET /v1/me/callback``: the caller's callback, ``{"url", "secret_hint", "since"}``
        (the secret's last 4 characters only).

        Raises:
            NotFound: no callback is set.
        """
        return cast(dict[str, Any], self._r.request("GET", "/v1/me/callback"))

    def set_callback(self, url: str) -> dict[str, Any]:
        """``PUT /v1/me/callback``: the server plays the caller's seats by POSTing each
        turn to ``url`` (docs/callbacks.md); sets or replaces it. Returns
        ``{"url", "secret"}`` with a fresh signing secret, shown only this once.

        Raises:
            InvalidRequest: a URL that is not http(s), too long, or to an address the
                server may not call (loopback, private, ...).
        """
        return cast(
            dict[str, Any],
            self._r.request("PUT", "/v1/me/callback", json={"url": url}, idempotent=False),
        )

    def rotate_callback_secret(self) -> dict[str, Any]:
        """``POST /v1/me/callback/secret``: a new signing secret (``{"url", "secret"}``,
        shown once); the old one stops at once. Never retried after a lost answer: a
        repeat would replace the secret it returned.

        Raises:
            NotFound: no callback is set.
        """
        return cast(dict[str, Any], self._r.request("POST", "/v1/me/callback/secret"))

    def remove_callback(self) -> None:
        """``DELETE /v1/me/callback``: the server stops calling; the caller's seats are
        played by its streams and long-polls again."""
        self._r.request("DELETE", "/v1/me/callback", idempotent=True)

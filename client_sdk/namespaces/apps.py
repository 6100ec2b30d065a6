"""``client.apps``: apps that embed Parlour, their games and webhooks."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from .base import _Namespace, _q


class Apps(_Namespace):
    """Apps that embed Parlour: games with invitations, server bots, webhooks.

    The app token belongs in the app's backend, never in a browser: it can
    create games and point webhooks anywhere.
    """

    def create(self, name: str, invite_url: str | None = None) -> dict[str, Any]:
        """``POST /v1/apps`` (admin): the new app and its token (shown once)."""
        body: dict[str, Any] = {"name": name}
        if invite_url is not None:
            body["invite_url"] = invite_url
        return cast(dict[str, Any], self._r.request("POST", "/v1/apps", json=body))

    def get(self, app_id: str) -> dict[str, Any]:
        """``GET /v1/apps/{id}``: the app, its webhooks and latest deliveries."""
        return cast(dict[str, Any], self._r.request("GET", f"/v1/apps/{_q(app_id)}"))

    def create_game(
        self,
        app_id: str,
        game: str,
        seats: Sequence[str | None],
        *,
        options: Mapping[str, Any] | None = None,
        guest_names: Sequence[str | None] | None = None,
    ) -> dict[str, Any]:
        """``POST /v1/apps/{id}/games``: ``None`` seats get invitations, ``"bot:<name>"``
        seats a server bot."""
        body: dict[str, Any] = {"game": game, "seats": list(seats)}
        if options is not None:
            body["options"] = dict(options)
        if guest_names is not None:
            body["guest_names"] = list(guest_names)
        return cast(
            dict[str, Any], self._r.request("POST", f"/v1/apps/{_q(app_id)}/games", json=body)
        )

    def add_webhook(
        self, app_id: str, url: str, events: Sequence[str] | None = None
    ) -> dict[str, Any]:
        """``POST /v1/apps/{id}/webhooks``: signed notifications; the secret is shown once."""
        body: dict[str, Any] = {"url": url}
        if events is not None:
            body["events"] = list(events)
        return cast(
            dict[str, Any], self._r.request("POST", f"/v1/apps/{_q(app_id)}/webhooks", json=body)
        )

    def webhooks(self, app_id: str) -> list[dict[str, Any]]:
        """``GET /v1/apps/{id}/webhooks``: the app's webhooks, oldest first (no secrets)."""
        reply = cast(dict[str, Any], self._r.request("GET", f"/v1/apps/{_q(app_id)}/webhooks"))
        return cast(list[dict[str, Any]], reply.get("webhooks", []))

    def remove_webhook(self, app_id: str, webhook_id: str) -> None:
        """``DELETE /v1/apps/{id}/webhooks/{webhook_id}``: nothing more is sent to it."""
        self._r.request("DELETE", f"/v1/apps/{_q(app_id)}/webhooks/{_q(webhook_id)}")

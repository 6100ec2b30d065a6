"""``client.my_bots``: a player's own bots (hosted code, a callback URL, a connected
runner), their versions, entries and seat logs.

See docs/tutorials/hosted-bot.md ("Submit your bot") and docs/api.md, "Your bots".
"""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any, cast

from .base import _Namespace, _q

Bundle = str | Path | tuple[str, bytes]
"""A bundle: a file's path (one ``.py``, or a tar or zip archive with its
``manifest.json``), or its name and bytes."""


def _upload(bundle: Bundle) -> dict[str, str]:
    """A bundle as the API takes it: its file name and its bytes in base64."""
    if isinstance(bundle, tuple):
        name, data = bundle
    else:
        name, data = Path(bundle).name, Path(bundle).read_bytes()
    return {"filename": name, "content_base64": base64.b64encode(data).decode("ascii")}


class MyBots(_Namespace):
    """The caller's own bots: each is one entry of a ladder or tournament and fills every
    seat of its side."""

    def list(self) -> dict[str, Any]:
        """``GET /v1/me/bots``."""
        return cast(dict[str, Any], self._r.request("GET", "/v1/me/bots"))

    def create(
        self,
        name: str,
        kind: str,
        *,
        bundle: Bundle | None = None,
        url: str | None = None,
    ) -> dict[str, Any]:
        """``POST /v1/me/bots``: ``kind`` ``hosted`` (with ``bundle``),
        ``callback`` (with ``url``) or ``connected``. A callback bot's secret and a
        connected bot's tokens are in the answer, once."""
        body: dict[str, Any] = {"name": name, "kind": kind}
        if bundle is not None:
            body["bundle"] = _upload(bundle)
        if url is not None:
            body["url"] = url
        return cast(dict[str, Any], self._r.request("POST", "/v1/me/bots", json=body))

    def get(self, bot_id: str) -> dict[str, Any]:
        """``GET /v1/me/bots/{id}``: the bot, its identities and versions."""
        return cast(dict[str, Any], self._r.request("GET", f"/v1/me/bots/{_q(bot_id)}"))

    def resume(self, bot_id: str) -> dict[str, Any]:
        """``POST /v1/me/bots/{id}/resume``: clear the bot's pause (its ``health``); its
        ladder entries are matched again."""
        return cast(dict[str, Any], self._r.request("POST", f"/v1/me/bots/{_q(bot_id)}/resume"))

    def upload(self, bot_id: str, bundle: Bundle) -> dict[str, Any]:
        """``POST /v1/me/bots/{id}/versions``: new code, a new version (games that start
        from then on play it)."""
        return cast(
            dict[str, Any],
            self._r.request("POST", f"/v1/me/bots/{_q(bot_id)}/versions", json=_upload(bundle)),
        )

    def enter_ladder(self, bot_id: str, ladder_id: str) -> dict[str, Any]:
        """``POST /v1/me/bots/{id}/ladders``: the bot as one entry (validated first)."""
        path = f"/v1/me/bots/{_q(bot_id)}/ladders"
        return cast(dict[str, Any], self._r.request("POST", path, json={"ladder_id": ladder_id}))

    def enter_tournament(
        self, bot_id: str, tournament_id: str, *, seats: int | None = None
    ) -> dict[str, Any]:
        """``POST /v1/me/bots/{id}/tournaments``: the bot as one entry, its identities in
        ``seats`` seats of its side (1 when not given; a Concerto side is 2)."""
        body: dict[str, Any] = {"tournament_id": tournament_id}
        if seats is not None:
            body["seats"] = seats
        path = f"/v1/me/bots/{_q(bot_id)}/tournaments"
        return cast(dict[str, Any], self._r.request("POST", path, json=body))

    def logs(self, bot_id: str, game_id: str) -> dict[str, Any]:
        """``GET /v1/me/bots/{id}/games/{game_id}``: each of its seats' log in a finished
        game (the owner's only)."""
        path = f"/v1/me/bots/{_q(bot_id)}/games/{_q(game_id)}"
        return cast(dict[str, Any], self._r.request("GET", path))

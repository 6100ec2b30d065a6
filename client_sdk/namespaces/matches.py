"""``client.matches``: is NEW better than OLD? Duplicate board pairs until a sequential
probability ratio test decides (docs/matches.md)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from .base import _Namespace, _q


class Matches(_Namespace):
    """Matches between two sides (player ids, or ``"bot:<name>"`` house bots), one player
    per seat of a board's two tables each."""

    def create(
        self,
        game: str,
        new: Sequence[str],
        old: Sequence[str],
        *,
        options: Mapping[str, Any] | None = None,
        **settings: Any,
    ) -> dict[str, Any]:
        """``POST /v1/matches``; ``settings`` passes the other fields of the body
        (``alpha``, ``beta``, ``bounds``, ``max_boards``, ``par_adjusted``,
        ``move_seconds``). Players named other than the caller and house bots must
        agree (:meth:`agree`) before a card is dealt."""
        body: dict[str, Any] = {
            "game": game,
            "options": dict(options or {}),
            "new": list(new),
            "old": list(old),
        }
        body.update({k: v for k, v in settings.items() if v is not None})
        return cast(dict[str, Any], self._r.request("POST", "/v1/matches", json=body))

    def agree(self, match_id: str) -> dict[str, Any]:
        """``POST /v1/matches/{id}/agree``: the caller, named in the match, agrees to play."""
        path = f"/v1/matches/{_q(match_id)}/agree"
        return cast(dict[str, Any], self._r.request("POST", path, json={}))

    def get(self, match_id: str) -> dict[str, Any]:
        """``GET /v1/matches/{id}``: status, boards, LLR, the estimate and its interval."""
        return cast(dict[str, Any], self._r.request("GET", f"/v1/matches/{_q(match_id)}"))

    def regression(self, match_id: str) -> dict[str, Any]:
        """``GET /v1/matches/{id}/regression``: the boards NEW lost, with their seeds, for
        ``parlour-bot play --deals``."""
        path = f"/v1/matches/{_q(match_id)}/regression"
        return cast(dict[str, Any], self._r.request("GET", path))

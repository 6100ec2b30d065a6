"""``client.ratings``: the leaderboard of one game."""

from __future__ import annotations

from typing import Any, cast

from .base import _Namespace, _q


class Ratings(_Namespace):
    """Leaderboards: the ratings of one game."""

    def get(self, game: str) -> dict[str, Any]:
        """``GET /v1/ratings/{game}``."""
        return cast(dict[str, Any], self._r.request("GET", f"/v1/ratings/{_q(game)}"))

"""``client.ratings``: the leaderboard of one game, and one player's rating history."""

from __future__ import annotations

from typing import Any, cast

from .base import _Namespace, _q


class Ratings(_Namespace):
    """Leaderboards: the ratings of one game."""

    def leaderboard(self, game: str) -> dict[str, Any]:
        """``GET /v1/ratings/{game}``: the game's leaderboard (as
        ``client.ladders.leaderboard(ladder_id)`` is a ladder's)."""
        return cast(dict[str, Any], self._r.request("GET", f"/v1/ratings/{_q(game)}"))

    def get(self, game: str) -> dict[str, Any]:
        """An alias of :meth:`leaderboard`, kept for the code that calls it by this name."""
        return self.leaderboard(game)

    def history(self, game: str, player_id: str) -> dict[str, Any]:
        """``GET /v1/ratings/{game}/{player_id}/history``: its rating after each rated
        game, newest first (its latest 500), each with ``low``, ``high`` and
        ``provisional``."""
        path = f"/v1/ratings/{_q(game)}/{_q(player_id)}/history"
        return cast(dict[str, Any], self._r.request("GET", path))

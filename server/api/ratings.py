"""``/v1/ratings/{game}``: a game's leaderboard (openskill, best ordinal first)."""

from __future__ import annotations

from flask import Blueprint

from . import schemas
from .context import services
from .operations import EITHER, Answer, operation

bp = Blueprint("ratings", __name__)

GAME = {"name": "game", "in": "path", "required": True, "schema": {"type": "string"}}


@bp.get("/v1/ratings/<game>")
@operation(
    "getRatings",
    tag="ratings",
    summary="A game's leaderboard (openskill), best ordinal (mu - 3 sigma) first.",
    description="""\
One rating pool per game, fed by tournament results: each table (a
partnership's players as one team), or for duplicate each board once per
direction: the entries that held the same cards, ranked by their net
scores. Only the order of a result counts, never its margin.
""",
    security=EITHER,
    parameters=[GAME],
    responses={200: Answer("the leaderboard", schemas.Leaderboard)},
    errors=("NotFound",),
)
def leaderboard(game: str):
    return services().ratings.leaderboard(game)

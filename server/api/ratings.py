"""``/v1/ratings/{game}``: a game's leaderboard (openskill, best ordinal first), and
``/v1/ratings/{game}/{player_id}/history``: one player's rating after each rated game."""

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

Each row says how sure it is: `ordinal` (mu - 3 sigma) is a conservative
estimate, the skill is above it with 99.87% probability under the model;
`low`..`high` is the 95% interval (mu +- 1.96 sigma); `provisional` is true
while sigma is not yet below 25/6 (docs/ladder.md, *How sure a rating is*).
""",
    security=EITHER,
    parameters=[GAME],
    responses={200: Answer("the leaderboard", schemas.Leaderboard)},
    errors=("NotFound",),
)
def leaderboard(game: str):
    return services().ratings.leaderboard(game)


PLAYER = {"name": "player_id", "in": "path", "required": True, "schema": {"type": "string"}}


@bp.get("/v1/ratings/<game>/<player_id>/history")
@operation(
    "getRatingHistory",
    tag="ratings",
    summary="A player's rating after each rated game, newest first, with its doubt.",
    description="""\
Its latest 500 rated games in the game's pool: when, the new `mu` and
`sigma`, the 95% interval (`low`..`high`), whether it was still
`provisional`, the rating event (`<tournament id>:<event key>`) and the
games it rated (none named for a duplicate board's direction). Public, as
the leaderboard is.
""",
    security=EITHER,
    parameters=[GAME, PLAYER],
    responses={200: Answer("the player's rating history", schemas.RatingHistory)},
    errors=("NotFound",),
)
def history(game: str, player_id: str):
    return services().ratings.history(game, player_id)

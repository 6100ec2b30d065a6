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

What the numbers mean: `mu` is the skill estimate and `sigma` its
uncertainty (openskill: a new player is 25 ± 8.33); `low`..`high`
(mu ∓ 2 sigma) is the skill's 95% interval; `ordinal` (mu − 3 sigma)
is a conservative skill, what the board orders by, so a lucky newcomer
cannot top it. A rating is `provisional` while sigma is above 4: its
rank says little yet.
""",
    security=EITHER,
    parameters=[GAME],
    responses={200: Answer("the leaderboard", schemas.Leaderboard)},
    errors=("NotFound",),
)
def leaderboard(game: str):
    return services().ratings.leaderboard(game)

"""``/v1/ratings/{game}``: a game's leaderboard (openskill, best ordinal first)."""

from __future__ import annotations

from flask import Blueprint

from . import schemas
from .context import services

bp = Blueprint("ratings", __name__)


@bp.get("/v1/ratings/<game>")
def leaderboard(game: str):
    return schemas.leaderboard.dump(services().ratings.leaderboard(game))

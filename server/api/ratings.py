"""``/v1/ratings/{game}``: a game's leaderboard (openskill, best ordinal first)."""

from __future__ import annotations

from flask import Blueprint

from . import schemas
from .context import services

bp = Blueprint("ratings", __name__)


@bp.get("/v1/ratings/<game>")
def leaderboard(game: str):
    """
    ---
    parameters:
    - name: game
      in: path
      required: true
      schema:
        type: string
    get:
      operationId: getRatings
      tags:
      - ratings
      summary: A game's leaderboard (openskill), best ordinal (mu - 3 sigma) first.
      description: |
        One rating pool per game, fed by tournament results: each table (a
        partnership's players as one team), or for duplicate each board once per
        direction: the entries that held the same cards, ranked by their net
        scores. Only the order of a result counts, never its margin.
      security:
      - {}
      - bearer: []
      responses:
        '200':
          description: the leaderboard
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/Leaderboard'
        '404':
          $ref: '#/components/responses/NotFound'
    """
    return schemas.leaderboard.dump(services().ratings.leaderboard(game))

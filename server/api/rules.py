"""``/v1/rules``: the registered games, their variants and options with defaults."""

from __future__ import annotations

from flask import Blueprint

from . import schemas
from .context import services

bp = Blueprint("rules", __name__)


@bp.get("/v1/rules")
def rules():
    """
    ---
    get:
      operationId: getRules
      tags:
      - rules
      summary: The games, their variants and options (with defaults).
      security:
      - {}
      responses:
        '200':
          description: every registered game
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/Rules'
    """
    return schemas.rules.dump(services().lobby.rules())

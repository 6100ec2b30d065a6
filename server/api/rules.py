"""``/v1/rules``: the registered games, their variants and options with defaults."""

from __future__ import annotations

from flask import Blueprint

from . import schemas
from .context import services
from .operations import OPEN, Answer, operation

bp = Blueprint("rules", __name__)


@bp.get("/v1/rules")
@operation(
    "getRules",
    tag="rules",
    summary="The games, their variants and options (with defaults).",
    security=OPEN,
    responses={200: Answer("every registered game", schemas.Rules)},
)
def rules():
    return services().lobby.rules()

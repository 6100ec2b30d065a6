"""``/v1/rules``: the registered games, their variants and options with defaults."""

from __future__ import annotations

from flask import Blueprint

from . import schemas
from .context import services

bp = Blueprint("rules", __name__)


@bp.get("/v1/rules")
def rules():
    return schemas.rules.dump(services().lobby.rules())

"""``/v1/players``: register, and the caller's profile."""

from __future__ import annotations

from flask import Blueprint, g

from . import schemas
from .context import requires_token, services
from .schemas import load_json

bp = Blueprint("players", __name__)


@bp.post("/v1/players")
def register():
    body = schemas.player_create.load(load_json())
    return schemas.player_created.dump(services().players.register(g.token, **body)), 201


@bp.get("/v1/players/me")
@requires_token
def me():
    return schemas.profile.dump(services().players.me(g.token))

"""``/v1/players``: register, the caller's profile, and tokens (rotate, revoke)."""

from __future__ import annotations

from flask import Blueprint, g

from . import schemas
from .context import load_json, requires_token, services

bp = Blueprint("players", __name__)


@bp.post("/v1/players")
def register():
    body = schemas.player_create.load(load_json())
    return schemas.player_created.dump(services().players.register(g.token, **body)), 201


@bp.get("/v1/players/me")
@requires_token
def me():
    return schemas.profile.dump(services().players.me(g.token))


# -- tokens: rotate and revoke (docs/api.md#tokens-rotate-and-revoke) -----------------------
@bp.post("/v1/players/me/token")
@requires_token
def rotate_own_token():
    return schemas.player_created.dump(services().players.rotate_own(g.token))


@bp.delete("/v1/players/me/token")
@requires_token
def revoke_own_token():
    services().players.revoke_own(g.token)
    return "", 204


@bp.post("/v1/players/<player_id>/token")
@requires_token
def rotate_token(player_id: str):
    return schemas.player_created.dump(services().players.rotate(g.token, player_id))


@bp.delete("/v1/players/<player_id>/token")
@requires_token
def revoke_token(player_id: str):
    services().players.revoke(g.token, player_id)
    return "", 204

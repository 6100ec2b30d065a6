"""``/v1/apps`` (apps, their games with invitations, their webhooks) and ``/v1/bots``."""

from __future__ import annotations

from flask import Blueprint, g

from . import schemas
from .context import load_json, requires_token, services

bp = Blueprint("apps", __name__)


@bp.post("/v1/apps")
@requires_token
def create():
    body = schemas.app_create.load(load_json())
    return schemas.app_created.dump(services().apps.create_app(g.token, **body)), 201


@bp.get("/v1/apps/<app_id>")
@requires_token
def show(app_id: str):
    return schemas.app_info.dump(services().apps.get_app(g.token, app_id))


@bp.post("/v1/apps/<app_id>/games")
@requires_token
def create_game(app_id: str):
    body = schemas.app_game_create.load(load_json())
    return schemas.app_game.dump(services().apps.create_game(g.token, app_id, **body)), 201


@bp.post("/v1/apps/<app_id>/webhooks")
@requires_token
def add_webhook(app_id: str):
    body = schemas.webhook_create.load(load_json())
    return schemas.webhook.dump(services().apps.add_webhook(g.token, app_id, **body)), 201


# -- the app's token: rotate and revoke (docs/api.md#tokens-rotate-and-revoke) --------------
@bp.post("/v1/apps/<app_id>/token")
@requires_token
def rotate_token(app_id: str):
    return schemas.app_created.dump(services().apps.rotate_token(g.token, app_id))


@bp.delete("/v1/apps/<app_id>/token")
@requires_token
def revoke_token(app_id: str):
    services().apps.revoke_token(g.token, app_id)
    return "", 204


@bp.get("/v1/bots")
def bots():
    return schemas.bots.dump(services().apps.bots())


@bp.post("/v1/bots")
@requires_token
def ensure_bots():
    body = schemas.bots_ensure.load(load_json())
    return schemas.bots.dump(services().apps.ensure_bots(g.token, **body))

"""``/v1/me/turns``: every game where the caller is to act, long-polled (the bot loop)."""

from __future__ import annotations

from flask import Blueprint, g, request

from . import schemas
from .context import requires_token, services

bp = Blueprint("me", __name__)


@bp.get("/v1/me/turns")
@requires_token
def turns():
    query = schemas.wait_query.load(request.args)
    return schemas.turns.dump(services().feeds.turns(g.token, **query))

"""``/v1/me/invitations`` and ``/v1/invitations/{id}/accept|decline``: consent to a seat
or an entry someone else named you in (docs/api.md#consent-and-invitations); and
``/v1/me/blocks``: inviters whose invitations you refuse (docs/api.md#limits-on-invitations)."""

from __future__ import annotations

from flask import Blueprint, g, request

from . import schemas
from .context import load_json, requires_token, services

bp = Blueprint("invitations", __name__)


@bp.get("/v1/me/invitations")
@requires_token
def mine():
    query = schemas.page_query.load(request.args)
    return schemas.invitation_list.dump(services().invitations.mine(g.token, **query))


@bp.get("/v1/me/blocks")
@requires_token
def blocks():
    query = schemas.page_query.load(request.args)
    return schemas.block_list.dump(services().invitations.blocks(g.token, **query))


@bp.put("/v1/me/blocks/<player_id>")
@requires_token
def block(player_id: str):
    schemas.empty.load(load_json())
    return schemas.block.dump(services().invitations.block(g.token, player_id))


@bp.delete("/v1/me/blocks/<player_id>")
@requires_token
def unblock(player_id: str):
    services().invitations.unblock(g.token, player_id)
    return "", 204


@bp.post("/v1/invitations/<invitation_id>/accept")
@requires_token
def accept(invitation_id: str):
    schemas.empty.load(load_json())
    return schemas.invitation.dump(services().invitations.accept(g.token, invitation_id))


@bp.post("/v1/invitations/<invitation_id>/decline")
@requires_token
def decline(invitation_id: str):
    schemas.empty.load(load_json())
    return schemas.invitation.dump(services().invitations.decline(g.token, invitation_id))

"""``/v1/me/invitations`` and ``/v1/invitations/{id}/accept|decline``: consent to a seat
or an entry someone else named you in (docs/api.md#consent-and-invitations)."""

from __future__ import annotations

from flask import Blueprint, g

from . import schemas
from .context import requires_token, services
from .schemas import load_json

bp = Blueprint("invitations", __name__)


@bp.get("/v1/me/invitations")
@requires_token
def mine():
    return schemas.invitation_list.dump(services().invitations.mine(g.token))


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

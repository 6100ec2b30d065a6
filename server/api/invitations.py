"""``/v1/me/invitations`` and ``/v1/invitations/{id}/accept|decline``: consent to a seat
or an entry someone else named you in (docs/api.md#consent-and-invitations); and
``/v1/me/blocks``: inviters whose invitations you refuse (docs/api.md#limits-on-invitations)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, g

from . import schemas
from .context import requires_token, services
from .operations import Answer, operation

bp = Blueprint("invitations", __name__)

PLAYER_ID = {"name": "player_id", "in": "path", "required": True, "schema": {"type": "string"}}
INVITATION = ["InvitationId"]


@bp.get("/v1/me/invitations")
@requires_token
@operation(
    "listInvitations",
    tag="invitations",
    summary="Your open invitations to held seats and entries, oldest first, a page at a time.",
    description="""\
A seat or tournament entry that someone else (a player or an app) named
you in is held until you accept. Expired invitations are freed and left
out. `limit` invitations per page (50); `next_cursor` (null on the last
page) is the `cursor` of the next one.
""",
    query=schemas.PageQuery,
    responses={200: Answer("one page of the invitations", schemas.ConsentInvitationList)},
    errors=("InvalidRequest", "Forbidden"),
)
def mine(query: dict[str, Any]):
    return services().invitations.mine(g.token, **query)


@bp.get("/v1/me/blocks")
@requires_token
@operation(
    "listBlocks",
    tag="invitations",
    summary="The players whose invitations you refuse, oldest block first, a page at a time.",
    query=schemas.PageQuery,
    responses={200: Answer("one page of the blocks", schemas.BlockList)},
    errors=("InvalidRequest", "Forbidden"),
)
def blocks(query: dict[str, Any]):
    return services().invitations.blocks(g.token, **query)


@bp.put("/v1/me/blocks/<player_id>")
@requires_token
@operation(
    "blockPlayer",
    tag="invitations",
    summary="Refuse this player's invitations from now on (repeatable).",
    description="""\
Their open invitations to you are declined at once. Their later
invitations to you are refused with 409 `invitation_refused`, the same
answer as for a full inbox (they are not told that you block them), and
nothing of them reaches your turn stream.
""",
    parameters=[PLAYER_ID],
    body=schemas.Empty,
    body_required=False,
    responses={200: Answer("the block", schemas.Block)},
    errors=("InvalidRequest", "Forbidden", "NotFound"),
)
def block(player_id: str, body: dict[str, Any]):
    return services().invitations.block(g.token, player_id)


@bp.delete("/v1/me/blocks/<player_id>")
@requires_token
@operation(
    "unblockPlayer",
    tag="invitations",
    summary="Take their invitations again (nothing if they were not blocked).",
    parameters=[PLAYER_ID],
    responses={204: Answer("not blocked")},
    errors=("Forbidden",),
)
def unblock(player_id: str):
    services().invitations.unblock(g.token, player_id)
    return "", 204


@bp.post("/v1/invitations/<invitation_id>/accept")
@requires_token
@operation(
    "acceptInvitation",
    tag="invitations",
    summary="Accept: take the held seat(s), or confirm your place in the held entry.",
    description="""\
The game starts once every seat is taken and none is held. An expired
invitation is 409 `invitation_expired` (its seat or entry is freed); one
already answered or withdrawn is 404.
""",
    parameters=INVITATION,
    body=schemas.Empty,
    body_required=False,
    responses={200: Answer("the invitation, accepted", schemas.ConsentInvitation)},
    errors=("InvalidRequest", "Forbidden", "NotFound", "Conflict"),
)
def accept(invitation_id: str, body: dict[str, Any]):
    return services().invitations.accept(g.token, invitation_id)


@bp.post("/v1/invitations/<invitation_id>/decline")
@requires_token
@operation(
    "declineInvitation",
    tag="invitations",
    summary="Decline: free the held seat(s), or withdraw the held entry for all its players.",
    parameters=INVITATION,
    body=schemas.Empty,
    body_required=False,
    responses={200: Answer("the invitation, declined", schemas.ConsentInvitation)},
    errors=("InvalidRequest", "Forbidden", "NotFound"),
)
def decline(invitation_id: str, body: dict[str, Any]):
    return services().invitations.decline(g.token, invitation_id)

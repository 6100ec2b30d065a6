"""``/v1/players``: register, the caller's profile, and tokens (rotate, revoke)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, g

from . import schemas
from .context import requires_token, services
from .operations import EITHER, Answer, operation

bp = Blueprint("players", __name__)

PLAYER_ID = {"name": "player_id", "in": "path", "required": True, "schema": {"type": "string"}}
ROTATED = Answer("the player, its new token, and what became of its callback", schemas.TokenRotated)


@bp.post("/v1/players")
@operation(
    "registerPlayer",
    tag="players",
    summary="Register a player; the token is shown once.",
    description="""\
Open registration is on by default (`PARLOUR_OPEN_REGISTRATION=0` turns
it off), limited per client address (`PARLOUR_REGISTER_LIMIT`, 10 per
`PARLOUR_REGISTER_PERIOD`, 3600 s; past it 429 `rate_limited` and nothing
is created); the admin token can always register players, uncounted.
""",
    security=EITHER,
    body=schemas.PlayerCreate,
    responses={201: Answer("the new player and its token", schemas.PlayerCreated)},
    errors=("InvalidRequest", "PayloadTooLarge", "Unauthorized", "RateLimited", "Forbidden"),
)
def register(body: dict[str, Any]):
    return services().players.register(g.token, **body), 201


@bp.get("/v1/players/me")
@requires_token
@operation(
    "getProfile",
    tag="players",
    summary="The caller's profile, ratings and current games.",
    responses={200: Answer("the profile", schemas.Profile)},
    errors=("Forbidden",),
)
def me():
    return services().players.me(g.token)


# -- tokens: rotate and revoke (docs/api.md#tokens-rotate-and-revoke) -----------------------
@bp.post("/v1/players/me/token")
@requires_token
@operation(
    "rotateOwnToken",
    tag="players",
    summary="Rotate the caller's token; the new one is shown once, the old one dies at once.",
    description="""\
For a player's own token (not the admin's, not a guest's: 403). The old
token stops working in every API process from the next request on.
Never retry a lost answer blindly: a repeat with the old token is 401.

The player's callback (`/v1/me/callback`) is removed with the old token
(whoever held it may have set it), unless the body is
`{"keep_callback": true}`: then it stays, with a new signing secret. The
answer's `callback` says which (`null`: none was set).
""",
    body=schemas.TokenRotate,
    body_required=False,
    responses={200: ROTATED},
    errors=("InvalidRequest", "Forbidden"),
)
def rotate_own_token(body: dict[str, Any]):
    return services().players.rotate_own(g.token, **body)


@bp.delete("/v1/players/me/token")
@requires_token
@operation(
    "revokeOwnToken",
    tag="players",
    summary="Revoke the caller's token (only the admin can give the player a new one).",
    description="The player's callback is removed with it.",
    responses={204: Answer("the token no longer works")},
    errors=("Forbidden",),
)
def revoke_own_token():
    services().players.revoke_own(g.token)
    return "", 204


@bp.post("/v1/players/<player_id>/token")
@requires_token
@operation(
    "rotatePlayerToken",
    tag="players",
    summary="Give any player a new token (admin only); the old one dies at once.",
    description="""\
How a player whose token was revoked or lost gets back in. The player's
callback, as for `POST /v1/players/me/token`: removed, unless
`{"keep_callback": true}`.
""",
    parameters=[PLAYER_ID],
    body=schemas.TokenRotate,
    body_required=False,
    responses={200: ROTATED},
    errors=("InvalidRequest", "Forbidden", "NotFound"),
)
def rotate_token(player_id: str, body: dict[str, Any]):
    return services().players.rotate(g.token, player_id, **body)


@bp.delete("/v1/players/<player_id>/token")
@requires_token
@operation(
    "revokePlayerToken",
    tag="players",
    summary="Revoke any player's token (admin only).",
    description="The player's callback is removed with it.",
    parameters=[PLAYER_ID],
    responses={204: Answer("the token no longer works")},
    errors=("Forbidden", "NotFound"),
)
def revoke_token(player_id: str):
    services().players.revoke(g.token, player_id)
    return "", 204

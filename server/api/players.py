"""``/v1/players``: register, the caller's profile, and tokens (rotate, revoke)."""

from __future__ import annotations

from flask import Blueprint, g

from . import schemas
from .context import load_json, requires_token, services

bp = Blueprint("players", __name__)


@bp.post("/v1/players")
def register():
    """
    ---
    post:
      operationId: registerPlayer
      tags:
      - players
      summary: Register a player; the token is shown once.
      description: |
        Open registration is on by default (`PARLOUR_OPEN_REGISTRATION=0` turns
        it off), limited per client address (`PARLOUR_REGISTER_LIMIT`, 10 per
        `PARLOUR_REGISTER_PERIOD`, 3600 s; past it 429 `rate_limited` and nothing
        is created); the admin token can always register players, uncounted.
      security:
      - {}
      - bearer: []
      requestBody:
        required: true
        content:
          application/json:
            schema:
              $ref: '#/components/schemas/PlayerCreate'
      responses:
        '201':
          description: the new player and its token
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/PlayerCreated'
        '400':
          $ref: '#/components/responses/InvalidRequest'
        '413':
          $ref: '#/components/responses/PayloadTooLarge'
        '401':
          $ref: '#/components/responses/Unauthorized'
        '429':
          $ref: '#/components/responses/RateLimited'
        '403':
          $ref: '#/components/responses/Forbidden'
    """
    body = schemas.player_create.load(load_json())
    return schemas.player_created.dump(services().players.register(g.token, **body)), 201


@bp.get("/v1/players/me")
@requires_token
def me():
    """
    ---
    get:
      operationId: getProfile
      tags:
      - players
      summary: The caller's profile, ratings and current games.
      responses:
        '200':
          description: the profile
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/Profile'
        '403':
          $ref: '#/components/responses/Forbidden'
    """
    return schemas.profile.dump(services().players.me(g.token))


# -- tokens: rotate and revoke (docs/api.md#tokens-rotate-and-revoke) -----------------------
@bp.post("/v1/players/me/token")
@requires_token
def rotate_own_token():
    """
    ---
    post:
      operationId: rotateOwnToken
      tags:
      - players
      summary: Rotate the caller's token; the new one is shown once, the old one dies at once.
      description: |
        For a player's own token (not the admin's, not a guest's: 403). The old
        token stops working in every API process from the next request on.
        Never retry a lost answer blindly: a repeat with the old token is 401.

        The player's callback (`/v1/me/callback`) is removed with the old token
        (whoever held it may have set it), unless the body is
        `{"keep_callback": true}`: then it stays, with a new signing secret. The
        answer's `callback` says which (`null`: none was set).
      requestBody:
        required: false
        content:
          application/json:
            schema:
              $ref: '#/components/schemas/TokenRotate'
      responses:
        '200':
          description: the player, its new token, and what became of its callback
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/TokenRotated'
        '400':
          $ref: '#/components/responses/InvalidRequest'
        '403':
          $ref: '#/components/responses/Forbidden'
    """
    body = schemas.token_rotate.load(load_json())
    return schemas.token_rotated.dump(services().players.rotate_own(g.token, **body))


@bp.delete("/v1/players/me/token")
@requires_token
def revoke_own_token():
    """
    ---
    delete:
      operationId: revokeOwnToken
      tags:
      - players
      summary: Revoke the caller's token (only the admin can give the player a new one).
      description: The player's callback is removed with it.
      responses:
        '204':
          description: the token no longer works
        '403':
          $ref: '#/components/responses/Forbidden'
    """
    services().players.revoke_own(g.token)
    return "", 204


@bp.post("/v1/players/<player_id>/token")
@requires_token
def rotate_token(player_id: str):
    """
    ---
    parameters:
    - name: player_id
      in: path
      required: true
      schema:
        type: string
    post:
      operationId: rotatePlayerToken
      tags:
      - players
      summary: Give any player a new token (admin only); the old one dies at once.
      description: |
        How a player whose token was revoked or lost gets back in. The player's
        callback, as for `POST /v1/players/me/token`: removed, unless
        `{"keep_callback": true}`.
      requestBody:
        required: false
        content:
          application/json:
            schema:
              $ref: '#/components/schemas/TokenRotate'
      responses:
        '200':
          description: the player, its new token, and what became of its callback
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/TokenRotated'
        '400':
          $ref: '#/components/responses/InvalidRequest'
        '403':
          $ref: '#/components/responses/Forbidden'
        '404':
          $ref: '#/components/responses/NotFound'
    """
    body = schemas.token_rotate.load(load_json())
    return schemas.token_rotated.dump(services().players.rotate(g.token, player_id, **body))


@bp.delete("/v1/players/<player_id>/token")
@requires_token
def revoke_token(player_id: str):
    """
    ---
    parameters:
    - name: player_id
      in: path
      required: true
      schema:
        type: string
    delete:
      operationId: revokePlayerToken
      tags:
      - players
      summary: Revoke any player's token (admin only).
      description: The player's callback is removed with it.
      responses:
        '204':
          description: the token no longer works
        '403':
          $ref: '#/components/responses/Forbidden'
        '404':
          $ref: '#/components/responses/NotFound'
    """
    services().players.revoke(g.token, player_id)
    return "", 204

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
    """
    ---
    get:
      operationId: listInvitations
      tags:
      - invitations
      summary: Your open invitations to held seats and entries, oldest first, a page at a time.
      description: |
        A seat or tournament entry that someone else (a player or an app) named
        you in is held until you accept. Expired invitations are freed and left
        out. `limit` invitations per page (50); `next_cursor` (null on the last
        page) is the `cursor` of the next one.
      parameters:
      - Limit
      - Cursor
      responses:
        '200':
          description: one page of the invitations
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/ConsentInvitationList'
        '400':
          $ref: '#/components/responses/InvalidRequest'
        '403':
          $ref: '#/components/responses/Forbidden'
    """
    query = schemas.page_query.load(request.args)
    return schemas.invitation_list.dump(services().invitations.mine(g.token, **query))


@bp.get("/v1/me/blocks")
@requires_token
def blocks():
    """
    ---
    get:
      operationId: listBlocks
      tags:
      - invitations
      summary: The players whose invitations you refuse, oldest block first, a page at a time.
      parameters:
      - Limit
      - Cursor
      responses:
        '200':
          description: one page of the blocks
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/BlockList'
        '400':
          $ref: '#/components/responses/InvalidRequest'
        '403':
          $ref: '#/components/responses/Forbidden'
    """
    query = schemas.page_query.load(request.args)
    return schemas.block_list.dump(services().invitations.blocks(g.token, **query))


@bp.put("/v1/me/blocks/<player_id>")
@requires_token
def block(player_id: str):
    """
    ---
    parameters:
    - name: player_id
      in: path
      required: true
      schema:
        type: string
    put:
      operationId: blockPlayer
      tags:
      - invitations
      summary: Refuse this player's invitations from now on (repeatable).
      description: |
        Their open invitations to you are declined at once. Their later
        invitations to you are refused with 409 `invitation_refused`, the same
        answer as for a full inbox (they are not told that you block them), and
        nothing of them reaches your turn stream.
      requestBody:
        required: false
        content:
          application/json:
            schema:
              type: object
              additionalProperties: false
      responses:
        '200':
          description: the block
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/Block'
        '400':
          $ref: '#/components/responses/InvalidRequest'
        '403':
          $ref: '#/components/responses/Forbidden'
        '404':
          $ref: '#/components/responses/NotFound'
    """
    schemas.empty.load(load_json())
    return schemas.block.dump(services().invitations.block(g.token, player_id))


@bp.delete("/v1/me/blocks/<player_id>")
@requires_token
def unblock(player_id: str):
    """
    ---
    parameters:
    - name: player_id
      in: path
      required: true
      schema:
        type: string
    delete:
      operationId: unblockPlayer
      tags:
      - invitations
      summary: Take their invitations again (nothing if they were not blocked).
      responses:
        '204':
          description: not blocked
        '403':
          $ref: '#/components/responses/Forbidden'
    """
    services().invitations.unblock(g.token, player_id)
    return "", 204


@bp.post("/v1/invitations/<invitation_id>/accept")
@requires_token
def accept(invitation_id: str):
    """
    ---
    parameters:
    - InvitationId
    post:
      operationId: acceptInvitation
      tags:
      - invitations
      summary: 'Accept: take the held seat(s), or confirm your place in the held entry.'
      description: |
        The game starts once every seat is taken and none is held. An expired
        invitation is 409 `invitation_expired` (its seat or entry is freed); one
        already answered or withdrawn is 404.
      requestBody:
        required: false
        content:
          application/json:
            schema:
              type: object
              additionalProperties: false
      responses:
        '200':
          description: the invitation, accepted
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/ConsentInvitation'
        '400':
          $ref: '#/components/responses/InvalidRequest'
        '403':
          $ref: '#/components/responses/Forbidden'
        '404':
          $ref: '#/components/responses/NotFound'
        '409':
          $ref: '#/components/responses/Conflict'
    """
    schemas.empty.load(load_json())
    return schemas.invitation.dump(services().invitations.accept(g.token, invitation_id))


@bp.post("/v1/invitations/<invitation_id>/decline")
@requires_token
def decline(invitation_id: str):
    """
    ---
    parameters:
    - InvitationId
    post:
      operationId: declineInvitation
      tags:
      - invitations
      summary: 'Decline: free the held seat(s), or withdraw the held entry for all its players.'
      requestBody:
        required: false
        content:
          application/json:
            schema:
              type: object
              additionalProperties: false
      responses:
        '200':
          description: the invitation, declined
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/ConsentInvitation'
        '400':
          $ref: '#/components/responses/InvalidRequest'
        '403':
          $ref: '#/components/responses/Forbidden'
        '404':
          $ref: '#/components/responses/NotFound'
    """
    schemas.empty.load(load_json())
    return schemas.invitation.dump(services().invitations.decline(g.token, invitation_id))

"""``/v1/visitors``: a person with no account plays against the server's bots (docs/web.md).

Thin: the schemas of this feature, one service call each
(:class:`~server.services.visitors.Visitors`). The client address that the
rate limit counts is ``request.remote_addr`` (an IPv6 one by its /64): behind a
proxy, the operator makes it the visitor's (docs/operations.md).
"""

from __future__ import annotations

from flask import Blueprint, request
from marshmallow import Schema, fields, validate

from server.services import names

from . import schemas
from .context import load_json, services
from .schemas import View

bp = Blueprint("visitors", __name__)


class VisitorGameCreate(Schema):
    game = fields.String(required=True, validate=validate.Length(min=1, max=64))
    options = fields.Dict(keys=fields.String(), load_default=None)
    name = schemas.Name(max_length=names.MAX_VISITOR_LENGTH, load_default=None)


class VisitorGame(Schema):
    game = fields.Nested(View)
    seat = fields.Integer()
    token = fields.String()
    expires = fields.String()


class VisitorSettings(Schema):
    enabled = fields.Boolean()
    bots = fields.Dict(keys=fields.String(), values=fields.Integer())


@bp.get("/v1/visitors")
def settings():
    """
    ---
    get:
      operationId: getVisitorSettings
      tags:
      - visitors
      summary: Whether visitors may play against the bots here, and how many bots play each game.
      security:
      - {}
      responses:
        '200':
          description: the operator's setting and the bot pool's seats per game
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/VisitorSettings'
    """
    return VisitorSettings().dump(services().visitors.settings())


@bp.post("/v1/visitors/games")
def create_game():
    """
    ---
    post:
      operationId: createVisitorGame
      tags:
      - visitors
      summary: A new game against the server's bots for a person with no account.
      description: |
        No token: the visitor gets seat 0 as a guest (a player made for that seat
        alone, like an app's invitation: its `token` works only for this game and
        seat, until `expires`, and for `PARLOUR_GUEST_GRACE` more once the game is
        over), and the bot pool (`parlour botpool`) fills every other seat, so the
        game starts at once. The web lobby keeps the token in `sessionStorage`.
        The operator turns this off with `PARLOUR_VISITORS=0` (403); each client
        address (an IPv6 one counted by its /64) may create
        `PARLOUR_VISITORS_PER_CLIENT` games (10) per `PARLOUR_VISITORS_PERIOD`
        seconds (3600), and at most `PARLOUR_VISITORS_MAX_LIVE` visitor games (50)
        may be unfinished at once; over either limit: 429 `rate_limited` with
        `Retry-After` (the message says which). Each seat has
        `PARLOUR_VISITORS_IDLE` seconds (600) per move (the view's `deadline`): the
        seat that lets them pass forfeits, the game is `aborted` (its `result` says
        `"termination": "forfeit"`) and its table is free. The bots are the pool's
        identities seated in the fewest games. 400 when the pool has too few bots
        for the table.
      security:
      - {}
      requestBody:
        required: true
        content:
          application/json:
            schema:
              $ref: '#/components/schemas/VisitorGameCreate'
      responses:
        '201':
          description: the spectator's view of the new game, the visitor's seat and guest token
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/VisitorGame'
        '400':
          $ref: '#/components/responses/InvalidRequest'
        '403':
          $ref: '#/components/responses/Forbidden'
        '429':
          $ref: '#/components/responses/RateLimited'
    """
    body = VisitorGameCreate().load(load_json())
    made = services().visitors.play_against_bots(request.remote_addr or "unknown", **body)
    return VisitorGame().dump(made), 201

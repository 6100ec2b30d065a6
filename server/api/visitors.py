"""``/v1/visitors``: a person with no account plays against the server's bots (docs/web.md).

Thin: the schemas of this feature, one service call each
(:class:`~server.services.visitors.Visitors`). The client address that the
rate limit counts is ``request.remote_addr``: behind a proxy, the operator
makes it the visitor's (docs/operations.md).
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
    return VisitorSettings().dump(services().visitors.settings())


@bp.post("/v1/visitors/games")
def create_game():
    body = VisitorGameCreate().load(load_json())
    made = services().visitors.play_against_bots(request.remote_addr or "unknown", **body)
    return VisitorGame().dump(made), 201

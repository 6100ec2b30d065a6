"""Visitors: a person with no account plays against the server's bots (docs/web.md)."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from server.services import names

from .fields import Name
from .games import View


class VisitorGameCreate(Schema):
    game = fields.String(required=True, validate=validate.Length(min=1, max=64))
    options = fields.Dict(
        keys=fields.String(),
        load_default=None,
        metadata={"description": "the game's options, as for POST /v1/games"},
    )
    name = Name(
        max_length=names.MAX_VISITOR_LENGTH,
        load_default=None,
        metadata={"description": "the visitor's name (default: You)"},
    )


class VisitorGame(Schema):
    game = fields.Nested(View, required=True)
    seat = fields.Integer(required=True, metadata={"description": "the visitor's seat (0)"})
    token = fields.String(
        required=True,
        metadata={"description": "the guest token; send it as `Authorization: Bearer`"},
    )
    expires = fields.String(required=True, metadata={"format": "date-time"})


class VisitorSettings(Schema):
    enabled = fields.Boolean(required=True)
    bots = fields.Dict(
        keys=fields.String(),
        values=fields.Integer(),
        required=True,
        metadata={"description": "per game, how many bot seats the pool can fill"},
    )

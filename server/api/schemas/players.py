"""Players: registration, the profile, token rotation."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from .fields import Boolean, Name
from .ratings import ORDINAL, _Doubt

TOKEN = "shown once: <player_id>.<secret>"


class PlayerCreate(Schema):
    name = Name(required=True)


class PlayerCreated(Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    token = fields.String(required=True, metadata={"description": TOKEN})


class TokenRotate(Schema):
    """A token rotation's body: none, ``{}``, or ``{"keep_callback": true}`` (the
    player's callback is kept, with a new secret, instead of removed)."""

    keep_callback = Boolean(load_default=False)


class TokenCallback(Schema):
    url = fields.String(required=True)
    kept = fields.Boolean(required=True)
    secret = fields.String(
        metadata={"description": "only when kept: the callback's new `cbs_` secret, shown once"}
    )


class TokenRotated(PlayerCreated):
    class Meta:
        description = "the player, its new token, and what became of its callback"

    callback = fields.Nested(
        TokenCallback,
        required=True,
        allow_none=True,
        metadata={
            "description": "null when the player had no callback; else its URL and whether "
            "it was kept (`keep_callback`, with a new signing secret shown this once) or "
            "removed with the old token"
        },
    )


class Rating(_Doubt):
    mu = fields.Float(required=True)
    sigma = fields.Float(required=True)
    ordinal = fields.Float(required=True, metadata={"description": ORDINAL})
    games = fields.Integer(
        required=True,
        validate=validate.Range(min=0),
        metadata={"description": "rated games played"},
    )


class Profile(Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    ratings = fields.Dict(
        keys=fields.String(),
        values=fields.Nested(Rating),
        required=True,
        metadata={"description": "per game the player has played rated games of"},
    )
    games = fields.List(
        fields.String(),
        required=True,
        metadata={"description": "ids of the unfinished games the player sits in"},
    )

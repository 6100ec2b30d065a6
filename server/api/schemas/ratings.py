"""Ratings: a game's leaderboard (openskill)."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from .fields import house


class _Row(Schema):
    rank = fields.Integer(required=True, validate=validate.Range(min=1))
    player_id = fields.String(required=True)
    name = fields.String(required=True, allow_none=True)
    house = house()
    mu = fields.Float(required=True)
    sigma = fields.Float(required=True)
    ordinal = fields.Float(required=True)
    games = fields.Integer(required=True, validate=validate.Range(min=0))
    low = fields.Float(
        required=True, metadata={"description": "mu - 2 sigma: the skill's 95% interval, low end"}
    )
    high = fields.Float(
        required=True, metadata={"description": "mu + 2 sigma: the skill's 95% interval, high end"}
    )
    provisional = fields.Boolean(
        required=True,
        metadata={"description": "sigma above 4 (a new player's is 25/3): too few games to "
                  "trust the number yet"},
    )  # fmt: skip


class Leaderboard(Schema):
    game = fields.String(required=True)
    leaderboard = fields.List(fields.Nested(_Row), required=True)

"""Ratings: a game's leaderboard (openskill), and how sure each rating is."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from .fields import house

SURE = "below 25/6 (half the starting 25/3), docs/ladder.md"


class _Doubt(Schema):
    """How sure a rating is: every rating row (leaderboards, a profile) carries these."""

    provisional = fields.Boolean(
        required=True,
        metadata={"description": f"true while sigma is not yet {SURE}: too few games to trust"},
    )
    low = fields.Float(
        required=True,
        metadata={"description": "mu - 1.96 sigma: the 95% interval's low end"},
    )
    high = fields.Float(
        required=True,
        metadata={"description": "mu + 1.96 sigma: the 95% interval's high end"},
    )


ORDINAL = (
    "mu - 3 sigma, what the leaderboard orders by: a conservative estimate, the skill "
    "is above it with 99.87% probability under the model"
)


class _Row(_Doubt):
    rank = fields.Integer(required=True, validate=validate.Range(min=1))
    player_id = fields.String(required=True)
    name = fields.String(required=True, allow_none=True)
    house = house()
    mu = fields.Float(required=True)
    sigma = fields.Float(required=True)
    ordinal = fields.Float(required=True, metadata={"description": ORDINAL})
    games = fields.Integer(required=True, validate=validate.Range(min=0))


class Leaderboard(Schema):
    game = fields.String(required=True)
    leaderboard = fields.List(fields.Nested(_Row), required=True)


class _RatingNow(_Doubt):
    mu = fields.Float(required=True)
    sigma = fields.Float(required=True)
    ordinal = fields.Float(required=True, metadata={"description": ORDINAL})
    games = fields.Integer(required=True, validate=validate.Range(min=0))


class _HistoryRow(_Doubt):
    at = fields.String(required=True, metadata={"description": "when it was rated (ISO-8601)"})
    event = fields.String(
        required=True, metadata={"description": "the rating event: `<tournament id>:<key>`"}
    )
    game_ids = fields.List(
        fields.String(),
        required=True,
        metadata={"description": "the games it rated (empty: a duplicate board's direction)"},
    )
    mu = fields.Float(required=True)
    sigma = fields.Float(required=True)
    ordinal = fields.Float(required=True, metadata={"description": ORDINAL})


class RatingHistory(Schema):
    game = fields.String(required=True)
    player_id = fields.String(required=True)
    name = fields.String(required=True, allow_none=True)
    house = house()
    rating = fields.Nested(_RatingNow, required=True)
    history = fields.List(
        fields.Nested(_HistoryRow),
        required=True,
        metadata={"description": "newest first, its latest 500 rated games"},
    )

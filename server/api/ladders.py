"""``/v1/ladders``: define (admin), list and show ladders, join and leave, the leaderboard,
and one entry's health and history (docs/ladder.md)."""

from __future__ import annotations

from flask import Blueprint, g, request
from marshmallow import EXCLUDE, Schema, fields, validate

from server.services.names import MAX_TITLE_LENGTH

from . import schemas
from .context import load_json, requires_token, services

bp = Blueprint("ladders", __name__)


class LadderCreate(Schema):
    game = fields.String(required=True, validate=validate.Length(min=1, max=64))
    options = fields.Dict(keys=fields.String(), load_default=None)
    table_size = fields.Integer(strict=True, validate=validate.Range(min=2, max=8))
    side_size = fields.Integer(strict=True, validate=validate.Range(min=1, max=4))
    duplicate = schemas.Boolean()
    name = schemas.Name(max_length=MAX_TITLE_LENGTH)
    clock = fields.Nested(schemas.Clock)
    timeout_policy = fields.Nested(schemas.TimeoutPolicy)
    max_games = fields.Integer(strict=True, validate=validate.Range(min=1, max=64))
    provisional_games = fields.Integer(strict=True, validate=validate.Range(min=0, max=1000))
    pause_after = fields.Integer(strict=True, validate=validate.Range(min=1, max=100))
    pause_seconds = fields.Float(validate=validate.Range(min=0, max=86400 * 7))
    seen_seconds = fields.Float(validate=validate.Range(min=0.1, max=3600))
    rematch_seconds = fields.Float(validate=validate.Range(min=0, max=3600))
    sides = fields.String(validate=validate.OneOf(["solo", "fixed"]))


class EntryQuery(Schema):
    """The player to take out: the caller itself when left out (the admin names one)."""

    class Meta:
        unknown = EXCLUDE

    player_id = fields.String(validate=validate.Length(min=1, max=64), load_default=None)


class EntryBody(Schema):
    """The player to enter (as :class:`EntryQuery`) and, on a ladder of fixed pairs, its
    partner (the pair plays once the partner joins naming it back)."""

    player_id = fields.String(validate=validate.Length(min=1, max=64), load_default=None)
    partner = fields.String(validate=validate.Length(min=1, max=64), load_default=None)
    max_games = fields.Integer(
        strict=True, validate=validate.Range(min=1, max=64), load_default=None, allow_none=True
    )


ladder_create = LadderCreate()
entry_body = EntryBody()
entry_query = EntryQuery()


@bp.get("/v1/ladders")
def index():
    return services().ladders.list_ladders()


@bp.post("/v1/ladders")
@requires_token
def create():
    body = ladder_create.load(load_json())
    return services().ladders.create(g.token, **body), 201


@bp.get("/v1/ladders/<ladder_id>")
def show(ladder_id: str):
    return services().ladders.show(ladder_id)


@bp.post("/v1/ladders/<ladder_id>/entries")
@requires_token
def join(ladder_id: str):
    body = entry_body.load(load_json())
    joined = services().ladders.join(
        g.token, ladder_id, body["player_id"], body["partner"], max_games=body["max_games"]
    )
    return joined, 201


@bp.delete("/v1/ladders/<ladder_id>/entries")
@requires_token
def leave(ladder_id: str):
    query = entry_query.load(request.args)
    return services().ladders.leave(g.token, ladder_id, query["player_id"])


@bp.get("/v1/ladders/<ladder_id>/entries/<player_id>")
def entry(ladder_id: str, player_id: str):
    return services().ladders.entry(ladder_id, player_id)


@bp.get("/v1/ladders/<ladder_id>/leaderboard")
def leaderboard(ladder_id: str):
    return services().ladders.leaderboard(ladder_id)

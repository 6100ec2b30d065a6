"""Tournaments: creation, entries, clocks, standings, leaderboards."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from server.services import names

from .fields import Name, _Query


class Clock(Schema):
    move_seconds = fields.Float(required=True, validate=validate.Range(min=0.05, max=86400))
    bank_ms = fields.Integer(
        strict=True, validate=validate.Range(min=0, max=86_400_000), load_default=None
    )


class TimeoutPolicy(Schema):
    """``{"kind": "default_move"}`` or ``{"kind": "forfeit", "after": N}`` (N >= 1)."""

    kind = fields.String(required=True, validate=validate.OneOf(["default_move", "forfeit"]))
    after = fields.Integer(strict=True, validate=validate.Range(min=1, max=1000))

    @validates_schema
    def _after_goes_with_forfeit(self, data: dict[str, Any], **kwargs: Any) -> None:
        if data.get("kind") == "forfeit" and "after" not in data:
            raise ValidationError("forfeit needs 'after': the timeout that forfeits", "after")
        if data.get("kind") == "default_move" and "after" in data:
            raise ValidationError("only the forfeit policy takes 'after'", "after")


class TournamentCreate(Schema):
    game = fields.String(required=True, validate=validate.Length(min=1, max=64))
    format = fields.String(
        required=True, validate=validate.OneOf(["round_robin", "swiss", "knockout", "duplicate"])
    )
    options = fields.Dict(keys=fields.String(), load_default=None)
    rounds = fields.Integer(strict=True, validate=validate.Range(min=1, max=100), load_default=None)
    boards_per_match = fields.Integer(
        strict=True, validate=validate.Range(min=1, max=20), load_default=None
    )
    seats_per_entry = fields.Integer(
        strict=True, validate=validate.Range(min=1, max=8), load_default=None
    )
    min_table_size = fields.Integer(
        strict=True, validate=validate.Range(min=2, max=5), load_default=None
    )
    clock = fields.Nested(Clock, load_default=None)
    timeout_policy = fields.Nested(TimeoutPolicy, load_default=None)
    name = Name(max_length=names.MAX_TITLE_LENGTH, load_default=None)


class EntryCreate(Schema):
    players = fields.List(
        fields.String(validate=validate.Length(min=1, max=32)),
        required=True,
        validate=validate.Length(min=1, max=8),
        metadata={"description": "one player id per seat of the entry's side, in seat order"},
    )


class Empty(Schema):
    """A body that carries nothing (``POST .../start``): ``{}`` or no body at all."""


class TournamentsQuery(_Query):
    limit = fields.Integer(validate=validate.Range(min=1, max=100), load_default=20)


class TournamentList(Schema):
    tournaments = fields.Raw()


class Tournament(Schema):
    """A tournament: settings, entries, rounds (tables, game ids, results), standings."""

    id = fields.String()
    name = fields.String()
    game = fields.String()
    options = fields.Raw()
    format = fields.String()
    status = fields.String()
    created_by = fields.String()
    clock = fields.Raw()
    timeout_policy = fields.Raw()
    seats_per_entry = fields.Raw()
    table_size = fields.Raw()
    min_table_size = fields.Raw()
    rounds_planned = fields.Raw()
    boards_per_match = fields.Raw()
    created = fields.Raw()
    started = fields.Raw()
    finished = fields.Raw()
    error = fields.Raw()
    consented = fields.Boolean()
    progress = fields.Raw()
    entries = fields.Raw()
    rounds = fields.Raw()
    standings = fields.Raw()


class EntryCreated(Schema):
    id = fields.String()
    seed = fields.Integer()
    players = fields.Raw()
    pending = fields.List(fields.String())


class Standings(Schema):
    id = fields.String()
    status = fields.String()
    standings = fields.Raw()


tournaments_query = TournamentsQuery()


tournament_list = TournamentList()


tournament_create = TournamentCreate()


entry_create = EntryCreate()


empty = Empty()


tournament = Tournament()


entry_created = EntryCreated()


standings = Standings()

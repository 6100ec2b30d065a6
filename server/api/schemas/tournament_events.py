"""An organiser's event: the roster, voided tables, and the sheets people read
(standings with their tie-breaks, the cross-table, every game)."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from .fields import Name, Number, _Query
from .tournaments import (
    FORMATS,
    TABLE_STATUSES,
    EntryCreated,
    Standing,
    Tournament,
    TournamentProgress,
    _status,
    _tiebreaks,
)

__all__ = [
    "JoinCode", "CrossCell", "CrossResult", "CrossRow", "GameRow", "RosterCreate", "RosterCreated",
    "RosterEntry", "RosterPlayer", "RosterRow", "SheetQuery", "Sheets", "VoidTables", "Voided",
]  # fmt: skip


class RosterRow(Schema):
    name = Name(required=True)
    team = Name(load_default=None, metadata={"description": "rows of one team: one entry"})


class RosterCreate(Schema):
    players = fields.List(
        fields.Nested(RosterRow), load_default=None, validate=validate.Length(max=200)
    )
    csv = fields.String(
        load_default=None,
        validate=validate.Length(max=64 * 1024),
        metadata={"description": "a header with `name` (and `team`), a row each"},
    )


class RosterPlayer(Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    token = fields.String(required=True, metadata={"description": "shown this once"})


class RosterEntry(Schema):
    entry = fields.Nested(EntryCreated, required=True)
    players = fields.List(fields.Nested(RosterPlayer), required=True)


class RosterCreated(Schema):
    id = fields.String(required=True)
    entries = fields.List(fields.Nested(RosterEntry), required=True)


class JoinCode(Schema):
    id = fields.String(required=True)
    code = fields.String(required=True, metadata={"description": "shown this once"})


class VoidTables(Schema):
    tables = fields.List(
        fields.Integer(strict=True, validate=validate.Range(min=0, max=1000)),
        load_default=None,
        validate=validate.Length(min=1, max=100),
        metadata={"description": "the tables to void (left out: every table of the round)"},
    )


class Voided(Schema):
    voided = fields.List(fields.String(), required=True, metadata={"description": "game ids"})
    tournament = fields.Nested(Tournament, required=True)


class CrossResult(Schema):
    round = fields.Integer(required=True)
    game_id = fields.String(required=True, allow_none=True)
    mark = fields.String(required=True, validate=validate.OneOf(["1", "½", "0"]))


class CrossCell(Schema):
    opponent = fields.String(required=True)
    games = fields.Integer(required=True)
    points = Number(required=True, metadata={"description": "1 above, ½ level, 0 below"})
    results = fields.List(fields.Nested(CrossResult), required=True)


class CrossRow(Schema):
    entry = fields.String(required=True)
    cells = fields.List(fields.Nested(CrossCell), required=True)
    byes = Number(
        required=True,
        metadata={
            "description": "points from byes: ½ each in a round robin or duplicate, 1 in swiss"
        },
    )
    total = Number(required=True, metadata={"description": "the standings' points, byes included"})


class GameRow(Schema):
    round = fields.Integer(required=True)
    table = fields.Integer(required=True)
    board = fields.Integer(required=True, allow_none=True)
    game_id = fields.String(required=True, allow_none=True)
    status = fields.String(required=True, validate=validate.OneOf(TABLE_STATUSES))
    entries = fields.List(fields.String(), required=True)
    names = fields.List(fields.String(), required=True)
    scores = fields.List(Number(), required=True, allow_none=True)
    ranks = fields.List(fields.Integer(), required=True, allow_none=True)
    forfeit = fields.String(required=True, allow_none=True)
    voided = fields.List(fields.String(), required=True, metadata={"description": "game ids"})


class Sheets(Schema):
    """The standings with their tie-breaks, the cross-table and every game."""

    id = fields.String(required=True)
    name = fields.String(required=True)
    game = fields.String(required=True)
    format = fields.String(required=True, validate=validate.OneOf(FORMATS))
    status = _status()
    progress = fields.Nested(TournamentProgress, required=True)
    tiebreaks = _tiebreaks()
    standings = fields.List(fields.Nested(Standing), required=True)
    crosstable = fields.List(fields.Nested(CrossRow), required=True)
    games = fields.List(fields.Nested(GameRow), required=True)


class SheetQuery(_Query):
    part = fields.String(
        load_default="standings", validate=validate.OneOf(["standings", "crosstable", "games"])
    )

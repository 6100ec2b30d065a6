"""Tournaments: creation, entries, clocks, rounds, standings; the ratings' leaderboards."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from server.services import names

from .fields import DATE_TIME, EXAMPLE_GAME, Name, Number, _Query, house

FORMATS = ("round_robin", "swiss", "knockout", "duplicate")
TOURNAMENT_STATUSES = ("open", "running", "finished", "aborted")
TABLE_STATUSES = ("pending", "playing", "finished", "forfeited")


class Clock(Schema):
    move_seconds = fields.Float(
        required=True,
        validate=validate.Range(min=0.05, max=86400),
        metadata={"description": "each move's time, from the start of the seat's turn"},
    )
    bank_ms = fields.Integer(
        strict=True,
        validate=validate.Range(min=0, max=86_400_000),
        load_default=None,
        metadata={
            "description": "each seat's time bank for a game, in milliseconds (default 0, "
            "none): a move may run past `move_seconds`, and the overrun is taken from the "
            "bank; a timeout spends the rest of it"
        },
    )


class _DefaultMovePolicy(Schema):
    """:class:`TimeoutPolicy`'s first kind, as the spec states it."""

    kind = fields.String(required=True, metadata={"const": "default_move"})


class _ForfeitPolicy(Schema):
    """:class:`TimeoutPolicy`'s second kind, as the spec states it."""

    kind = fields.String(required=True, metadata={"const": "forfeit"})
    after = fields.Integer(
        required=True,
        validate=validate.Range(min=1, max=1000),
        metadata={"description": "the seat's timeout that forfeits"},
    )


class TimeoutPolicy(Schema):
    """``{"kind": "default_move"}`` or ``{"kind": "forfeit", "after": N}`` (N >= 1).

    The spec says it as one of its two kinds (``Meta.one_of``), which is what this
    schema's fields and rule accept."""

    class Meta:
        one_of = (_DefaultMovePolicy, _ForfeitPolicy)

    kind = fields.String(required=True, validate=validate.OneOf(["default_move", "forfeit"]))
    after = fields.Integer(strict=True, validate=validate.Range(min=1, max=1000))

    @validates_schema
    def _after_goes_with_forfeit(self, data: dict[str, Any], **kwargs: Any) -> None:
        if data.get("kind") == "forfeit" and "after" not in data:
            raise ValidationError("forfeit needs 'after': the timeout that forfeits", "after")
        if data.get("kind") == "default_move" and "after" in data:
            raise ValidationError("only the forfeit policy takes 'after'", "after")


class TournamentCreate(Schema):
    """A tournament's settings (``POST /v1/tournaments``).

    Two rules between fields are the use case's (400 ``invalid_request`` naming the
    field): ``rounds`` is not for a knockout, ``boards_per_match`` only for duplicate;
    ``Meta.json_schema`` states them in the spec too."""

    class Meta:
        json_schema = {
            "allOf": [
                {
                    "if": {"required": ["format"], "properties": {"format": {"const": "knockout"}}},
                    "then": {"properties": {"rounds": {"type": "null"}}},
                },
                {
                    "if": {
                        "required": ["format"],
                        "properties": {"format": {"not": {"const": "duplicate"}}},
                    },
                    "then": {"properties": {"boards_per_match": {"type": "null"}}},
                },
            ]
        }

    game = fields.String(
        required=True,
        validate=validate.Length(min=1, max=64),
        metadata={"examples": [EXAMPLE_GAME]},
    )
    format = fields.String(
        load_default=None,
        validate=validate.OneOf(FORMATS),
        metadata={
            "description": "left out: duplicate for a game of two sides (a partnership "
            "game), round_robin otherwise"
        },
    )
    options = fields.Dict(
        keys=fields.String(),
        load_default=None,
        metadata={"description": "the game's options for every table"},
    )
    rounds = fields.Integer(
        strict=True,
        validate=validate.Range(min=1, max=100),
        load_default=None,
        metadata={"description": "not for knockout"},
    )
    boards_per_match = fields.Integer(
        strict=True,
        validate=validate.Range(min=1, max=20),
        load_default=None,
        metadata={"description": "duplicate only"},
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
    name = Name(load_default=None, metadata={"description": "the entry's team name"})
    code = fields.String(
        load_default=None,
        validate=validate.Length(min=1, max=64),
        metadata={"description": "the tournament's join code, where its organiser set one"},
    )


class Empty(Schema):
    """A body that carries nothing (``POST .../start``): ``{}`` or no body at all."""


class TournamentsQuery(_Query):
    limit = fields.Integer(validate=validate.Range(min=1, max=100), load_default=20)


# -- answers --------------------------------------------------------------------------------
class EntryPlayer(Schema):
    id = fields.String(required=True)
    name = fields.String(required=True, allow_none=True)
    house = house()


class TournamentEntry(Schema):
    """An entry of a tournament: its seed and players (those yet to accept: ``pending``)."""

    id = fields.String(required=True, metadata={"examples": ["e1"]})
    seed = fields.Integer(required=True, validate=validate.Range(min=1))
    name = fields.String(required=True, allow_none=True, metadata={"description": "team name"})
    reference = fields.Boolean(
        required=True, metadata={"description": "a house bot the organiser invited: unrated"}
    )
    withdrawn = fields.Boolean(load_default=False, metadata={"description": "it withdrew"})
    players = fields.List(fields.Nested(EntryPlayer), required=True)
    pending = fields.List(fields.String(), required=True, metadata={"description": "yet to accept"})


class EntryCreated(TournamentEntry):
    withdrawn = fields.Boolean(load_default=False)
    pending = fields.List(
        fields.String(),
        required=True,
        metadata={"description": "players invited, yet to accept"},
    )


class TableResult(Schema):
    class Meta:
        description = "by table position (the order of `entries`)"

    scores = fields.List(Number(), required=True)
    winners = fields.List(fields.Integer(), required=True)
    ranks = fields.List(
        fields.Integer(), required=True, metadata={"description": "0 = first; ties share"}
    )
    forfeit = fields.String(
        required=True, allow_none=True, metadata={"description": "the entry that forfeited"}
    )


class TournamentTable(Schema):
    table = fields.Integer(required=True, validate=validate.Range(min=0))
    entries = fields.List(
        fields.String(), required=True, metadata={"description": "entries by position"}
    )
    seats = fields.List(
        fields.String(), required=True, metadata={"description": "the entry holding each seat"}
    )
    board = fields.Integer(
        required=True,
        allow_none=True,
        metadata={"description": "duplicate board (same deal at every table of the board)"},
    )
    game_id = fields.String(required=True, allow_none=True)
    status = fields.String(required=True, validate=validate.OneOf(TABLE_STATUSES))
    result = fields.Nested(
        TableResult,
        required=True,
        allow_none=True,
        metadata={
            "description": "null until the table is over; at a duplicate board, until every "
            "table of the board is over (the table then shows `finished`, even when "
            "forfeited): its scores would tell of the deal the others are playing"
        },
    )


class TournamentRound(Schema):
    index = fields.Integer(required=True, validate=validate.Range(min=0))
    byes = fields.List(fields.String(), required=True)
    tables = fields.List(fields.Nested(TournamentTable), required=True)


class Interval(Schema):
    low = Number(required=True)
    high = Number(required=True)


class OrderOdds(Schema):
    p_order_right = Number(
        required=True,
        validate=validate.Range(min=0, max=1),
        metadata={"description": "the chance this entry's true points per game beat the next's"},
    )
    more_games = fields.Integer(
        required=True,
        allow_none=True,
        metadata={
            "description": "about how many more games each would make it 95% (0: settled; "
            "null: equal means, no number would)"
        },
    )


class Standing(Schema):
    rank = fields.Integer(required=True, validate=validate.Range(min=1))
    entry = fields.String(required=True)
    name = fields.String(
        required=True, metadata={"description": "its team name, else its players' names joined"}
    )
    withdrawn = fields.Boolean(required=True)
    reference = fields.Boolean(required=True)
    interval = fields.Nested(
        Interval,
        required=True,
        allow_none=True,
        metadata={"description": "95% interval of its points per game (null below two games)"},
    )
    next = fields.Nested(
        OrderOdds,
        required=True,
        allow_none=True,
        metadata={"description": "how sure its place above the next row is (null: last row)"},
    )
    players = fields.List(fields.String(), required=True)
    names = fields.List(fields.String(allow_none=True), required=True)
    points = Number(required=True)
    played = fields.Integer(required=True)
    byes = fields.Integer(required=True)
    head_to_head = Number(required=True)
    score_difference = Number(required=True)
    buchholz = Number(required=True, allow_none=True, metadata={"description": "swiss only"})
    eliminated_in = fields.Integer(
        required=True, allow_none=True, metadata={"description": "knockout: the round lost in"}
    )
    house = house()


def _status() -> fields.String:
    """A tournament's status."""
    return fields.String(required=True, validate=validate.OneOf(TOURNAMENT_STATUSES))


def _tiebreaks() -> fields.List:
    return fields.List(
        fields.String(),
        required=True,
        metadata={"description": "the standings' order: these keys, first to last"},
    )


class Standings(Schema):
    id = fields.String(required=True)
    status = _status()
    tiebreaks = _tiebreaks()
    standings = fields.List(fields.Nested(Standing), required=True)


class TournamentSummary(Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    game = fields.String(required=True)
    format = fields.String(required=True, validate=validate.OneOf(FORMATS))
    status = _status()
    created = fields.String(required=True, metadata=DATE_TIME)
    entries = fields.Integer(required=True, validate=validate.Range(min=0))
    rounds = fields.Integer(
        required=True,
        validate=validate.Range(min=0),
        metadata={"description": "rounds paired so far"},
    )
    leaders = fields.List(
        fields.Nested(Standing),
        required=True,
        metadata={"description": "the standings' rank-1 rows"},
    )


class TournamentList(Schema):
    tournaments = fields.List(fields.Nested(TournamentSummary), required=True)


class TournamentProgress(Schema):
    rounds = fields.Integer(required=True, metadata={"description": "rounds paired so far"})
    games_planned = fields.Integer(
        required=True, allow_none=True, metadata={"description": "known from the start"}
    )
    games_started = fields.Integer(required=True)
    games_finished = fields.Integer(required=True)


class Tournament(Schema):
    """A tournament: settings, entries, rounds (tables, game ids, results), standings."""

    id = fields.String(required=True)
    name = fields.String(required=True)
    game = fields.String(required=True)
    options = fields.Dict(keys=fields.String(), required=True)
    format = fields.String(required=True, validate=validate.OneOf(FORMATS))
    status = _status()
    created_by = fields.String(required=True, metadata={"description": "a player id, or admin"})
    clock = fields.Nested(Clock, required=True)
    timeout_policy = fields.Nested(TimeoutPolicy, required=True)
    seats_per_entry = fields.Integer(
        required=True, allow_none=True, metadata={"description": "null until fixed"}
    )
    table_size = fields.Integer(
        required=True, allow_none=True, metadata={"description": "entries per table"}
    )
    min_table_size = fields.Integer(required=True, allow_none=True)
    rounds_planned = fields.Integer(
        required=True, allow_none=True, metadata={"description": "null for a knockout"}
    )
    boards_per_match = fields.Integer(required=True, allow_none=True)
    created = fields.String(required=True, metadata=DATE_TIME)
    started = fields.String(required=True, allow_none=True, metadata=DATE_TIME)
    finished = fields.String(required=True, allow_none=True, metadata=DATE_TIME)
    error = fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "why an aborted tournament stopped"},
    )
    consented = fields.Boolean(
        required=True,
        metadata={
            "description": "started with every entry accepted by all its players; only then rated"
        },
    )
    progress = fields.Nested(TournamentProgress, required=True)
    registration = fields.String(required=True, validate=validate.OneOf(["open", "closed"]))
    join_code = fields.Boolean(
        required=True, metadata={"description": "a player entering itself must give the code"}
    )
    entries = fields.List(fields.Nested(TournamentEntry), required=True)
    rounds = fields.List(fields.Nested(TournamentRound), required=True)
    tiebreaks = _tiebreaks()
    standings = fields.List(fields.Nested(Standing), required=True)


# The organiser's schemas (roster, void, sheets) are their own module, read in here so
# that ``schemas`` has them like every other: they use the answers above.
from .tournament_events import *  # noqa: E402, F403

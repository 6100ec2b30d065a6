"""Games: creation, seats, moves, views, events, turns, the rules (replays, frames and the
lobby's list: :mod:`.replays`).

A field whose ``metadata`` names a ``component`` (:func:`.fields.ref`) is that shape of
the games' wires (the games' ``Move``, a ``Seat``, a ``Card``). ``View`` and ``Event``
dump every view and event, and are the envelopes the spec expands per game and per kind
(server/api/openapi.py's ``EXPANDED``); :data:`SERVER_EVENTS` are the ``data`` of the
kinds the server itself emits.
"""

from __future__ import annotations

from marshmallow import INCLUDE, Schema, fields, validate

from .fields import CARD, DATE_TIME, EVENT_NUMBER, EXAMPLE_GAME, Boolean, _Query, house, ref

STATUS = validate.OneOf(["waiting", "active", "finished", "aborted"])
COMMITMENT = validate.Regexp(r"^[0-9a-f]{64}$")


class MoveShape(Schema):
    """A move: its ``type`` and, for card games, a well-formed card string."""

    class Meta:
        unknown = INCLUDE  # other fields are the engine's to accept or refuse

    type = fields.String(required=True, validate=validate.Length(min=1, max=32))
    card = fields.String(validate=CARD)


class MoveRequest(Schema):
    move = fields.Nested(MoveShape, required=True, metadata=ref("Move"))
    version = fields.Integer(strict=True, validate=validate.Range(min=0))
    seat = fields.Integer(strict=True, validate=validate.Range(min=0, max=15))


class Deal(Schema):
    """What a preset deal says; the game's engine reads and checks it (the body's
    ``deals`` are loaded as objects, each game's presets checked by its rules)."""

    class Meta:
        unknown = INCLUDE
        description = (
            "a preset deal: its `hands` and, where the game has one, its `dealer`; each "
            "game checks its own presets and may take more fields (Pinochle's `turn_up`, "
            "Cowpoke's `dummy` and `stack`: the game's rules page)"
        )

    dealer = fields.Integer(metadata=ref("Seat"))
    hands = fields.List(
        fields.List(fields.String(metadata=ref("Card"))),
        required=True,
        metadata={"description": "one hand per seat, in seat order"},
    )


class GameCreate(Schema):
    game = fields.String(
        required=True,
        validate=validate.Length(min=1, max=64),
        metadata={
            "description": "a game id of GET /v1/rules (another is refused, 400 invalid_request)",
            "examples": [EXAMPLE_GAME],
        },
    )
    options = fields.Dict(
        keys=fields.String(),
        load_default=None,
        metadata={
            "description": "game options, see GET /v1/rules (Concerto: rules, deals, target, "
            "first_dealer, match_target)"
        },
    )
    seats = fields.List(
        fields.String(allow_none=True, validate=validate.Length(min=1, max=32)),
        validate=validate.Length(min=1, max=16),
        load_default=None,
        metadata={
            "description": "who sits where, one entry per seat; the game's seat count (GET "
            "/v1/rules) bounds the list further (another length is refused, 400 invalid_request)"
        },
    )
    allow_multiple_seats = Boolean(load_default=False)
    deals = fields.List(
        fields.Dict(metadata=ref("Deal")),
        validate=validate.Length(min=1, max=100),
        load_default=None,
        metadata={"description": "admin only; presets the first deals exactly"},
    )
    seed = fields.String(
        validate=validate.Length(min=1, max=256),
        load_default=None,
        metadata={"description": "admin only; the deal seed"},
    )


class Join(Schema):
    seat = fields.Integer(
        strict=True,
        validate=validate.Range(min=0, max=15),
        load_default=None,
        metadata={
            "description": "the seat to take; below the game's seat count (another is "
            "refused, 400 invalid_request)"
        },
    )


SEAT = {
    "description": "which of the caller's seats to speak for (players holding several); "
    "below the game's seat count (another is refused, 400 invalid_request)"
}
WAIT = {"description": "seconds to wait for something new (capped by the server)"}


class SeatQuery(_Query):
    seat = fields.Integer(validate=validate.Range(min=0, max=15), load_default=None, metadata=SEAT)


class EventsQuery(SeatQuery):
    after = fields.Integer(
        validate=EVENT_NUMBER,
        load_default=0,
        metadata={"description": "events numbered above this one (the last answer's `last`)"},
    )
    wait = fields.Float(validate=validate.Range(min=0), load_default=0.0, metadata=WAIT)


class WaitQuery(_Query):
    wait = fields.Float(validate=validate.Range(min=0), load_default=0.0, metadata=WAIT)


class GamesQuery(_Query):
    status = fields.String(validate=validate.OneOf(["live", "finished"]), load_default="live")
    limit = fields.Integer(validate=validate.Range(min=1, max=100), load_default=50)
    created_by = fields.String(
        validate=validate.Length(min=1, max=64),
        load_default=None,
        metadata={
            "description": "only this creator's live games (a player id, an app id, `admin`, "
            "`scheduler`)"
        },
    )


class ArchiveQuery(_Query):
    """``GET /v1/archive``: the games (exactly one of ladder, tournament, since; the
    use case says so), the page."""

    ladder = fields.String(
        validate=validate.Length(min=1, max=64),
        load_default=None,
        metadata={"description": "a ladder's id"},
    )
    tournament = fields.String(
        validate=validate.Length(min=1, max=64),
        load_default=None,
        metadata={"description": "a tournament's id"},
    )
    since = fields.AwareDateTime(
        load_default=None,
        metadata={
            "description": "games that ended at or after this time (ISO 8601 with an offset)"
        },
    )
    until = fields.AwareDateTime(
        load_default=None,
        metadata={"description": "with `since`, games that ended before this time"},
    )
    cursor = fields.String(
        validate=validate.Length(min=1, max=200),
        load_default=None,
        metadata={"description": "where the previous page stopped (from its `Link` header)"},
    )
    limit = fields.Integer(validate=validate.Range(min=1, max=50), load_default=20)


class Result(Schema):
    class Meta:
        unknown = INCLUDE
        nullable = True  # every use of it allows null: no result yet

    termination = fields.String(
        required=True,
        metadata={
            "description": "the engine's reason, or `forfeit` for a game aborted by a forfeit"
        },
    )
    scores = fields.List(fields.Integer(), required=True)
    winners = fields.List(fields.Integer(metadata=ref("Seat")), required=True)
    forfeit = fields.Integer(
        metadata=ref(
            "Seat",
            description="the seat that forfeited (then `scores` are those when the game stopped)",
        )
    )


class SeatEntry(Schema):
    """A seat of a game as every game resource lists it."""

    seat = fields.Integer(required=True, metadata=ref("Seat"))
    name = fields.String(required=True, allow_none=True)
    player_id = fields.String(required=True, allow_none=True)
    house = house()


DUPLICATE_STATE = """\
the public state; null (and no `hand`) at a duplicate board's table that
ended before another table of its board, until every table is over
(docs/api.md, "Duplicate boards")
"""
DEADLINE = """\
clocked (tournament) games: your deadline when you are to move, else the
earliest deadline of the seats to move; null otherwise
"""


def seats() -> fields.Nested:
    """A game's seats, as every game resource lists them."""
    return fields.Nested(SeatEntry, many=True, required=True)


class View(Schema):
    """docs/api.md#games-and-views: the record's fields plus the engine's filtered view;
    the spec's ``<Game>View`` per game (``game`` its id, ``state`` and ``legal_moves`` the
    game's wire's) and ``View`` the union of them."""

    id = fields.String(required=True)
    game = fields.String(required=True)
    options = fields.Dict(required=True)
    status = fields.String(required=True, validate=STATUS)
    version = fields.Integer(
        required=True,
        validate=validate.Range(min=0),
        metadata={"description": "+1 on every accepted action"},
    )
    seats = seats()
    you = fields.Integer(required=True, allow_none=True, validate=validate.Range(min=0))
    to_move = fields.List(fields.Integer(metadata=ref("Seat")), required=True)
    legal_moves = fields.List(
        fields.Raw(metadata=ref("Move")),
        required=True,
        metadata={"description": "non-empty only when you are to move"},
    )
    hand = fields.List(
        fields.String(metadata=ref("Card")),
        metadata={"description": "your cards; absent for spectators"},
    )
    scores = fields.List(
        fields.Integer(),
        required=True,
        metadata={"description": "per seat; in partnership games each seat shows its side's score"},
    )
    deadline = fields.String(
        required=True, allow_none=True, metadata={**DATE_TIME, "description": DEADLINE}
    )
    deal_commitment = fields.String(required=True, validate=COMMITMENT)
    state = fields.Raw(required=True, allow_none=True, metadata={"description": DUPLICATE_STATE})
    result = fields.Nested(Result, required=True)


view = View()


class Event(Schema):
    """Something that happened in a game, as the caller may see it: the spec's
    ``<Kind>Event`` per kind (``kind`` a const, ``data`` the kind's: the games' wires',
    :data:`SERVER_EVENTS`) and ``Event`` the union of them."""

    class Meta:
        description = "something that happened in a game; `data` by `kind`"

    seq = fields.Integer(
        required=True,
        validate=validate.Range(min=1),
        metadata={"description": "the event's number in the game"},
    )
    version = fields.Integer(
        required=True,
        validate=validate.Range(min=0),
        metadata={"description": "the game version it belongs to"},
    )
    kind = fields.String(required=True)
    data = fields.Dict(required=True)
    visible_to = fields.List(
        fields.Integer(metadata=ref("Seat")),
        allow_none=True,
        metadata={"description": "in finished replays only; null means public"},
    )


class _TimeoutData(Schema):
    class Meta:
        description = "the clock decided a seat's move"

    seat = fields.Integer(required=True, metadata=ref("Seat"))
    timeouts = fields.Integer(required=True, metadata={"description": "the seat's timeouts so far"})
    action = fields.String(required=True)


SERVER_EVENTS: dict[str, type[Schema]] = {"timeout": _TimeoutData}
"""The ``data`` of each event kind the server itself emits (docs/api.md, "Events"), by
kind; each game's kinds are on its wire (server/games/kit/wire.py)."""


def events() -> fields.Nested:
    """Events as the caller may see them (dumped as one list: ``many``, ten times cheaper
    than a ``List`` of them one by one)."""
    return fields.Nested(Event, many=True, required=True)


class Events(Schema):
    events = events()
    last = fields.Integer(
        required=True,
        validate=validate.Range(min=0),
        metadata={"description": "pass as the next `after`"},
    )


class TurnClock(Schema):
    class Meta:
        description = (
            "the seat's clock as its turn tells it; every field is null in an unclocked game"
        )

    deadline = fields.String(
        required=True,
        allow_none=True,
        metadata={
            "format": "date-time",
            "description": "when the move is due: the turn's start + the per-move time + the "
            "bank left (the view's `deadline`); a move after it is refused and the clock's "
            "default move is made",
        },
    )
    bank_ms = fields.Integer(
        required=True,
        allow_none=True,
        validate=validate.Range(min=0),
        metadata={"description": "the seat's time bank left, in milliseconds"},
    )
    last_latency_ms = fields.Integer(
        required=True,
        allow_none=True,
        validate=validate.Range(min=0),
        metadata={
            "description": "the seat's last move in this game: milliseconds from the start of "
            "its turn to the move's commit (null before its first move)"
        },
    )


class Turn(Schema):
    class Meta:
        description = "a game where the caller is to act, with the seat's view"

    game_id = fields.String(required=True)
    seat = fields.Integer(required=True, metadata=ref("Seat"))
    version = fields.Integer(required=True)
    view = fields.Nested(View, required=True)
    clock = fields.Nested(TurnClock, required=True)


class Turns(Schema):
    turns = fields.List(fields.Nested(Turn), required=True)


class OptionSpec(Schema):
    class Meta:
        unknown = INCLUDE

    default = fields.Raw(required=True)
    choices = fields.List(
        fields.Raw(metadata={"type": ["string", "integer"]}),
        metadata={"description": "the values the option takes"},
    )
    min = fields.Integer()
    max = fields.Integer()
    invalid = fields.String(metadata={"description": "what a refused value must be instead"})
    doc = fields.String(required=True)


class _RulesGame(Schema):
    id = fields.String(required=True)
    title = fields.String(required=True)
    seats = fields.List(fields.Integer(), required=True)
    variants = fields.List(fields.String(), required=True)
    options = fields.Dict(keys=fields.String(), values=fields.Nested(OptionSpec), required=True)


class Rules(Schema):
    games = fields.List(fields.Nested(_RulesGame), required=True)

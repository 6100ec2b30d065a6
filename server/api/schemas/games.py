"""Games: creation, seats, moves, views, events, replays, the lobby, turns."""

from __future__ import annotations

from marshmallow import INCLUDE, Schema, fields, validate

from .fields import CARD, EVENT_NUMBER, Boolean, _Query


class MoveShape(Schema):
    """A move: its ``type`` and, for card games, a well-formed card string."""

    class Meta:
        unknown = INCLUDE  # other fields are the engine's to accept or refuse

    type = fields.String(required=True, validate=validate.Length(min=1, max=32))
    card = fields.String(validate=CARD)


class MoveBody(Schema):
    move = fields.Nested(MoveShape, required=True)
    version = fields.Integer(strict=True, validate=validate.Range(min=0))
    seat = fields.Integer(strict=True, validate=validate.Range(min=0, max=15))


class GameCreate(Schema):
    game = fields.String(required=True, validate=validate.Length(min=1, max=64))
    options = fields.Dict(keys=fields.String(), load_default=None)
    seats = fields.List(
        fields.String(allow_none=True, validate=validate.Length(min=1, max=32)),
        validate=validate.Length(min=1, max=16),
        load_default=None,
    )
    allow_multiple_seats = Boolean(load_default=False)
    deals = fields.List(fields.Dict(), validate=validate.Length(min=1, max=100), load_default=None)
    seed = fields.String(validate=validate.Length(min=1, max=256), load_default=None)


class JoinBody(Schema):
    seat = fields.Integer(strict=True, validate=validate.Range(min=0, max=15), load_default=None)


class SeatQuery(_Query):
    seat = fields.Integer(validate=validate.Range(min=0, max=15), load_default=None)


class EventsQuery(SeatQuery):
    after = fields.Integer(validate=EVENT_NUMBER, load_default=0)
    wait = fields.Float(validate=validate.Range(min=0), load_default=0.0)


class WaitQuery(_Query):
    wait = fields.Float(validate=validate.Range(min=0), load_default=0.0)


class GamesQuery(_Query):
    status = fields.String(validate=validate.OneOf(["live", "finished"]), load_default="live")
    limit = fields.Integer(validate=validate.Range(min=1, max=100), load_default=50)
    created_by = fields.String(validate=validate.Length(min=1, max=64), load_default=None)


class ArchiveQuery(_Query):
    """``GET /v1/archive``: the games (exactly one of ladder, tournament, since; the
    use case says so), the page."""

    ladder = fields.String(validate=validate.Length(min=1, max=64), load_default=None)
    tournament = fields.String(validate=validate.Length(min=1, max=64), load_default=None)
    since = fields.AwareDateTime(load_default=None)
    until = fields.AwareDateTime(load_default=None)
    cursor = fields.String(validate=validate.Length(min=1, max=200), load_default=None)
    limit = fields.Integer(validate=validate.Range(min=1, max=50), load_default=20)


archive_query = ArchiveQuery()


class Rules(Schema):
    games = fields.Raw()


class View(Schema):
    """docs/api.md#games-and-views: the record's fields plus the engine's filtered view."""

    id = fields.String()
    game = fields.String()
    options = fields.Raw()
    status = fields.String()
    version = fields.Integer()
    seats = fields.Raw()
    you = fields.Raw()
    to_move = fields.Raw()
    legal_moves = fields.Raw()
    hand = fields.Raw()
    scores = fields.Raw()
    deadline = fields.Raw()
    deal_commitment = fields.String()
    state = fields.Raw()
    result = fields.Raw()


class Events(Schema):
    events = fields.Raw()
    last = fields.Integer()


class Replay(Schema):
    id = fields.String()
    game = fields.String()
    options = fields.Raw()
    status = fields.String()
    version = fields.Integer()
    seats = fields.Raw()
    deal_commitment = fields.String()
    events = fields.Raw()
    result = fields.Raw()
    revealed = fields.Raw()
    par = fields.Raw()  # per-game analysis once finished (Concerto: each deal's par)


class GameList(Schema):
    """The lobby's games: public parts only (seats, whose turn, scores, result)."""

    status = fields.String()
    games = fields.Raw()


class Frame(Schema):
    """A finished game at one version: the spectator's view and every seat's."""

    id = fields.String()
    version = fields.Integer()
    last_version = fields.Integer()
    move = fields.Raw()
    public = fields.Nested(View)
    views = fields.List(fields.Nested(View))


class Turn(Schema):
    game_id = fields.String()
    seat = fields.Integer()
    version = fields.Integer()
    view = fields.Nested(View)
    clock = fields.Raw()


class Turns(Schema):
    turns = fields.List(fields.Nested(Turn))


move_body = MoveBody()


game_create = GameCreate()


join_body = JoinBody()


seat_query = SeatQuery()


events_query = EventsQuery()


wait_query = WaitQuery()


games_query = GamesQuery()


game_list = GameList()


frame = Frame()


rules = Rules()


view = View()


events = Events()


replay = Replay()


turns = Turns()

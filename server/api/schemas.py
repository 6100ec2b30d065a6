"""marshmallow schemas: the shape of every request body and query, and of responses.

Schemas check shape only (types, required fields, ranges, the card pattern);
the engine decides legality. Instances are built once at module level. Response
schemas use ``Raw`` for game-specific parts: they are the engine's own output,
already filtered per seat, and are never re-validated (docs/operations.md).
"""

from __future__ import annotations

from typing import Any

from marshmallow import (
    EXCLUDE,
    INCLUDE,
    Schema,
    ValidationError,
    fields,
    validate,
    validates_schema,
)

from server.services import names
from server.services.errors import InvalidRequest

CARD = validate.Regexp(r"^[AKQJT98765432][SHDC]$", error="not a card (rank then suit, e.g. 'TS')")


class Boolean(fields.Boolean):
    """A JSON ``true`` or ``false`` and nothing else.

    marshmallow's own Boolean also takes ``1``, ``"yes"`` and the like, and even with
    ``truthy={True}`` it takes ``1`` and ``1.0`` (they equal ``True`` in Python).
    """

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value


# -- request bodies ------------------------------------------------------------------
class Name(fields.String):
    """A display name: :func:`server.services.names.clean_name` (NFC, stripped; no control,
    bidi or invisible characters; not blank; at most ``max_length``); the error names
    the class."""

    def __init__(self, max_length: int = names.MAX_LENGTH, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.max_length = max_length
        self.metadata = {
            "minLength": 1,
            "maxLength": max_length,
            "description": "a display name, normalised to NFC and stripped; refused (400 "
            "invalid_request naming the field and the class) when blank, with a control, "
            "bidi or invisible character, or reading as a house bot's name (look-alike "
            "letters folded by Unicode TS 39 skeletons)",
            **self.metadata,
        }

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> str:
        text = super()._deserialize(value, attr, data, **kwargs)
        try:
            return names.clean_name(text, max_length=self.max_length)
        except InvalidRequest as exc:
            raise ValidationError(exc.details["name"][0]) from None


class PlayerCreate(Schema):
    name = Name(required=True)


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


# -- query strings ---------------------------------------------------------------------
class _Query(Schema):
    class Meta:
        unknown = EXCLUDE


class SeatQuery(_Query):
    seat = fields.Integer(validate=validate.Range(min=0, max=15), load_default=None)


EVENT_NUMBER = validate.Range(min=0, max=2**64 - 1)
"""An event number: Redis stream ids hold unsigned 64-bit numbers, no more."""


class EventsQuery(SeatQuery):
    after = fields.Integer(validate=EVENT_NUMBER, load_default=0)
    wait = fields.Float(validate=validate.Range(min=0), load_default=0.0)


class PingQuery(_Query):
    round_trips = fields.Integer(validate=validate.Range(min=1, max=4), load_default=1)
    reply_bytes = fields.Integer(validate=validate.Range(min=0, max=65536), load_default=0)


class WaitQuery(_Query):
    wait = fields.Float(validate=validate.Range(min=0), load_default=0.0)


class GamesQuery(_Query):
    status = fields.String(validate=validate.OneOf(["live", "finished"]), load_default="live")
    limit = fields.Integer(validate=validate.Range(min=1, max=100), load_default=50)
    created_by = fields.String(validate=validate.Length(min=1, max=64), load_default=None)


class PageQuery(_Query):
    """A page of a list: ``limit`` items after ``cursor`` (the previous page's
    ``next_cursor``; none: from the start)."""

    limit = fields.Integer(validate=validate.Range(min=1, max=200), load_default=50)
    cursor = fields.String(validate=validate.Length(min=1, max=100), load_default=None)


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


class TournamentsQuery(_Query):
    limit = fields.Integer(validate=validate.Range(min=1, max=100), load_default=20)


# -- responses -------------------------------------------------------------------------
class PlayerCreated(Schema):
    id = fields.String()
    name = fields.String()
    token = fields.String()


class TokenRotated(PlayerCreated):
    callback = fields.Raw(allow_none=True)


class Profile(Schema):
    id = fields.String()
    name = fields.String()
    ratings = fields.Dict()
    games = fields.List(fields.String())


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


class TournamentList(Schema):
    tournaments = fields.Raw()


class Turn(Schema):
    game_id = fields.String()
    seat = fields.Integer()
    version = fields.Integer()
    view = fields.Nested(View)
    clock = fields.Raw()


class Turns(Schema):
    turns = fields.List(fields.Nested(Turn))


class Status(Schema):
    ok = fields.Boolean()
    padding = fields.String()


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


class Leaderboard(Schema):
    game = fields.String()
    leaderboard = fields.Raw()


class ErrorBody(Schema):
    code = fields.String()
    message = fields.String()
    details = fields.Raw()


class Error(Schema):
    error = fields.Nested(ErrorBody)


player_create = PlayerCreate()
move_body = MoveBody()
game_create = GameCreate()
join_body = JoinBody()
seat_query = SeatQuery()
events_query = EventsQuery()
wait_query = WaitQuery()
ping_query = PingQuery()
games_query = GamesQuery()
tournaments_query = TournamentsQuery()
game_list = GameList()
frame = Frame()
tournament_list = TournamentList()
player_created = PlayerCreated()
token_rotated = TokenRotated()
profile = Profile()
rules = Rules()
view = View()
events = Events()
replay = Replay()
turns = Turns()
status = Status()
error = Error()
tournament_create = TournamentCreate()
entry_create = EntryCreate()
empty = Empty()
tournament = Tournament()
entry_created = EntryCreated()
standings = Standings()
leaderboard = Leaderboard()


# -- apps, guests and invitations, the bot pool, streams ----------------------
HTTP_URL = validate.Regexp(r"^[hH][tT][tT][pP][sS]?://[^/?#]+", error="an absolute http(s) URL")
"""An http(s) scheme and a host part (the service checks the host and the address)."""


class _Url(fields.String):
    """An absolute http(s) URL."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(validate=[validate.Length(min=8, max=2000), HTTP_URL], **kwargs)


class AppCreate(Schema):
    name = Name(required=True)
    invite_url = _Url(load_default=None)


class WebhookCreate(Schema):
    url = _Url(required=True)
    events = fields.List(
        fields.String(validate=validate.OneOf(["game_start", "turn", "game_end"])),
        validate=validate.Length(min=1, max=3),
        load_default=None,
    )


class CallbackPut(Schema):
    url = fields.String(required=True, validate=[validate.Length(min=8, max=2048), HTTP_URL])


class TokenRotate(Schema):
    """A token rotation's body: none, ``{}``, or ``{"keep_callback": true}`` (the
    player's callback is kept, with a new secret, instead of removed)."""

    keep_callback = Boolean(load_default=False)


class AppTokenRotate(Schema):
    """An app token rotation's body: none, ``{}``, or ``{"keep_webhooks": true}`` (the
    app's webhooks are kept instead of removed)."""

    keep_webhooks = Boolean(load_default=False)


class AppGameCreate(Schema):
    game = fields.String(required=True, validate=validate.Length(min=1, max=64))
    options = fields.Dict(keys=fields.String(), load_default=None)
    seats = fields.List(
        fields.String(allow_none=True, validate=validate.Length(min=1, max=40)),
        required=True,
        validate=validate.Length(min=1, max=16),
    )
    guest_names = fields.List(
        Name(),
        validate=validate.Length(max=16),
        load_default=None,
    )


class BotSpec(Schema):
    name = fields.String(required=True, validate=validate.Regexp(r"^[a-z0-9_]{1,32}$"))
    games = fields.List(fields.String(validate=validate.Length(min=1, max=64)), load_default=None)
    count = fields.Integer(strict=True, required=True, validate=validate.Range(min=1, max=16))


class BotsEnsure(Schema):
    bots = fields.List(
        fields.Nested(BotSpec), required=True, validate=validate.Length(min=1, max=32)
    )


class StreamQuery(SeatQuery):
    after = fields.Integer(validate=EVENT_NUMBER, load_default=0)
    token = fields.String(validate=validate.Length(min=1, max=200), load_default=None)


class AppCreated(Schema):
    id = fields.String()
    name = fields.String()
    token = fields.String()
    invite_url = fields.String(allow_none=True)


class AppTokenRotated(AppCreated):
    webhooks = fields.Raw()


class App(Schema):
    id = fields.String()
    name = fields.String()
    invite_url = fields.String(allow_none=True)
    webhooks = fields.Raw()
    deliveries = fields.Raw()


class Webhook(Schema):
    id = fields.String()
    url = fields.String()
    events = fields.List(fields.String())
    secret = fields.String()
    created = fields.Float()


class WebhookList(Schema):
    webhooks = fields.Raw()


class AppGame(Schema):
    game = fields.Nested(View)
    invitations = fields.Raw()


class Bots(Schema):
    bots = fields.Raw()


app_create = AppCreate()
webhook_create = WebhookCreate()
callback_put = CallbackPut()
token_rotate = TokenRotate()
app_token_rotate = AppTokenRotate()
app_game_create = AppGameCreate()
bots_ensure = BotsEnsure()
stream_query = StreamQuery()
app_created = AppCreated()
app_token_rotated = AppTokenRotated()
app_info = App()
webhook = Webhook()
webhook_list = WebhookList()
app_game = AppGame()
bots = Bots()


# -- consent and invitations (docs/api.md#consent-and-invitations) -----------------------------
class Invitation(Schema):
    """One invitation to a held seat (``kind: game``) or a held entry (``kind: tournament``)."""

    id = fields.String()
    kind = fields.String()
    status = fields.String()
    created = fields.String()
    expires = fields.String()
    game_id = fields.String()
    game = fields.String()
    seats = fields.List(fields.Integer())
    tournament_id = fields.String()
    tournament = fields.String()
    entry_id = fields.String()
    players = fields.List(fields.String())

    class Meta:
        include = {"from": fields.Raw()}


class Invitations(Schema):
    invitations = fields.List(fields.Nested(Invitation))
    next_cursor = fields.String(allow_none=True)


class Block(Schema):
    player_id = fields.String()
    name = fields.String(allow_none=True)
    since = fields.String()


class Blocks(Schema):
    blocks = fields.List(fields.Nested(Block))
    next_cursor = fields.String(allow_none=True)


invitation = Invitation()
invitation_list = Invitations()
page_query = PageQuery()
block = Block()
block_list = Blocks()


class TurnStreamQuery(_Query):
    """``GET /v1/me/turns/stream``: the token comes in the header only (bots can send one)."""

    heartbeat = fields.Float(validate=validate.Range(min=0.5, max=3600), load_default=None)


turn_stream_query = TurnStreamQuery()

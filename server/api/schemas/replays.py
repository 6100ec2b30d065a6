"""What is shown of games as records: replays (and the archive's lines), a finished
game's frames, the lobby's list."""

from __future__ import annotations

from typing import Any

from marshmallow import INCLUDE, Schema, fields, post_dump, validate

from .fields import ref
from .games import COMMITMENT, STATUS, Result, View, events, seats


class _Revealed(Schema):
    """The end's secrets: the seed and the hands left, and whatever else the game reveals
    (Cowpoke's ``stack`` and ``dummy_cards``): its own keys pass as the engine wrote them."""

    class Meta:
        unknown = INCLUDE

    seed = fields.String(required=True)
    hands = fields.List(fields.List(fields.String(metadata=ref("Card"))), required=True)
    stack = fields.List(
        fields.String(metadata=ref("Card")),
        metadata={"description": "Cowpoke: the stack as the game left it, top card first"},
    )
    dummy_cards = fields.List(
        fields.String(metadata=ref("Card")),
        metadata={"description": "Cowpoke: the dummy's face-down card (none unless two play)"},
    )

    @post_dump(pass_original=True)
    def _the_games_own(self, out: dict[str, Any], given: dict[str, Any], **_: Any) -> Any:
        return {**given, **out}


class SidePar(Schema):
    max_hands = fields.Integer(required=True, validate=validate.Range(min=0))
    min_leftover = fields.Integer(required=True, validate=validate.Range(min=0))
    hand_points = fields.Integer(required=True, validate=validate.Range(min=0))


class _DealPar(Schema):
    game = fields.Integer(required=True, validate=validate.Range(min=1))
    deal = fields.Integer(required=True, validate=validate.Range(min=1))
    dealer = fields.Integer(required=True, metadata=ref("Seat"))
    NS = fields.Nested(SidePar, required=True)
    EW = fields.Nested(SidePar, required=True)


PAR = """\
Null until the game is finished, and for games without a par
analysis. Concerto: one entry per deal, oldest first, with each
side's double-dummy par — the most its four hands could have scored
had both partners seen each other's cards (`max_hands`), the
smallest left-over bonus, in points, its six unplayed cards could
have shown (`min_leftover`; a separate bound) — and what its hands
actually scored (`hand_points`). Percent of par = hand_points /
max_hands.
"""


class Replay(Schema):
    id = fields.String(required=True)
    game = fields.String(required=True)
    options = fields.Dict(required=True)
    status = fields.String(required=True, validate=STATUS)
    version = fields.Integer(required=True)
    seats = seats()
    deal_commitment = fields.String(required=True, validate=COMMITMENT)
    events = events()
    result = fields.Nested(Result, required=True)
    revealed = fields.Nested(
        _Revealed,
        required=True,
        allow_none=True,
        metadata={"description": "null until the game is finished"},
    )
    par = fields.List(
        fields.Nested(_DealPar), required=True, allow_none=True, metadata={"description": PAR}
    )


replay = Replay()


class _Table(Schema):
    id = fields.String(required=True, allow_none=True)
    ladder = fields.String(required=True, allow_none=True)
    round = fields.Integer(required=True, allow_none=True)
    table = fields.Integer(required=True, allow_none=True)


class GameSummary(Schema):
    id = fields.String(required=True)
    game = fields.String(required=True)
    options = fields.Dict(
        required=True,
        metadata={
            "description": "the game's options, as in its view (Pinochle's `variant`, "
            "Concerto's `rules`)"
        },
    )
    status = fields.String(required=True, validate=STATUS)
    version = fields.Integer(
        required=True,
        allow_none=True,
        validate=validate.Range(min=0),
        metadata={"description": "null at a table of a duplicate board in play (sealed)"},
    )
    seats = seats()
    to_move = fields.List(fields.Integer(metadata=ref("Seat")), required=True)
    scores = fields.List(fields.Integer(), required=True, allow_none=True)
    result = fields.Nested(Result, required=True)
    created = fields.String(
        required=True,
        allow_none=True,
        metadata={"format": "date-time", "description": "live games (null at a sealed table)"},
    )
    ended = fields.String(
        required=True,
        allow_none=True,
        metadata={"format": "date-time", "description": "ended games (null at a sealed table)"},
    )
    tournament = fields.Nested(
        _Table,
        required=True,
        allow_none=True,
        metadata={
            "description": "a tournament's or a ladder's table: `id` names the tournament "
            "(null at a ladder's table), `ladder` the ladder (null at a tournament's table); "
            "null for any other game"
        },
    )


class GameList(Schema):
    """The lobby's games: public parts only (seats, whose turn, scores, result)."""

    status = fields.String(required=True, validate=validate.OneOf(["live", "finished"]))
    games = fields.List(fields.Nested(GameSummary), required=True)


class _FrameMove(Schema):
    seat = fields.Integer(required=True, allow_none=True, validate=validate.Range(min=0))
    move = fields.Raw(required=True, metadata=ref("Move"))
    timeout = fields.Boolean(metadata={"const": True})


class Frame(Schema):
    """A finished game at one version: the spectator's view and every seat's."""

    id = fields.String(required=True)
    version = fields.Integer(required=True, validate=validate.Range(min=0))
    last_version = fields.Integer(
        required=True,
        validate=validate.Range(min=0),
        metadata={"description": "the finished game's version"},
    )
    move = fields.Nested(
        _FrameMove,
        required=True,
        allow_none=True,
        metadata={
            "description": "`{seat, move}` accepted at version - 1 (null at version 0); "
            "`timeout` (true) when the clock made that move for the seat, past its deadline "
            "(the `timeout_policy`'s default move)"
        },
    )
    public = fields.Nested(View, required=True)
    views = fields.List(
        fields.Nested(View),
        required=True,
        metadata={"description": "each seat's own view, by seat"},
    )

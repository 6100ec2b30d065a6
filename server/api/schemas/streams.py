"""Streams, the callback's call, and health: the query strings of the SSE and turn
streams, each stream message (as the tests' SSE reader shows one: its ``event`` or
``id``, and its ``data`` parsed; a heartbeat as its ``comment``), the body the server
POSTs to a callback bot and the answer it takes, ping, status."""

from __future__ import annotations

from typing import Any

from marshmallow import INCLUDE, Schema, fields, validate

from .fields import EVENT_NUMBER, EXAMPLE_GAME, _Query, ref
from .games import Event, SeatQuery, Turn


class PingQuery(_Query):
    round_trips = fields.Integer(validate=validate.Range(min=1, max=4), load_default=1)
    reply_bytes = fields.Integer(validate=validate.Range(min=0, max=65536), load_default=0)


class Status(Schema):
    ok = fields.Boolean(required=True)
    padding = fields.String(
        metadata={"description": "`reply_bytes` dots (the benchmark's floor only)"}
    )


class StreamQuery(SeatQuery):
    after = fields.Integer(
        validate=EVENT_NUMBER,
        load_default=0,
        metadata={"description": "start after this event (`Last-Event-ID` wins when sent)"},
    )
    token = fields.String(
        validate=validate.Length(min=1, max=200),
        load_default=None,
        metadata={
            "description": "the bearer token, for clients that cannot set headers (EventSource)"
        },
    )


class TurnStreamQuery(_Query):
    """``GET /v1/me/turns/stream``: the token comes in the header only (bots can send one)."""

    heartbeat = fields.Float(
        validate=validate.Range(min=0.5, max=3600),
        load_default=None,
        metadata={
            "description": "seconds of quiet after which the client wants a heartbeat (and a "
            "re-read of its games); at most the server's own `PARLOUR_SSE_HEARTBEAT`"
        },
    )


# -- the streams' messages, and each stream's union of them ------------------------------
def _event(name: str) -> fields.String:
    """A named message's ``event:`` field."""
    return fields.String(required=True, metadata={"const": name})


GAME_ID = "9b6cd470f2e79489"
HAND = ["KS", "TS", "7S", "2S", "9H", "8H", "3H", "AD", "KD", "TD", "3D", "KC", "6C"]
_SIDE_SCORES = {"NS": 0, "EW": 0}
TURN: dict[str, Any] = {
    "game_id": GAME_ID,
    "seat": 2,
    "version": 0,
    "view": {
        "id": GAME_ID,
        "game": EXAMPLE_GAME,
        "options": {"rules": "parlett-2013", "deals": 1, "target": 100},
        "status": "active",
        "version": 0,
        "seats": [
            {"seat": s, "player_id": f"{s}e240622830c28dd", "name": n}
            for s, n in enumerate(["ann", "bob", "cy", "di"])
        ],  # fmt: skip
        "you": 2,
        "to_move": [2],
        "legal_moves": [{"type": "play", "card": card} for card in HAND],
        "hand": HAND,
        "scores": [0, 0, 0, 0],
        "deadline": None,
        "deal_commitment": "415d065a96069e2196c4ed4bd49e115313f0891ccb5d0a5e785167c0cf66430b",
        "state": {
            "rules": "parlett-2013",
            "game_number": 1,
            "deal_number": 1,
            "dealer": 1,
            "hand_number": 1,
            "leader": 2,
            "side": [0, 2],
            "current_hand": [],
            "passes": 0,
            "forced": None,
            "completed_hands": [],
            "cards_left": [13, 13, 13, 13],
            "deal_hand_points": _SIDE_SCORES,
            "deal_results": [],
            "game_scores": _SIDE_SCORES,
            "match_scores": None,
            "games": [],
            "final_hands": None,
        },  # fmt: skip
        "result": None,
    },
    "clock": {"deadline": None, "bank_ms": None, "last_latency_ms": None},
}
"""A turn as a bot gets it (the turn stream, the long-poll, a callback's call)."""


class TurnsMessage(Schema):
    class Meta:
        description = "`event: turns`: the caller's turns in one game"
        examples = [{"event": "turns", "data": [TURN]}]

    event = _event("turns")
    data = fields.List(fields.Nested(Turn), required=True)


class _Over(Schema):
    game_id = fields.String(required=True)
    status = fields.String(required=True, metadata={"description": "the game's status"})


class OverMessage(Schema):
    class Meta:
        description = "`event: over`: a game the caller sat in is over"
        examples = [{"event": "over", "data": {"game_id": GAME_ID, "status": "finished"}}]

    event = _event("over")
    data = fields.Nested(_Over, required=True)


class _Invited(Schema):
    id = fields.String(required=True, metadata={"description": "the invitation's id"})


class InvitationMessage(Schema):
    class Meta:
        description = (
            "`event: invitation`: someone named the caller in a seat or an entry "
            "(`GET /v1/me/invitations` lists it)"
        )
        examples = [{"event": "invitation", "data": {"id": "5f1c0a9e2b7d4c38"}}]

    event = _event("invitation")
    data = fields.Nested(_Invited, required=True)


class _Refused(Schema):
    message = fields.String(required=True)


class StreamErrorMessage(Schema):
    class Meta:
        description = "`event: error`: the token was revoked or expired; the stream ends"
        examples = [{"event": "error", "data": {"message": "unknown token"}}]

    event = _event("error")
    data = fields.Nested(_Refused, required=True)


class _Ended(Schema):
    status = fields.String(
        required=True, allow_none=True, metadata={"description": "the game's status"}
    )


class EndMessage(Schema):
    class Meta:
        description = "`event: end`: the game is over and every event was sent"
        examples = [{"event": "end", "data": {"status": "finished"}}]

    event = _event("end")
    data = fields.Nested(_Ended, required=True)


class EventMessage(Schema):
    class Meta:
        description = "an unnamed message: `id:` the event's `seq`, `data:` the `Event`"
        examples = [
            {
                "id": 6,
                "data": {
                    "seq": 6,
                    "version": 1,
                    "kind": "play",
                    "data": {"seat": 2, "card": "QS", "hand_number": 1},
                },
            }
        ]

    id = fields.Integer(required=True, validate=validate.Range(min=1))
    data = fields.Nested(Event, required=True)


class Heartbeat(Schema):
    class Meta:
        description = "`: heartbeat`, a comment line sent after a quiet spell"
        examples = [{"comment": "heartbeat"}]

    comment = fields.String(required=True, metadata={"const": "heartbeat"})


class TurnStreamMessage(Schema):
    """A message of the turn stream: one of its kinds (``Meta.one_of``; the SSE writer
    writes them, no schema dumps them)."""

    class Meta:
        description = (
            "a message of `GET /v1/me/turns/stream`, by its `event` field (a heartbeat is a "
            "comment)"
        )
        one_of = (TurnsMessage, OverMessage, InvitationMessage, StreamErrorMessage, Heartbeat)


class GameStreamMessage(Schema):
    """A message of a game's stream: one of its kinds (``Meta.one_of``)."""

    class Meta:
        description = "a message of `GET /v1/games/{game_id}/stream` (a heartbeat is a comment)"
        one_of = (EventMessage, EndMessage, Heartbeat)


def messages(union: type[Schema]) -> dict[str, Any]:
    """A stream's schema: the list of its messages, each one of ``union`` (OpenAPI 3.1
    has no schema per item: 3.2 reads ``schema`` of an event stream as the whole, an
    array, and ``itemSchema`` as each message, which 3.1 tools refuse)."""
    return {"type": "array", "items": union}


STREAM_MESSAGES = (
    *(TurnsMessage, OverMessage, InvitationMessage, StreamErrorMessage),
    *(EventMessage, EndMessage, Heartbeat),
)
"""Every kind of message of the two streams (the unions name them)."""


# -- a callback bot's call (server/services/callback_dispatch.py's Call.request builds it)
class CallbackCall(Turn):
    class Meta:
        description = (
            "a turn of one of the player's seats, exactly as `GET /v1/me/turns` lists it, "
            "and the call's own `id`"
        )
        examples = [{"id": "c7a1f0e2b35d4e6f8a9b0c1d", **TURN}]

    id = fields.String(
        required=True,
        metadata={
            "description": "unique to this call (a retry of the turn gets a new one): an "
            "endpoint refuses an id it has seen, as a replay"
        },
    )


class CallbackAnswer(Schema):
    class Meta:
        unknown = INCLUDE
        description = "the move to play: one of the view's `legal_moves` (other keys are ignored)"
        examples = [{"move": {"type": "play", "card": "KS"}}]

    move = fields.Raw(required=True, metadata=ref("Move"))


SIGNATURE = {
    "name": "Parlour-Signature",
    "in": "header",
    "required": True,
    "description": '`t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>." + raw body)>`, '
    "the callback's secret signing the raw bytes of the body: check it first, with a "
    "constant-time comparison, and refuse a `t` more than 300 seconds from your clock",
    "schema": {"type": "string", "pattern": "^t=[0-9]+,v1=[0-9a-f]{64}$"},
}
"""The signature header of a callback's call (the app webhooks are signed the same way)."""

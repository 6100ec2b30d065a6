"""A player's callback (``/v1/me/callback``): its URL, its signing secret and its health."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from .fields import HTTP_URL

DATE_TIME = {"format": "date-time"}
"""An ISO 8601 time as the services write it (:func:`server.services.wire.iso`)."""

FAILURE_KINDS = [
    "timeout",
    "late",
    "unreachable",
    "refused_address",
    "status",
    "not_a_move",
    "too_large",
    "refused_move",
]


class CallbackPut(Schema):
    url = fields.String(required=True, validate=[validate.Length(min=8, max=2048), HTTP_URL])


class CallbackSecret(Schema):
    class Meta:
        description = "a callback and its signing secret (shown only in this answer)"

    url = fields.String(required=True)
    secret = fields.String(
        required=True,
        metadata={"description": "`cbs_` and a random part: signs each call (`Parlour-Signature`)"},
    )


class CallbackFailure(Schema):
    at = fields.String(required=True, metadata=DATE_TIME)
    game_id = fields.String(required=True)
    version = fields.Integer(required=True)
    seat = fields.Integer(required=True)
    kind = fields.String(required=True, validate=validate.OneOf(FAILURE_KINDS))
    detail = fields.String(
        required=True,
        allow_none=True,
        metadata={
            "description": "the dispatcher's words (an HTTP status, an error code), never the "
            "bot's body"
        },
    )


class CallbackHealth(Schema):
    class Meta:
        description = "how a callback answers its calls (the dispatchers' books)"

    calls = fields.Integer(required=True)
    timeouts = fields.Integer(
        required=True,
        metadata={"description": "no answer in the time left, or one after the deadline"},
    )
    errors = fields.Integer(
        required=True,
        metadata={
            "description": "unreachable, a refused address, a status other than 200, a body "
            "that is not a move"
        },
    )
    refused_moves = fields.Integer(
        required=True, metadata={"description": "moves the engine refused"}
    )
    stale = fields.Integer(
        required=True,
        metadata={
            "description": "answers to a turn played already (by another path, or the clock)"
        },
    )
    moves = fields.Integer(required=True, metadata={"description": "moves played"})
    latency_p50_ms = fields.Integer(required=True, allow_none=True)
    latency_p99_ms = fields.Integer(required=True, allow_none=True)
    latency_samples = fields.Integer(required=True)
    last_failures = fields.List(
        fields.Nested(CallbackFailure),
        required=True,
        metadata={"description": "the latest failures, newest first (at most 5)"},
    )


class Callback(Schema):
    class Meta:
        description = "the caller's callback and its health"

    url = fields.String(required=True)
    secret_hint = fields.String(
        required=True, metadata={"description": "the secret's last 4 characters"}
    )
    since = fields.String(
        required=True, metadata={**DATE_TIME, "description": "when the callback was last set"}
    )
    health = fields.Nested(CallbackHealth, required=True)

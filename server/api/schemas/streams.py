"""Streams and health: the query strings of the SSE and turn streams, ping, status."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from .fields import EVENT_NUMBER, _Query
from .games import SeatQuery


class PingQuery(_Query):
    round_trips = fields.Integer(validate=validate.Range(min=1, max=4), load_default=1)
    reply_bytes = fields.Integer(validate=validate.Range(min=0, max=65536), load_default=0)


class Status(Schema):
    ok = fields.Boolean(required=True)
    padding = fields.String(
        metadata={"description": "`reply_bytes` dots (the benchmark's floor only)"}
    )


class StreamQuery(SeatQuery):
    after = fields.Integer(validate=EVENT_NUMBER, load_default=0)
    token = fields.String(validate=validate.Length(min=1, max=200), load_default=None)


stream_query = StreamQuery()


class TurnStreamQuery(_Query):
    """``GET /v1/me/turns/stream``: the token comes in the header only (bots can send one)."""

    heartbeat = fields.Float(validate=validate.Range(min=0.5, max=3600), load_default=None)


turn_stream_query = TurnStreamQuery()

"""A replay file played again: ``POST /v1/replays/frames`` (the web page that opens a file
written by ``parlour-bot play`` or a line of the archive)."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from .fields import ref
from .replays import Frame

MAX_FRAMES = 50
"""At most this many frames per answer (the page asks for the next ones as it steps)."""


class ReplayFramesRequest(Schema):
    replay = fields.Dict(
        required=True,
        metadata=ref(
            "Replay",
            description="a finished game's replay, as `GET /v1/games/{id}/replay` "
            "answers it (or `parlour-bot play --out` writes it)",
        ),
    )
    first = fields.Integer(
        load_default=0,
        validate=validate.Range(min=0),
        metadata={"description": "the first frame's version"},
    )
    count = fields.Integer(
        load_default=20,
        validate=validate.Range(min=1, max=MAX_FRAMES),
        metadata={"description": "how many frames from `first` (fewer past the end)"},
    )


class ReplayFrames(Schema):
    last_version = fields.Integer(
        required=True,
        validate=validate.Range(min=0),
        metadata={"description": "the replayed game's version (its last frame's)"},
    )
    frames = fields.List(
        fields.Nested(Frame),
        required=True,
        metadata={"description": "the frames asked for, by version"},
    )


__all__ = ["MAX_FRAMES", "ReplayFrames", "ReplayFramesRequest"]

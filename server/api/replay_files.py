"""``POST /v1/replays/frames``: a replay file's frames, rebuilt by the engine from the file
alone (the web page that opens a file written by ``parlour-bot play`` steps through it)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, request

from server.services import replay_files

from . import schemas
from .operations import OPEN, Answer, operation

bp = Blueprint("replay_files", __name__)

MAX_REPLAY_BODY = 1024 * 1024
"""A replay file is larger than any other request (every event of a whole game): this
route reads bodies up to 1 MiB, the others the app's limit (``PARLOUR_MAX_BODY``)."""


@bp.before_request
def _room_for_a_replay() -> None:
    request.max_content_length = MAX_REPLAY_BODY


@bp.post("/v1/replays/frames")
@operation(
    "getReplayFileFrames",
    tag="games",
    summary="A replay file's frames: its game rebuilt step by step by the engine.",
    description="""\
The frames (as `GET /v1/games/{id}/replay/{version}` shows a finished
game's) of a finished game's replay the client holds: a file written
by `parlour-bot play --out`, a line of `GET /v1/archive`. The engine
deals again from the replay's revealed seed and options and finds the
moves that make its events, version by version; frames `first` ..
`first + count - 1` are answered (at most 50 a request). Nothing is
stored or looked up, and nothing is shown that the replay does not
already tell. A replay its events do not explain (edited, ended by a
forfeit, of a game not played here) is 400 `invalid_request`; the body
may be up to 1 MiB.
""",
    security=OPEN,
    body=schemas.ReplayFramesRequest,
    responses={200: Answer("the frames", schemas.ReplayFrames)},
    errors=("InvalidRequest", "PayloadTooLarge"),
)
def frames(body: dict[str, Any]):
    return replay_files.frames(body["replay"], body["first"], body["count"])

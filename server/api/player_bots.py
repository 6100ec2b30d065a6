"""``/v1/me/bots``: the caller's own bots (hosted, callback or connected), their versions,
their entries in ladders and tournaments, and their hosted seats' logs
(server/services/player_bots.py). The server's house pool stays at ``/v1/bots``."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, g, request

from . import schemas
from .context import requires_token, services
from .operations import Answer, operation

bp = Blueprint("player_bots", __name__)

UPLOAD_BODY = 2 * 1024 * 1024
"""The body limit of the routes that take a bundle (1 MiB of code, base64, and JSON)."""


@bp.before_request
def _bundle_bodies() -> None:
    if (
        request.method == "POST"
        and request.path.rstrip("/") in ("/v1/me/bots",)
        or (request.method == "POST" and request.path.endswith("/versions"))
    ):
        request.max_content_length = UPLOAD_BODY


BOT_ID = {"name": "bot_id", "in": "path", "required": True, "schema": {"type": "string"}}


@bp.get("/v1/me/bots")
@requires_token
@operation(
    "listPlayerBots",
    tag="bots",
    summary="The caller's bots.",
    responses={200: Answer("the caller's bots", schemas.PlayerBots)},
    errors=("Forbidden",),
)
def list_player_bots():
    return services().player_bots.list(g.token)


@bp.post("/v1/me/bots")
@requires_token
@operation(
    "createPlayerBot",
    tag="bots",
    summary="A new bot of the caller's: hosted (its code), callback (a URL) or connected.",
    description="""\
A bot plays as player identities of its own, one per seat of a side, so
that it is one entry of a ladder or a tournament and fills every seat of
its side. `hosted`: the server runs the uploaded code (`bundle`), each
seat in a sandbox of its own (docs/sandbox.md); refused with 503
`sandbox_unavailable` where no sandbox worker can sandbox. `callback`:
the server calls `url` with each turn, signed with `secret` (shown once).
`connected`: the owner's runner plays it with `tokens` (shown once).
""",
    body=schemas.PlayerBotCreate,
    responses={201: Answer("the bot", schemas.PlayerBot)},
    errors=("InvalidRequest", "Forbidden", "SandboxUnavailable"),
)
def create_player_bot(body: dict[str, Any]):
    return services().player_bots.create(g.token, **body), 201


@bp.get("/v1/me/bots/<bot_id>")
@requires_token
@operation(
    "getPlayerBot",
    tag="bots",
    summary="One of the caller's bots, with its versions.",
    parameters=[BOT_ID],
    responses={200: Answer("the bot", schemas.PlayerBot)},
    errors=("Forbidden", "NotFound"),
)
def get_player_bot(bot_id: str):
    return services().player_bots.show(g.token, bot_id)


@bp.post("/v1/me/bots/<bot_id>/resume")
@requires_token
@operation(
    "resumePlayerBot",
    tag="bots",
    summary="Resume the caller's paused bot: its ladder entries are matched again.",
    description="""\
A bot is paused by its health sweep (a hosted bot whose turns failed 5
times in a row) or on a ladder (its games there ran out their clocks).
Resuming clears the pause and forgives the failures and timeouts before
now; a bot that is not paused is answered as it is.
""",
    parameters=[BOT_ID],
    responses={200: Answer("the bot, resumed", schemas.PlayerBot)},
    errors=("Forbidden", "NotFound"),
)
def resume_player_bot(bot_id: str):
    return services().player_bots.resume(g.token, bot_id)


@bp.post("/v1/me/bots/<bot_id>/versions")
@requires_token
@operation(
    "uploadBotVersion",
    tag="bots",
    summary="Upload a new version of a hosted bot; games from now on play it.",
    description="""\
A game in progress keeps the version its seat started with; ladders ask
a validation game of the new version before rating it again.
""",
    parameters=[BOT_ID],
    body=schemas.BotUpload,
    responses={201: Answer("the bot, with the new version", schemas.PlayerBot)},
    errors=("InvalidRequest", "Forbidden", "NotFound", "SandboxUnavailable"),
)
def upload_bot_version(body: dict[str, Any], bot_id: str):
    return services().player_bots.upload(g.token, bot_id, body), 201


@bp.post("/v1/me/bots/<bot_id>/ladders")
@requires_token
@operation(
    "enterBotInLadder",
    tag="bots",
    summary="Enter the bot in a ladder, as one entry (a pair of its identities where fixed).",
    parameters=[BOT_ID],
    body=schemas.BotLadderEntry,
    responses={200: Answer("the entry", schemas.LadderEntry)},
    errors=("InvalidRequest", "Forbidden", "NotFound"),
)
def enter_bot_in_ladder(body: dict[str, Any], bot_id: str):
    return services().player_bots.enter_ladder(g.token, bot_id, body["ladder_id"])


@bp.post("/v1/me/bots/<bot_id>/tournaments")
@requires_token
@operation(
    "enterBotInTournament",
    tag="bots",
    summary="Enter the bot in a tournament, as one entry of `seats` of its identities.",
    parameters=[BOT_ID],
    body=schemas.BotTournamentEntry,
    responses={201: Answer("the entry", schemas.TournamentEntry)},
    errors=("InvalidRequest", "Forbidden", "NotFound", "Conflict"),
)
def enter_bot_in_tournament(body: dict[str, Any], bot_id: str):
    got = services().player_bots.enter_tournament(
        g.token, bot_id, body["tournament_id"], body["seats"]
    )
    return got, 201


@bp.get("/v1/me/bots/<bot_id>/games/<game_id>")
@requires_token
@operation(
    "getBotGameLogs",
    tag="bots",
    summary="The bot's hosted seats of a game that is over: versions, failures, stderr.",
    description="""\
Only the bot's owner, and only once the game is over (and, for a table
of a duplicate board, once the whole board is: 403 `board_in_play`
before): a seat's stderr could tell its cards. Each seat: the version that played it, its failed
turns by kind, and the last 2 KiB of its stderr.
""",
    parameters=[BOT_ID, "GameId"],
    responses={200: Answer("the bot's seats of the game", schemas.BotGameLogs)},
    errors=("Forbidden", "NotFound", "Conflict"),
)
def get_bot_game_logs(bot_id: str, game_id: str):
    return services().player_bots.logs(g.token, bot_id, game_id)

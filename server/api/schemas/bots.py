"""A player's bots (``/v1/me/bots``): hosted, callback or connected; their versions,
their entries and, once a game is over, their hosted seats' logs."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from .fields import HTTP_URL

DATE_TIME = {"format": "date-time"}
BOT_KINDS = ["hosted", "callback", "connected"]


class BotUpload(Schema):
    class Meta:
        description = (
            "a hosted bot's code: one `.py` file, or a `.tar`, `.tar.gz`, `.tgz` or `.zip` "
            "archive with `manifest.json` at its root; at most 1 MiB as uploaded"
        )

    filename = fields.String(
        required=True,
        validate=validate.Length(min=1, max=200),
        metadata={"description": "its name says what it is (`main.py`, `bot.tar.gz`)"},
    )
    content_base64 = fields.String(
        required=True,
        validate=validate.Length(max=1_400_000),
        metadata={"description": "the file's bytes, base64"},
    )


class PlayerBotCreate(Schema):
    name = fields.String(required=True, validate=validate.Length(min=1, max=40))
    kind = fields.String(required=True, validate=validate.OneOf(BOT_KINDS))
    bundle = fields.Nested(BotUpload, metadata={"description": "hosted bots only"})
    url = fields.String(
        validate=[validate.Length(min=8, max=2048), HTTP_URL],
        metadata={"description": "callback bots only"},
    )


class BotVersion(Schema):
    version = fields.Integer(required=True)
    sha256 = fields.String(required=True)
    size = fields.Integer(required=True)
    created = fields.String(required=True, metadata=DATE_TIME)
    seats_played = fields.Integer(
        required=True,
        metadata={"description": "seats of games this version played (pinned at the first turn)"},
    )


class BotToken(Schema):
    player_id = fields.String(required=True)
    token = fields.String(required=True)


class BotLadderPause(Schema):
    ladder_id = fields.String(required=True)
    player_id = fields.String(required=True, metadata={"description": "the paused entry"})
    reason = fields.String(required=True, allow_none=True)


class BotHealth(Schema):
    class Meta:
        description = "the bot's health, one shape for every kind"

    status = fields.String(required=True, validate=validate.OneOf(("ok", "paused")))
    reason = fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "why it is paused: its turns kept failing, or timed out"},
    )
    since = fields.String(required=True, allow_none=True, metadata=DATE_TIME)
    failed_turns_in_a_row = fields.Integer(
        required=True,
        allow_none=True,
        metadata={"description": "a hosted or callback bot's turns failed in a row (5 pause it)"},
    )
    ladders = fields.List(
        fields.Nested(BotLadderPause),
        required=True,
        metadata={"description": "the ladders where an entry of its is paused"},
    )


class PlayerBot(Schema):
    class Meta:
        description = "one of the caller's bots"

    id = fields.String(required=True)
    name = fields.String(required=True)
    kind = fields.String(required=True, validate=validate.OneOf(BOT_KINDS))
    identities = fields.List(
        fields.String(),
        required=True,
        metadata={"description": "the player ids it plays as, one per seat of a side"},
    )
    version = fields.Integer(
        required=True, allow_none=True, metadata={"description": "the latest (hosted)"}
    )
    versions = fields.List(fields.Nested(BotVersion), required=True)
    url = fields.String(allow_none=True)
    created = fields.String(required=True, metadata=DATE_TIME)
    health = fields.Nested(BotHealth, required=True)
    secret = fields.String(metadata={"description": "a callback bot's signing secret, once"})
    tokens = fields.List(
        fields.Nested(BotToken), metadata={"description": "a connected bot's tokens, once"}
    )


class PlayerBots(Schema):
    bots = fields.List(fields.Nested(PlayerBot), required=True)


class BotLadderEntry(Schema):
    ladder_id = fields.String(required=True, validate=validate.Length(min=1, max=64))


class BotTournamentEntry(Schema):
    tournament_id = fields.String(required=True, validate=validate.Length(min=1, max=64))
    seats = fields.Integer(
        load_default=1,
        validate=validate.Range(min=1, max=8),
        metadata={"description": "players per entry of the tournament (Concerto: 2)"},
    )


class BotSeatLog(Schema):
    seat = fields.Integer(required=True)
    bot = fields.String(required=True)
    version = fields.Integer(required=True, metadata={"description": "the version that played"})
    stderr = fields.String(required=True, metadata={"description": "its last 2 KiB"})
    failures = fields.Dict(
        keys=fields.String(), values=fields.Integer(), required=True,
        metadata={"description": "turns it failed, by kind (docs/sandbox.md)"},
    )  # fmt: skip


class BotGameLogs(Schema):
    game_id = fields.String(required=True)
    seats = fields.List(fields.Nested(BotSeatLog), required=True)


class SandboxUnavailableDetails(Schema):
    reasons = fields.List(
        fields.String(), required=True, metadata={"description": "the sandbox workers' words"}
    )

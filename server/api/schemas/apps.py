"""Apps, their games and invitations, their webhooks (and the notifications the webhooks
are sent), and the bot pool."""

from __future__ import annotations

from marshmallow import INCLUDE, Schema, fields, validate

from .fields import Boolean, Name, _Url, ref
from .games import Result, View
from .players import PlayerCreated

EVENTS = ["game_start", "turn", "game_end"]
"""The notifications a webhook may be sent."""
TOKEN = "`<app id>.<secret>`, shown once"
SEAT = ref("Seat")
"""A seat number: the games' ``Seat``."""


# -- requests ----------------------------------------------------------------------------
class AppCreate(Schema):
    name = Name(required=True)
    invite_url = _Url(
        load_default=None, metadata={"description": "absolute http(s) URL of the app's play page"}
    )


class WebhookCreate(Schema):
    url = _Url(required=True, metadata={"description": "absolute http(s) URL"})
    events = fields.List(
        fields.String(validate=validate.OneOf(EVENTS)),
        validate=validate.Length(min=1, max=3),
        load_default=None,
        metadata={"description": "which notifications (default all)"},
    )


class AppTokenRotate(Schema):
    """An app token rotation's body: none, ``{}``, or ``{"keep_webhooks": true}`` (the
    app's webhooks are kept instead of removed)."""

    keep_webhooks = Boolean(load_default=False)


class AppGameCreate(Schema):
    game = fields.String(required=True, validate=validate.Length(min=1, max=64))
    options = fields.Dict(keys=fields.String(), load_default=None)
    seats = fields.List(
        fields.String(
            allow_none=True,
            validate=validate.Length(min=1, max=40),
            metadata={"description": 'null (a guest), "bot:<name>", or a player id'},
        ),
        required=True,
        validate=validate.Length(min=1, max=16),
    )
    guest_names = fields.List(
        Name(),
        validate=validate.Length(max=16),
        load_default=None,
        metadata={"description": 'display names of the guests, in seat order (default "Guest")'},
    )


class BotSpec(Schema):
    name = fields.String(required=True, validate=validate.Regexp(r"^[a-z0-9_]{1,32}$"))
    games = fields.List(fields.String(validate=validate.Length(min=1, max=64)), load_default=None)
    count = fields.Integer(strict=True, required=True, validate=validate.Range(min=1, max=16))


class BotsEnsure(Schema):
    bots = fields.List(
        fields.Nested(BotSpec), required=True, validate=validate.Length(min=1, max=32)
    )


# -- apps and their tokens ---------------------------------------------------------------
class AppCreated(Schema):
    id = fields.String(required=True, validate=validate.Regexp(r"^app[0-9a-f]+$"))
    name = fields.String(required=True)
    token = fields.String(required=True, metadata={"description": TOKEN})
    invite_url = fields.String(required=True, allow_none=True)


class WebhooksKept(Schema):
    count = fields.Integer(required=True, validate=validate.Range(min=0))
    kept = fields.Boolean(required=True)


class AppTokenRotated(AppCreated):
    class Meta:
        description = "the app, its new token, and what became of its webhooks"

    webhooks = fields.Nested(
        WebhooksKept,
        required=True,
        metadata={
            "description": "how many webhooks the app had, and whether they were kept "
            "(`keep_webhooks`) or removed with the old token"
        },
    )


# -- webhooks ----------------------------------------------------------------------------
class WebhookInfo(Schema):
    id = fields.String(required=True)
    url = fields.String(required=True)
    events = fields.List(fields.String(validate=validate.OneOf(EVENTS)), required=True)
    created = fields.Float(required=True, metadata={"description": "epoch seconds"})


class Webhook(WebhookInfo):
    secret = fields.String(
        required=True, metadata={"description": "the HMAC-SHA256 signing key, shown once"}
    )


class WebhookList(Schema):
    webhooks = fields.List(
        fields.Nested(WebhookInfo),
        required=True,
        metadata={"description": "oldest first, without their secrets"},
    )


class Delivery(Schema):
    class Meta:
        unknown = INCLUDE  # open: an outcome may say more

    delivery = fields.String(required=True)
    event = fields.String(required=True)
    hook = fields.String(required=True)
    body_id = fields.String()
    status = fields.String(
        required=True, validate=validate.OneOf(["delivered", "failed", "dropped", "refused"])
    )
    attempts = fields.Integer(validate=validate.Range(min=1))
    code = fields.Integer(
        allow_none=True, metadata={"description": "the receiver's last HTTP status"}
    )
    at = fields.Float(required=True)


class App(Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    invite_url = fields.String(required=True, allow_none=True)
    webhooks = fields.List(fields.Nested(WebhookInfo), required=True)
    deliveries = fields.List(
        fields.Nested(Delivery),
        required=True,
        metadata={"description": "the latest outcomes, newest first (50 kept)"},
    )


# -- app games and their guests' invitations ---------------------------------------------
class GuestInvitation(Schema):
    """A guest's invitation to a seat of an app's game: ``Invitation`` in the spec
    (``server.api.openapi.FROM_MARSHMALLOW``); ``schemas.Invitation`` is a consent
    invitation's (``ConsentInvitation``)."""

    seat = fields.Integer(required=True, metadata=SEAT)
    token = fields.String(
        required=True, metadata={"description": "the guest token: this seat of this game only"}
    )
    url = fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "invite_url#game=..&seat=..&token=.."},
    )
    expires = fields.String(required=True, metadata={"format": "date-time"})


class AppGame(Schema):
    game = fields.Nested(View, required=True)
    invitations = fields.List(fields.Nested(GuestInvitation), required=True)


# -- the bot pool ------------------------------------------------------------------------
class PooledBot(Schema):
    name = fields.String(required=True)
    games = fields.List(
        fields.String(), required=True, allow_none=True, metadata={"description": "null: any game"}
    )
    seats = fields.Integer(
        required=True, metadata={"description": "how many seats of one game it can take"}
    )


class Bots(Schema):
    bots = fields.List(fields.Nested(PooledBot), required=True)


class BotPlayers(Schema):
    name = fields.String(required=True)
    games = fields.List(fields.String(), required=True, allow_none=True)
    players = fields.List(fields.Nested(PlayerCreated), required=True)


class BotPool(Schema):
    bots = fields.List(fields.Nested(BotPlayers), required=True)


# -- the webhooks' notifications (the spec's top-level `webhooks`) -----------------------
class Notification(Schema):
    """What every notification says (each type's schema adds its own keys)."""

    class Meta:
        unknown = INCLUDE

    id = fields.String(
        required=True,
        metadata={"description": "stable per notification: `<game>:<version>:<type>`"},
    )
    type = fields.String(required=True, validate=validate.OneOf(EVENTS))
    app_id = fields.String(required=True)
    game_id = fields.String(required=True)
    version = fields.Integer(required=True, validate=validate.Range(min=0))
    status = fields.String(
        required=True, validate=validate.OneOf(["waiting", "active", "finished", "aborted"])
    )


class NotificationSeat(Schema):
    class Meta:
        unknown = INCLUDE

    seat = fields.Integer(required=True, metadata=SEAT)
    name = fields.String(required=True)
    kind = fields.String(required=True, validate=validate.OneOf(["guest", "bot", "player"]))


class GameStartNotification(Notification):
    game = fields.String(required=True)
    options = fields.Dict(required=True)
    seats = fields.List(fields.Nested(NotificationSeat), required=True)


class TurnNotification(Notification):
    to_move = fields.List(fields.Integer(metadata=SEAT), required=True)


class GameEndNotification(Notification):
    scores = fields.List(fields.Integer(), required=True, allow_none=True)
    result = fields.Nested(Result, required=True)

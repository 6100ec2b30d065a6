"""Apps, webhooks and the bot pool."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from .fields import Boolean, Name, _Url
from .games import View


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


app_token_rotate = AppTokenRotate()


app_game_create = AppGameCreate()


bots_ensure = BotsEnsure()


app_created = AppCreated()


app_token_rotated = AppTokenRotated()


app_info = App()


webhook = Webhook()


webhook_list = WebhookList()


app_game = AppGame()


bots = Bots()

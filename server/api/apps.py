"""``/v1/apps`` (apps, their games with invitations, their webhooks) and ``/v1/bots``."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, g

from . import schemas
from .context import requires_token, services
from .operations import EITHER, Answer, operation

bp = Blueprint("apps", __name__)

WEBHOOK_BODIES: dict[str, type[schemas.Schema]] = {
    "game_start": schemas.GameStartNotification,
    "turn": schemas.TurnNotification,
    "game_end": schemas.GameEndNotification,
}
"""The body each of the spec's ``webhooks`` is sent (built by ``server.services.notifications``;
tests/embed/test_webhooks.py holds real deliveries to these)."""


@bp.post("/v1/apps")
@requires_token
@operation(
    "createApp",
    tag="apps",
    summary="Create an app (admin only); its token is shown once.",
    description="""\
An app is a backend that embeds Parlour for its own people. Its token
belongs on that backend, never in a browser: it creates games (with an
invitation per open seat) and registers webhooks. `invite_url` is the
app's page where a guest plays; invitation links are built from it.
""",
    body=schemas.AppCreate,
    responses={201: Answer("the app and its token", schemas.AppCreated)},
    errors=("InvalidRequest", "Forbidden"),
)
def create(body: dict[str, Any]):
    return services().apps.create_app(g.token, **body), 201


@bp.get("/v1/apps/<app_id>")
@requires_token
@operation(
    "getApp",
    tag="apps",
    summary="The app, its webhooks (without secrets) and its latest deliveries.",
    description="For the app's own token or the admin.",
    parameters=["AppId"],
    responses={200: Answer("the app", schemas.App)},
    errors=("Forbidden", "NotFound"),
)
def show(app_id: str):
    return services().apps.get_app(g.token, app_id)


@bp.post("/v1/apps/<app_id>/games")
@requires_token
@operation(
    "createAppGame",
    tag="apps",
    summary="Create a game with an invitation per open seat and bots by name.",
    description="""\
`seats`: per seat `null` (a guest: an invitation), `"bot:<name>"` (played
by the server's bot pool; `GET /v1/bots` lists the names) or a player id:
a registered player's seat is held until that player accepts the app's
invitation (`/v1/me/invitations`), and the game waits for it. Guest and
bot seats are taken at once (`game_start` webhook at creation). Each invitation's
`token` is a guest token: bound to that seat
of that game only (any other game or seat: 403), valid until `expires`
(`PARLOUR_GUEST_TTL`, 24 h) and, once the game is over, for
`PARLOUR_GUEST_GRACE` (1 h) more, to read the final view; then 401. `url`
is the app's `invite_url` with `#game=..&seat=..&token=..` (a fragment:
browsers never send it to a server); null when the app has none.
""",
    parameters=["AppId"],
    body=schemas.AppGameCreate,
    responses={
        201: Answer("the spectator's view of the new game and the invitations", schemas.AppGame)
    },
    errors=("InvalidRequest", "Forbidden", "NotFound", "Conflict"),
)
def create_game(app_id: str, body: dict[str, Any]):
    return services().apps.create_game(g.token, app_id, **body), 201


@bp.post("/v1/apps/<app_id>/webhooks")
@requires_token
@operation(
    "addWebhook",
    tag="apps",
    summary="Register a URL for signed notifications; the secret is shown once.",
    description="""\
The server POSTs the notifications listed in `webhooks` (this document's
top level) for every game of the app: `game_start`, `turn` (a guest is to
move) and `game_end`. Each is signed: `Parlour-Signature: t=<unix
seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`; also
`Parlour-Event` and `Parlour-Delivery`. A 2xx answer is success; anything
else is retried with exponential backoff (1 s doubling, with jitter, 8
attempts). Deliveries may repeat or arrive out of order: the body's `id`
is stable per notification and `version` orders a game's notifications.
A URL whose address is loopback, private, link-local, multicast,
unspecified or reserved is refused (400), and checked again before each
delivery, after resolving its name: such a delivery ends as `refused`,
without details. The operator may allow ranges (`PARLOUR_WEBHOOK_ALLOW`).
""",
    parameters=["AppId"],
    body=schemas.WebhookCreate,
    responses={
        201: Answer("the webhook, with its signing secret (shown this once)", schemas.Webhook)
    },
    errors=("InvalidRequest", "Forbidden", "NotFound"),
)
def add_webhook(app_id: str, body: dict[str, Any]):
    return services().apps.add_webhook(g.token, app_id, **body), 201


@bp.get("/v1/apps/<app_id>/webhooks")
@requires_token
@operation(
    "listWebhooks",
    tag="apps",
    summary="The app's webhooks, oldest first (their secrets are never shown again).",
    description="""\
For the app's own token or the admin. After a rotation that kept the
webhooks (`keep_webhooks`), remove any the app did not add.
""",
    parameters=["AppId"],
    responses={200: Answer("the app's webhooks", schemas.WebhookList)},
    errors=("Forbidden", "NotFound"),
)
def list_webhooks(app_id: str):
    return services().apps.list_webhooks(g.token, app_id)


@bp.delete("/v1/apps/<app_id>/webhooks/<webhook_id>")
@requires_token
@operation(
    "removeWebhook",
    tag="apps",
    summary="Remove one of the app's webhooks (the app itself or the admin).",
    description="""\
Nothing more is sent to it, not even a delivery queued already (its
outcome is `dropped`). An id the app has no webhook by: 404.
""",
    parameters=["AppId", "WebhookId"],
    responses={204: Answer("the webhook is removed")},
    errors=("Forbidden", "NotFound"),
)
def remove_webhook(app_id: str, webhook_id: str):
    services().apps.remove_webhook(g.token, app_id, webhook_id)
    return "", 204


# -- the app's token: rotate and revoke (docs/api.md#tokens-rotate-and-revoke) --------------
@bp.post("/v1/apps/<app_id>/token")
@requires_token
@operation(
    "rotateAppToken",
    tag="apps",
    summary="Rotate the app's token (the app itself or the admin); shown once.",
    description="""\
The old token dies at once. The app's games and guests stay. Its
webhooks are removed with the old token (whoever held it may have added
one), unless the body is `{"keep_webhooks": true}`: then they stay as
they are; list them (`GET /v1/apps/{app_id}/webhooks`) and remove any
the app did not add. The answer's `webhooks` says how many there were
and whether they were kept.
""",
    parameters=["AppId"],
    body=schemas.AppTokenRotate,
    body_required=False,
    responses={
        200: Answer(
            "the app, its new token, and what became of its webhooks", schemas.AppTokenRotated
        )
    },
    errors=("InvalidRequest", "Forbidden", "NotFound"),
)
def rotate_token(app_id: str, body: dict[str, Any]):
    return services().apps.rotate_token(g.token, app_id, **body)


@bp.delete("/v1/apps/<app_id>/token")
@requires_token
@operation(
    "revokeAppToken",
    tag="apps",
    summary="Revoke the app's token (the app itself or the admin).",
    description="""\
The app's webhooks are removed with it (nothing more is sent, not even
a delivery queued already). The app stays: its guests keep playing
their games, and the admin can issue a new token (`POST`), with which
the app adds its webhooks again.
""",
    parameters=["AppId"],
    responses={204: Answer("the token no longer works")},
    errors=("Forbidden", "NotFound"),
)
def revoke_token(app_id: str):
    services().apps.revoke_token(g.token, app_id)
    return "", 204


@bp.get("/v1/bots")
@operation(
    "listBots",
    tag="bots",
    summary='The bots `"bot:<name>"` seats can name, and the games each plays.',
    security=EITHER,
    responses={200: Answer("the server's bot pool", schemas.Bots)},
)
def bots():
    return services().apps.bots()


@bp.post("/v1/bots")
@requires_token
@operation(
    "ensureBots",
    tag="bots",
    summary="The bot pool's identities and tokens (admin only; `parlour botpool` calls it).",
    description="""\
Creates what is missing so that each bot has `count` player identities,
and answers every identity with its token. Idempotent: identities stay,
and tokens are derived from the server secret, so every call (from any
pool process) gets the same ones.
""",
    body=schemas.BotsEnsure,
    responses={200: Answer("each bot with its players and their tokens", schemas.BotPool)},
    errors=("InvalidRequest", "Forbidden"),
)
def ensure_bots(body: dict[str, Any]):
    return services().apps.ensure_bots(g.token, **body)

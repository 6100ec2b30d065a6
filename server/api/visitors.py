"""``/v1/visitors``: a person with no account plays against the server's bots (docs/web.md).

Thin: the schemas of this feature (:mod:`.schemas.visitors`), one service call each
(:class:`~server.services.visitors.Visitors`). The client address that the
rate limit counts is ``request.remote_addr`` (an IPv6 one by its /64): behind a
proxy, the operator makes it the visitor's (docs/operations.md).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, request

from . import schemas
from .context import services
from .operations import OPEN, Answer, operation

bp = Blueprint("visitors", __name__)


@bp.get("/v1/visitors")
@operation(
    "getVisitorSettings",
    tag="visitors",
    summary="Whether visitors may play against the bots here, and how many bots play each game.",
    security=OPEN,
    responses={
        200: Answer(
            "the operator's setting and the bot pool's seats per game", schemas.VisitorSettings
        )
    },
)
def settings():
    return services().visitors.settings()


@bp.post("/v1/visitors/games")
@operation(
    "createVisitorGame",
    tag="visitors",
    summary="A new game against the server's bots for a person with no account.",
    description="""\
No token: the visitor gets seat 0 as a guest (a player made for that seat
alone, like an app's invitation: its `token` works only for this game and
seat, until `expires`, and for `PARLOUR_GUEST_GRACE` more once the game is
over), and the bot pool (`parlour botpool`) fills every other seat, so the
game starts at once. The web lobby keeps the token in `sessionStorage`.
The operator turns this off with `PARLOUR_VISITORS=0` (403); each client
address (an IPv6 one counted by its /64) may create
`PARLOUR_VISITORS_PER_CLIENT` games (10) per `PARLOUR_VISITORS_PERIOD`
seconds (3600), and at most `PARLOUR_VISITORS_MAX_LIVE` visitor games (50)
may be unfinished at once; over either limit: 429 `rate_limited` with
`Retry-After` (the message says which). Each seat has
`PARLOUR_VISITORS_IDLE` seconds (600) per move (the view's `deadline`): the
seat that lets them pass forfeits, the game is `aborted` (its `result` says
`"termination": "forfeit"`) and its table is free. The bots are the pool's
identities seated in the fewest games. 400 when the pool has too few bots
for the table.
""",
    security=OPEN,
    body=schemas.VisitorGameCreate,
    responses={
        201: Answer(
            "the spectator's view of the new game, the visitor's seat and guest token",
            schemas.VisitorGame,
        )
    },
    errors=("InvalidRequest", "Forbidden", "RateLimited"),
)
def create_game(body: dict[str, Any]):
    return services().visitors.play_against_bots(request.remote_addr or "unknown", **body), 201

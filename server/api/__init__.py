"""The Flask app: blueprints only; every view is schema in, one service call, schema out.

The use cases live in ``app.extensions["parlour"]``, a
:class:`~server.services.bundle.Services` (see :func:`.context.services`).

:func:`create_app` reads its settings from ``config`` or the environment
(``REDIS_URL``, ``PARLOUR_ADMIN_TOKEN``, ``PARLOUR_MAX_WAIT``,
``PARLOUR_OPEN_REGISTRATION``, ``PARLOUR_SEED_SECRET``,
``PARLOUR_REDIS_MAX_CONNECTIONS``, ``PARLOUR_INVITATION_TTL``, ``PARLOUR_MAX_BODY``: the
largest request body in bytes, 64 KiB by default; a larger one is answered 413, before it
is read when it states its length, once past the limit when chunked;
``PARLOUR_STREAMS_PER_PLAYER`` and ``PARLOUR_STREAMS_PER_ADDRESS``: the caps on open
streams and long-polls, see :mod:`server.services.slots`; the rate limits and the
per-address buckets of registrations and archive pages, see :mod:`.ratelimit`;
``PARLOUR_FRAME_ANCESTORS``: the origins that may frame the web pages, see
:mod:`.headers`). The app keeps no state
between requests: everything shared lives in Redis, so any number of workers can serve
any request.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

import orjson
from flask import Flask
from flask.json.provider import JSONProvider
from werkzeug.routing import Rule

from server.services import wire
from server.services.bundle import Services
from server.services.slots import PER_ADDRESS, PER_PLAYER

from . import (
    apps,
    cors,
    errors,
    events,
    games,
    headers,
    health,
    invitations,
    ladders,
    matches,
    me,
    metrics,
    player_bots,
    players,
    ratelimit,
    ratings,
    replay_files,
    rules,
    stream,
    tournaments,
    visitors,
    web,
)
from .context import load_token

BLUEPRINTS = (
    *(players, rules, games, me, tournaments, events, ratings, ladders, invitations, matches),
    *(health, web),
    *(apps, stream),  # embedding in other apps
    player_bots,  # a player's own bots (docs/bots/submit.md)
    visitors,  # the web lobby's Play against bots (docs/web.md)
    replay_files,  # the web page that opens a replay file
)
"""The modules whose ``bp`` the app registers (``metrics.install`` adds ``GET /metrics``);
server/api/openapi.py reads the same routes."""

MAX_BODY = 64 * 1024
"""The default request body limit: the largest legitimate body (a tournament, a game
with preset deals) is a few KiB."""


class OrjsonProvider(JSONProvider):
    """Responses serialised with orjson (≈4× faster than json on game states), U+0085,
    U+2028 and U+2029 escaped as in the streams (:mod:`server.services.wire`)."""

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        return wire.dumps(obj, option=orjson.OPT_NON_STR_KEYS).decode()

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        return orjson.loads(s)


class LazyRule(Rule):
    """Werkzeug's URL rule, its two URL builders compiled at their first use, not when the
    route is added: identical builders, but an app is built in a fifth of the time (werkzeug
    generates and compiles Python code for both builders of each of the ~70 routes, and the
    server answers requests without building a URL; the tests build an app per test)."""

    def _compile_builder(self, append_unknown: bool = True) -> Any:
        compile_now = super()._compile_builder
        name = "_build_unknown" if append_unknown else "_build"

        def build(rule: LazyRule, **values: Any) -> tuple[str, str]:
            builder = compile_now(append_unknown).__get__(rule, None)
            setattr(rule, name, builder)  # the next build calls it directly
            return builder(**values)

        return build


class ParlourFlask(Flask):
    """Flask with :class:`LazyRule` as its URL rule class (its ``static`` route too)."""

    url_rule_class = LazyRule


def _env_flag(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    return default if value is None else value.lower() not in ("0", "false", "no", "off")


def _env_int(name: str) -> int | None:
    value = os.environ.get(name)
    return None if value is None or not value.strip() else int(value)


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """Build the app. ``config`` overrides the environment (tests pass REDIS_URL etc.)."""
    app = ParlourFlask(__name__)
    app.json = OrjsonProvider(app)
    app.config.from_mapping(
        REDIS_URL=os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"),
        ADMIN_TOKEN=os.environ.get("PARLOUR_ADMIN_TOKEN") or None,
        MAX_WAIT=float(os.environ.get("PARLOUR_MAX_WAIT", "30")),
        OPEN_REGISTRATION=_env_flag("PARLOUR_OPEN_REGISTRATION", True),
        SEED_SECRET=os.environ.get("PARLOUR_SEED_SECRET") or None,
        REDIS_MAX_CONNECTIONS=int(os.environ.get("PARLOUR_REDIS_MAX_CONNECTIONS", "4000")),
        # Embedding: see server/api/cors.py, server/services/feeds.py and services/apps.py.
        CORS_ORIGINS=os.environ.get("PARLOUR_CORS_ORIGINS", ""),
        FRAME_ANCESTORS=os.environ.get("PARLOUR_FRAME_ANCESTORS", ""),
        SSE_HEARTBEAT=float(os.environ.get("PARLOUR_SSE_HEARTBEAT", "15")),
        SSE_MAX_SECONDS=float(os.environ.get("PARLOUR_SSE_MAX_SECONDS", "300")),
        GUEST_TTL=float(os.environ.get("PARLOUR_GUEST_TTL", "86400")),
        GUEST_GRACE=float(os.environ.get("PARLOUR_GUEST_GRACE", "3600")),
        INVITATION_TTL=float(os.environ.get("PARLOUR_INVITATION_TTL", "86400")),
        RATE_LIMIT=int(os.environ.get("PARLOUR_RATE_LIMIT", "0")),
        RATE_PERIOD=float(os.environ.get("PARLOUR_RATE_PERIOD", "1")),
        # Flask's own setting: werkzeug refuses a longer body with 413 (errors.py).
        MAX_CONTENT_LENGTH=int(os.environ.get("PARLOUR_MAX_BODY", str(MAX_BODY))),
        ANON_RATE_LIMIT=_env_int("PARLOUR_ANON_RATE_LIMIT"),  # None: RATE_LIMIT's
        REGISTER_LIMIT=int(os.environ.get("PARLOUR_REGISTER_LIMIT", "10")),
        REGISTER_PERIOD=float(os.environ.get("PARLOUR_REGISTER_PERIOD", "3600")),
        ARCHIVE_LIMIT=int(os.environ.get("PARLOUR_ARCHIVE_LIMIT", "30")),
        ARCHIVE_PERIOD=float(os.environ.get("PARLOUR_ARCHIVE_PERIOD", "60")),
        TRUSTED_PROXIES=int(os.environ.get("PARLOUR_TRUSTED_PROXIES", "0")),
        WEBHOOK_ALLOW=os.environ.get("PARLOUR_WEBHOOK_ALLOW", ""),
        # Visitors: see server/services/visitors.py and docs/web.md.
        VISITORS=_env_flag("PARLOUR_VISITORS", True),
        VISITORS_MAX_LIVE=int(os.environ.get("PARLOUR_VISITORS_MAX_LIVE", "50")),
        VISITORS_PER_CLIENT=int(os.environ.get("PARLOUR_VISITORS_PER_CLIENT", "10")),
        VISITORS_PERIOD=float(os.environ.get("PARLOUR_VISITORS_PERIOD", "3600")),
        VISITORS_IDLE=float(os.environ.get("PARLOUR_VISITORS_IDLE", "600")),
        # Open streams and long-polls at once: see server/services/slots.py.
        STREAMS_PER_PLAYER=int(os.environ.get("PARLOUR_STREAMS_PER_PLAYER", str(PER_PLAYER))),
        STREAMS_PER_ADDRESS=int(os.environ.get("PARLOUR_STREAMS_PER_ADDRESS", str(PER_ADDRESS))),
        # Abuse: see server/services/invitations.py, lobby.py and core.py (house bots).
        INVITATIONS_PER_INVITER=int(os.environ.get("PARLOUR_INVITATIONS_PER_INVITER", "50")),
        INVITATIONS_PER_INVITEE=int(os.environ.get("PARLOUR_INVITATIONS_PER_INVITEE", "50")),
        INVITATIONS_PER_PAIR=int(os.environ.get("PARLOUR_INVITATIONS_PER_PAIR", "10")),
        LOBBY_PER_CREATOR=int(os.environ.get("PARLOUR_LOBBY_PER_CREATOR", "5")),
        HOUSE_BOTS=os.environ.get("PARLOUR_HOUSE_BOTS", "visitors,apps,games,ladders,reference"),
        # Who may make players in bulk for a tournament: server/services/events.py.
        ORGANISERS=os.environ.get("PARLOUR_ORGANISERS", ""),
        HOUSE_GAMES_PER_PLAYER=int(os.environ.get("PARLOUR_HOUSE_GAMES_PER_PLAYER", "2")),
        HOUSE_GAMES_MAX=int(os.environ.get("PARLOUR_HOUSE_GAMES_MAX", "4")),
    )
    if config:
        app.config.update(config)
    app.extensions["parlour"] = Services.connect(
        app.config["REDIS_URL"],
        max_connections=app.config["REDIS_MAX_CONNECTIONS"],
        block_timeout=app.config["MAX_WAIT"],
        admin_token=app.config["ADMIN_TOKEN"],
        max_wait=app.config["MAX_WAIT"],
        open_registration=app.config["OPEN_REGISTRATION"],
        seed_secret=app.config["SEED_SECRET"],
        guest_ttl=app.config["GUEST_TTL"],
        guest_grace=app.config["GUEST_GRACE"],
        invitation_ttl=app.config["INVITATION_TTL"],
        webhook_allow=app.config["WEBHOOK_ALLOW"],
        invitations_per_inviter=app.config["INVITATIONS_PER_INVITER"],
        invitations_per_invitee=app.config["INVITATIONS_PER_INVITEE"],
        invitations_per_pair=app.config["INVITATIONS_PER_PAIR"],
        lobby_per_creator=app.config["LOBBY_PER_CREATOR"],
        house_bots=app.config["HOUSE_BOTS"],
        organisers=app.config["ORGANISERS"],
        house_games_per_player=app.config["HOUSE_GAMES_PER_PLAYER"],
        house_games_max=app.config["HOUSE_GAMES_MAX"],
    )
    app.extensions["parlour"].visitors.configure(
        enabled=app.config["VISITORS"],
        max_live=app.config["VISITORS_MAX_LIVE"],
        per_client=app.config["VISITORS_PER_CLIENT"],
        period=app.config["VISITORS_PERIOD"],
        idle=app.config["VISITORS_IDLE"],
    )
    app.extensions["parlour"].slots.configure(
        per_player=app.config["STREAMS_PER_PLAYER"],
        per_address=app.config["STREAMS_PER_ADDRESS"],
    )
    errors.register(app)
    headers.register(app)  # every response, errors and unknown URLs too
    app.before_request(load_token)
    ratelimit.register(app)  # after load_token: it counts per token
    for module in BLUEPRINTS:
        app.register_blueprint(module.bp)
    cors.register(app)
    metrics.install(app)  # GET /metrics and the request counters
    return app

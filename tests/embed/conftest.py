"""Fixtures for embedding tests: an app configured for CORS, apps, guests and bot identities.

Tests here fail on any error the server logs (``no_error_logs`` in ``tests/conftest.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from tests.api.helpers import Api
from tests.conftest import ADMIN_TOKEN

ORIGIN = "http://127.0.0.1:9"
"""The allowed browser origin in these tests (nothing listens there: only its name counts)."""
ADMIN = {"Authorization": f"Bearer {ADMIN_TOKEN}"}


@pytest.fixture
def app_config(app_config: dict[str, Any]) -> dict[str, Any]:
    return app_config | {
        "CORS_ORIGINS": ORIGIN,
        "SSE_HEARTBEAT": 0.2,
        "SSE_MAX_SECONDS": 20.0,
        "GUEST_GRACE": 60.0,
    }


@pytest.fixture
def api(client) -> Api:
    return Api(client=client)


@pytest.fixture
def live_api(live_server) -> Api:
    return Api(base_url=live_server.url)


@dataclass(frozen=True)
class App:
    id: str
    token: str


def make_app(api: Api, name: str = "cardroom", invite_url: str | None = None) -> App:
    reply = api.post("/v1/apps", {"name": name, "invite_url": invite_url}, "admin")
    assert reply.status == 201, reply.body
    return App(reply.body["id"], reply.body["token"])


def register_bots(api: Api, count: int = 4) -> dict[str, list[dict]]:
    """Create the pool identities (nobody plays them): bot seats can then be named."""
    body = {
        "bots": [
            {"name": "random", "count": count},
            {"name": "concerto_signals", "games": ["concerto"], "count": count},
        ]
    }
    reply = api.post("/v1/bots", body, "admin")
    assert reply.status == 200, reply.body
    return {b["name"]: b["players"] for b in reply.body["bots"]}


def app_game(api: Api, app: App, seats: list[str | None], **extra: Any) -> dict[str, Any]:
    body = {"game": "concerto", "options": {"deals": 1}, "seats": seats, **extra}
    reply = api.post(f"/v1/apps/{app.id}/games", body, app.token)
    assert reply.status == 201, reply.body
    return reply.body

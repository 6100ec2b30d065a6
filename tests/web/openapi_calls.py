"""The visitors' operations for tests/api/test_openapi.py (each answer validated there)."""

from __future__ import annotations

from typing import Any, Protocol

from tests.conftest import ADMIN_TOKEN


class Call(Protocol):
    def __call__(
        self, method: str, path: str, body: Any = None, token: str | None = None
    ) -> tuple[int, Any]: ...


def exercise_visitors(call: Call) -> None:
    """Settings, a visitor's game against pool identities, and a refused one."""
    status, settings = call("get", "/v1/visitors")
    assert status == 200 and settings["enabled"] is True
    status, _ = call("post", "/v1/bots", {"bots": [{"name": "random", "count": 3}]}, ADMIN_TOKEN)
    assert status == 200
    status, made = call("post", "/v1/visitors/games", {"game": "concerto", "options": {"deals": 1}})
    assert status == 201 and made["seat"] == 0 and made["game"]["status"] == "active"
    assert call("post", "/v1/visitors/games", {"game": "chess"})[0] == 400

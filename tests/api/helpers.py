"""One small HTTP helper for the API tests, over the Flask test client or a real socket."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

import requests

from tests.conftest import ADMIN_TOKEN, Player

CARD = re.compile(r'"([AKQJT98765432][SHDC])"')


def cards_in(text: str) -> set[str]:
    """Every card string that appears (as a JSON string) in ``text``."""
    return set(CARD.findall(text))


@dataclass
class Reply:
    status: int
    body: Any
    text: str
    headers: dict[str, str] = field(default_factory=dict)


def _auth(who: Player | str | None) -> dict[str, str]:
    if who is None:
        return {}
    if who == "admin":
        return {"Authorization": f"Bearer {ADMIN_TOKEN}"}
    if isinstance(who, str):
        return {"Authorization": f"Bearer {who}"}
    return who.headers


class Api:
    """``get``/``post`` returning :class:`Reply`; ``who`` is a Player, "admin", a token or None."""

    def __init__(self, client=None, base_url: str | None = None) -> None:
        self.client = client
        self.base_url = base_url
        self.session = requests.Session() if base_url else None

    def get(self, path: str, who=None, **params: Any) -> Reply:
        if self.session is not None:
            r = self.session.get(
                self.base_url + path, params=params, headers=_auth(who), timeout=30
            )
            return Reply(r.status_code, r.json(), r.text, dict(r.headers))
        r = self.client.get(path, query_string=params, headers=_auth(who))
        return Reply(r.status_code, r.get_json(), r.get_data(as_text=True), dict(r.headers))

    def post(self, path: str, body: Any = None, who=None, raw: str | None = None) -> Reply:
        headers = _auth(who) | {"Content-Type": "application/json"}
        if self.session is not None:
            data = raw if raw is not None else "" if body is None else json.dumps(body)
            r = self.session.post(self.base_url + path, data=data, headers=headers, timeout=30)
            return Reply(r.status_code, r.json(), r.text, dict(r.headers))
        # json.dumps, not the app's encoder: the test must be able to send what orjson can't.
        data = raw if raw is not None else "" if body is None else json.dumps(body)
        r = self.client.post(path, data=data, headers=headers)
        return Reply(r.status_code, r.get_json(), r.get_data(as_text=True), dict(r.headers))

    # -- shortcuts -----------------------------------------------------------------
    def create(self, who, seats: list[str | None], **extra: Any) -> dict[str, Any]:
        reply = self.post("/v1/games", {"game": "concerto", "seats": seats, **extra}, who)
        assert reply.status == 201, reply.body
        return reply.body

    def view(self, game_id: str, who=None) -> dict[str, Any]:
        reply = self.get(f"/v1/games/{game_id}", who)
        assert reply.status == 200, reply.body
        return reply.body

    def move(self, game_id: str, who, move: dict, version: int | None = None) -> Reply:
        body: dict[str, Any] = {"move": move}
        if version is not None:
            body["version"] = version
        return self.post(f"/v1/games/{game_id}/moves", body, who)


def assert_error(reply: Reply, status: int, code: str) -> dict[str, Any]:
    """The reply is docs/api.md's error envelope with this status and code; return its details."""
    assert reply.status == status, (reply.status, reply.body)
    assert set(reply.body) == {"error"}, reply.body
    error = reply.body["error"]
    assert set(error) == {"code", "message", "details"}, error
    assert error["code"] == code, error
    assert isinstance(error["message"], str) and error["message"]
    assert isinstance(error["details"], dict)
    return error["details"]

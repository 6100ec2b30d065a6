"""One small HTTP helper for the API tests, over the Flask test client or a real socket."""

from __future__ import annotations

import http.client
import json
import re
import threading
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode, urlsplit

from tests.conftest import ADMIN_TOKEN, Player

TIMEOUT = 30.0
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
    """``get``/``post`` returning :class:`Reply`; ``who`` is a Player, "admin", a token or None.

    Over a socket it speaks HTTP/1.1 with ``http.client``, one keep-alive connection per
    thread: a request costs half the client time it did with ``requests``, and the tests
    that check every reply of thousands scan what the server sent, not the client's work.
    """

    def __init__(self, client=None, base_url: str | None = None) -> None:
        self.client = client
        self.base_url = base_url
        self.session = Connections(base_url) if base_url else None

    def get(self, path: str, who=None, **params: Any) -> Reply:
        if self.session is not None:
            query = urlencode([(k, v) for k, v in params.items() if v is not None], doseq=True)
            if query:
                path += ("&" if "?" in path else "?") + query
            return self.session.request("GET", path, None, _auth(who))
        r = self.client.get(path, query_string=params, headers=_auth(who))
        return Reply(r.status_code, r.get_json(), r.get_data(as_text=True), dict(r.headers))

    def post(self, path: str, body: Any = None, who=None, raw: str | None = None) -> Reply:
        headers = _auth(who) | {"Content-Type": "application/json"}
        # json.dumps, not the app's encoder: the test must be able to send what orjson can't.
        data = raw if raw is not None else "" if body is None else json.dumps(body)
        if self.session is not None:
            return self.session.request("POST", path, data.encode(), headers)
        r = self.client.post(path, data=data, headers=headers)
        return Reply(r.status_code, r.get_json(), r.get_data(as_text=True), dict(r.headers))

    def delete(self, path: str, who=None) -> Reply:
        if self.session is not None:
            return self.session.request("DELETE", path, None, _auth(who))
        r = self.client.delete(path, headers=_auth(who))
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


class Connections:
    """A keep-alive ``http.client`` connection per thread to one server; ``close`` ends them all
    (idle keep-alive connections would hold a server's graceful stop)."""

    def __init__(self, base_url: str) -> None:
        parts = urlsplit(base_url)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port
        self.prefix = parts.path.rstrip("/")
        self.local = threading.local()
        self.opened: list[http.client.HTTPConnection] = []
        self.lock = threading.Lock()

    def _connection(self) -> http.client.HTTPConnection:
        conn = getattr(self.local, "conn", None)
        if conn is None:
            conn = http.client.HTTPConnection(self.host, self.port, timeout=TIMEOUT)
            self.local.conn = conn
            with self.lock:
                self.opened.append(conn)
        return conn

    def request(self, method: str, path: str, body: bytes | None, headers: dict) -> Reply:
        conn = self._connection()
        reused = conn.sock is not None
        try:
            conn.request(method, self.prefix + path, body=body, headers=headers)
            response = conn.getresponse()
        except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
            if not reused:
                raise
            conn.close()  # the server closed an idle keep-alive connection: once more, anew
            conn.request(method, self.prefix + path, body=body, headers=headers)
            response = conn.getresponse()
        text = response.read().decode("utf-8", errors="replace")
        names: dict[str, str] = {}
        for name, value in response.getheaders():  # repeated headers joined, as requests does
            names[name] = f"{names[name]}, {value}" if name in names else value
        return Reply(response.status, json.loads(text), text, names)

    def close(self) -> None:
        with self.lock:
            for conn in self.opened:
                conn.close()


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

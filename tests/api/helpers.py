"""One small HTTP helper for the API tests, over the Flask test client or a real socket."""

from __future__ import annotations

import http.client
import json
import re
import socket
import threading
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode, urlsplit

from flask.testing import EnvironBuilder

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

    Over a socket it speaks HTTP/1.1 (:class:`Connections`), one keep-alive connection per
    thread: a request costs a fraction of the client time it did with ``requests``, and the
    tests that check every reply of thousands scan what the server sent, not the client's
    work.
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
        return self._local("GET", path, _auth(who), query=params)

    def post(self, path: str, body: Any = None, who=None, raw: str | None = None) -> Reply:
        headers = _auth(who) | {"Content-Type": "application/json"}
        # json.dumps, not the app's encoder: the test must be able to send what orjson can't.
        data = raw if raw is not None else "" if body is None else json.dumps(body)
        if self.session is not None:
            return self.session.request("POST", path, data.encode(), headers)
        return self._local("POST", path, headers, data=data)

    def delete(self, path: str, who=None) -> Reply:
        if self.session is not None:
            return self.session.request("DELETE", path, None, _auth(who))
        return self._local("DELETE", path, _auth(who))

    def _local(self, method: str, path: str, headers: dict, query=None, data=None) -> Reply:
        """The request through the app's WSGI callable, in the environ the test client
        builds (its ``environ_base``: the client's address), read as the client reads it
        (``body`` the JSON of a JSON answer, else None), without the client's response
        object, URL and redirect handling: a fifth of a request's CPU in these tests."""
        builder = EnvironBuilder(
            self.client.application,
            path=path,
            method=method,
            headers=headers,
            query_string=query,
            data=data,
            environ_base=dict(self.client.environ_base),
        )
        try:
            environ = builder.get_environ()
        finally:
            builder.close()
        started: list[Any] = []

        def start_response(status: str, names: list, exc_info: Any = None) -> Any:
            started[:] = [status, names]
            return started.append  # WSGI's write(): chunks after the two

        chunks = self.client.application(environ, start_response)
        try:
            raw = b"".join([*started[2:], *chunks])
        finally:
            getattr(chunks, "close", lambda: None)()
        status, names = started[:2]
        text = raw.decode()
        mimetype = dict(names).get("Content-Type", "").split(";")[0].strip().lower()
        is_json = mimetype == "application/json" or (
            mimetype.startswith("application/") and mimetype.endswith("+json")
        )
        return Reply(
            int(status.split()[0]), json.loads(text) if is_json else None, text, dict(names)
        )

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
    """A keep-alive HTTP/1.1 connection per thread to one server; ``close`` ends them all
    (idle keep-alive connections would hold a server's graceful stop).

    Speaks HTTP/1.1 over a plain socket: the request written as ``http.client`` writes it
    (``Host``, ``Accept-Encoding: identity``, ``Content-Length`` for a body), the answer
    read by its ``Content-Length``, its chunks or to the end (``Connection: close``).
    ``http.client`` parses each answer's headers with the ``email`` package, a third of
    the client's CPU in a test that sends thousands of requests.
    """

    def __init__(self, base_url: str) -> None:
        parts = urlsplit(base_url)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80
        self.prefix = parts.path.rstrip("/")
        self.host_header = self.host if self.port == 80 else f"{self.host}:{self.port}"
        self.local = threading.local()
        self.opened: list[_Connection] = []
        self.lock = threading.Lock()

    def _connection(self) -> _Connection:
        conn = getattr(self.local, "conn", None)
        if conn is None or conn.closed:
            conn = _Connection(self.host, self.port)
            self.local.conn = conn
            with self.lock:
                self.opened.append(conn)
        return conn

    def request(self, method: str, path: str, body: bytes | None, headers: dict) -> Reply:
        lines = [f"{method} {self.prefix}{path} HTTP/1.1", f"Host: {self.host_header}"]
        lines.append("Accept-Encoding: identity")
        if body is not None or method in ("POST", "PUT", "PATCH"):
            lines.append(f"Content-Length: {len(body or b'')}")
        for name, value in headers.items():
            if "\r" in f"{name}{value}" or "\n" in f"{name}{value}":
                raise ValueError(f"Invalid header {name!r}: {value!r}")  # as http.client
            lines.append(f"{name}: {value}")
        head = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")
        data = head + (body or b"")
        conn = self._connection()
        try:
            status, names, raw = conn.exchange(data, method)
        except _Dropped:
            # The server closed an idle keep-alive connection before answering: once more,
            # anew (a fresh connection that fails raises).
            conn.close()
            conn = self._connection()
            status, names, raw = conn.exchange(data, method, fresh=True)
        text = raw.decode("utf-8", errors="replace")
        return Reply(status, json.loads(text), text, names)

    def close(self) -> None:
        with self.lock:
            for conn in self.opened:
                conn.close()


class _Dropped(Exception):
    """A reused connection closed before any byte of the answer came."""


class _Connection:
    def __init__(self, host: str, port: int) -> None:
        self.sock = socket.create_connection((host, port), timeout=TIMEOUT)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.file = self.sock.makefile("rb")
        self.used = False
        self.closed = False

    def exchange(
        self, data: bytes, method: str, fresh: bool = False
    ) -> tuple[int, dict[str, str], bytes]:
        reused = self.used and not fresh
        self.used = True
        try:
            self.sock.sendall(data)
            line = self.file.readline(65537)
        except (BrokenPipeError, ConnectionResetError):
            if reused:
                raise _Dropped from None
            raise
        if not line:
            if reused:
                raise _Dropped
            raise http.client.RemoteDisconnected("Remote end closed connection without response")
        version, status, *_ = line.split(None, 2)
        names: dict[str, str] = {}
        while True:
            header = self.file.readline(65537)
            if header in (b"\r\n", b"\n", b""):
                break
            name, _, value = header.decode("latin-1").partition(":")
            name, value = name.strip(), value.strip()
            # repeated headers joined, as requests does
            names[name] = f"{names[name]}, {value}" if name in names else value
        lower = {k.lower(): v.lower() for k, v in names.items()}
        code = int(status)
        keep = version == b"HTTP/1.1" and lower.get("connection") != "close"
        if method == "HEAD" or code in (204, 304) or 100 <= code < 200:
            body = b""
        elif "chunked" in lower.get("transfer-encoding", ""):
            body = self._chunks()
        elif "content-length" in lower:
            length = int(lower["content-length"])
            body = self.file.read(length)
            if len(body) != length:
                raise http.client.IncompleteRead(body, length - len(body))
        else:
            body, keep = self.file.read(), False  # to the end
        if not keep:
            self.close()
        return code, names, body

    def _chunks(self) -> bytes:
        parts = []
        while True:
            size = int(self.file.readline(65537).split(b";")[0], 16)
            if size == 0:
                while self.file.readline(65537) not in (b"\r\n", b"\n", b""):
                    pass  # trailers
                return b"".join(parts)
            parts.append(self.file.read(size))
            self.file.readline(65537)  # the chunk's CRLF

    def close(self) -> None:
        self.closed = True
        self.file.close()
        self.sock.close()


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

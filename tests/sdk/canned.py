"""A tiny real HTTP server (stdlib ``http.server``) that answers from a script.

For the SDK's error mapping and retry policy: each request pops the next
scripted answer — a status, a JSON body and headers, or ``DROP`` (close the
connection without answering) — and is recorded, so a test can assert how
many attempts were made and what was sent. It binds 127.0.0.1 on a free port.
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

DROP = "drop"


@dataclass
class Answer:
    status: int = 200
    body: Any = field(default_factory=dict)
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0
    raw: bytes | None = None
    cut: int = 0
    """Bytes the Content-Length promises but the server never sends: it closes instead
    (a server going down halfway through its answer)."""


@dataclass
class Seen:
    method: str
    path: str
    query: dict[str, list[str]]
    headers: dict[str, str]
    body: Any


class CannedServer:
    """``with CannedServer() as server: server.answer(...); Client(server.url)``."""

    def __init__(self) -> None:
        self.script: deque[Answer | str] = deque()
        self.seen: list[Seen] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:  # keep test output clean
                pass

            def _handle(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                parts = urlsplit(self.path)
                outer.seen.append(Seen(
                    self.command, parts.path, parse_qs(parts.query),
                    {k.lower(): v for k, v in self.headers.items()},
                    json.loads(raw) if raw else None,
                ))  # fmt: skip
                answer = (
                    outer.script.popleft()
                    if outer.script
                    else Answer(
                        599, {"error": {"code": "script_exhausted", "message": "no answer left"}}
                    )
                )
                if answer == DROP:
                    self.close_connection = True
                    return
                assert isinstance(answer, Answer)
                if answer.delay:
                    time.sleep(answer.delay)
                payload = answer.raw if answer.raw is not None else json.dumps(answer.body).encode()
                self.send_response(answer.status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload) + answer.cut))
                for k, v in answer.headers.items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(payload)
                if answer.cut:
                    self.close_connection = True

            do_GET = do_POST = do_PUT = do_DELETE = _handle

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_port}"
        self._thread = threading.Thread(
            target=self.httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )

    def answer(self, *answers: Answer | str) -> CannedServer:
        self.script.extend(answers)
        return self

    def __enter__(self) -> CannedServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self._thread.join(5)


def error(status: int, code: str, details: dict | None = None, **headers: str) -> Answer:
    """An docs/api.md error envelope answer."""
    body = {"error": {"code": code, "message": f"{code} happened", "details": details or {}}}
    return Answer(status, body, {k.replace("_", "-"): v for k, v in headers.items()})

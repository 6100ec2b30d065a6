"""What the SDK tests' small stand-in servers share: HTTP/1.1, quiet, JSON answers."""

from __future__ import annotations

from http.server import BaseHTTPRequestHandler
from typing import Any

import orjson


class JsonHandler(BaseHTTPRequestHandler):
    """A keep-alive handler that logs nothing and answers JSON with ``_json``."""

    protocol_version = "HTTP/1.1"

    def log_message(self, *args: Any) -> None:
        pass

    def _json(self, body: Any) -> None:
        payload = orjson.dumps(body)
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

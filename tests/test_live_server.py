"""The tests' live server (``live_server`` in tests/conftest.py) keeps a connection alive.

Werkzeug's own handler closes every connection after its reply; a test sending
thousands of requests then paid a connection and a server thread for each. Kept
alive, a body the app never read must still not be taken for the next request.
"""

from __future__ import annotations

import http.client
import json
from urllib.parse import urlsplit

from tests.conftest import LiveServer


def _connection(live_server: LiveServer) -> http.client.HTTPConnection:
    url = urlsplit(live_server.url)
    return http.client.HTTPConnection(url.hostname or "127.0.0.1", url.port, timeout=10)


def test_requests_share_one_connection(live_server: LiveServer) -> None:
    conn = _connection(live_server)
    try:
        conn.request("GET", "/healthz")
        sock = conn.sock
        first = conn.getresponse()
        first.read()
        assert first.status == 200 and first.getheader("Connection") != "close"
        conn.request("GET", "/healthz")
        assert conn.sock is sock  # sent on the same socket, not a new one
        second = conn.getresponse()
        second.read()
        assert second.status == 200
    finally:
        conn.close()


def test_a_body_the_app_did_not_read_is_not_the_next_request(live_server: LiveServer) -> None:
    conn = _connection(live_server)
    try:
        # Refused before the body is read (no token); the body looks like a request.
        body = b"GET /nowhere HTTP/1.1\r\nHost: x\r\n\r\n"
        plain = {"Content-Type": "text/plain"}
        conn.request("POST", "/v1/players/me/token", body=body, headers=plain)
        sock = conn.sock
        refused = conn.getresponse()
        refused.read()
        assert refused.status == 401
        conn.request("GET", "/healthz")
        assert conn.sock is sock
        health = conn.getresponse()
        assert health.status == 200, health.read()
        assert json.loads(health.read())["ok"] is True
    finally:
        conn.close()

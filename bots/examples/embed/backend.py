"""A third-party app that embeds Parlour: a tiny backend (standard library only) and its page.

Why a backend, and not a page where the user types the app token: the app
token creates games and registers webhooks (which make Parlour POST to a URL
of the token holder's choice), so it belongs on a server, never in a browser.
This backend holds it; each person only ever gets a guest token, bound to one
seat of one game and expiring with it. The page then talks to Parlour
directly, from this origin to Parlour's (CORS), for everything about the game:
the view, the moves, and the live event stream.

Routes:

* ``GET /``, ``/embed.js`` — the page (a lobby, or the table when the URL's
  fragment holds an invitation: ``#game=..&seat=..&token=..``);
* ``GET /config.json`` — where Parlour is, for the page;
* ``POST /api/games`` — a new Concerto game against three server bots; answers
  the invitation link (the app token never leaves this process);
* ``POST /webhook`` — Parlour's signed notifications, verified (HMAC-SHA256);
* ``GET /api/webhooks`` — the notifications received, for the curious (and tests).

Run it (Parlour must allow this origin: ``PARLOUR_CORS_ORIGINS=http://127.0.0.1:9000``)::

    # once, as the admin: an app whose invitations point at this page
    curl -s -X POST http://127.0.0.1:8000/v1/apps -H "Authorization: Bearer $ADMIN" \\
         -d '{"name": "example", "invite_url": "http://127.0.0.1:9000/"}'
    PARLOUR_APP_ID=... PARLOUR_APP_TOKEN=... \\
        python bots/examples/embed/backend.py --parlour http://127.0.0.1:8000 --port 9000
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import json
import os
import sys
import threading
import time
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
STATIC = {
    "/": ("index.html", "text/html; charset=utf-8"),
    "/index.html": ("index.html", "text/html; charset=utf-8"),
    "/embed.js": ("embed.js", "text/javascript; charset=utf-8"),
}


def verify(secret: str, header: str, body: bytes, tolerance: float = 300) -> bool:
    """Check ``Parlour-Signature: t=<ts>,v1=<hex HMAC-SHA256(secret, "<ts>." + body)>``."""
    parts = dict(p.split("=", 1) for p in header.split(",") if "=" in p)
    try:
        timestamp = int(parts["t"])
    except (KeyError, ValueError):
        return False
    if abs(time.time() - timestamp) > tolerance:
        return False
    mac = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(mac, parts.get("v1", ""))


class Parlour:
    """The few Parlour calls this app makes, with its app token."""

    def __init__(self, url: str, app_id: str, app_token: str) -> None:
        self.url, self.app_id, self.app_token = url.rstrip("/"), app_id, app_token

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        request = urllib.request.Request(
            self.url + path,
            data=json.dumps(body).encode(),
            method="POST",
            headers={
                "Authorization": f"Bearer {self.app_token}",
                "Content-Type": "application/json",
            },
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.load(response)

    def new_game(self, bot: str, deals: int) -> dict[str, Any]:
        return self.post(
            f"/v1/apps/{self.app_id}/games",
            {
                "game": "concerto",
                "options": {"deals": deals},
                "seats": [None, f"bot:{bot}", f"bot:{bot}", f"bot:{bot}"],
                "guest_names": ["You"],
            },
        )

    def add_webhook(self, url: str) -> str:
        """Register ``url`` for every notification; returns the signing secret."""
        return self.post(f"/v1/apps/{self.app_id}/webhooks", {"url": url})["secret"]


class App:
    """What the backend keeps: its Parlour client, its webhook secret, what it received."""

    def __init__(self, parlour: Parlour, bot: str, deals: int) -> None:
        self.parlour, self.bot, self.deals = parlour, bot, deals
        self.webhook_secret: str | None = None
        self.received: list[dict[str, Any]] = []
        self.lock = threading.Lock()


def handler_for(app: App) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - the stdlib's name
            path = self.path.split("?", 1)[0]
            if path in STATIC:
                name, kind = STATIC[path]
                self._send(200, (HERE / name).read_bytes(), kind)
            elif path == "/config.json":
                self._json(200, {"api": app.parlour.url})
            elif path == "/api/webhooks":
                with app.lock:
                    self._json(200, {"received": list(app.received)})
            else:
                self._json(404, {"error": "not found"})

        def do_POST(self) -> None:  # noqa: N802
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            if self.path == "/api/games":
                try:
                    made = app.parlour.new_game(app.bot, app.deals)
                except (urllib.error.URLError, OSError) as exc:
                    self._json(502, {"error": f"Parlour did not create the game: {exc}"})
                    return
                invitation = made["invitations"][0]
                self._json(201, {"game_id": made["game"]["id"], "url": invitation["url"]})
            elif self.path == "/webhook":
                ok = app.webhook_secret is not None and verify(
                    app.webhook_secret, self.headers.get("Parlour-Signature", ""), body
                )
                with app.lock:
                    app.received.append(
                        {
                            "event": self.headers.get("Parlour-Event"),
                            "verified": ok,
                            "body": json.loads(body or b"null"),
                        }
                    )
                self._send(204 if ok else 400, b"", "text/plain")
            else:
                self._json(404, {"error": "not found"})

        def _json(self, status: int, body: Any) -> None:
            self._send(status, json.dumps(body).encode(), "application/json")

        def _send(self, status: int, data: bytes, kind: str) -> None:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: Any) -> None:
            pass

    return Handler


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--parlour", default=os.environ.get("PARLOUR_SERVER", "http://127.0.0.1:8000")
    )
    parser.add_argument("--port", type=int, default=9000)
    parser.add_argument("--bot", default="concerto_signals", help="the server bot to play")
    parser.add_argument("--deals", type=int, default=1, help="deals per game")
    parser.add_argument(
        "--no-webhook",
        action="store_true",
        help="do not register this backend's /webhook with Parlour",
    )
    args = parser.parse_args(argv)
    app_id, token = os.environ.get("PARLOUR_APP_ID"), os.environ.get("PARLOUR_APP_TOKEN")
    if not app_id or not token:
        print(
            "set PARLOUR_APP_ID and PARLOUR_APP_TOKEN (POST /v1/apps as the admin)", file=sys.stderr
        )
        return 2
    app = App(Parlour(args.parlour, app_id, token), args.bot, args.deals)
    server = ThreadingHTTPServer(("127.0.0.1", args.port), handler_for(app))
    if not args.no_webhook:
        app.webhook_secret = app.parlour.add_webhook(
            f"http://127.0.0.1:{server.server_port}/webhook"
        )
    print(f"example app on http://127.0.0.1:{server.server_port}/", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())

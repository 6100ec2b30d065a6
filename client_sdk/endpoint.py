"""A bot as a URL: the callback endpoint the server POSTs each turn to.

A player that registers a callback (``client.players.set_callback(url)``,
docs/callbacks.md) is played by the server through it: each turn of its seats is
one signed ``POST`` whose body is the turn entry, as ``GET /v1/me/turns`` lists
it, plus a unique call ``id``::

    {"id": "...", "game_id": "...", "seat": 0, "version": 12, "view": {...},
     "clock": {"deadline": "...", "bank_ms": 30000, "last_latency_ms": 41}}

and the answer is ``200 {"move": {...}}``. :func:`make_app` is that endpoint as a
WSGI application around a :class:`~client_sdk.Bot` (the one the runner plays, asked
through the same :class:`~client_sdk.decider.Decider`), and :func:`make_server`
serves it with the standard library (``parlour-bot serve module:Class --port N``).

Before the bot is asked, a call must pass, else it is refused with a 4xx and the
bot never sees it:

* a body of at most ``max_body`` bytes, with a ``Content-Length`` (413, 411);
* ``Parlour-Signature: t=<unix s>,v1=<hex>``, the HMAC-SHA256 under the callback
  secret of ``f"{t}.".encode() + body``, made less than ``tolerance`` seconds
  from now (401): nobody without the secret can make a call, and an old one
  recorded on the way cannot be sent again later;
* a call ``id`` not seen within the tolerance window (409): a call sent twice
  is refused the second time (a retry of a turn comes with a new id);
* a JSON object with a ``game_id`` and a ``view`` holding legal moves (400).

Examples:
    >>> from client_sdk import Bot
    >>> class First(Bot):
    ...     def choose_move(self, view):
    ...         return view["legal_moves"][0]
    >>> app = make_app(First(), "cbs_s3cret")
    >>> view = b'{"legal_moves": [{"type": "pass"}]}'
    >>> body = b'{"id": "c1", "game_id": "g", "seat": 0, "view": ' + view + b'}'
    >>> call(app, body, {SIGNATURE_HEADER: sign("cbs_s3cret", body)})
    (200, {'move': {'type': 'pass'}})
    >>> call(app, body, {SIGNATURE_HEADER: sign("cbs_s3cret", body)})[0]  # the same call again
    409
    >>> call(app, body, {SIGNATURE_HEADER: sign("not the secret", body)})[0]
    401
"""

from __future__ import annotations

import hashlib
import hmac
import io
import json
import logging
import socket
import socketserver
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping
from typing import IO, Any, cast
from wsgiref.simple_server import ServerHandler, WSGIRequestHandler, WSGIServer

from .bot import Bot
from .decider import Decider
from .types import View

log = logging.getLogger("client_sdk.endpoint")

SIGNATURE_HEADER = "Parlour-Signature"
TOLERANCE = 300.0
"""Seconds a signature stays valid either side of now (the server signs at sending)."""
MAX_BODY = 1 << 20
"""The largest call body read, in bytes (a turn's view is a few KiB)."""
MAX_CALL_IDS = 100_000
"""Call ids remembered at most (those older than the tolerance are forgotten first)."""

StartResponse = Callable[[str, list[tuple[str, str]]], Any]
WsgiApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]


class Refused(Exception):
    """A call the endpoint refuses: the HTTP status, an error code and a message."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


def sign(secret: str, body: bytes, timestamp: int | None = None) -> str:
    """The ``Parlour-Signature`` value of ``body`` sent at ``timestamp`` (default: now).

    What the server sends; here to test an endpoint with.

    >>> sign("s", b"{}", 1)
    't=1,v1=b253639bcd705ed1cda3073f66104f16988bd40272584dea7d0d345ae93e61cc'
    """
    t = int(time.time()) if timestamp is None else timestamp
    mac = hmac.new(secret.encode(), f"{t}.".encode() + body, hashlib.sha256)
    return f"t={t},v1={mac.hexdigest()}"


def verify(
    secret: str, header: str, body: bytes, *, now: float | None = None, tolerance: float = TOLERANCE
) -> int:
    """The timestamp of ``header`` if it is a valid signature of ``body`` made less
    than ``tolerance`` seconds from ``now``.

    Raises:
        Refused: (401) no signature, a wrong one, or one too old (or too far ahead).

    >>> verify("s", sign("s", b"{}", 100), b"{}", now=150)
    100
    >>> verify("s", sign("s", b"{}", 100), b"{}", now=500)
    Traceback (most recent call last):
    ...
    client_sdk.endpoint.Refused: the signature's timestamp is 400 s from now (at most 300 s)
    """
    parts = dict(p.strip().split("=", 1) for p in header.split(",") if "=" in p)
    try:
        timestamp = int(parts["t"])
    except (KeyError, ValueError):
        raise Refused(401, "unauthorized", f"no valid {SIGNATURE_HEADER} header") from None
    now = time.time() if now is None else now
    if abs(now - timestamp) > tolerance:
        raise Refused(
            401,
            "unauthorized",
            f"the signature's timestamp is {abs(now - timestamp):.0f} s from now "
            f"(at most {tolerance:.0f} s)",
        )
    expected = sign(secret, body, timestamp).split("v1=", 1)[1]
    if not hmac.compare_digest(expected, parts.get("v1", "")):
        raise Refused(401, "unauthorized", "the signature does not match the body")
    return timestamp


class CallIds:
    """The call ids seen in the last ``window`` seconds: a call sent again is a replay.

    A replayed call carries its valid signature, so only its id tells it apart;
    past the window its timestamp is refused anyway, so ids are kept no longer
    (and no more than ``limit`` of them, oldest forgotten first).

    >>> ids = CallIds(window=300)
    >>> ids.first("c1", now=0), ids.first("c1", now=100), ids.first("c1", now=400)
    (True, False, True)
    """

    def __init__(self, window: float = TOLERANCE, limit: int = MAX_CALL_IDS) -> None:
        self.window = window
        self.limit = limit
        self._seen: OrderedDict[str, float] = OrderedDict()
        self._lock = threading.Lock()

    def first(self, call_id: str, now: float | None = None) -> bool:
        """Record ``call_id``; whether it was not seen within the window."""
        now = time.monotonic() if now is None else now
        with self._lock:
            while self._seen and (
                len(self._seen) >= self.limit or next(iter(self._seen.values())) < now - self.window
            ):
                self._seen.popitem(last=False)
            if call_id in self._seen:
                return False
            self._seen[call_id] = now
            return True


def read_body(environ: Mapping[str, Any], max_body: int) -> bytes:
    """The body of a ``POST`` of at most ``max_body`` bytes (more is never read).

    Raises:
        Refused: another method (405), no ``Content-Length`` (411), too long (413).
    """
    if environ.get("REQUEST_METHOD") != "POST":
        raise Refused(405, "method_not_allowed", "a callback is a POST")
    length_text = str(environ.get("CONTENT_LENGTH") or "").strip()
    if not length_text.isdigit():
        raise Refused(411, "length_required", "a call needs a Content-Length")
    length = int(length_text)
    if length > max_body:
        raise Refused(413, "payload_too_large", f"the body is over {max_body} bytes")
    body: bytes = environ["wsgi.input"].read(length) if length else b""
    return body


def parse_call(body: bytes) -> tuple[str, str, View]:
    """A call's ``id``, ``game_id`` and ``view`` (one holding legal moves).

    Raises:
        Refused: (400) not JSON, or not a call of that shape.
    """
    try:
        call = json.loads(body)
    except ValueError:
        raise Refused(400, "invalid_request", "the body is not JSON") from None
    if not isinstance(call, dict):
        raise Refused(400, "invalid_request", "the body is not a JSON object")
    call_id, game_id, view = call.get("id"), call.get("game_id"), call.get("view")
    if not isinstance(call_id, str) or not call_id:
        raise Refused(400, "invalid_request", "the call has no id")
    if not isinstance(game_id, str) or not isinstance(view, dict):
        raise Refused(400, "invalid_request", "the call has no game_id and view")
    if not view.get("legal_moves"):
        raise Refused(400, "invalid_request", "the view has no legal moves")
    return call_id, game_id, cast(View, view)


def make_app(
    bot: Bot,
    secret: str,
    *,
    tolerance: float = TOLERANCE,
    max_body: int = MAX_BODY,
) -> WsgiApp:
    """The callback endpoint of ``bot`` as a WSGI application.

    Any path answers (a platform may mount it anywhere); only ``POST`` is allowed.
    Refusals are ``{"error": {"code", "message"}}`` with a 4xx; a bot that raises
    gets a 500 (logged here, nothing of it said to the caller).

    Args:
        bot: the bot asked for each move.
        secret: the callback secret (``cbs_...``) the server signs calls with.
        tolerance: seconds a signature's timestamp may be from now.
        max_body: the largest body read, in bytes.
    """
    if not secret:
        raise ValueError("a callback endpoint needs the callback's secret")
    decider = Decider(bot)
    call_ids = CallIds(window=2 * tolerance)  # a timestamp is valid tolerance either side

    def answer(environ: Mapping[str, Any]) -> Any:
        body = read_body(environ, max_body)
        verify(secret, environ.get("HTTP_PARLOUR_SIGNATURE", ""), body, tolerance=tolerance)
        call_id, game_id, view = parse_call(body)
        if not call_ids.first(call_id):  # after the signature: nobody else can spend an id
            raise Refused(409, "replayed", "this call was received already")
        return {"move": decider.move(game_id, view)}

    def app(environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        try:
            status, payload = 200, answer(environ)
        except Refused as exc:
            log.warning("call refused (%d %s): %s", exc.status, exc.code, exc.message)
            status, payload = exc.status, {"error": {"code": exc.code, "message": exc.message}}
        except Exception:
            log.exception("the bot failed on a call")
            status = 500
            payload = {"error": {"code": "internal", "message": "the bot failed"}}
        data = json.dumps(payload).encode()
        headers = [("Content-Type", "application/json"), ("Content-Length", str(len(data)))]
        if status == 405:
            headers.append(("Allow", "POST"))
        start_response(f"{status} {_REASONS.get(status, 'Error')}", headers)
        return [data]

    return app


_REASONS = {
    200: "OK",
    400: "Bad Request",
    401: "Unauthorized",
    405: "Method Not Allowed",
    409: "Conflict",
    411: "Length Required",
    413: "Payload Too Large",
    500: "Internal Server Error",
}


def call(app: WsgiApp, body: bytes, headers: Mapping[str, str]) -> tuple[int, Any]:
    """POST ``body`` to the WSGI ``app`` in-process; its status and decoded answer.

    For tests and for a platform's handler that has the request in hand.
    """
    environ: dict[str, Any] = {
        "REQUEST_METHOD": "POST",
        "PATH_INFO": "/",
        "CONTENT_LENGTH": str(len(body)),
        "CONTENT_TYPE": "application/json",
        "wsgi.input": io.BytesIO(body),
        **{"HTTP_" + k.upper().replace("-", "_"): v for k, v in headers.items()},
    }
    started: list[str] = []
    data = b"".join(app(environ, lambda status, _headers: started.append(status)))
    return int(started[0].split()[0]), json.loads(data)


class _KeepAliveHandler(ServerHandler):
    """wsgiref's request handler answering in HTTP/1.1, the connection closed after
    anything but a 200 (a refused call's body may be left unread on it)."""

    http_version = "1.1"

    def __init__(self, connection: _Handler) -> None:
        super().__init__(
            connection.rfile,
            cast(IO[bytes], connection.wfile),
            connection.get_stderr(),
            connection.get_environ(),
            multithread=True,
        )
        self.connection = connection
        self.request_handler = connection  # wsgiref's back-pointer, for the log line

    def cleanup_headers(self) -> None:
        super().cleanup_headers()
        wsgiref = cast(Any, self)  # status and headers: set by BaseHandler, not typed
        if not str(wsgiref.status).startswith("200 "):
            self.connection.close_connection = True
        if self.connection.close_connection:
            wsgiref.headers["Connection"] = "close"


class _Handler(WSGIRequestHandler):
    """wsgiref's connection handler, keeping a connection for the next call (the server
    keeps a pool per bot host), logging through :data:`log`, and giving up on a client
    idle or slow for ``timeout`` seconds."""

    protocol_version = "HTTP/1.1"
    timeout = 30

    def setup(self) -> None:
        super().setup()
        # wsgiref writes the headers and the body apart: on a kept connection Nagle's
        # algorithm would hold the body until the caller's delayed ACK, ~40 ms a call
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def handle(self) -> None:
        self.close_connection = True
        self._handle_one()
        while not self.close_connection:
            self._handle_one()

    def _handle_one(self) -> None:
        try:
            self.raw_requestline = self.rfile.readline(65537)
        except TimeoutError:
            self.close_connection = True
            return
        if not self.raw_requestline or len(self.raw_requestline) > 65536:
            self.close_connection = True
            return
        if not self.parse_request():  # it answered the error, and closes
            return
        app = cast(WSGIServer, self.server).get_app()
        if app is None:  # bound, not serving yet: serve_forever comes after set_app
            self.close_connection = True
            return
        _KeepAliveHandler(self).run(app)

    def log_message(self, format: str, *args: Any) -> None:
        log.info("%s %s", self.address_string(), format % args)


class ThreadingServer(socketserver.ThreadingMixIn, WSGIServer):
    """wsgiref's server, one thread per connection (a slow move holds up no other)."""

    daemon_threads = True


def make_server(app: WsgiApp | None, host: str = "127.0.0.1", port: int = 0) -> ThreadingServer:
    """A server bound to ``host:port`` (``0``: a free port, read ``server_port``) for
    ``app`` (or one given later with ``set_app``); call ``serve_forever()`` (in a
    thread, say) and ``shutdown()``, then ``server_close()``.

    >>> server = make_server(make_app(Bot(), "cbs_x"))
    >>> server.server_port > 0
    True
    >>> server.server_close()
    """
    server = ThreadingServer((host, port), _Handler)
    if app is not None:
        server.set_app(app)
    return server

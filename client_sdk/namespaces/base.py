"""What every namespace shares: the :class:`Requestor` (auth, timeout, retries, errors,
server-sent events) and :class:`_Namespace`, the base of the namespace classes.

Every namespace method builds a path (each id escaped by :func:`_q`), calls
:meth:`Requestor.request`, :meth:`Requestor.lines` or :meth:`Requestor.stream`, and
returns the decoded JSON unchanged (typed by :mod:`client_sdk.types`). Errors are
raised as the typed exceptions of :mod:`client_sdk.errors`.
"""

from __future__ import annotations

import json as jsonlib  # `json` is the body parameter's name below
import logging
import random
import time
from collections.abc import Callable, Iterator, Mapping
from typing import Any
from urllib.parse import parse_qs, quote, urlsplit

import requests
import urllib3

from ..errors import (
    BadFrame,
    ConnectionError,
    ParlourError,
    RateLimited,
    error_from_body,
    parse_retry_after,
)
from ..sse import Message as SseMessage
from ..sse import SseParser

log = logging.getLogger("client_sdk")

USER_AGENT = "parlour-client-sdk/0.1"

# What requests raises when no HTTP answer arrived. (Other RequestExceptions,
# such as a malformed URL, are programming errors and are never retried.)
_TRANSPORT_ERRORS = (
    requests.ConnectionError,
    requests.Timeout,
    requests.exceptions.ChunkedEncodingError,
    urllib3.exceptions.HTTPError,  # read from the raw response: a stream's bytes
)


def _never_sent(exc: BaseException) -> bool:
    """True when the request certainly never reached the server.

    A connect timeout or a refused connection happen before a single byte of
    the request is sent, so even a non-idempotent call may be retried. urllib3
    (requests' transport) reports a refused connection as a
    ``NewConnectionError`` inside the ``MaxRetryError`` that requests wraps;
    we match it by name because the SDK depends on requests alone.
    """
    if isinstance(exc, requests.ConnectTimeout):
        return True
    reason = getattr(exc.args[0], "reason", None) if exc.args else None
    return type(reason).__name__ == "NewConnectionError"


class Requestor:
    """Sends every request of a :class:`Client`: auth, timeout, retries, errors.

    Retry policy (adapted from stripe-python's):

    * **connection errors and 5xx** are retried with exponential backoff and
      jitter, but only when repeating the call cannot do something twice: GETs,
      and moves sent with a ``version`` (the server answers a repeated
      move + version with the current view, so ``version`` is our idempotency
      key). A call that was certainly never sent (refused, connect timeout) and
      a 503 (the server did not act) are retried for every call.
    * **429** is retried after the ``Retry-After`` the server asked for.
    * **Never 4xx otherwise**: a 409 or 422 means the game moved on or the
      move is wrong; repeating it cannot help. The caller re-reads the view.

    Args:
        base_url: the server root, e.g. ``http://127.0.0.1:8000`` (no ``/v1``).
        token: bearer token of the player, or ``None`` (registration, spectating).
        session: the ``requests.Session`` shared by every namespace.
        timeout: seconds to wait for a connection and for an answer; long-poll
            calls add their ``wait`` to it.
        max_retries: retries after the first attempt (so 2 means 3 attempts).
        backoff: first retry delay in seconds; doubles each retry.
        max_backoff: cap on one delay, also the longest ``Retry-After`` honoured.
        sleep: how to wait (tests inject a recorder).
        rng: the jitter's random source.
    """

    def __init__(
        self,
        base_url: str,
        token: str | None,
        session: requests.Session,
        *,
        timeout: float = 10.0,
        max_retries: int = 2,
        backoff: float = 0.25,
        max_backoff: float = 8.0,
        sleep: Callable[[float], None] = time.sleep,
        rng: random.Random | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.token = token
        self.session = session
        self.timeout = timeout
        self.max_retries = max_retries
        self.backoff = backoff
        self.max_backoff = max_backoff
        self.sleep = sleep
        self._rng = rng or random.Random()

    def request(
        self,
        method: str,
        path: str,
        *,
        json: Any = None,
        params: Mapping[str, Any] | None = None,
        timeout: float | None = None,
        idempotent: bool | None = None,
    ) -> Any:
        """Send one API call and return its decoded JSON body.

        Args:
            method: HTTP method.
            path: absolute API path, e.g. ``/v1/games/abc``.
            json: request body.
            params: query string (``None`` values are left out).
            timeout: seconds for this call (default: the client's).
            idempotent: may a repeat of this call be applied twice? Defaults
                to ``True`` for GET and ``False`` otherwise.

        Raises:
            ConnectionError: no answer, after the retries allowed.
            ParlourError: the subclass :data:`~client_sdk.errors.ERRORS_BY_CODE`
                names for the answer's error code.
        """
        response = self._send(method, path, json=json, params=params, timeout=timeout,
                              idempotent=idempotent, accept="application/json")  # fmt: skip
        return _decode(response)

    def text(self, path: str, params: Mapping[str, Any] | None = None) -> str:
        """``GET`` a text body (a CSV sheet); retried as :meth:`request` retries a GET.

        Raises:
            ConnectionError, ParlourError: as :meth:`request`.
        """
        return self._send("GET", path, params=params, accept="text/csv, text/plain").text

    def lines(
        self, path: str, *, params: Mapping[str, Any] | None = None
    ) -> tuple[list[Any], str | None]:
        """``GET`` a JSON Lines page: its decoded lines and the ``Link: <...>; rel="next"``
        URL's ``cursor`` (None on the last page). Retried as :meth:`request` retries a GET.

        Raises:
            ConnectionError, ParlourError: as :meth:`request`.
        """
        response = self._send("GET", path, params=params, accept="application/x-ndjson")
        try:
            rows = [jsonlib.loads(line) for line in response.text.splitlines() if line]
        except ValueError as exc:
            raise ParlourError(
                "the server answered with a line that is not JSON",
                status=response.status_code,
                code="invalid_response",
            ) from exc
        following = response.links.get("next", {}).get("url")
        cursor = None
        if following:
            found = parse_qs(urlsplit(following).query).get("cursor")
            cursor = found[0] if found else None
        return rows, cursor

    def _send(
        self,
        method: str,
        path: str,
        *,
        json: Any = None,
        params: Mapping[str, Any] | None = None,
        timeout: float | None = None,
        idempotent: bool | None = None,
        accept: str,
    ) -> requests.Response:
        """One API call with retries: the 2xx response (see :meth:`request`)."""
        if idempotent is None:
            idempotent = method.upper() == "GET"
        url = self.base_url + path
        headers = self._headers(accept)
        query = {k: v for k, v in (params or {}).items() if v is not None}
        attempt = 0
        while True:
            try:
                response = self.session.request(
                    method,
                    url,
                    json=json,
                    params=query,
                    headers=headers,
                    timeout=self.timeout if timeout is None else timeout,
                )
            except _TRANSPORT_ERRORS as exc:
                error: ParlourError = ConnectionError(
                    f"{method} {path}: {type(exc).__name__}", code="connection_error"
                )
                retryable = idempotent or _never_sent(exc)
                if not retryable or attempt >= self.max_retries:
                    raise error from exc
                delay = self._backoff(attempt)
            else:
                if 200 <= response.status_code < 300:
                    return response
                error = _error_of(response)
                delay_or_none = self._retry_delay(response.status_code, error, idempotent, attempt)
                if delay_or_none is None or attempt >= self.max_retries:
                    raise error
                delay = delay_or_none
            attempt += 1
            log.info("%s %s: %s; retry %d in %.2fs", method, path, error.code, attempt, delay)
            self.sleep(delay)

    def _headers(self, accept: str) -> dict[str, str]:
        headers = {"Accept": accept, "User-Agent": USER_AGENT}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        return headers

    def stream(
        self,
        path: str,
        *,
        params: Mapping[str, Any] | None = None,
        last_event_id: str | None = None,
        timeout: float = 60.0,
        heartbeats: bool = False,
    ) -> Iterator[dict[str, Any]]:
        """Read a server-sent events stream; yield ``{"id", "event", "data"}`` per event.

        The stream is parsed by the spec (:mod:`client_sdk.sse`): lines end only at
        CR, LF or CRLF, so no character inside a JSON string can cut a message.
        ``event`` is the message's type (``"message"`` when it names none), ``id``
        the last event id when there is one, ``data`` the decoded JSON. Heartbeat
        comments are skipped, or with ``heartbeats`` yielded as ``{"event":
        "heartbeat"}`` (a reader's chance to do its idle work without a timer of its
        own). The stream is not retried here: reconnect with the last ``id`` seen as
        ``last_event_id`` and nothing is lost or repeated (the server resumes after it).

        Raises:
            ConnectionError: the connection failed or dropped.
            BadFrame: a message's data is not JSON (a :class:`ConnectionError`: the
                stream is closed; reconnect, or read the same thing another way).
            ParlourError: the server refused the stream (as :meth:`request`).
        """
        headers = self._headers("text/event-stream")
        if last_event_id is not None:
            headers["Last-Event-ID"] = last_event_id
        query = {k: v for k, v in (params or {}).items() if v is not None}
        try:
            response = self.session.get(
                self.base_url + path, params=query, headers=headers, stream=True, timeout=timeout
            )
        except _TRANSPORT_ERRORS as exc:
            raise ConnectionError(
                f"GET {path}: {type(exc).__name__}", code="connection_error"
            ) from exc
        with response:
            parser = SseParser()
            try:
                if response.status_code >= 300:  # its body is read only now, and may drop
                    raise _error_of(response)
                for chunk in _arriving(response):
                    comments = parser.comments
                    for message in parser.feed(chunk):
                        yield _event_of(path, message)
                    if heartbeats and parser.comments > comments:
                        yield {"event": "heartbeat"}
            except _TRANSPORT_ERRORS as exc:
                raise ConnectionError(
                    f"GET {path}: stream dropped", code="connection_error"
                ) from exc

    def _retry_delay(
        self, status: int, error: ParlourError, idempotent: bool, attempt: int
    ) -> float | None:
        """Seconds to wait before retrying an error answer, or ``None``: don't retry.

        429 and 503 mean the server did not act, so they are retried for every
        call; other 5xx only for idempotent calls; other 4xx never.
        """
        if status in (429, 503):
            if isinstance(error, RateLimited):
                retry_after = error.retry_after
            else:
                retry_after = parse_retry_after(error.headers.get("retry-after"))
            if retry_after is not None:
                # Honour the server's wish, unless it is longer than we would ever
                # wait: then the caller gets the error (it carries retry_after).
                return retry_after if retry_after <= self.max_backoff else None
            return self._backoff(attempt)
        if status >= 500 and idempotent:
            return self._backoff(attempt)
        return None

    def _backoff(self, attempt: int) -> float:
        """Exponential backoff with "equal jitter": half fixed, half random.

        Many bots hit by the same restart would otherwise retry in lockstep;
        the random half spreads them, the fixed half keeps a minimum pause.
        """
        delay: float = min(self.max_backoff, self.backoff * (2**attempt))
        return delay / 2 + self._rng.uniform(0, delay / 2)


def _decode(response: requests.Response) -> Any:
    if not response.content:
        return None
    try:
        return response.json()
    except ValueError as exc:
        raise ParlourError(
            "the server answered with something that is not JSON",
            status=response.status_code,
            code="invalid_response",
        ) from exc


def _arriving(response: requests.Response) -> Iterator[bytes]:
    """A streamed body's bytes as they arrive.

    ``read1`` (urllib3 2) returns what has come, whatever the framing;
    ``iter_content(chunk_size=None)`` waits for a whole HTTP chunk, and for the end
    of a body that is not chunked (behind some proxies), so it is only the fallback.
    """
    read1 = getattr(response.raw, "read1", None)
    if read1 is None:
        yield from response.iter_content(chunk_size=None)
        return
    while chunk := read1(65536, decode_content=True):
        yield chunk


def _event_of(path: str, message: SseMessage) -> dict[str, Any]:
    """One parsed message as :meth:`Requestor.stream` yields it.

    Raises:
        BadFrame: its data is not JSON.
    """
    try:
        data = jsonlib.loads(message.data)
    except ValueError as exc:
        raise BadFrame(
            f"GET {path}: a {message.event!r} message whose data is not JSON: "
            f"{message.data[:200]!r}",
            code="bad_frame",
            details={"event": message.event, "data": message.data[:2000]},
        ) from exc
    event: dict[str, Any] = {"event": message.event, "data": data}
    if message.id:
        event["id"] = message.id
    return event


def _error_of(response: requests.Response) -> ParlourError:
    try:
        body = response.json()
    except ValueError:
        body = None
    return error_from_body(
        response.status_code,
        body,
        headers=response.headers,
        request_id=response.headers.get("X-Request-Id"),
    )


def _q(segment: str) -> str:
    """One path segment, escaped (an id can never reach another path)."""
    return quote(str(segment), safe="")


class _Namespace:
    """A group of API calls (``client.games``, ``client.players``, ...) sending through
    the client's one :class:`Requestor`."""

    def __init__(self, requestor: Requestor) -> None:
        self._r = requestor

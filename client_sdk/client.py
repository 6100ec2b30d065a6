"""The HTTP client: one method per API endpoint (openapi.yaml), one choke point for requests.

>>> client = Client("http://127.0.0.1:8000", token="t0k3n")
>>> names = sorted(k for k in vars(client) if not k.startswith("_") and k != "requestor")
>>> names[:5]
['apps', 'bots', 'games', 'invitations', 'ladders']
>>> names[5:]
['players', 'ratings', 'tokens', 'tournaments', 'turns', 'visitors']

Every method builds a path, calls :meth:`Requestor.request`, and returns the
decoded JSON unchanged (typed by :mod:`client_sdk.types`). Errors are raised
as the typed exceptions of :mod:`client_sdk.errors`.
"""

from __future__ import annotations

import json as jsonlib  # `json` is the body parameter's name below
import logging
import random
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, cast
from urllib.parse import quote

import requests
import urllib3

from .errors import (
    BadFrame,
    ConnectionError,
    ParlourError,
    RateLimited,
    error_from_body,
    parse_retry_after,
)
from .sse import Message as SseMessage
from .sse import SseParser
from .types import EventsPage, Move, NewPlayer, Player, Replay, TurnsPage, View

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
        if idempotent is None:
            idempotent = method.upper() == "GET"
        url = self.base_url + path
        headers = self._headers("application/json")
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
                    return _decode(response)
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
            if response.status_code >= 300:
                raise _error_of(response)
            parser = SseParser()
            try:
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
    def __init__(self, requestor: Requestor) -> None:
        self._r = requestor


class Players(_Namespace):
    """Players: registration and the caller's profile."""

    def register(self, name: str) -> NewPlayer:
        """``POST /v1/players``: a new player; its token is shown only this once."""
        return cast(NewPlayer, self._r.request("POST", "/v1/players", json={"name": name}))

    def me(self) -> Player:
        """``GET /v1/players/me``: the caller's profile, ratings and current games."""
        return cast(Player, self._r.request("GET", "/v1/players/me"))


class Games(_Namespace):
    """Games: rules, creation, seats, views, moves, events, replays."""

    def rules(self) -> dict[str, Any]:
        """``GET /v1/rules``: the games, their variants and options with defaults."""
        return cast(dict[str, Any], self._r.request("GET", "/v1/rules"))

    def create(
        self,
        game: str,
        options: Mapping[str, Any] | None = None,
        seats: Sequence[str | None] | None = None,
        *,
        allow_multiple_seats: bool | None = None,
        deals: Sequence[Mapping[str, Any]] | None = None,
        seed: str | None = None,
    ) -> View:
        """``POST /v1/games``: a new game; ``None`` seats are open.

        ``allow_multiple_seats`` lets one player hold several seats (a bot
        playing itself). ``deals`` and ``seed`` are admin-only (preset hands,
        duplicate play).
        """
        body: dict[str, Any] = {"game": game, "options": dict(options or {})}
        if seats is not None:
            body["seats"] = list(seats)
        if allow_multiple_seats is not None:
            body["allow_multiple_seats"] = allow_multiple_seats
        if deals is not None:
            body["deals"] = list(deals)
        if seed is not None:
            body["seed"] = seed
        return cast(View, self._r.request("POST", "/v1/games", json=body))

    def join(self, game_id: str, seat: int | None = None) -> View:
        """``POST /v1/games/{id}/join``: take an open seat (any, or ``seat``)."""
        body = {} if seat is None else {"seat": seat}
        return cast(View, self._r.request("POST", f"/v1/games/{_q(game_id)}/join", json=body))

    def leave(self, game_id: str, seat: int) -> View:
        """``DELETE /v1/games/{id}/seats/{seat}``: free your seat of a game still waiting.

        Refused once the game has started (409 ``game_started``); the game's version is
        unchanged. Answers your view (a spectator's once you hold no seat).
        """
        return cast(View, self._r.request("DELETE", f"/v1/games/{_q(game_id)}/seats/{int(seat)}"))

    def view(self, game_id: str, seat: int | None = None) -> View:
        """``GET /v1/games/{id}``: your view (a spectator's without a seat).

        ``seat`` picks one of your seats when you hold several in the game.
        """
        return cast(
            View,
            self._r.request("GET", f"/v1/games/{_q(game_id)}", params={"seat": seat}),
        )

    def move(
        self, game_id: str, move: Move, version: int | None = None, seat: int | None = None
    ) -> View:
        """``POST /v1/games/{id}/moves``: make a move; returns the new view.

        Send the ``version`` of the view you decided on: then a stale decision
        is refused (:class:`~client_sdk.errors.StaleVersion`) instead of
        applied, and the call is safe to retry (only then is it retried).
        ``seat`` says which of your seats moves when you hold several.
        """
        body: dict[str, Any] = {"move": move}
        if version is not None:
            body["version"] = version
        if seat is not None:
            body["seat"] = seat
        return cast(
            View,
            self._r.request(
                "POST",
                f"/v1/games/{_q(game_id)}/moves",
                json=body,
                idempotent=version is not None,
            ),
        )

    def events(
        self, game_id: str, after: int = 0, wait: float | None = None, seat: int | None = None
    ) -> EventsPage:
        """``GET /v1/games/{id}/events``: events after ``after``, long-polled ``wait`` s."""
        return cast(
            EventsPage,
            self._r.request(
                "GET",
                f"/v1/games/{_q(game_id)}/events",
                params={"after": after, "wait": wait, "seat": seat},
                timeout=self._r.timeout + (wait or 0),
            ),
        )

    def replay(self, game_id: str) -> Replay:
        """``GET /v1/games/{id}/replay``: the public record; everything once finished."""
        return cast(Replay, self._r.request("GET", f"/v1/games/{_q(game_id)}/replay"))

    def replay_frame(self, game_id: str, version: int) -> dict[str, Any]:
        """``GET /v1/games/{id}/replay/{version}``: a finished game as it stood then."""
        return cast(
            dict[str, Any], self._r.request("GET", f"/v1/games/{_q(game_id)}/replay/{int(version)}")
        )

    def list(self, status: str | None = None, limit: int | None = None) -> dict[str, Any]:
        """``GET /v1/games``: the lobby's list, newest first (public parts only)."""
        return cast(
            dict[str, Any],
            self._r.request("GET", "/v1/games", params={"status": status, "limit": limit}),
        )

    def stream(
        self,
        game_id: str,
        after: int | None = None,
        last_event_id: str | None = None,
        seat: int | None = None,
    ) -> Iterator[dict[str, Any]]:
        """``GET /v1/games/{id}/stream``: your seat's events as server-sent events.

        Carries what :meth:`events` carries; resume with ``last_event_id``.
        """
        return self._r.stream(
            f"/v1/games/{_q(game_id)}/stream",
            params={"after": after, "seat": seat},
            last_event_id=last_event_id,
        )


class Turns(_Namespace):
    """Your turns across every game: the one call a bot loops on."""

    def stream(self, heartbeat: float | None = None) -> Iterator[dict[str, Any]]:
        """``GET /v1/me/turns/stream``: your turns pushed as they come (server-sent events).

        ``heartbeat``: seconds of quiet after which you want a heartbeat (at most
        the server's own, 15 by default), e.g. to notice a stop request soon.

        Yields ``{"event": "turns", "data": [turn, ...]}`` (your turns in one game,
        as :meth:`wait` lists them), ``{"event": "over", "data": {"game_id", "status"}}``,
        ``{"event": "invitation", "data": {"id"}}`` (see :class:`Invitations`) and
        ``{"event": "heartbeat"}`` while nothing happens. The same turn may come
        twice (once from the truth sent on connecting, once pushed): drop a turn
        whose game and version you have seen. Cheaper for the server than
        :meth:`wait` (a turn is one push, not one request); reconnect when the
        server ends the stream.

        Raises:
            ConnectionError: the connection failed or dropped.
            NotFound: the server has no turn streams (use :meth:`wait`).
        """
        return self._r.stream(
            "/v1/me/turns/stream", params={"heartbeat": heartbeat}, heartbeats=True
        )

    def wait(self, wait: float = 20.0) -> TurnsPage:
        """``GET /v1/me/turns?wait=s``: every game where you are to act, long-polled."""
        return cast(
            TurnsPage,
            self._r.request(
                "GET", "/v1/me/turns", params={"wait": wait}, timeout=self._r.timeout + wait
            ),
        )


class Tournaments(_Namespace):
    """Tournaments: create, enter, start, follow."""

    def create(
        self,
        game: str,
        format: str,
        *,
        options: Mapping[str, Any] | None = None,
        rounds: int | None = None,
        clock: Mapping[str, Any] | None = None,
        timeout_policy: Any = None,
        **settings: Any,
    ) -> dict[str, Any]:
        """``POST /v1/tournaments``; ``settings`` passes the other fields of the body
        (``name``, ``boards_per_match``, ``seats_per_entry``, ``min_table_size``)."""
        body: dict[str, Any] = {"game": game, "format": format, "options": dict(options or {})}
        for key, value in (("rounds", rounds), ("clock", clock),
                           ("timeout_policy", timeout_policy), *settings.items()):  # fmt: skip
            if value is not None:
                body[key] = value
        return cast(dict[str, Any], self._r.request("POST", "/v1/tournaments", json=body))

    def enter(self, tournament_id: str, players: Sequence[str]) -> dict[str, Any]:
        """``POST /v1/tournaments/{id}/entries``: one entry."""
        return cast(
            dict[str, Any],
            self._r.request(
                "POST",
                f"/v1/tournaments/{_q(tournament_id)}/entries",
                json={"players": list(players)},
            ),
        )

    def start(self, tournament_id: str) -> dict[str, Any]:
        """``POST /v1/tournaments/{id}/start``."""
        return cast(
            dict[str, Any],
            self._r.request("POST", f"/v1/tournaments/{_q(tournament_id)}/start", json={}),
        )

    def get(self, tournament_id: str) -> dict[str, Any]:
        """``GET /v1/tournaments/{id}``: status, rounds, games, standings."""
        return cast(dict[str, Any], self._r.request("GET", f"/v1/tournaments/{_q(tournament_id)}"))

    def list(self, limit: int | None = None) -> dict[str, Any]:
        """``GET /v1/tournaments``: the newest tournaments with their leaders."""
        return cast(
            dict[str, Any], self._r.request("GET", "/v1/tournaments", params={"limit": limit})
        )

    def standings(self, tournament_id: str) -> dict[str, Any]:
        """``GET /v1/tournaments/{id}/standings``."""
        return cast(
            dict[str, Any],
            self._r.request("GET", f"/v1/tournaments/{_q(tournament_id)}/standings"),
        )


class Ratings(_Namespace):
    """Leaderboards: the ratings of one game."""

    def get(self, game: str) -> dict[str, Any]:
        """``GET /v1/ratings/{game}``."""
        return cast(dict[str, Any], self._r.request("GET", f"/v1/ratings/{_q(game)}"))


class Apps(_Namespace):
    """Apps that embed Parlour: games with invitations, server bots, webhooks.

    The app token belongs in the app's backend, never in a browser: it can
    create games and point webhooks anywhere.
    """

    def create(self, name: str, invite_url: str | None = None) -> dict[str, Any]:
        """``POST /v1/apps`` (admin): the new app and its token (shown once)."""
        body: dict[str, Any] = {"name": name}
        if invite_url is not None:
            body["invite_url"] = invite_url
        return cast(dict[str, Any], self._r.request("POST", "/v1/apps", json=body))

    def get(self, app_id: str) -> dict[str, Any]:
        """``GET /v1/apps/{id}``: the app, its webhooks and latest deliveries."""
        return cast(dict[str, Any], self._r.request("GET", f"/v1/apps/{_q(app_id)}"))

    def create_game(
        self,
        app_id: str,
        game: str,
        seats: Sequence[str | None],
        *,
        options: Mapping[str, Any] | None = None,
        guest_names: Sequence[str | None] | None = None,
    ) -> dict[str, Any]:
        """``POST /v1/apps/{id}/games``: ``None`` seats get invitations, ``"bot:<name>"``
        seats a server bot."""
        body: dict[str, Any] = {"game": game, "seats": list(seats)}
        if options is not None:
            body["options"] = dict(options)
        if guest_names is not None:
            body["guest_names"] = list(guest_names)
        return cast(
            dict[str, Any], self._r.request("POST", f"/v1/apps/{_q(app_id)}/games", json=body)
        )

    def add_webhook(
        self, app_id: str, url: str, events: Sequence[str] | None = None
    ) -> dict[str, Any]:
        """``POST /v1/apps/{id}/webhooks``: signed notifications; the secret is shown once."""
        body: dict[str, Any] = {"url": url}
        if events is not None:
            body["events"] = list(events)
        return cast(
            dict[str, Any], self._r.request("POST", f"/v1/apps/{_q(app_id)}/webhooks", json=body)
        )


class Bots(_Namespace):
    """The server's own bots, which play ``"bot:<name>"`` seats."""

    def list(self) -> dict[str, Any]:
        """``GET /v1/bots``: the bots a seat can name, and the games each plays."""
        return cast(dict[str, Any], self._r.request("GET", "/v1/bots"))

    def ensure(self, bots: Sequence[str]) -> dict[str, Any]:
        """``POST /v1/bots`` (admin): the bot pool's identities and tokens."""
        return cast(dict[str, Any], self._r.request("POST", "/v1/bots", json={"bots": list(bots)}))


# -- consent and invitations (docs/api.md#consent-and-invitations) ------------------------
class Invitations(_Namespace):
    """Invitations: seats and tournament entries someone else named you in.

    A seat or entry naming you is held until you accept; declining frees it.
    The admin seats and enters players without asking.
    """

    def mine(self) -> list[dict[str, Any]]:
        """``GET /v1/me/invitations``: your open invitations, oldest first (every page)."""
        out: list[dict[str, Any]] = []
        cursor: str | None = None
        while True:
            params = {"limit": 200} | ({"cursor": cursor} if cursor else {})
            page = cast(dict[str, Any], self._r.request("GET", "/v1/me/invitations", params=params))
            out += page.get("invitations", [])
            cursor = page.get("next_cursor")
            if not cursor:
                return out

    def accept(self, invitation_id: str) -> dict[str, Any]:
        """``POST /v1/invitations/{id}/accept``: take the held seat(s) or entry."""
        return cast(
            dict[str, Any],
            self._r.request("POST", f"/v1/invitations/{_q(invitation_id)}/accept", json={}),
        )

    def decline(self, invitation_id: str) -> dict[str, Any]:
        """``POST /v1/invitations/{id}/decline``: free the held seat(s), withdraw the entry."""
        return cast(
            dict[str, Any],
            self._r.request("POST", f"/v1/invitations/{_q(invitation_id)}/decline", json={}),
        )

    def block(self, player_id: str) -> dict[str, Any]:
        """``PUT /v1/me/blocks/{player_id}``: refuse that player's invitations from now on
        (their open ones are declined); they are not told."""
        return cast(
            dict[str, Any],
            self._r.request("PUT", f"/v1/me/blocks/{_q(player_id)}", json={}, idempotent=True),
        )

    def unblock(self, player_id: str) -> None:
        """``DELETE /v1/me/blocks/{player_id}``: take that player's invitations again."""
        self._r.request("DELETE", f"/v1/me/blocks/{_q(player_id)}", idempotent=True)

    def blocks(self) -> list[dict[str, Any]]:
        """``GET /v1/me/blocks``: the players you block, oldest first (every page)."""
        out: list[dict[str, Any]] = []
        cursor: str | None = None
        while True:
            params = {"limit": 200} | ({"cursor": cursor} if cursor else {})
            page = cast(dict[str, Any], self._r.request("GET", "/v1/me/blocks", params=params))
            out += page.get("blocks", [])
            cursor = page.get("next_cursor")
            if not cursor:
                return out


# -- tokens: rotate and revoke ------------------------------------------------------------
class Tokens(_Namespace):
    """Rotating and revoking tokens (docs/api.md#tokens-rotate-and-revoke).

    A rotated or revoked token stops working at once. Rotating the client's own
    token (the player's, or the app's) makes the client use the new one.
    Never retried after a lost answer: a repeat would kill the token it returned.
    """

    def rotate(self) -> NewPlayer:
        """``POST /v1/players/me/token``: a new token for the caller (shown once)."""
        new = cast(NewPlayer, self._r.request("POST", "/v1/players/me/token"))
        self._r.token = new.get("token", self._r.token)
        return new

    def revoke(self) -> None:
        """``DELETE /v1/players/me/token``: the caller's token stops working."""
        self._r.request("DELETE", "/v1/players/me/token")
        self._r.token = None

    def rotate_player(self, player_id: str) -> NewPlayer:
        """``POST /v1/players/{id}/token`` (admin): a new token for any player."""
        return cast(NewPlayer, self._r.request("POST", f"/v1/players/{_q(player_id)}/token"))

    def revoke_player(self, player_id: str) -> None:
        """``DELETE /v1/players/{id}/token`` (admin): that player's token stops working."""
        self._r.request("DELETE", f"/v1/players/{_q(player_id)}/token")

    def rotate_app(self, app_id: str) -> dict[str, Any]:
        """``POST /v1/apps/{id}/token`` (the app or the admin): a new app token."""
        new = cast(dict[str, Any], self._r.request("POST", f"/v1/apps/{_q(app_id)}/token"))
        if (self._r.token or "").startswith(f"{app_id}."):
            self._r.token = new.get("token", self._r.token)
        return new

    def revoke_app(self, app_id: str) -> None:
        """``DELETE /v1/apps/{id}/token`` (the app or the admin): the app token stops working."""
        self._r.request("DELETE", f"/v1/apps/{_q(app_id)}/token")


# -- ladders (docs/ladder.md) -------------------------------------------------------------
class Ladders(_Namespace):
    """Ladders: join once, be matched and rated for as long as the bot plays."""

    def create(
        self, game: str, *, options: Mapping[str, Any] | None = None, **settings: Any
    ) -> dict[str, Any]:
        """``POST /v1/ladders`` (admin); ``settings`` passes the other fields of the body
        (``table_size``, ``side_size``, ``duplicate``, ``clock``, ``timeout_policy``,
        ``max_games``, ``provisional_games``, ``pause_after``, ``pause_seconds``,
        ``seen_seconds``, ``rematch_seconds``, ``sides``, ``name``)."""
        body: dict[str, Any] = {"game": game, "options": dict(options or {})}
        body.update({k: v for k, v in settings.items() if v is not None})
        return cast(dict[str, Any], self._r.request("POST", "/v1/ladders", json=body))

    def list(self) -> dict[str, Any]:
        """``GET /v1/ladders``."""
        return cast(dict[str, Any], self._r.request("GET", "/v1/ladders"))

    def get(self, ladder_id: str) -> dict[str, Any]:
        """``GET /v1/ladders/{id}``: settings and entries with their status."""
        return cast(dict[str, Any], self._r.request("GET", f"/v1/ladders/{_q(ladder_id)}"))

    def join(
        self, ladder_id: str, player_id: str | None = None, *, partner: str | None = None
    ) -> dict[str, Any]:
        """``POST /v1/ladders/{id}/entries``: join (the caller; the admin names a player).
        Joining twice is harmless. On a ladder of fixed pairs name the ``partner``: the
        pair plays once the partner joins naming the caller back."""
        body = {"player_id": player_id} if player_id else {}
        if partner:
            body["partner"] = partner
        return cast(
            dict[str, Any],
            self._r.request(
                "POST", f"/v1/ladders/{_q(ladder_id)}/entries", json=body, idempotent=True
            ),
        )

    def leave(self, ladder_id: str, player_id: str | None = None) -> dict[str, Any]:
        """``DELETE /v1/ladders/{id}/entries``: leave (games in progress go on; a fixed
        pair leaves together)."""
        return cast(
            dict[str, Any],
            self._r.request(
                "DELETE",
                f"/v1/ladders/{_q(ladder_id)}/entries",
                params={"player_id": player_id},
            ),
        )

    def entry(self, ladder_id: str, player_id: str) -> dict[str, Any]:
        """``GET /v1/ladders/{id}/entries/{player_id}``: status, health, rating, history."""
        return cast(
            dict[str, Any],
            self._r.request("GET", f"/v1/ladders/{_q(ladder_id)}/entries/{_q(player_id)}"),
        )

    def leaderboard(self, ladder_id: str) -> dict[str, Any]:
        """``GET /v1/ladders/{id}/leaderboard``."""
        return cast(
            dict[str, Any], self._r.request("GET", f"/v1/ladders/{_q(ladder_id)}/leaderboard")
        )


# -- end of ladders ------------------------------------------------------------------------


# -- visitors: a game against the server's bots without an account (docs/web.md) -------
class Visitors(_Namespace):
    """What the web lobby's "Play against bots" calls; a client with no token may use it."""

    def settings(self) -> dict[str, Any]:
        """``GET /v1/visitors``: whether visitors may play here, and the bots per game."""
        return cast(dict[str, Any], self._r.request("GET", "/v1/visitors"))

    def play(
        self, game: str, options: Mapping[str, Any] | None = None, name: str | None = None
    ) -> dict[str, Any]:
        """``POST /v1/visitors/games``: a new game against the bots; the answer holds the
        visitor's seat and guest token (shown once)."""
        body: dict[str, Any] = {"game": game}
        if options is not None:
            body["options"] = dict(options)
        if name is not None:
            body["name"] = name
        return cast(dict[str, Any], self._r.request("POST", "/v1/visitors/games", json=body))


class Client:
    """A Parlour API client for one player (one token).

    Args:
        base_url: the server root, e.g. ``http://127.0.0.1:8000``.
        token: the player's bearer token (``None`` to register or spectate).
        session: a ``requests.Session`` to share (one is created otherwise).
        max_retries: retries of a failed call (see :class:`Requestor`).
        timeout: seconds per call; long-poll calls add their ``wait``.
        backoff: first retry delay in seconds.
        max_backoff: longest single delay, and longest ``Retry-After`` honoured.

    The namespaces share one session (one connection pool). A ``Client`` is
    meant for one thread, as ``requests.Session`` is; use it as a context
    manager (or call :meth:`close`) to release its connections.

    Attributes:
        players: registration and the caller's profile (:class:`Players`).
        games: rules, creation, seats, views, moves, events, replays (:class:`Games`).
        turns: the long-poll of the caller's turns (:class:`Turns`).
        tournaments: create, enter, start and follow tournaments (:class:`Tournaments`).
        ratings: leaderboards (:class:`Ratings`).
        apps: embedding apps and their webhooks (:class:`Apps`).
        bots: the server's bot pool, admin only (:class:`Bots`).
        invitations: seats and entries others named you in (:class:`Invitations`).
        tokens: rotate and revoke tokens (:class:`Tokens`).
        ladders: join a ladder, its leaderboard (:class:`Ladders`).
        visitors: a game against the bots without an account (:class:`Visitors`).
        requestor: the :class:`Requestor` every namespace sends through.
    """

    def __init__(
        self,
        base_url: str,
        token: str | None = None,
        *,
        session: requests.Session | None = None,
        max_retries: int = 2,
        timeout: float = 10.0,
        backoff: float = 0.25,
        max_backoff: float = 8.0,
    ) -> None:
        self._owns_session = session is None
        self.requestor = Requestor(
            base_url,
            token,
            session or requests.Session(),
            timeout=timeout,
            max_retries=max_retries,
            backoff=backoff,
            max_backoff=max_backoff,
        )
        self.players = Players(self.requestor)
        self.games = Games(self.requestor)
        self.turns = Turns(self.requestor)
        self.tournaments = Tournaments(self.requestor)
        self.ratings = Ratings(self.requestor)
        self.apps = Apps(self.requestor)
        self.bots = Bots(self.requestor)
        self.invitations = Invitations(self.requestor)
        self.tokens = Tokens(self.requestor)
        self.ladders = Ladders(self.requestor)  # docs/ladder.md
        self.visitors = Visitors(self.requestor)

    @property
    def base_url(self) -> str:
        """The server root this client talks to, without a trailing slash."""
        return self.requestor.base_url

    def close(self) -> None:
        """Close the session's connections (only if this client created it)."""
        if self._owns_session:
            self.requestor.session.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Client({self.base_url!r}, token={'***' if self.requestor.token else None})"

"""``client.games``: rules, the lobby's list, creation, seats, views, moves, events (long-polled
or streamed), replays and the archive."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from datetime import datetime
from typing import Any, cast

from ..types import EventsPage, Move, Replay, View
from .base import _Namespace, _q


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

    def replay_file_frames(
        self, replay: Mapping[str, Any], *, first: int = 0, count: int = 20
    ) -> dict[str, Any]:
        """``POST /v1/replays/frames``: frames ``first`` .. ``first + count - 1`` (at most 50)
        of a finished game's replay you hold (a file of ``parlour-bot play --out``, a line
        of the archive), rebuilt by the server's engine from the replay alone:
        ``{"last_version", "frames"}``, each frame as :meth:`replay_frame` answers."""
        body = {"replay": dict(replay), "first": int(first), "count": int(count)}
        return cast(dict[str, Any], self._r.request("POST", "/v1/replays/frames", json=body))

    def archive(
        self,
        *,
        ladder: str | None = None,
        tournament: str | None = None,
        since: datetime | str | None = None,
        until: datetime | str | None = None,
        limit: int | None = None,
        on_page: Callable[[int, int], None] | None = None,
    ) -> Iterator[Replay]:
        """``GET /v1/archive``, every page: the finished games' replays, one by one.

        Choose the games by exactly one of ``ladder``, ``tournament`` or ``since``
        (with ``until``: games that ended in ``[since, until)``; a datetime with its
        timezone, or an ISO 8601 string). Each replay is ``GET /v1/games/{id}/replay``
        of a finished game; boards still in play are never there. ``limit``: replays
        per page (the server's default 20, at most 50). ``on_page(pages, replays)``
        is called after each page with the counts so far (progress).
        """
        params: dict[str, Any] = {
            "ladder": ladder,
            "tournament": tournament,
            "since": since.isoformat() if isinstance(since, datetime) else since,
            "until": until.isoformat() if isinstance(until, datetime) else until,
            "limit": limit,
        }
        pages = count = 0
        cursor: str | None = None
        while True:
            rows, cursor = self._r.lines("/v1/archive", params=params | {"cursor": cursor})
            pages += 1
            count += len(rows)
            yield from cast(list[Replay], rows)
            if on_page is not None:
                on_page(pages, count)
            if cursor is None:
                return

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

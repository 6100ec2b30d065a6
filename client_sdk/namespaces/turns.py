"""``client.turns``: your turns across every game, long-polled or streamed."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, cast

from ..types import TurnsPage
from .base import _Namespace


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

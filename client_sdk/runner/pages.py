"""Where the runner's turns come from: pages of turns pushed by ``GET /v1/me/turns/stream``,
or long-polled by ``GET /v1/me/turns?wait=...`` from a server without turn streams (or
with ``push=False``); and the invitations the runner accepts at its quiet moments.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..errors import BadFrame, Conflict, NotFound
from ..types import Turn
from .base import Parts, log


def _turns_of(data: Any) -> list[Turn]:
    """A ``turns`` message's data, checked: a list of turns, each naming its game and view.

    Raises:
        BadFrame: another shape.
    """
    if isinstance(data, list) and all(
        isinstance(t, dict)
        and isinstance(t.get("game_id"), str)
        and isinstance(t.get("view"), dict)
        for t in data
    ):
        return data
    raise BadFrame(f"a turns message of another shape: {str(data)[:200]!r}", code="bad_frame")


def _over_of(data: Any) -> str:
    """An ``over`` message's game id.

    Raises:
        BadFrame: no game id in it.
    """
    game_id = data.get("game_id") if isinstance(data, dict) else None
    if isinstance(game_id, str):
        return game_id
    raise BadFrame(f"an over message of another shape: {str(data)[:200]!r}", code="bad_frame")


class TurnPages(Parts):
    """The runner's turns, page by page, and the invitations it answers."""

    def _answer_invitations(self) -> None:
        """Accept the open invitations the policy allows (others are left to expire)."""
        if self.accept.mode == "none":
            return
        for invitation in self.client.invitations.mine():
            if not self.accept.accepts(invitation):
                continue
            try:
                self.client.invitations.accept(invitation["id"])
            except (NotFound, Conflict) as exc:  # withdrawn or expired meanwhile
                log.info("invitation %s: %s", invitation["id"], exc.code)
                continue
            self.stats.invitations_accepted += 1
            log.info("accepted invitation %s from %s", invitation["id"], invitation.get("from"))

    def _pages(self) -> Iterator[list[Turn]]:
        """Pages of turns until the source ends: pushed by the turn stream, else one
        long-poll. An empty page means a quiet moment (time for idle checks)."""
        if self.push:
            try:
                # a heartbeat at least every `wait` s: the loop notices a stop that soon
                for event in self.client.turns.stream(heartbeat=max(0.5, self.wait)):
                    if event["event"] == "turns":
                        yield _turns_of(event["data"])
                    elif event["event"] == "over":
                        self._check_game(_over_of(event["data"]))
                        if self._done():
                            return  # the last game: out at once, not at the next heartbeat
                    elif event["event"] == "invitation":
                        self._answer_invitations()
                    elif event["event"] == "heartbeat":
                        self._report_ratings()
                        yield []
                    elif event["event"] == "error":
                        data = event["data"]
                        log.warning(
                            "turn stream: %s",
                            data.get("message", data) if isinstance(data, dict) else data,
                        )
                        return
                return  # the server ended the stream (it bounds each one): reconnect
            except BadFrame as exc:
                # Never the end of the bot: the same turns, read as one JSON answer, then
                # the stream again (a frame that fails once may well fail on reconnecting).
                self.stats.bad_frames += 1
                log.warning("turn stream: %s; long-polling once, then reconnecting", exc)
                yield self.client.turns.wait(0).get("turns", [])
                return
            except NotFound:
                log.info("the server has no turn streams; long-polling instead")
                self.push = False
        yield self.client.turns.wait(self.wait).get("turns", [])

"""The feeds: a game's events and the caller's turns, long-polled, and a seat's events
as server-sent events, pushed to a browser as they happen.

The stream carries exactly what the long-poll carries: it *is* the long-poll
(:meth:`Feeds.events`) called in a loop, so every event has passed the same
``visible()`` filter for the same seat, and every call checks the token again
(a guest token that expires mid-stream ends the stream).

Wire format (``text/event-stream``)::

    retry: 2000                     once, at the start: reconnect after 2 s

    id: 17                          the event's ``seq``
    data: {"seq": 17, "version": 3, "kind": "play", "data": {...}}

    : heartbeat                     a comment when nothing happened for a while

    event: end                      the game is over and everything was sent
    data: {"status": "finished"}

Every message is built by :func:`server.services.wire.message` (SSE framing, JSON
with U+0085, U+2028 and U+2029 escaped).

Resuming: a browser's ``EventSource`` reconnects by itself and sends
``Last-Event-ID``; the stream then starts after that event, so nothing is lost
and nothing repeats. A reconnect to a game that is over with nothing left to
send is answered ``204``, which tells ``EventSource`` to stop reconnecting.

Under gunicorn's gevent workers each stream is a greenlet parked in a blocking
Redis read, like a long-poll, so open streams hold no worker.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from typing import Any

from redis.exceptions import RedisError

from server.games import Event, visible
from server.services import boards, views, wire
from server.services.core import Core, Read
from server.services.errors import BoardInPlay, Forbidden, InvalidRequest, ServiceError
from server.services.slots import NO_LEASE, Lease, Slots
from server.store import clocks as clock_store
from server.store import game_events as event_store
from server.store import games as game_store
from server.store import players as player_store

log = logging.getLogger("server.services.feeds")

LAST_EVENT = 2**64 - 1
"""The largest event number: a Redis stream id's parts are unsigned 64-bit numbers."""
RETRY_MS = 2000
"""What the stream tells ``EventSource`` to wait before reconnecting."""
OVER = ("finished", "aborted")
START_POLL = 0.5
"""Seconds between a waiting game's status reads while a long-poll waits for its start."""


def check_after(after: int) -> None:
    """Refuse an ``after`` that no stream id can hold (Redis would answer with an error).

    Raises:
        InvalidRequest: naming ``after``.
    """
    if not 0 <= after <= LAST_EVENT:
        raise InvalidRequest(
            "after must be an event number", {"after": [f"an integer from 0 to {LAST_EVENT}"]}
        )


def frame(event: dict) -> str:
    """One event as an SSE message whose id is the event's ``seq`` (:mod:`.wire`).

    >>> frame({"seq": 3, "version": 1, "kind": "pass", "data": {"seat": 0}})
    'id: 3\\ndata: {"seq":3,"version":1,"kind":"pass","data":{"seat":0}}\\n\\n'
    """
    return wire.message(wire.dumps(event), id=int(event["seq"])).decode()


class Feeds:
    """Long-polls and streams, over the shared :class:`Core`."""

    def __init__(self, core: Core, slots: Slots | None = None) -> None:
        self.core = core
        self.r = core.r
        self.slots = slots if slots is not None else Slots(core)

    # -- long-polls -------------------------------------------------------------------
    def events(
        self,
        token: str | None,
        game_id: str,
        after: int = 0,
        wait: float = 0.0,
        seat: int | None = None,
        *,
        client: str | None = None,
        leased: bool = True,
    ) -> dict[str, Any]:
        """Events numbered above ``after`` that the caller may see, long-polled up to ``wait``.

        While the game waits for its players, everyone reads it as a spectator, and the
        feed holds back the seats' own cards until the start (:meth:`_before_start`).

        A player's token is checked again once a wait is over, in the wait's own
        round trip: a token rotated or revoked while the poll waited gets no answer.
        A wait holds one of the caller's slots (:mod:`server.services.slots`; the
        address ``client`` for a caller without a token), except with ``leased``
        off (a stream's pages: the stream holds one).

        Raises:
            InvalidRequest: ``after`` is not an event number (0..:data:`LAST_EVENT`).
            TooManyStreams: a wait past the caller's cap of open streams and long-polls.
        """
        check_after(after)
        deadline = time.monotonic() + min(wait, self.core.max_wait)
        lease, first = NO_LEASE, True
        try:
            while True:  # while the game waits: until it starts, or the wait ends
                got = self.core.read(token, game_id, required=False)
                self._may_read(got)
                player = got.caller.player if got.caller else None
                if player is not None:  # a seat's events or stream: waiting too (Core.waiting)
                    self.core.waiting(player.id, time.time())
                mine = views.seats_of(got.game, player.id) if player else []
                if seat is not None and seat not in mine:
                    if not first:  # the seat was left during the wait: that ends it
                        return {"events": [], "last": after}
                    raise Forbidden("you hold no such seat in this game")
                if first and leased:  # the caller is known good: its wait counts
                    lease = self.slots.poll(token, client, wait)
                if got.game.status != "waiting":
                    break
                page = self._before_start(game_id, after)
                left = deadline - time.monotonic()
                if page["events"] or left <= 0:
                    return page
                time.sleep(min(START_POLL, left))
                first = False
            you = seat if seat is not None else (mine[0] if mine else None)
            last = after
            while True:
                block_ms = int(max(0.0, deadline - time.monotonic()) * 1000)
                if player is None or block_ms <= 0:
                    found = event_store.events(self.r, game_id, last, block_ms)
                else:  # the token again, read as the wait ends: none for a rotated one
                    found, record = event_store.events_checked(
                        self.r, game_id, last, block_ms, player.id
                    )
                    self.core.verify(token or "", record, game_id)
                if found:
                    last = found[-1][0]
                    self._still_may_read(got)
                shown = [
                    views.event_out(n, e) for n, e in found if visible(Event.from_dict(e), you)
                ]
                if shown or block_ms <= 0:
                    return {"events": shown, "last": last}
        finally:
            lease.release()

    def _before_start(self, game_id: str, after: int) -> dict[str, Any]:
        """A waiting game's events after ``after``: the public ones, up to the first that
        is some seat's own (its cards, dealt but not to be seen before the start), where
        ``last`` stops, so the feed resumes there once the game starts (docs/api.md)."""
        shown, last = [], after
        for n, e in event_store.events(self.r, game_id, after):
            if not visible(Event.from_dict(e), None):
                break
            shown.append(views.event_out(n, e))
            last = n
        return {"events": shown, "last": last}

    def _may_read(self, got: Read) -> None:
        """Who may read a game's events: anyone, except at a table of an unfinished
        duplicate board (:func:`server.services.boards.check`)."""
        boards.check(self.core, got.caller, got.game)

    def _still_may_read(self, got: Read) -> None:
        """Events found at a board's table: refused if it ended meanwhile, twin still playing
        (:func:`server.services.boards.still_live`)."""
        boards.still_live(self.core, got.caller, got.game)

    def turns(
        self, token: str | None, wait: float = 0.0, *, client: str | None = None
    ) -> dict[str, Any]:
        """Every game where the caller is to act, long-polled up to ``wait`` seconds.

        The truth comes from the game states; a wake-up only ends the wait early.
        The token is checked with every read of the player's games (one round trip
        for both), so after every wait too: a token rotated or revoked while the
        poll waited gets no answer. A wait holds one of the player's slots
        (:mod:`server.services.slots`).
        """
        player_id = self.core.claimed_player(token)
        deadline = time.monotonic() + min(wait, self.core.max_wait)
        lease: Lease | None = None
        try:
            while True:
                last_wake, game_ids, record = player_store.turn_snapshot_checked(self.r, player_id)
                self.core.verify(token or "", record)
                if lease is None:  # the first pass: the token is known now
                    self.core.waiting(player_id, time.time())  # told to the play hook
                    lease = self.slots.poll(token, client, wait)
                turns = self._turns(player_id, game_ids)
                block_ms = int(max(0.0, deadline - time.monotonic()) * 1000)
                if turns or block_ms <= 0:
                    return {"turns": turns}
                player_store.wait_wake(self.r, player_id, last_wake, block_ms)
        finally:
            if lease is not None:
                lease.release()

    def _turns(self, player_id: str, game_ids: list[str]) -> list[dict[str, Any]]:
        """The player's seats to move in ``game_ids``, each with its view; games found
        over are dropped from the player's list on the way."""
        return self.read_turns(player_id, game_ids)[0]

    def read_turns(
        self, player_id: str, game_ids: list[str]
    ) -> tuple[list[dict[str, Any]], list[str]]:
        """:meth:`_turns`, and the games of ``game_ids`` found over."""
        turns = []
        done = []
        records = game_store.read_many(self.r, game_ids)
        clocks = clock_store.read_many(
            self.r, [g.id for g in records if g.status == "active" and g.meta.get("clock")]
        )
        for record in records:
            if record.status in OVER:
                done.append(record.id)
            if record.status != "active":
                continue
            state = views.state_of(record)
            for seat in views.seats_of(record, player_id):
                if seat in state.to_move():
                    turns.append(views.turn(record, state, seat, clocks.get(record.id)))
        if done:  # a cleanup that an earlier request did not get to finish
            player_store.forget_games(self.r, player_id, done)
        return turns, done

    # -- server-sent events -----------------------------------------------------------
    def status(self, game_id: str) -> str | None:
        """The game's status (None: no such game), for a stream's last words."""
        game = self.core.game(game_id)
        return None if game is None else game.status

    @staticmethod
    def _end(status: str | None) -> str:
        """The stream's last message: the game is over (or, at a duplicate board's table
        over before its twin, everything it may send was sent)."""
        return wire.message(wire.dumps({"status": status}), event="end").decode()

    def open_stream(
        self,
        token: str | None,
        game_id: str,
        *,
        after: int = 0,
        seat: int | None = None,
        heartbeat: float = 15.0,
        max_seconds: float = 300.0,
        client: str | None = None,
    ) -> Iterator[str] | None:
        """Check the caller now, then return the stream's generator (None: nothing more, ever).

        Every error the caller should see as a status (401, 403, 404, 429) is raised
        here, before anything is streamed. The stream holds one of the caller's
        slots (:mod:`server.services.slots`; the address ``client`` for a caller
        without a token) until it is closed.

        Args:
            after: the last event the client has (``Last-Event-ID``), 0 for all.
            heartbeat: seconds of silence before a heartbeat comment.
            max_seconds: the stream ends after this long; ``EventSource`` reconnects
                and resumes (bounds what one connection holds, behind any proxy).
        """
        first = self.events(token, game_id, after=after, wait=0, seat=seat)
        if not first["events"] and self.status(game_id) in OVER:
            return None
        lease = self.slots.stream(token, client)  # the token was checked above
        return self.slots.hold(
            self._stream(token, game_id, first, seat, heartbeat, max_seconds), lease
        )

    def _stream(
        self,
        token: str | None,
        game_id: str,
        page: dict,
        seat: int | None,
        heartbeat: float,
        max_seconds: float,
    ) -> Iterator[str]:
        ends = time.monotonic() + max_seconds
        yield f"retry: {RETRY_MS}\n\n"
        try:
            while True:
                for event in page["events"]:
                    yield frame(event)
                status = self.status(game_id)
                if status in OVER:
                    # Its last events may have landed after the read above: send them too.
                    rest = self.events(
                        token, game_id, after=page["last"], wait=0, seat=seat, leased=False
                    )
                    for event in rest["events"]:
                        yield frame(event)
                    yield self._end(status)
                    return
                left = ends - time.monotonic()
                if left <= 0:
                    return
                page = self.events(
                    token,
                    game_id,
                    after=page["last"],
                    wait=min(heartbeat, left),
                    seat=seat,
                    leased=False,
                )
                if not page["events"]:
                    yield ": heartbeat\n\n"
        except BoardInPlay:  # this table ended while its board plays on: the rest waits
            yield self._end(self.status(game_id))
        except ServiceError as exc:  # e.g. the guest token expired: say so, and stop
            yield wire.message(wire.dumps({"message": exc.message}), event="error").decode()
        except RedisError as exc:  # the client reconnects and resumes
            log.warning("game %s: stream stopped: %s", game_id, exc)

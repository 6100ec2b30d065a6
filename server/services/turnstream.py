"""A player's turn stream: every turn pushed as it comes, rendered once at commit.

The cheapest bot loop. A move's commit renders the next movers' turns (their
own seats' views, nothing else) into their wake-up streams; a bot's open turn
stream is a greenlet parked on that Redis stream, and writes the bytes out as
they come. A turn then costs the server one push instead of one long-poll
request that reads and renders the game again.

Wire format (``text/event-stream``)::

    retry: 2000                     once, at the start
    event: turns                    the player's turns in one game: a JSON list of
    data: [{"game_id": ..., "seat": ..., "version": ..., "view": {...}}]
                                    what ``GET /v1/me/turns`` lists for that game
    event: over                     a game the player sat in is over
    data: {"game_id": ..., "status": "finished"}
    event: invitation               someone named the player in a seat or an entry
    data: {"id": ...}               (``GET /v1/me/invitations``)
    : heartbeat                     nothing happened for a while

Every message is built by :func:`server.services.wire.message`: framed by the SSE
spec, its JSON with U+0085, U+2028 and U+2029 escaped, whatever a name holds.

Nothing is lost. The stream sends the truth first (the game states, as
``/v1/me/turns`` reads them), then the pushes newer than a wake-up id read
before that truth, so a commit in between shows in both: a client drops a turn
it has seen (same game and version). A wake-up without rendered turns (a game
starts or ends; a clocked game's timeout) makes the stream read that game. A
heartbeat with nothing pushed re-reads every game, so a lost wake-up delays a
turn by one heartbeat at most. The token is checked before every push, against
the player's record read as the wait ends, in the wait's own round trip (and
with the first read of the player's games): a rotated or revoked token gets no
push after its rotation, and a push costs no lookup of its own. An open stream
holds one of the player's slots (:mod:`server.services.slots`) until it closes.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Iterator

from redis.exceptions import RedisError

from server.services import wire
from server.services.core import Core
from server.services.errors import ServiceError
from server.services.feeds import RETRY_MS, Feeds
from server.store import players as player_store

log = logging.getLogger("server.services.turnstream")


class TurnStreams:
    """Per-player turn streams, over the shared :class:`Core` and the :class:`Feeds`."""

    def __init__(self, core: Core, feeds: Feeds) -> None:
        self.core = core
        self.r = core.r
        self.feeds = feeds

    def open(
        self,
        token: str | None,
        *,
        heartbeat: float,
        max_seconds: float,
        client: str | None = None,
    ) -> Iterator[bytes]:
        """Check the caller now (401, or 429 past its cap of open streams, or its
        address ``client``'s, before anything is streamed), then the stream, holding
        its slot until closed."""
        player = self.core.player(token)
        lease = self.feeds.slots.stream(token, client)
        return self.feeds.slots.hold(self._stream(token, player.id, heartbeat, max_seconds), lease)

    def _stream(
        self, token: str | None, player_id: str, heartbeat: float, max_seconds: float
    ) -> Iterator[bytes]:
        ends = time.monotonic() + max_seconds
        yield f"retry: {RETRY_MS}\n\n".encode()
        # An open stream is a bot waiting, until the next heartbeat, by which time
        # the stream says so again (told to the play hook: Core.waiting).
        self.core.waiting(player_id, time.time() + heartbeat)
        reader = player_store.wake_reader(self.r)
        try:
            sent: dict[str, int] = {}  # game -> the newest version of turns sent
            last, game_ids, record = player_store.turn_snapshot_checked(self.r, player_id)
            self.core.verify(token or "", record)
            yield from self._truth(player_id, game_ids, sent)
            while (left := ends - time.monotonic()) > 0:
                quiet = min(heartbeat, left, self.core.max_wait)  # the Redis read's limit
                wakes, record = player_store.read_wakes_checked(
                    reader, player_id, last, int(1000 * quiet)
                )
                self.core.verify(token or "", record)  # read as the wait ended
                if not wakes:
                    self.core.waiting(player_id, time.time() + heartbeat)
                    games = player_store.games(self.r, player_id)
                    frames = list(self._truth(player_id, games, sent))
                    yield from frames or [b": heartbeat\n\n"]
                    continue
                last = wakes[-1].id
                bare = []
                for wake in wakes:
                    if wake.invitation is not None:
                        body = wire.dumps({"id": wake.invitation})
                        yield wire.message(body, event="invitation")
                    elif wake.turns is None or wake.version is None:
                        bare.append(wake.game_id)
                    elif wake.version > sent.get(wake.game_id, -1):
                        sent[wake.game_id] = wake.version
                        yield wire.message(wake.turns, event="turns")  # rendered by wire.dumps
                if bare:
                    yield from self._truth(player_id, sorted(set(bare)), sent, over=True)
        except ServiceError as exc:  # the token was revoked or expired: say so, and stop
            yield wire.message(wire.dumps({"message": exc.message}), event="error")
        except RedisError as exc:  # the client reconnects and gets the truth again
            log.warning("player %s: turn stream stopped: %s", player_id, exc)
        finally:  # gone (or going): last seen now, not at the next heartbeat
            if reader is not self.r:
                reader.close()
            with contextlib.suppress(RedisError):
                self.core.waiting(player_id, time.time())

    def _truth(
        self, player_id: str, game_ids: list[str], sent: dict[str, int], over: bool = False
    ) -> Iterator[bytes]:
        """The turns the game states show and ``sent`` does not have yet, one frame per
        game; with ``over``, also an ``over`` frame for each of ``game_ids`` found over."""
        turns, done = self.feeds.read_turns(player_id, game_ids)
        by_game: dict[str, list] = {}
        for turn in turns:
            if turn["version"] > sent.get(turn["game_id"], -1):
                by_game.setdefault(turn["game_id"], []).append(turn)
        for game_id, turns_here in by_game.items():
            sent[game_id] = turns_here[0]["version"]
            yield wire.message(wire.dumps(turns_here), event="turns")
        for game_id in done:
            sent.pop(game_id, None)
        if over:
            for game_id in done:
                status = self.feeds.status(game_id)
                body = wire.dumps({"game_id": game_id, "status": status})
                yield wire.message(body, event="over")

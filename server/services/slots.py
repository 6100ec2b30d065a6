"""A cap on each caller's open streams and long-polls (docs/api.md: 429 ``too_many_streams``).

A stream (``/v1/me/turns/stream``, ``/v1/games/{id}/stream``) or a long-poll
(``wait`` above 0) holds a socket and a Redis connection for as long as it is
open; without a cap one caller could hold them all. Each one holds a *lease*
(:mod:`server.store.slots`), counted in Redis so the caps hold across every
API process: per player (``PARLOUR_STREAMS_PER_PLAYER``, 8) for a player's
token, however it was sent, and per client address (``PARLOUR_STREAMS_PER_ADDRESS``,
64) for every caller, with a token or without: a player's stream counts against
both its own cap and its address's, so fresh accounts from one address share one
cap. An address is :func:`~server.services.ratelimit.client_key`'s (an IPv6 client
counts per /64). The admin is never capped, and the server's own bot pool (the
house bots' ids, made by the admin) only per player: the pool runs every identity
from one host; 0 turns a cap off. A farm of bots behind one address needs a larger
``PARLOUR_STREAMS_PER_ADDRESS`` (docs/operations.md).

The lease is taken once the token has been checked (a made-up token cannot
take a player's slots) and given back when the request ends: a long-poll's
answer, a stream's close (the client went away, or the stream ended), even a
stream never iterated. A lease lapses by itself :data:`MARGIN` seconds after its
request must have ended (a stream renews it while its frames flow), so a killed
worker leaks no slot for long. Taking and giving back cost a Redis round trip
per cap counted (one or two), once per stream or long-poll, never per push. The
player's lease is taken first, then the address's; a refusal of the second gives
the first back, so a refused request holds nothing (each cap is checked and taken
atomically on its own key, which may sit on any node of a cluster).
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Iterator
from typing import Generic, TypeVar

from redis.exceptions import RedisError

from server.services.callers import split_token
from server.services.core import Core
from server.services.errors import TooManyStreams
from server.services.ratelimit import client_key
from server.store import slots as slot_store
from server.store.apps import BOT_PREFIX

log = logging.getLogger("server.services.slots")

PER_PLAYER = 8
"""Default cap of one player's open streams and long-polls."""
PER_ADDRESS = 64
"""Default cap of one client address's, whoever calls from it (tokens or none)."""
MARGIN = 10.0
"""Seconds a lease outlives the longest its request can last (or its next renewal)."""
RENEW = 20.0
"""Seconds between a stream's lease renewals (at the first frame after)."""

T = TypeVar("T")


def _ms(seconds: float) -> int:
    return int(seconds * 1000)


class Lease:
    """One open stream's or long-poll's slot under each cap it counts against (its
    player's, its address's; :data:`NO_LEASE`: an uncounted caller)."""

    def __init__(
        self, slots: Slots | None, subjects: tuple[str, ...], lease: str, ttl: float
    ) -> None:
        self._slots = slots
        self._subjects = subjects
        self._id = lease
        self._ttl = ttl
        self._due = time.monotonic() + RENEW

    def renew_if_due(self) -> None:
        """Push the lapse back, at most every :data:`RENEW` seconds (a stream's frames)."""
        if self._slots is None or time.monotonic() < self._due:
            return
        self._due = time.monotonic() + RENEW
        try:
            for subject in self._subjects:
                slot_store.renew(
                    self._slots.core.r, subject, self._id, _ms(self._ttl), _ms(time.time())
                )
        except RedisError as exc:  # the stream goes on; at worst the lease lapses
            log.warning("lease not renewed: %s", exc)

    def release(self) -> None:
        """Give the slot back (once; later calls do nothing)."""
        slots, self._slots = self._slots, None
        if slots is None:
            return
        try:
            for subject in self._subjects:
                slot_store.give_back(slots.core.r, subject, self._id)
        except RedisError as exc:  # it lapses by itself
            log.warning("lease not given back: %s", exc)


NO_LEASE = Lease(None, (), "", 0.0)


class Held(Generic[T]):
    """A stream's frames holding its lease: renewed while frames flow, given back when
    the response is closed (WSGI servers close it however the stream ended, even one
    never iterated, which a generator's ``finally`` would miss)."""

    def __init__(self, frames: Iterator[T], lease: Lease) -> None:
        self._frames = frames
        self._lease = lease

    def __iter__(self) -> Held[T]:
        return self

    def __next__(self) -> T:
        try:
            chunk = next(self._frames)
        except StopIteration:
            self._lease.release()
            raise
        self._lease.renew_if_due()
        return chunk

    def close(self) -> None:
        try:
            close = getattr(self._frames, "close", None)
            if close is not None:
                close()
        finally:
            self._lease.release()


class Slots:
    """The caps, over the shared :class:`Core`."""

    def __init__(self, core: Core) -> None:
        self.core = core
        self.per_player = PER_PLAYER
        self.per_address = PER_ADDRESS

    def configure(self, *, per_player: int, per_address: int) -> None:
        """The caps (from the app's settings); 0 turns one off."""
        self.per_player = max(0, per_player)
        self.per_address = max(0, per_address)

    def _caps(self, token: str | None, address: str | None) -> list[tuple[str, int]]:
        """The caps ``(subject, cap)`` the caller's streams count against, the player's first."""
        caps: list[tuple[str, int]] = []
        if token is not None:
            parts = split_token(token)
            if parts is None or self.core.is_admin(token):
                return []
            if self.per_player:
                caps.append((f"p:{parts[0]}", self.per_player))
            if parts[0].startswith(BOT_PREFIX):
                return caps  # the server's own pool: one host runs every identity
        if address and self.per_address:
            caps.append((f"a:{client_key(address)}", self.per_address))
        return caps

    def _take(self, token: str | None, address: str | None, ttl: float) -> Lease:
        caps = self._caps(token, address)
        if not caps:
            return NO_LEASE
        lease = secrets.token_hex(8)
        taken: list[str] = []
        for subject, cap in caps:
            left = slot_store.take(self.core.r, subject, lease, cap, _ms(ttl), _ms(time.time()))
            if left is not None:
                for done in taken:  # a refused request holds nothing
                    slot_store.give_back(self.core.r, done, lease)
                raise TooManyStreams(cap, min(left / 1000, self.core.max_wait))
            taken.append(subject)
        return Lease(self, tuple(taken), lease, ttl)

    def poll(self, token: str | None, address: str | None, wait: float) -> Lease:
        """A long-poll's lease (none for ``wait`` 0: an ordinary request). ``token`` has
        been checked already (None: a caller without one); ``address`` is the client's.

        Raises:
            TooManyStreams: the caller holds its cap of streams and long-polls.
        """
        if wait <= 0:
            return NO_LEASE
        return self._take(token, address, min(wait, self.core.max_wait) + MARGIN)

    def stream(self, token: str | None, address: str | None) -> Lease:
        """A stream's lease, renewed by :class:`Held` while its frames flow (a stream
        sends one at least every ``PARLOUR_MAX_WAIT`` seconds). ``token`` as for
        :meth:`poll`.

        Raises:
            TooManyStreams: the caller holds its cap of streams and long-polls.
        """
        return self._take(token, address, self.core.max_wait + RENEW + MARGIN)

    def hold(self, frames: Iterator[T], lease: Lease) -> Iterator[T]:
        """``frames`` holding ``lease`` until closed."""
        return frames if lease is NO_LEASE else Held(frames, lease)

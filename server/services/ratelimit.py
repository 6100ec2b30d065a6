"""Rate limiting: a fixed window of requests per caller, counted in Redis.

Counted in Redis so the limit holds across every API process. A request with
a token counts against that token (however it was sent: header or query); one
without counts against the client's address, and so does one whose token is
made up (else a fresh fake token per request would never be limited: the
token's stored hash is read in the same round trip as the count). A
registration also counts in the address's registration bucket, stricter (an
account is the one thing an anonymous caller can make), and an archive page in
the address's archive bucket (each page is up to 50 replays). The admin token is
never limited. Tokens are hashed before they name a key, so no key holds a
credential.

An address is counted by :func:`client_key`: an IPv4 address as itself, an IPv6
one by its /64 (one subscriber's prefix: a client picks any address inside it at
will), an IPv4-mapped IPv6 one as its IPv4 address. Every per-address count
uses it: these, the stream caps (:mod:`server.services.slots`), the archive's and the
visitor games' (:mod:`server.services.visitors`).
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import time

from server.services.callers import sha256, split_token
from server.services.core import Core
from server.services.errors import RateLimited
from server.store import keys
from server.store import ratelimit as ratelimit_store
from server.store.apps import APP_PREFIX


def client_key(address: str) -> str:
    """What a per-address count counts ``address`` as: an IPv4 address unchanged, an
    IPv6 one as its /64 (``2001:db8:1:2::/64``), an IPv4-mapped one as its IPv4
    address; anything else (not an IP address) unchanged.

    >>> client_key("203.0.113.9"), client_key("2001:db8:1:2:aa:bb:cc:dd")
    ('203.0.113.9', '2001:db8:1:2::/64')
    >>> client_key("::ffff:203.0.113.9")
    '203.0.113.9'
    """
    try:
        ip = ipaddress.ip_address(address.strip().split("%", 1)[0])  # a zone id is no other client
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv4Address):
        return str(ip)
    if ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    return str(ipaddress.IPv6Network((ip, 64), strict=False))


class RateLimits:
    """The request counters per token and per address, over the shared :class:`Core`."""

    def __init__(self, core: Core) -> None:
        self.core = core

    def _hit(self, subject: str, limit: int, period: float) -> None:
        wait = ratelimit_store.hit(self.core.r, subject, limit, period, time.time())
        if wait is not None:
            raise RateLimited(wait)

    def check(
        self,
        token: str | None,
        address: str | None,
        limit: int,
        period: float,
        *,
        anonymous_limit: int | None = None,
    ) -> None:
        """Count one request: ``limit`` requests per ``period`` seconds per token, and
        ``anonymous_limit`` (default ``limit``) per address for requests without a
        real one.

        A limit of 0 turns that count off (both 0: no Redis round trip at all).

        Raises:
            RateLimited: over the limit; ``retry_after`` says when the window ends.
        """
        anonymous = limit if anonymous_limit is None else anonymous_limit
        if not (limit or anonymous) or (token is not None and self.core.is_admin(token)):
            return
        if token is not None and self._known(token, limit, period):
            return
        if anonymous and address:
            self._hit(f"addr:{client_key(address)}", anonymous, period)

    def _known(self, token: str, limit: int, period: float) -> bool:
        """Count ``token``'s request (if ``limit``); whether the token is a real one.

        Raises:
            RateLimited: a real token over its limit.
        """
        parts = split_token(token)
        if parts is None:
            return False
        pid, secret = parts
        record = keys.app(pid) if pid.startswith(APP_PREFIX) else keys.player(pid)
        if limit:
            subject = hashlib.sha256(token.encode()).hexdigest()[:24]
            wait, digest = ratelimit_store.hit_with_digest(
                self.core.r, subject, limit, period, time.time(), record
            )
        else:
            wait, digest = None, ratelimit_store.digest(self.core.r, record)
        known = digest is not None and hmac.compare_digest(sha256(secret).encode(), digest.encode())
        if known and wait is not None:
            raise RateLimited(wait)
        return known

    def check_address(
        self, bucket: str, token: str | None, address: str | None, limit: int, period: float
    ) -> None:
        """Count one request of ``address`` in its ``bucket`` (``register``: registrations,
        ``archive``: archive pages), whatever token it carries; the admin's are not counted.

        Raises:
            RateLimited: the address made ``limit`` such requests this window.
        """
        if not limit or not address or (token is not None and self.core.is_admin(token)):
            return
        self._hit(f"{bucket}:{client_key(address)}", limit, period)

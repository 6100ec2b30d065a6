"""The one outbound HTTP stack: every signed POST the server makes to a caller's URL.

Two processes call out on a caller's behalf: the callback dispatcher (a turn to a
player's bot, :mod:`server.processes.dispatch`) and the webhook deliverer (a
notification to an app's backend, :mod:`server.processes.webhooks`). Both make
their calls through :meth:`Outbound.post`, which owns all that they share:

* **The address guard, one door.** The URL's host is resolved once and every
  address it resolves to checked (:func:`server.services.targets.check_target`,
  with the operator's ``PARLOUR_WEBHOOK_ALLOW``); the connection then goes to a
  checked address, with the URL's host in ``Host`` and in TLS (the next address if
  one refuses the connection), never to a fresh resolution: a name rebound to an
  internal address in between is never reached. A refused target
  (:class:`Refused`) is refused before anything is sent. Registration checks the
  URL against the same guard (:func:`server.services.targets.check_target_url`).
* **The signature.** The body is signed with the caller's secret as it is sent
  (``Parlour-Signature``, :func:`server.services.notifications.signature`).
* **One deadline.** The whole call (the connect, the TLS handshake, the status
  line, the headers and the body, to every address it tries) ends by one
  wall-clock deadline, however slowly the other end sends
  (:mod:`server.processes.deadline`: the reaper shuts its sockets down then).
* **The pool.** A urllib3 ``PoolManager`` per host (keep-alive connections, kept
  for the next call only once an answer is read to its end in time; no retries,
  no proxy); redirects never followed (a redirect is an answer, not a way
  elsewhere); TLS verified for the URL's host, against the caller's certificates
  (a PEM file) or the system's; the answer read as sent (``Accept-Encoding:
  identity``: a compressed body is not decoded) up to the caller's bound, or not
  at all (then the connection is dropped).
* **Logs.** A failure is logged as one line of bounded length and no traceback
  (urllib3's warning on a reply's malformed headers too): the other end chooses
  the words, and must not fill the server's log.
"""

from __future__ import annotations

import http.client
import logging
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from urllib.parse import urlsplit

import urllib3
from urllib3.exceptions import HTTPError, NewConnectionError
from urllib3.exceptions import TimeoutError as Urllib3Timeout

from server.processes.deadline import POOLS, REAPER
from server.services import targets
from server.services.notifications import SIGNATURE_HEADER, signature

log = logging.getLogger("server.processes.outbound")

MIN_TIMEOUT = 0.05
"""The shortest socket timeout given to urllib3 (the deadline bounds the call anyway)."""
LOGGED = 160
"""Most characters of a failure's words in a log line (the rest is the other end's to fill)."""


class Failed(Exception):
    """No answer. ``called``: whether anything was sent (a connection was tried)."""

    called = True


class Refused(Failed):
    """The guard refused the URL's address (or one its name resolves to): nothing sent.
    The message names the address, for the server's log only."""

    called = False


class Unresolved(Failed):
    """The URL's name does not resolve (or its port is none): nothing sent."""

    called = False


class Late(Failed):
    """The call's deadline passed before its answer was read."""


class Unreachable(Failed):
    """Every checked address refused the connection or broke it (TLS included);
    ``kind`` names the last failure as the callbacks' books do (:func:`kind`)."""

    def __init__(self, kind: str) -> None:
        super().__init__(kind)
        self.kind = kind


@dataclass(frozen=True, slots=True)
class Reply:
    """An answer in time: its status, its body as sent (``b""`` when not read), and
    how long the call took from its first connect, in seconds."""

    status: int
    body: bytes
    took: float


class Outbound:
    """The signed POSTs of one process, through one guard, pool and deadline.

    Args:
        user_agent: the ``User-Agent`` of every call.
        allow: internal ranges the calls may reach all the same (CIDR list, or
            parsed: ``PARLOUR_WEBHOOK_ALLOW``).
        resolve: host, port -> addresses (the system's resolver by default).
        ca_bundle: the certificates TLS trusts (a PEM file); None: the system's.
        connections: keep-alive connections kept per address of a host.
    """

    def __init__(
        self,
        user_agent: str,
        *,
        allow: str | Sequence[targets.Network] = "",
        resolve: targets.Resolver = targets.resolve,
        ca_bundle: str | None = None,
        connections: int = 8,
    ) -> None:
        self.user_agent = user_agent
        self.allow = targets.allowlist(allow) if isinstance(allow, str) else tuple(allow)
        self.resolve = resolve
        self.ca_bundle = ca_bundle
        self.connections = connections
        self._hosts: dict[tuple[str, str, int], urllib3.PoolManager] = {}
        self._lock = threading.Lock()

    def guard(self, url: str) -> list[str]:
        """The addresses a call to ``url`` may connect to, each checked by the guard.

        Raises:
            Refused: an address is refused. Unresolved: the name does not resolve.
        """
        try:
            return targets.check_target(url, self.allow, self.resolve)
        except targets.TargetRefused as exc:
            raise Refused(str(exc)) from None
        except (OSError, UnicodeError, ValueError) as exc:
            raise Unresolved(str(exc)) from None

    def post(
        self,
        url: str,
        body: bytes,
        *,
        secret: str,
        timeout: float,
        headers: dict[str, str] | None = None,
        most: int | None = None,
        what: str = "call",
    ) -> Reply:
        """POST ``body`` to ``url``, signed with ``secret``, the whole call (the guard's
        resolution included) within ``timeout`` seconds; the answer's body read up to
        ``most`` bytes (``most + 1`` at most: more tells it is too large), or not at
        all if None. ``what`` names the call in log lines (no secret in it).

        Raises:
            Refused, Unresolved: nothing was sent. Late: the deadline passed first.
            Unreachable: no checked address took the call.
        """
        deadline = time.monotonic() + timeout
        try:
            addresses = self.guard(url)
        except Refused as exc:
            log.warning("%s refused: %s", what, brief(exc))
            raise
        except Unresolved as exc:
            log.info("%s: the name does not resolve: %s", what, brief(exc))
            raise
        parts = urlsplit(url)
        host, port = targets.target(url)
        sent = (headers or {}) | {
            "Content-Type": "application/json",
            SIGNATURE_HEADER: signature(secret, body, int(time.time())),
            "User-Agent": self.user_agent,
            "Host": parts.netloc.rpartition("@")[2],
            "Accept-Encoding": "identity",
            "Accept": "*/*",
        }
        path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        manager = self._manager(parts.scheme, host, port)
        started = time.monotonic()
        failed: Exception = Unreachable("ConnectionError")
        for address in addresses:  # the first checked address that answers
            shown = f"[{address}]" if ":" in address else address
            try:
                status, raw = _post(
                    manager, f"{parts.scheme}://{shown}:{port}{path}", body, sent, deadline, most
                )
                return Reply(status, raw, time.monotonic() - started)
            except Late:
                raise Late(f"no answer in {timeout:g} s") from None
            except Urllib3Timeout as exc:
                if not isinstance(exc, NewConnectionError):  # no answer in the time left
                    raise Late(f"no answer in {timeout:g} s") from None
                failed = exc  # refused, unroutable: the next address
            except (HTTPError, OSError, ValueError, http.client.HTTPException) as exc:
                failed = exc
            log.info("%s via %s: %s", what, address, brief(failed))
        raise Unreachable(kind(failed))

    def _manager(self, scheme: str, host: str, port: int) -> urllib3.PoolManager:
        """The keep-alive connections of one host (to its checked addresses: TLS names
        and verifies the host)."""
        key = (scheme, host, port)
        with self._lock:
            manager = self._hosts.get(key)
            if manager is None:
                manager = urllib3.PoolManager(
                    num_pools=4,
                    maxsize=self.connections,
                    block=False,
                    retries=False,
                    cert_reqs="CERT_REQUIRED",
                    ca_certs=self.ca_bundle,
                    server_hostname=host,
                    assert_hostname=host,
                )
                manager.pool_classes_by_scheme = POOLS  # type: ignore[assignment]
                self._hosts[key] = manager
            return manager

    def close(self) -> None:
        """Close every kept connection."""
        with self._lock:
            managers = list(self._hosts.values())
        for manager in managers:
            manager.clear()


def _post(
    manager: urllib3.PoolManager,
    url: str,
    body: bytes,
    headers: dict[str, str],
    deadline: float,
    most: int | None,
) -> tuple[int, bytes]:
    """POST ``body`` to ``url`` (an address), the whole call by ``deadline``
    (monotonic: the reaper shuts its sockets down then); the status and up to
    ``most + 1`` bytes of the body (:func:`_read`; none if ``most`` is None). A
    connection is kept for the next call only if its answer was read to its end in time.

    Raises:
        Late: the deadline passed first (a reply cut mid-headers, which http.client
        takes for their end, included). urllib3's errors (a refused connection, TLS,
        a malformed reply), OSError.
    """
    with REAPER.bounded(deadline) as watch:
        try:
            reply = manager.urlopen(
                "POST",
                url,
                body=body,
                headers=headers,
                timeout=urllib3.Timeout(max(deadline - time.monotonic(), MIN_TIMEOUT)),
                retries=False,
                redirect=False,
                preload_content=False,
            )
        except (HTTPError, OSError, http.client.HTTPException):
            if watch.fired:
                raise Late from None
            raise
        done = False
        raw = b""
        try:
            if most is not None:
                raw = _read(reply, most + 1)
                done = len(raw) <= most and not watch.fired
        except (HTTPError, OSError, http.client.HTTPException):
            if watch.fired:
                raise Late from None
            raise
        finally:
            if not done:  # not read to its end (or cut): the connection is dropped
                reply.close()
            reply.release_conn()
        if watch.fired or time.monotonic() > deadline:
            raise Late
        return reply.status, raw


def _read(reply: urllib3.BaseHTTPResponse, most: int) -> bytes:
    """The answer's body as sent (not decoded, whatever its ``Content-Encoding``), up
    to ``most`` bytes, read as it comes (the call's deadline ends the read)."""
    got = bytearray()
    while len(got) < most:
        piece = reply.read1(most - len(got), decode_content=False)
        if not piece:
            break
        got += piece
    return bytes(got)


def kind(exc: Exception) -> str:
    """A connection's failure named as the books show it (as requests named them: a
    connection that broke or was refused is ``ConnectionError``, TLS ``SSLError``)."""
    if isinstance(exc, Unreachable):
        return exc.kind
    return "SSLError" if isinstance(exc, urllib3.exceptions.SSLError) else "ConnectionError"


def brief(exc: Exception) -> str:
    """``exc`` for a log line: its kind and at most :data:`LOGGED` characters of its
    words (they may hold what the other end sent), escaped onto one line."""
    return f"{type(exc).__name__}: {bounded(str(exc))}"


def bounded(words: str) -> str:
    return repr(words[:LOGGED]) + ("..." if len(words) > LOGGED else "")


class _OneLine(logging.Filter):
    """urllib3's warning on a reply's malformed headers, without its traceback and its
    words bounded (a host choosing its headers would fill the log otherwise)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info:
            record.msg, record.args = "%s", (bounded(record.getMessage()),)
            record.exc_info = record.exc_text = None
        return True


logging.getLogger("urllib3.connection").addFilter(_OneLine())

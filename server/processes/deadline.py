"""One wall-clock deadline for a whole outbound HTTP call (every call of
:mod:`server.processes.outbound`: the dispatcher's to bots, the deliverer's to webhooks).

urllib3's ``Timeout`` bounds each socket operation, not the call: a server that
sends its status line and headers a byte at a time, each within the timeout,
holds the calling thread for as long as it likes (http.client reads them, line by
line, before urllib3 sees a reply). Here every socket a call's connection uses is
known to the call: while the call runs (:meth:`Reaper.bounded`, in the calling
thread) the connection classes below register the socket they connect
(``_new_conn``: the TCP socket, before any TLS handshake) and the socket of a
kept-alive connection they reuse (``request``). One reaper thread per process
shuts each down at its call's deadline: whatever is blocked on it (the connect's
handshake, the status line, the headers, the body) ends at once, and the call
sees an error; :attr:`Watch.fired` tells the caller it was the deadline.

A registered socket is a duplicate of the connection's file descriptor (the same
socket, another descriptor the call owns): shutting it down ends the
connection's reads, and closing it when the call ends leaves the connection as it
was (kept for the next call if its answer was read to its end), with no risk of
touching a descriptor the process has reused meanwhile.
"""

from __future__ import annotations

import contextlib
import heapq
import itertools
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool

_current = threading.local()
"""The calling thread's :class:`Watch` while a bounded call runs (else none)."""


class Watch:
    """The sockets of one call, shut down at its deadline (monotonic seconds)."""

    def __init__(self, deadline: float) -> None:
        self.deadline = deadline
        self.fired = False
        self.done = False
        self._socks: dict[int, socket.socket] = {}  # the connection's fd -> our duplicate
        self._lock = threading.Lock()

    def add(self, sock: socket.socket) -> None:
        """Watch ``sock`` (shut down at once if the deadline passed already)."""
        fd = sock.fileno()
        with self._lock:
            if self.done or fd < 0 or fd in self._socks:
                return
            dup = socket.fromfd(fd, sock.family, sock.type)
            self._socks[fd] = dup
            if self.fired:
                _shutdown(dup)

    def fire(self) -> None:
        """The deadline: every socket of the call shut down (its reads end)."""
        with self._lock:
            if self.done:
                return
            self.fired = True
            for dup in self._socks.values():
                _shutdown(dup)

    def close(self) -> None:
        """The call is over: the duplicates closed (the connection keeps its own)."""
        with self._lock:
            self.done = True
            for dup in self._socks.values():
                dup.close()
            self._socks.clear()


def _shutdown(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):  # not connected yet, or closed by its peer
        sock.shutdown(socket.SHUT_RDWR)


class Reaper:
    """One thread firing each call's :class:`Watch` at its deadline (started on first use)."""

    def __init__(self) -> None:
        self._heap: list[tuple[float, int, Watch]] = []
        self._seq = itertools.count()
        self._cond = threading.Condition()
        self._thread: threading.Thread | None = None

    @contextmanager
    def bounded(self, deadline: float) -> Iterator[Watch]:
        """Run the block as one call that must end by ``deadline`` (monotonic): its
        sockets are shut down then. The block is the call's thread's only one."""
        watch = Watch(deadline)
        with self._cond:
            if self._thread is None or not self._thread.is_alive():  # first use, or forked
                self._thread = threading.Thread(target=self._run, name="deadlines", daemon=True)
                self._thread.start()
            heapq.heappush(self._heap, (deadline, next(self._seq), watch))
            if self._heap[0][2] is watch:  # the earliest now: the reaper waits less
                self._cond.notify()
        _current.watch = watch
        try:
            yield watch
        finally:
            _current.watch = None
            watch.close()

    def _run(self) -> None:
        while True:
            with self._cond:
                while self._heap and self._heap[0][2].done:
                    heapq.heappop(self._heap)
                if not self._heap:
                    self._cond.wait()
                    continue
                wait = self._heap[0][0] - time.monotonic()
                if wait > 0:
                    self._cond.wait(wait)
                    continue
                watch = heapq.heappop(self._heap)[2]
            watch.fire()


REAPER = Reaper()
"""The process's reaper (one thread, whatever the number of calls in flight)."""


def watch(sock: Any) -> None:
    """Let the running bounded call's deadline shut ``sock`` down (outside one: nothing)."""
    watch: Watch | None = getattr(_current, "watch", None)
    if watch is not None and sock is not None:
        watch.add(sock)


class _Watched(HTTPConnection):
    """A connection whose sockets the running call's :class:`Watch` knows."""

    def _new_conn(self) -> socket.socket:
        sock = super()._new_conn()
        watch(sock)  # before TLS: the handshake is bounded too
        return sock

    def request(self, *args: Any, **kwargs: Any) -> None:  # type: ignore[override]
        watch(self.sock)  # a kept-alive connection (a new one connects inside)
        super().request(*args, **kwargs)


class _WatchedHTTPS(_Watched, HTTPSConnection):
    pass


class _Pool(HTTPConnectionPool):
    ConnectionCls = _Watched


class _TLSPool(HTTPSConnectionPool):
    ConnectionCls = _WatchedHTTPS


POOLS = {"http": _Pool, "https": _TLSPool}
"""A ``PoolManager``'s ``pool_classes_by_scheme`` whose connections are watched."""

"""A slow or hostile callback costs its own seats' time, nobody else's, and cannot fill
the log.

The hostile host is a raw socket server on 127.0.0.1 (:class:`RawHost`): it reads
the call and then drips its status line and headers a byte at a time, each byte
well within any per-read timeout, for as long as the dispatcher keeps reading.
The dispatcher must cut the call at its deadline (the whole call, not each read),
keep the turn it holds (no dispatcher calls it again meanwhile), and keep serving
another player's bot while drippers hold calls (at most ``per_host`` of them to
one host). A turn's time bank is counted once: the call is cut at the seat's
deadline, which holds the bank already. A malformed answer is logged as one short
line, no traceback; a compressed body is read as sent (it is no move).
"""

from __future__ import annotations

import gzip
import itertools
import logging
import secrets
import select
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import orjson
import pytest

from server.processes.dispatch import Dispatcher
from server.services.bundle import Services
from server.store import callbacks as callback_store
from server.store import keys
from tests.callbacks.support import Bot, clocked_game, dispatching, serving, wait_for
from tests.conftest import ADMIN_TOKEN

LOCAL = "127.0.0.0/8"
DRIP_EVERY = 0.05
DRIP_MOST = 4.0
"""Seconds a dripper goes on at most (a dispatcher that never cuts it fails the test
this late, not never)."""


@pytest.fixture
def svc(redis_client) -> Services:
    return Services(redis_client, admin_token=ADMIN_TOKEN)


def _read_request(conn: socket.socket) -> dict[str, Any]:
    data = b""
    while b"\r\n\r\n" not in data:
        piece = conn.recv(65536)
        if not piece:
            raise ConnectionError("closed before the request ended")
        data += piece
    head, _, body = data.partition(b"\r\n\r\n")
    length = next(
        int(line.split(b":", 1)[1])
        for line in head.split(b"\r\n")
        if line.lower().startswith(b"content-length:")
    )
    while len(body) < length:
        body += conn.recv(65536)
    return orjson.loads(body[:length])


def _closed_by_peer(conn: socket.socket, wait: float) -> bool:
    """Whether the peer closed (or shut down) the connection within ``wait`` seconds."""
    readable, _, _ = select.select([conn], [], [], wait)
    if not readable:
        return False
    try:
        return conn.recv(1) == b""
    except OSError:
        return True


def drip(conn: socket.socket, call: dict[str, Any]) -> None:
    """The status line, then a header without end, a byte every :data:`DRIP_EVERY` s."""
    stream = b"HTTP/1.1 200 OK\r\nX-Drip: " + b"a" * 10_000
    ends = time.monotonic() + DRIP_MOST
    for byte in stream:
        if time.monotonic() > ends or _closed_by_peer(conn, DRIP_EVERY):
            return
        try:
            conn.sendall(bytes([byte]))
        except OSError:
            return


def mute(conn: socket.socket, call: dict[str, Any]) -> None:
    """Nothing at all, until the peer gives up (or :data:`DRIP_MOST`)."""
    ends = time.monotonic() + DRIP_MOST
    while time.monotonic() < ends and not _closed_by_peer(conn, DRIP_EVERY):
        pass


class RawHost:
    """A callback host on a raw socket: per connection, the call read, then ``reply``;
    each call kept with when it came and when its connection ended (``time.time()``)."""

    def __init__(self, reply: Callable[[socket.socket, dict[str, Any]], None]) -> None:
        self.reply = reply
        self.calls: list[dict[str, Any]] = []
        self.lock = threading.Lock()
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]

    def open_calls(self) -> int:
        with self.lock:
            return sum(c["ended"] is None for c in self.calls)

    def serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            threading.Thread(target=self._one, args=(conn,), daemon=True).start()

    def _one(self, conn: socket.socket) -> None:
        with conn:
            try:
                call = _read_request(conn) | {"came": time.time(), "ended": None}
            except (OSError, ValueError, StopIteration):
                return
            with self.lock:
                self.calls.append(call)
            self.reply(conn, call)
            call["ended"] = time.time()


@contextmanager
def hosting(reply: Callable[[socket.socket, dict[str, Any]], None]) -> Iterator[RawHost]:
    host = RawHost(reply)
    threading.Thread(target=host.serve, daemon=True).start()
    try:
        yield host
    finally:
        host.sock.close()


def _callback(svc: Services, player_id: str, url: str, bot: Bot | None = None) -> None:
    secret = f"cbs_test_{player_id}"
    callback_store.put(svc.core.r, player_id, url, secret, 1.0)
    if bot is not None:
        bot.secrets[player_id] = secret


def test_a_dripped_status_line_and_headers_are_cut_at_the_calls_deadline(svc, players):
    a, b = players.many(2, "cb")
    with hosting(drip) as host:
        _callback(svc, a.id, f"http://127.0.0.1:{host.port}/bot")
        clocked_game(svc, [a.id, b.id], move_seconds=30)
        dispatcher = Dispatcher(svc.dispatch, consumer="d1", timeout=1.0, allow=LOCAL)
        with dispatching(dispatcher):
            wait_for(lambda: host.calls and host.calls[0]["ended"], DRIP_MOST + 2, "the cut")
            wait_for(lambda: svc.callbacks.health([a.id])[a.id]["timeouts"], 2, "the books")
    call = host.calls[0]
    assert call["ended"] - call["came"] < 1.0 + 0.3  # the call's deadline: 1 s, whole
    health = svc.callbacks.health([a.id])[a.id]
    assert health["last_failures"][0]["kind"] == "timeout"
    assert len(host.calls) == 1  # no time was left for a retry


def test_drippers_hold_their_own_turns_and_another_bot_is_served_meanwhile(svc, players):
    """Five dripping turns of one host, at most one call to it at a time (``per_host``):
    the others wait their turn, held (their idle time in the group kept short, so no
    dispatcher claims them), each called once; another player's bot is served at once."""
    attacker, other, honest, partner = players.many(4, "cb")
    timeout, turns = 0.4, 5
    resolve: Any = lambda host, port: ["127.0.0.1"]  # noqa: E731 - the names of two hosts
    with hosting(drip) as host, serving(Bot()) as bot:
        _callback(svc, attacker.id, f"http://drip.test:{host.port}/bot")
        for p in (honest, partner):
            _callback(svc, p.id, f"http://bot.test:{bot.port}/bot", bot)
        for _ in range(turns):
            clocked_game(svc, [attacker.id, other.id], move_seconds=30)
        dispatcher = Dispatcher(
            svc.dispatch,
            consumer="d1",
            concurrency=3,
            per_host=1,
            timeout=timeout,
            allow=LOCAL,
            resolve=resolve,
        )
        idle: list[int] = []
        with dispatching(dispatcher):
            wait_for(lambda: host.calls, 2, "the first drip")
            game_id = clocked_game(svc, [honest.id, partner.id], move_seconds=30)
            started = time.monotonic()
            wait_for(lambda: bot.calls, 1, "the honest bot called")
            served_in = time.monotonic() - started
            drippers_then, dripped_then = host.open_calls(), len(host.calls)
            while len(host.calls) < turns or host.open_calls():
                pending = svc.core.r.xpending_range(
                    keys.callback_turns(), callback_store.GROUP, "-", "+", 100
                )
                idle += [p["time_since_delivered"] for p in pending]
                assert time.monotonic() - started < turns * timeout + 3, "the drips went on"
                time.sleep(0.05)
    assert served_in < 0.5 and drippers_then <= 1 and dripped_then < turns
    assert {c["game_id"] for c in bot.calls} == {game_id} and bot.bad_signatures == 0
    by_game = [c["game_id"] for c in host.calls]
    assert len(by_game) == turns == len(set(by_game))  # each dripping turn called once
    assert all(c["ended"] - c["came"] < timeout + 0.3 for c in host.calls)
    starts = sorted(c["came"] for c in host.calls)  # one call to the host at a time
    ends = sorted(c["ended"] for c in host.calls)
    assert all(start >= end - 0.1 for start, end in zip(starts[1:], ends, strict=False))
    # the last turns waited over a second for the host, held: their idle time kept short
    assert max(idle) < dispatcher.claim_idle / 4 * 1000 + 600


def test_the_time_bank_is_counted_once(svc, players):
    """``{"move_seconds": 0.3, "bank_ms": 1000}``: the seat's deadline is 1.3 s after the
    turn began (the bank in it); a bot that never answers is cut by then, not a bank later."""
    a, b = players.many(2, "cb")
    with hosting(mute) as host:
        _callback(svc, a.id, f"http://127.0.0.1:{host.port}/bot")
        game_id = secrets.token_hex(8)
        svc.games.create_tournament_game(
            game_id=game_id,
            game="cowpoke",
            options={"players": 2, "hands": 1},
            seats=[a.id, b.id],
            seed=None,
            clock={
                "move_seconds": 0.3,
                "bank_ms": 1000,
                "timeout_policy": {"kind": "default_move"},
            },
            tournament={"id": None, "consent": {"kind": "test", "players": sorted([a.id, b.id])}},
        )
        clock = svc.core.clock(svc.core.game(game_id))
        assert clock is not None
        deadline = clock.deadlines[0]
        dispatcher = Dispatcher(svc.dispatch, consumer="d1", timeout=5, allow=LOCAL)
        with dispatching(dispatcher):
            wait_for(lambda: host.calls and host.calls[0]["ended"], DRIP_MOST, "the cut")
    assert host.calls[0]["ended"] <= deadline + 0.15  # not deadline + 1.0 (the bank again)


def gzipped(conn: socket.socket, call: dict[str, Any]) -> None:
    """A legal move, gzipped (asked for ``identity``)."""
    body = gzip.compress(orjson.dumps({"move": call["view"]["legal_moves"][0]}))
    head = f"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: {len(body)}\r\n\r\n"
    conn.sendall(head.encode() + body)


def test_malformed_answers_log_a_short_line_each_and_gzip_is_not_decoded(svc, players, caplog):
    caplog.set_level(logging.INFO)
    sent = itertools.count()

    def malformed(conn: socket.socket, call: dict[str, Any]) -> None:
        """A header line that continues nothing (urllib3 warns, with a traceback), then a
        status line of 60 000 bytes: a bot's own words, long, in the dispatcher's errors."""
        if next(sent) == 0:
            conn.sendall(
                b"HTTP/1.1 200 OK\r\n X" + b"y" * 5000 + b"\r\nContent-Length: 2\r\n\r\n{}"
            )
        else:
            conn.sendall(b"garbage " + b"z" * 60_000 + b"\r\n\r\n")

    a, b, c, d = players.many(4, "cb")
    with hosting(gzipped) as packed, hosting(malformed) as broken:
        _callback(svc, a.id, f"http://127.0.0.1:{packed.port}/bot")
        _callback(svc, c.id, f"http://127.0.0.1:{broken.port}/bot")
        clocked_game(svc, [a.id, b.id], move_seconds=30)
        clocked_game(svc, [c.id, d.id], move_seconds=30)
        dispatcher = Dispatcher(svc.dispatch, consumer="d1", timeout=2, allow=LOCAL)
        with dispatching(dispatcher):
            for p in (a, c):
                wait_for(lambda p=p: svc.callbacks.health([p.id])[p.id]["errors"] >= 2, 3, "books")
    packed_health = svc.callbacks.health([a.id])[a.id]
    assert packed_health["moves"] == 0
    assert {f["kind"] for f in packed_health["last_failures"]} == {"not_a_move"}
    assert len(broken.calls) == 2
    ours = [r for r in caplog.records if r.name.startswith(("server.processes", "urllib3"))]
    assert any(r.name == "urllib3.connection" for r in ours)  # the header warning, kept
    assert sum("garbage" in r.getMessage() for r in ours) == 1  # the status line's failure
    for record in ours:
        assert record.exc_info is None and record.exc_text is None  # no traceback
        assert len(record.getMessage()) < 400 and "\n" not in record.getMessage()


def test_a_webhook_receiver_that_drips_is_cut_at_the_deliverys_timeout():
    """The deliverer's POST (the outbound stack's, as the dispatcher's) is bounded as a
    whole: a receiver dripping its status line and headers holds a delivery thread (and
    the batch, so every app's webhooks) no longer than the timeout."""
    from server.processes import outbound
    from server.processes.webhooks import USER_AGENT

    http = outbound.Outbound(USER_AGENT, allow=LOCAL)
    with hosting(drip) as host:
        started = time.monotonic()
        with pytest.raises(outbound.Late):
            http.post(f"http://127.0.0.1:{host.port}/hook", b"{}", secret="s", timeout=1.0)
        took = time.monotonic() - started
    assert took < 1.0 + 0.3, took

"""HTTP benchmark: accepted moves per second through gunicorn, beside the stack's ceiling.

Starts ``parlour serve`` (gunicorn, gevent workers, embedded Redis with AOF) as a
subprocess, then, interleaved so host noise hits both alike:

* ``ping``: N client threads calling ``GET /v1/_ping_redis`` (one Redis round
  trip: the most any request can do on this stack);
* ``moves``: N client threads each playing real Concerto games, one accepted
  move per request (``POST /moves`` with ``version``). The admin creates each
  game with a known seed, so a client mirrors it with the engine and needs no
  extra request to choose a legal move.
* ``moves+waiters``: the same while W other players sit in ``/me/turns?wait=``
  long-polls, the load that would starve sync workers.

Prints ``name: value unit`` lines, including the moves/ping ratio.
Run: ``python -m tests.bench_http [--clients N] [--seconds S]``.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import os
import random
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

import orjson
import requests

from server.games import REGISTRY
from server.processes.served import Served, free_port

CONCERTO = REGISTRY["concerto"]


class Conn:
    """A keep-alive HTTP/1.1 connection: far less client CPU per request than requests."""

    def __init__(self, base: str) -> None:
        host, port = base.removeprefix("http://").split(":")
        self.http = http.client.HTTPConnection(host, int(port), timeout=60)
        self.received = 0
        """Bytes of response bodies read so far."""

    def call(self, method: str, path: str, body=None, token: str | None = None):
        headers = {"Content-Type": "application/json"} if body is not None else {}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        self.http.request(method, path, None if body is None else orjson.dumps(body), headers)
        response = self.http.getresponse()
        raw = response.read()
        self.received += len(raw)
        return response.status, orjson.loads(raw)


class Table:
    """One game played by one client thread, mirrored locally by the engine."""

    def __init__(self, base: str, admin: str, tokens: list[str], ids: list[str], seed: str) -> None:
        self.conn, self.tokens, self.ids = Conn(base), tokens, ids
        self.rng = random.Random(seed)
        self.admin = admin
        self.count = 0
        self.seed = seed
        self._new_game()

    def _new_game(self) -> None:
        self.count += 1
        seed = f"{self.seed}-{self.count}"
        status, body = self.conn.call(
            "POST", "/v1/games", {"game": "concerto", "seats": self.ids, "seed": seed}, self.admin
        )
        if status != 201:
            raise RuntimeError(f"create refused: {status} {body}")
        self.game_id = body["id"]
        self.mirror = CONCERTO.new_state({}, seed)
        self.version = 0

    def move(self) -> float:
        """Make one move; return its latency in seconds."""
        if self.mirror.is_over():
            self._new_game()
        seat = self.mirror.to_move()[0]
        move = self.rng.choice(self.mirror.legal_moves(seat))
        start = time.perf_counter()
        status, body = self.conn.call(
            "POST",
            f"/v1/games/{self.game_id}/moves",
            {"move": move, "version": self.version},
            self.tokens[seat],
        )
        took = time.perf_counter() - start
        if status != 200:
            raise RuntimeError(f"move refused: {status} {body}")
        self.mirror.apply(seat, move)
        self.version += 1
        return took


def register(
    base: str, session: requests.Session, n: int, admin_token: str
) -> tuple[list[str], list[str]]:
    """``n`` players, registered as the admin (an address registers only a few itself)."""
    ids, tokens = [], []
    admin = {"Authorization": f"Bearer {admin_token}"}
    for i in range(n):
        body = session.post(
            f"{base}/v1/players", json={"name": f"bench{i}"}, headers=admin, timeout=30
        ).json()
        ids.append(body["id"])
        tokens.append(body["token"])
    return ids, tokens


def run_clients(n: int, seconds: float, make: Callable[[int], Callable[[], float]]) -> list[float]:
    """Run ``n`` threads, each calling its own ``make(i)()`` until time is up; all latencies."""
    steps = [make(i) for i in range(n)]
    latencies: list[list[float]] = [[] for _ in range(n)]
    barrier = threading.Barrier(n + 1)
    stop = threading.Event()

    def loop(i: int) -> None:
        barrier.wait()
        while not stop.is_set():
            latencies[i].append(steps[i]())

    threads = [threading.Thread(target=loop, args=(i,), daemon=True) for i in range(n)]
    for t in threads:
        t.start()
    barrier.wait()
    time.sleep(seconds)
    stop.set()
    for t in threads:
        t.join(60)
    return [x for per in latencies for x in per]


def ping_step(base: str, round_trips: int = 1, reply_bytes: int = 0) -> Callable[[], float]:
    conn = Conn(base)
    path = "/v1/_ping_redis"
    if round_trips != 1 or reply_bytes:
        path += f"?round_trips={round_trips}&reply_bytes={reply_bytes}"

    def step() -> float:
        start = time.perf_counter()
        status, _ = conn.call("GET", path)
        took = time.perf_counter() - start
        if status != 200:
            raise RuntimeError(f"ping failed: {status}")
        return took

    return step


def quantile(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100)[int(q * 100) - 1] if len(values) > 1 else 0.0


def report(name: str, latencies: list[float], seconds: float, unit: str) -> float:
    rate = len(latencies) / seconds
    print(f"http_{name}_rate: {rate:.0f} {unit}")
    print(f"http_{name}_p50: {1000 * quantile(latencies, 0.50):.1f} ms")
    print(f"http_{name}_p99: {1000 * quantile(latencies, 0.99):.1f} ms")
    return rate


def start_waiters(base: str, tokens: list[str], stop: threading.Event) -> list[threading.Thread]:
    """Players with no turn, each looping on ``/me/turns?wait=`` like an idle bot."""

    def wait(token: str) -> None:
        conn = Conn(base)
        with contextlib.suppress(OSError):  # the server stopping ends the loop
            while not stop.is_set():
                conn.call("GET", "/v1/me/turns?wait=5", token=token)

    threads = [threading.Thread(target=wait, args=(t,), daemon=True) for t in tokens]
    for t in threads:
        t.start()
    return threads


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; ``argv`` None means the defaults (``make bench`` calls it so)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=4.0, help="per phase and round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--waiters", type=int, default=200)
    args = parser.parse_args(argv or [])

    # every waiter and client polls from this one host: no per-address stream cap
    os.environ.setdefault("PARLOUR_STREAMS_PER_ADDRESS", "0")
    with tempfile.TemporaryDirectory(prefix="parlour-bench-") as tmp:
        server = Served(Path(tmp) / "var", free_port(), workers=args.workers)
        try:
            base, setup = server.url, requests.Session()
            ids, tokens = register(base, setup, 4 * args.clients + args.waiters, server.admin_token)
            tables = [
                Table(
                    base,
                    server.admin_token,
                    tokens[4 * i : 4 * i + 4],
                    ids[4 * i : 4 * i + 4],
                    f"bench-{i}",
                )
                for i in range(args.clients)
            ]
            pings: list[float] = []
            moves: list[float] = []
            for _ in range(args.rounds):
                pings += run_clients(args.clients, args.seconds, lambda i: ping_step(base))
                moves += run_clients(args.clients, args.seconds, lambda i: tables[i].move)
            stop = threading.Event()
            waiters = start_waiters(base, tokens[4 * args.clients :], stop)
            time.sleep(1.0)
            loaded = run_clients(args.clients, args.seconds, lambda i: tables[i].move)
            stop.set()
            span = args.seconds * args.rounds
            print(f"http_clients: {args.clients} threads")
            print(f"http_workers: {args.workers} gevent workers")
            ping_rate = report("ping_redis", pings, span, "req/s")
            move_rate = report("moves", moves, span, "moves/s")
            print(f"http_moves_vs_ping_ratio: {move_rate / ping_rate:.2f} ratio")
            report(f"moves_with_{len(waiters)}_waiters", loaded, args.seconds, "moves/s")
            setup.close()
            for t in tables:
                t.conn.http.close()
        finally:
            server.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

"""Load bench: moves against the stack's ceiling, and how many bots can wait at once.

Starts a Redis (AOF ``everysec``, on loopback TCP as in a scaled-out deployment)
and ``parlour serve --no-scheduler`` (gunicorn, gevent workers) as subprocesses,
then measures, reusing the pieces of :mod:`tests.bench_http`:

1. **Throughput at 64 and 256 concurrent bots.** Each bot plays real Concerto
   games (one accepted move per request, its next move chosen from a local
   mirror of the deal); the ceiling is ``GET /v1/_ping_redis`` (one Redis round
   trip through the whole stack) from as many clients, interleaved with the moves
   in the same run so host noise hits both alike. Printed: rates, p50/p99, the
   server's CPU per request, and ``move throughput ratio to ceiling: 0.NN``
   (64 bots). Targets: ratio >= 0.70, moves' p99 < 2x the ceiling's.
   Also interleaved: the **floor**, ``GET /v1/_ping_redis?round_trips=2&reply_bytes=N``:
   two Redis round trips one after the other and an answer the size of the
   moves' (N: their mean so far; each round measures the moves first), and
   nothing else: the I/O that
   docs/architecture.md's move (a read, then a compare-and-set, then the view) cannot skip,
   without any of its work. The printout shows how much of the gap to the
   ceiling is that I/O and how much the move's own work.
2. **Long-poll capacity.** ``--waiters`` bots (5,000 by default) each park one
   ``GET /v1/me/turns?wait=`` on its own connection (raw sockets: one client thread
   holds them all), while 16 bots keep moving (``--movers``). Printed: how many were waiting
   (``GET /metrics``), the memory per waiting bot (workers' and Redis's RSS), and
   the moves' rate and p99 meanwhile. Target: 5,000 waiting on 2 cores, p99 < 100 ms.

Open files: each waiting bot holds a socket here, one in a worker and a Redis
connection in that worker, so this process raises its ``RLIMIT_NOFILE`` to the
hard limit (the server inherits it, and ``parlour serve`` raises its own too),
and sets the workers' connection and Redis pool limits above the waiters.

``--profile`` adds a pyinstrument profile of the move path (in process, Flask test
client), the tool used to find what the move path did not need. ``--spy S``
samples one real gunicorn worker with py-spy for S seconds while 64 bots move,
and prints where its CPU goes, as shares of the samples (frames inclusive).

Run: ``python -m tests.bench_load [--seconds S] [--waiters N] [--profile] [--spy S]``.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import re
import socket
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import requests

from server.processes.serve import raise_open_files_limit
from tests.bench_http import Table, ping_step, quantile, register, run_clients
from tests.faults.procs import ADMIN_TOKEN, ApiProc, RedisNode, rss_bytes, running

SIZES = (64, 256)


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU of these processes so far (``/proc/<pid>/stat``)."""
    total = 0
    for pid in pids:
        with contextlib.suppress(OSError):
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def register_many(base: str, n: int, threads: int = 8) -> tuple[list[str], list[str]]:
    """``n`` players, registered over HTTP from a few threads."""
    chunks = [min(500, n - i) for i in range(0, n, 500)]

    def one(size: int) -> tuple[list[str], list[str]]:
        with requests.Session() as s:
            return register(base, s, size)

    ids: list[str] = []
    tokens: list[str] = []
    with ThreadPoolExecutor(threads) as pool:
        for got_ids, got_tokens in pool.map(one, chunks):
            ids += got_ids
            tokens += got_tokens
    return ids, tokens


def metric(base: str, name: str) -> float:
    text = requests.get(f"{base}/metrics", timeout=30).text
    found = re.search(rf"^{re.escape(name)} (\S+)$", text, re.MULTILINE)
    return float(found.group(1)) if found else 0.0


def line(name: str, value: float, unit: str = "", digits: int = 1) -> None:
    print(f"{name}: {value:.{digits}f} {unit}".rstrip(), flush=True)


def throughput(api: ApiProc, args: argparse.Namespace) -> None:
    """Section 1: moves beside the ceiling at each size, interleaved."""
    base = api.url
    biggest = max(args.sizes)
    ids, tokens = register_many(base, 4 * biggest)
    tables = [
        Table(base, ADMIN_TOKEN, tokens[4 * i : 4 * i + 4], ids[4 * i : 4 * i + 4], f"load-{i}")
        for i in range(biggest)
    ]
    workers = api.worker_pids()
    headline = None
    for n in args.sizes:
        figures: dict[str, list[float]] = {"moves": [], "ping": [], "floor": []}
        received = sum(t.conn.received for t in tables[:n])

        def reply_size(n: int = n, figures: dict = figures, received: int = received) -> int:
            """The moves' mean answer so far (the floor pads its answer to it)."""
            got = sum(t.conn.received for t in tables[:n]) - received
            return round(got / max(1, len(figures["moves"])))

        steps = {
            "moves": lambda i: tables[i].move,  # first: the floor copies its answers' size
            "ping": lambda i: ping_step(base),
            "floor": lambda i: ping_step(base, 2, reply_size()),
        }
        cpu: dict[str, float] = {name: 0.0 for name in steps}
        for _ in range(args.rounds):
            for name, make in steps.items():
                before = cpu_seconds(workers)
                figures[name] += run_clients(n, args.seconds, make)
                cpu[name] += cpu_seconds(workers) - before
        span = args.seconds * args.rounds
        line(f"load_{n}_move_reply_size", reply_size(), "bytes", 0)
        rates = {}
        for name, unit in (("ping", "req/s"), ("floor", "req/s"), ("moves", "moves/s")):
            lat = figures[name]
            rates[name] = len(lat) / span
            line(f"load_{n}_{name}_rate", rates[name], unit, 0)
            line(f"load_{n}_{name}_p50", 1000 * quantile(lat, 0.50), "ms")
            line(f"load_{n}_{name}_p99", 1000 * quantile(lat, 0.99), "ms")
            line(f"load_{n}_{name}_server_cpu", 1e6 * cpu[name] / max(1, len(lat)), "us/request", 0)
        ratio = rates["moves"] / rates["ping"]
        p99 = quantile(figures["moves"], 0.99) / max(1e-9, quantile(figures["ping"], 0.99))
        line(f"load_{n}_moves_vs_ping_ratio", ratio, "", 2)
        line(f"load_{n}_floor_vs_ping_ratio", rates["floor"] / rates["ping"], "", 2)
        line(f"load_{n}_moves_vs_floor_ratio", rates["moves"] / rates["floor"], "", 2)
        line(f"load_{n}_moves_p99_vs_ping_p99", p99, "x", 2)
        if headline is None:
            headline = ratio
    print(f"move throughput ratio to ceiling: {headline:.2f}", flush=True)
    if args.spy:
        spy_moves(api, tables[: min(args.sizes)], args.spy)
    for t in tables:
        t.conn.http.close()


def park(base: str, tokens: list[str], wait: float) -> list[socket.socket]:
    """One raw connection per token, each parked in ``GET /v1/me/turns?wait=``."""
    host, port = base.removeprefix("http://").split(":")
    socks = []
    for token in tokens:
        s = socket.create_connection((host, int(port)), timeout=30)
        s.sendall(
            f"GET /v1/me/turns?wait={wait} HTTP/1.1\r\nHost: {host}\r\n"
            f"Authorization: Bearer {token}\r\n\r\n".encode()
        )
        socks.append(s)
    return socks


def long_polls(api: ApiProc, red: RedisNode, args: argparse.Namespace) -> None:
    """Section 2: many bots waiting while others move."""
    base = api.url
    movers = args.movers
    ids, tokens = register_many(base, 4 * movers + args.waiters)
    tables = [
        Table(base, ADMIN_TOKEN, tokens[4 * i : 4 * i + 4], ids[4 * i : 4 * i + 4], f"poll-{i}")
        for i in range(movers)
    ]
    idle = tokens[4 * movers :]
    run_clients(movers, 1.0, lambda i: tables[i].move)  # warm: pools, caches
    quiet = run_clients(movers, args.seconds, lambda i: tables[i].move)
    pids = [*api.worker_pids(), red.proc.pid]
    rss_before = rss_bytes(pids)
    started = time.monotonic()
    socks = park(base, idle, args.poll_wait)
    opened = time.monotonic() - started
    try:
        deadline = time.monotonic() + 30
        waiting = 0.0
        while time.monotonic() < deadline:
            time.sleep(1.2)  # workers report their gauge every second
            waiting = metric(base, "parlour_long_polls_waiting")
            if waiting >= len(socks):
                break
        rss_after = rss_bytes(pids)
        loaded = run_clients(movers, args.seconds, lambda i: tables[i].move)
        still = metric(base, "parlour_long_polls_waiting")
    finally:
        for s in socks:
            s.close()
    line("longpoll_bots_parked", len(socks), "connections", 0)
    line("longpoll_park_time", opened, "s", 2)
    line("longpoll_waiting", waiting, "bots", 0)
    line("longpoll_waiting_after_moves", still, "bots", 0)
    line("longpoll_memory_per_waiting_bot", (rss_after - rss_before) / 1024 / len(socks), "KB")
    line("longpoll_moves_idle_rate", len(quiet) / args.seconds, "moves/s", 0)
    line("longpoll_moves_idle_p99", 1000 * quantile(quiet, 0.99), "ms")
    line(f"longpoll_moves_with_{len(socks)}_waiting_rate", len(loaded) / args.seconds, "moves/s", 0)
    line(f"longpoll_moves_with_{len(socks)}_waiting_p50", 1000 * quantile(loaded, 0.50), "ms")
    line(f"longpoll_moves_with_{len(socks)}_waiting_p99", 1000 * quantile(loaded, 0.99), "ms")
    for t in tables:
        t.conn.http.close()


SPY_FRAMES = {
    "the whole request (gunicorn)": "AsyncWorker.handle (",
    "Flask, around the view": "Flask.wsgi_app (",
    "the view: body in, service, view out": "move (server/api/games.py",
    "  marshmallow: the move body": "Schema.load (",
    "  Games.move": "Games.move (",
    "    the read (one round trip)": "Core.read (",
    "      JSON of the stored record": "_parse (",
    "    the engine: from_dict, apply, to_dict": "BaseState.apply (|State.from_dict (|"
    "State.to_dict (",
    "    the commit (one round trip)": "commit (server/store",
    "    the view of the seat": "view (server/services/views.py",
    "  the response's JSON": "Flask.make_response (",
    "redis-py, checking a pooled connection": "AbstractConnection.can_read (",
    "sockets: sendall (syscalls)": "SocketMixin.sendall (",
}


def spy_moves(api: ApiProc, tables: list, seconds: float) -> None:
    """py-spy over one worker while the bots move: the move path's shares of CPU."""
    worker = api.worker_pids()[0]
    with tempfile.TemporaryDirectory(prefix="parlour-spy-") as tmp:
        out = Path(tmp) / "moves.txt"
        spy = subprocess.Popen(
            [
                str(Path(sys.executable).with_name("py-spy")),
                "record",
                "-p",
                str(worker),
                "-d",
                str(int(seconds)),
                "-r",
                "250",
                "-f",
                "raw",
                "-o",
                str(out),
                "--nonblocking",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        run_clients(len(tables), seconds + 1, lambda i: tables[i].move)
        spy.wait(60)
        rows = out.read_text().splitlines()
    shares: dict[str, int] = dict.fromkeys(SPY_FRAMES, 0)
    total = 0
    for row in rows:
        stack, _, count = row.rpartition(" ")
        total += int(count)
        for name, patterns in SPY_FRAMES.items():
            if any(p in stack for p in patterns.split("|")):
                shares[name] += int(count)
    print(f"spy: {total} samples of worker {worker} (busy, not idle), share of them:", flush=True)
    for name, n in shares.items():
        print(f"spy  {100 * n / max(1, total):5.1f}%  {name}", flush=True)


def profile_moves(n: int = 3000) -> None:
    """pyinstrument over ``n`` moves through the Flask app in process (embedded Redis)."""
    from pyinstrument import Profiler

    from server.api import create_app
    from server.games import REGISTRY
    from server.processes.redis_embed import EmbeddedRedis

    concerto = REGISTRY["concerto"]
    with tempfile.TemporaryDirectory() as tmp, EmbeddedRedis(tmp, appendonly=False) as red:
        app = create_app({"REDIS_URL": red.url, "ADMIN_TOKEN": "bench", "TESTING": True})
        client = app.test_client()
        people = [client.post("/v1/players", json={"name": f"p{i}"}).get_json() for i in range(4)]
        rng = random.Random(1)
        plan = []
        while len(plan) < n:
            seed = f"profile-{len(plan)}"
            gid = client.post(
                "/v1/games",
                headers={"Authorization": "Bearer bench"},
                json={"game": "concerto", "seed": seed, "seats": [p["id"] for p in people]},
            ).get_json()["id"]
            mirror, version = concerto.new_state({}, seed), 0
            while not mirror.is_over():
                seat = mirror.to_move()[0]
                move = rng.choice(mirror.legal_moves(seat))
                mirror.apply(seat, move)
                plan.append((gid, people[seat]["token"], move, version))
                version += 1
        profiler = Profiler(interval=0.0005)
        start = time.process_time()
        with profiler:
            for gid, token, move, version in plan[:n]:
                client.post(
                    f"/v1/games/{gid}/moves",
                    json={"move": move, "version": version},
                    headers={"Authorization": f"Bearer {token}"},
                )
        line(
            "profile_cpu_per_move_in_process",
            1e6 * (time.process_time() - start) / n,
            "us (with the profiler on)",
            0,
        )
        print(profiler.output_text(unicode=False, color=False), flush=True)


def main(argv: list[str] | None = None) -> int:
    """Run the bench; ``argv`` None means the defaults (``make bench`` calls it so)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="per phase and round")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--sizes", type=lambda s: [int(x) for x in s.split(",")], default=list(SIZES)
    )
    parser.add_argument("--waiters", type=int, default=5000)
    parser.add_argument("--poll-wait", type=float, default=60.0)
    parser.add_argument(
        "--movers",
        type=int,
        default=16,
        help="bots moving during the long-poll section (a steady flow, "
        "not a saturating one: its p99 is the waiters' cost)",
    )
    parser.add_argument("--profile", action="store_true")
    parser.add_argument(
        "--spy", type=float, default=0.0, help="seconds of py-spy on one worker while the bots move"
    )
    parser.add_argument("--skip", default="", help="sections to skip: throughput,longpoll")
    args = parser.parse_args(argv or [])

    files = raise_open_files_limit()
    line("load_open_files_limit", files, "files", 0)
    env = {
        "PARLOUR_WORKER_CONNECTIONS": str(args.waiters + 1000),
        "PARLOUR_REDIS_MAX_CONNECTIONS": str(args.waiters + 1000),
        "PARLOUR_MAX_WAIT": str(args.poll_wait),
        "PARLOUR_STREAMS_PER_ADDRESS": "0",  # every waiter polls from this one host
    }
    with tempfile.TemporaryDirectory(prefix="parlour-load-") as tmp:
        red = RedisNode(Path(tmp) / "redis", fsync="everysec")
        api = ApiProc(red.url, Path(tmp), workers=args.workers, env=env)
        with running(red, api):
            red.start()
            api.start()
            line("load_workers", len(api.worker_pids()), "gevent workers", 0)
            if "throughput" not in args.skip:
                throughput(api, args)
            if "longpoll" not in args.skip:
                long_polls(api, red, args)
    if args.profile:
        profile_moves()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

"""Callback bench: what a callback bot's turn costs the server, against the turn stream's.

Starts Redis (AOF ``everysec``, loopback TCP), ``parlour serve --no-scheduler
--no-botpool --no-webhooks --no-dispatch`` (two gevent workers) and one ``parlour
dispatch``, each its own process; the bots run in other processes (no GIL shared
with the server): a callback host (a threaded WSGI server answering each call with
the first legal move) and turn-stream bots (the SDK's runner, first legal move too).
Phases alternate in one run, so host noise hits both alike:

* ``stream``: ``games`` Concerto games of four turn-stream bots;
* ``callback``: as many games of four callback bots, played by the dispatcher.

Server CPU is user + system time of the gunicorn workers, Redis and the dispatcher
over each phase (the dispatcher idles through the stream phase). Printed: server CPU
per move in each loop, their ratio, the dispatcher's share of the callback loop's
server CPU, and the callback answers' p99 as the dispatcher measured it (the bots'
health: call to answer read, the bot's own time included).

Then the capacity: callback bots in ever more games at once (``--capacity``: 1, 2,
4, 8 and 16 games, 4 to 64 bots: the 50 ms line falls in that range on 2 cores), each
level measured for ``--seconds``; the dispatch latency is what a bot waits between
sending its answer and the next call of that game (the move's commit, the queue, the
dispatcher and the call: the whole loop but
the bot), its p99 measured by the callback host. Printed: the p99 at each level and
the most bots one host sustains with it under 50 ms (the host, the server, Redis and
the dispatcher share this machine's cores).

Run: ``python -m tests.bench_callbacks [--seconds S] [--games G] [--rounds R]
[--capacity 1,2,4,8,16]``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import requests

from tests.bench_load import cpu_seconds, line, register_many
from tests.faults.procs import ADMIN_TOKEN, ApiProc, DispatchProc, RedisNode, running

ADMIN = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
ALLOW = {"PARLOUR_WEBHOOK_ALLOW": "127.0.0.0/8"}
OPTIONS = {"deals": 20, "target": 10000}


# -- the bots' processes ------------------------------------------------------------------
def serve_callbacks(port: int) -> None:
    """The callback host: the first legal move of each call (no signature check: the
    bench measures the server), on the server ``parlour-bot serve`` runs (it keeps each
    connection for the next call, as a real bot host would). ``GET /gaps`` answers the
    p99 (ms) of the waits from an answer to the next call of its game since the last
    ``GET /gaps``, and clears them."""
    from client_sdk.endpoint import make_server

    sent: dict[str, float] = {}
    gaps: list[float] = []
    lock = threading.Lock()

    def app(environ: dict[str, Any], start_response: Any) -> list[bytes]:
        if environ["REQUEST_METHOD"] == "GET":
            with lock:
                ordered = sorted(gaps)
                gaps.clear()
            p99 = ordered[int(0.99 * (len(ordered) - 1))] if ordered else 0.0
            body = json.dumps({"p99_ms": p99 * 1000, "calls": len(ordered)}).encode()
        else:
            now = time.monotonic()
            length = int(environ.get("CONTENT_LENGTH") or 0)
            call = json.loads(environ["wsgi.input"].read(length))
            body = json.dumps({"move": call["view"]["legal_moves"][0]}).encode()
            with lock:
                last = sent.get(call["game_id"])
                if last is not None:
                    gaps.append(now - last)
                sent[call["game_id"]] = time.monotonic()
        headers = [("Content-Type", "application/json"), ("Content-Length", str(len(body)))]
        start_response("200 OK", headers)
        return [body]

    make_server(app, "127.0.0.1", port).serve_forever()


def run_streams(base: str, tokens: list[str]) -> None:
    """Turn-stream bots (the SDK's runner), one thread each, until killed."""
    from client_sdk.bot import Bot
    from client_sdk.client import Client
    from client_sdk.runner import Runner

    class First(Bot):
        def choose_move(self, view: Any) -> Any:
            return view["legal_moves"][0]

    for token in tokens:
        runner = Runner(First(), Client(base, token), handle_signals=False)
        threading.Thread(target=runner.run, daemon=True).start()
    threading.Event().wait()


def _child(*args: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "tests.bench_callbacks", *args],
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])},
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
    )


def _stop(proc: subprocess.Popen[bytes]) -> None:
    proc.kill()
    proc.wait(10)


# -- the phases ---------------------------------------------------------------------------
def _games(base: str, ids: list[str], games: int) -> list[str]:
    out = []
    with requests.Session() as s:
        for g in range(games):
            seats = ids[4 * g : 4 * g + 4]
            reply = s.post(
                f"{base}/v1/games",
                json={"game": "concerto", "options": OPTIONS, "seats": seats},
                headers=ADMIN,
                timeout=30,
            )
            reply.raise_for_status()
            out.append(reply.json()["id"])
    return out


def _versions(base: str, game_ids: list[str]) -> int:
    with requests.Session() as s:
        return sum(s.get(f"{base}/v1/games/{g}", timeout=30).json()["version"] for g in game_ids)


def _measure(base: str, game_ids: list[str], pids: list[int], dispatcher: int, seconds: float):
    deadline = time.monotonic() + 30  # warm up: every bot connected and playing
    while _versions(base, game_ids) < 8 * len(game_ids) and time.monotonic() < deadline:
        time.sleep(0.2)
    time.sleep(0.5)
    v0, c0, d0 = _versions(base, game_ids), cpu_seconds(pids), cpu_seconds([dispatcher])
    time.sleep(seconds)
    v1, c1, d1 = _versions(base, game_ids), cpu_seconds(pids), cpu_seconds([dispatcher])
    return v1 - v0, c1 - c0, d1 - d0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench_callbacks")
    parser.add_argument("--seconds", type=float, default=4.0, help="measured, per phase")
    parser.add_argument("--games", type=int, default=8, help="games per phase (4 bots each)")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument(
        "--capacity", default="1,2,4,8,16", help="games at once per capacity level ('' skips)"
    )
    parser.add_argument("--callback-host", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--streams", default="", help=argparse.SUPPRESS)
    args = parser.parse_args(argv or [])
    if args.callback_host:
        serve_callbacks(args.callback_host)
        return 0
    if args.streams:
        base, _, tokens = args.streams.partition(" ")
        run_streams(base, tokens.split(","))
        return 0

    from server.processes.served import free_port

    with tempfile.TemporaryDirectory() as tmp:
        red = RedisNode(Path(tmp) / "redis", fsync="everysec").start()
        api = ApiProc(red.url, Path(tmp) / "logs", env=ALLOW).start()
        disp = DispatchProc(red.url, Path(tmp) / "logs", ALLOW, "dispatch").start()
        port = free_port()
        host = _child("--callback-host", str(port))
        with running(red, api, disp):
            try:
                _run(api, red, disp, port, args)
            finally:
                _stop(host)
    return 0


def _run(api: ApiProc, red: RedisNode, disp: DispatchProc, port: int, args) -> None:
    base, n = api.url, 4 * args.games
    levels = [int(x) for x in args.capacity.split(",") if x]
    ids, tokens = register_many(base, 2 * n + 4 * sum(levels))
    streamers, callers = (ids[:n], tokens[:n]), (ids[n:], tokens[n:])
    assert red.proc is not None and disp.proc is not None
    pids = [*api.worker_pids(), red.proc.pid, disp.proc.pid]
    got: dict[str, list[tuple[int, float, float]]] = {"stream": [], "callback": []}
    with requests.Session() as s:
        for _ in range(args.rounds):
            clients = _child("--streams", f"{base} {','.join(streamers[1])}")
            try:
                games = _games(base, streamers[0], args.games)
                got["stream"].append(_measure(base, games, pids, disp.proc.pid, args.seconds))
            finally:
                _stop(clients)
            for token in callers[1]:
                s.put(
                    f"{base}/v1/me/callback",
                    json={"url": f"http://127.0.0.1:{port}/bot"},
                    headers={"Authorization": f"Bearer {token}"},
                    timeout=30,
                ).raise_for_status()
            games = _games(base, callers[0], args.games)
            got["callback"].append(_measure(base, games, pids, disp.proc.pid, args.seconds))
            p99s = [
                s.get(
                    f"{base}/v1/me/callback",
                    headers={"Authorization": f"Bearer {token}"},
                    timeout=30,
                ).json()["health"]["latency_p99_ms"]
                or 0
                for token in callers[1]
            ]
            for token in callers[1]:
                s.delete(
                    f"{base}/v1/me/callback",
                    headers={"Authorization": f"Bearer {token}"},
                    timeout=30,
                )
    _report(got, args.games, args.seconds)
    line("callbacks answer p99, worst bot (as the dispatcher measured)", max(p99s), "ms", 0)
    _capacity(base, port, ids[2 * n :], tokens[2 * n :], levels, args.seconds)


def _capacity(
    base: str, port: int, ids: list[str], tokens: list[str], levels: list[int], seconds: float
) -> None:
    """Each level's games at once, callback bots in every seat: the dispatch latency's p99
    as the host measured it, and the most bots whose p99 stays under 50 ms."""
    sustained = 0
    with requests.Session() as s:
        for games in levels:
            mine_ids, mine_tokens = ids[: 4 * games], tokens[: 4 * games]
            ids, tokens = ids[4 * games :], tokens[4 * games :]
            for token in mine_tokens:
                s.put(
                    f"{base}/v1/me/callback",
                    json={"url": f"http://127.0.0.1:{port}/bot"},
                    headers={"Authorization": f"Bearer {token}"},
                    timeout=30,
                ).raise_for_status()
            game_ids = _games(base, mine_ids, games)
            deadline = time.monotonic() + 30  # warm up: every game under way
            while _versions(base, game_ids) < 8 * games and time.monotonic() < deadline:
                time.sleep(0.2)
            s.get(f"http://127.0.0.1:{port}/gaps", timeout=30)  # from here on
            time.sleep(seconds)
            got = s.get(f"http://127.0.0.1:{port}/gaps", timeout=30).json()
            line(f"callbacks dispatch p99 with {4 * games} callback bots", got["p99_ms"], "ms", 1)
            if got["p99_ms"] < 50:
                sustained = max(sustained, 4 * games)
            for token in mine_tokens:  # this level's bots stop: their games wait
                s.delete(
                    f"{base}/v1/me/callback",
                    headers={"Authorization": f"Bearer {token}"},
                    timeout=30,
                )
    line("callbacks bots sustained at p99 dispatch < 50 ms (of those tried)", sustained, "", 0)


def _report(got: dict[str, list[tuple[int, float, float]]], games: int, seconds: float) -> None:
    per_move = {}
    for phase, runs in got.items():
        moves = sum(r[0] for r in runs)
        cpu = sum(r[1] for r in runs)
        per_move[phase] = cpu / max(moves, 1) * 1000
        line(f"callbacks {phase} loop moves/s ({4 * games} bots)", moves / (len(runs) * seconds))
        line(f"callbacks {phase} loop server cpu per move", per_move[phase], "ms", 3)
    line(
        "callbacks callback/stream server cpu per move ratio",
        per_move["callback"] / max(per_move["stream"], 1e-9),
        "",
        2,
    )
    cb = got["callback"]
    share = sum(r[2] for r in cb) / max(sum(r[1] for r in cb), 1e-9) * 100
    line("callbacks dispatcher share of server cpu (callback loop)", share, "%", 1)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

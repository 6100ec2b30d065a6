"""Bot-loop bench: what a bot's turn costs the server, against the move request alone.

Starts Redis (AOF ``everysec``, loopback TCP) and ``parlour serve --no-scheduler`` as
subprocesses, then drives them from ``tests/load/botloop.mjs`` (Node: no GIL between
the bots, so its latencies are the server's), interleaving four phases in one run
so host noise hits them alike, at each size (games x 4 bots):

* ``moves``: each seat POSTs moves the engine computed beforehand: the move alone.
* ``loop``: the long-poll fallback: ``GET /v1/me/turns?wait=``, then
  ``POST`` a legal move of each turn at once.
* ``push``: the SDK runner's loop: each bot holds ``GET /v1/me/turns/stream`` open
  and sends the move of each pushed turn at once (``POST``).
* ``floor``: ``GET /v1/_ping_redis?round_trips=2&reply_bytes=N`` (N: the moves'
  mean answer): two Redis round trips and a view-sized answer, nothing else.

Server CPU is user + system time of the gunicorn workers and Redis over each phase
(Redis's share is printed apart: a move's commit script and its AOF write are work
the floor's round trips do not do).
First, in this process with no HTTP server (:func:`parts`): the CPU of the floor and of
a move, as requests (Flask's test client) and as the services alone (two pings and a
padded answer; ``Games.move`` and its view as JSON): how much of a move's extra is
the service's own work, which no web layer can take away.

Printed: ``move throughput ratio to floor``, the p99s, the server CPU per move for the
move alone and for each loop, and ``bot loop cpu ratio to move`` (the SDK's loop, the
turn stream; the long-poll's ratio is printed beside it). ``--spy S`` then samples
every worker with py-spy for S seconds of the push loop and of the moves alone.
Run: ``python -m tests.bench_botloop [--seconds S] [--sizes 16,64] [--rounds R] [--spy S]``.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import orjson
import requests

from server.games import REGISTRY
from server.processes.serve import GC_THRESHOLDS
from tests.bench_http import quantile
from tests.bench_load import cpu_seconds, line, register_many
from tests.faults.procs import ADMIN_TOKEN, ApiProc, RedisNode, running

CLIENT = Path(__file__).parent / "load" / "botloop.mjs"
CONCERTO = REGISTRY["concerto"]


def scripted_games(base: str, ids: list[str], seed: str, moves_needed: int) -> list[dict]:
    """Games created by the admin with known seeds, each with every move played to
    the end by the engine (random legal moves): ``[seat, move, version]`` steps."""
    games: list[dict] = []
    planned = 0
    rng = random.Random(seed)
    with requests.Session() as s:
        while planned < moves_needed:
            game_seed = f"{seed}-{len(games)}"
            body = {"game": "concerto", "seats": ids, "seed": game_seed}
            made = s.post(
                f"{base}/v1/games",
                json=body,
                headers={"Authorization": f"Bearer {ADMIN_TOKEN}"},
                timeout=30,
            )
            made.raise_for_status()
            state = CONCERTO.new_state({}, game_seed)
            steps = []
            while not state.is_over():
                seat = state.to_move()[0]
                move = rng.choice(state.legal_moves(seat))
                steps.append([seat, move, len(steps)])
                state.apply(seat, move)
            games.append({"id": made.json()["id"], "steps": steps})
            planned += len(steps)
    return games


def drive(plan: dict[str, Any], pids: list[int]) -> dict[str, Any]:
    """Run the Node client on ``plan``; its results with the server's CPU seconds, and
    Redis's apart (the last of ``pids``)."""
    proc = subprocess.Popen(
        ["node", str(CLIENT)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert proc.stdin and proc.stdout
    proc.stdin.write(json.dumps(plan))
    proc.stdin.close()
    assert json.loads(proc.stdout.readline()).get("started")
    before, redis_before = cpu_seconds(pids), cpu_seconds(pids[-1:])
    assert json.loads(proc.stdout.readline()).get("stopped")
    cpu = cpu_seconds(pids) - before
    redis_cpu = cpu_seconds(pids[-1:]) - redis_before
    result = json.loads(proc.stdout.readline())
    proc.wait(30)
    if result["errors"]:
        raise RuntimeError(f"{plan['mode']}: {result['errors']} requests refused")
    return {**result, "cpu": cpu, "redis_cpu": redis_cpu}


ROUNDS = 3
"""Rounds of :func:`parts`, each over new games."""


def parts(games: int = 3) -> None:
    """The floor and a move in this process: requests through Flask's test client, then
    the services alone, each over the moves of ``games`` scripted Concerto games a
    round (CPU time per call)."""
    before = gc.get_threshold()
    gc.set_threshold(*GC_THRESHOLDS)
    try:
        got = _parts(games)
    finally:
        gc.set_threshold(*before)
    for name, us in got.items():
        line(f"botloop_parts_{name}", us, "us", 0)
    extra = got["move_request"] - got["floor_request"]
    own = got["move_service"] - got["floor_service"]
    allowed = got["floor_request"] / 0.7 - got["floor_request"]
    print(
        f"botloop_parts move's extra CPU: {extra:.0f} us a request, of which the service's "
        f"own {own:.0f} us; a ratio of 0.70 to the floor allows {allowed:.0f} us",
        flush=True,
    )


def _parts(games: int) -> dict[str, float]:
    from server.api import create_app
    from server.processes.redis_embed import EmbeddedRedis

    with (
        tempfile.TemporaryDirectory(prefix="parlour-parts-") as tmp,
        EmbeddedRedis(Path(tmp), appendonly=False) as red,
    ):
        app = create_app({"REDIS_URL": red.url, "ADMIN_TOKEN": ADMIN_TOKEN})
        bundle, client = app.extensions["parlour"], app.test_client()
        players = [client.post("/v1/players", json={"name": f"p{i}"}).json for i in range(4)]
        tokens = {p["id"]: p["token"] for p in players}

        def moves(tag: str) -> list[tuple[str, str, dict, int]]:
            """Every move of ``games`` new games: ``(game, mover's token, move, version)``."""
            rng, out = random.Random(tag), []
            for i in range(games):
                body = {"game": "concerto", "seats": list(tokens), "seed": f"{tag}{i}"}
                gid = client.post("/v1/games", json=body, headers=admin_headers()).json["id"]
                record = bundle.core.game(gid)
                state, version = CONCERTO.from_dict(record.state), record.version
                while not state.is_over():
                    seat = state.to_move()[0]
                    move = rng.choice(state.legal_moves(seat))
                    out.append((gid, tokens[record.seats[seat]["player_id"]], move, version))
                    state.apply(seat, move)
                    version += 1
            return out

        def request(gid: str, token: str, move: dict, version: int) -> None:
            headers = {"Authorization": f"Bearer {token}"}
            body = {"move": move, "version": version}
            reply = client.post(f"/v1/games/{gid}/moves", json=body, headers=headers)
            assert reply.status_code == 200, reply.json

        def service(gid: str, token: str, move: dict, version: int) -> None:
            orjson.dumps(bundle.games.move(token, gid, move, version))

        def floor() -> None:
            client.get("/v1/_ping_redis?round_trips=2&reply_bytes=2500")

        def floor_service() -> None:
            orjson.dumps(bundle.health.ping(2, 2500))

        cpu_per_call(moves("warm")[:100], service)  # the Lua scripts, the poker tables
        cpu_per_call([()] * 100, floor)
        got: dict[str, float] = {}
        for r in range(ROUNDS):  # interleaved; the least of each, as host noise only adds
            asked, served = moves(f"a{r}"), moves(f"b{r}")
            for name, us in (
                ("floor_request", cpu_per_call([()] * len(asked), floor)),
                ("move_request", cpu_per_call(asked, request)),
                ("floor_service", cpu_per_call([()] * len(served), floor_service)),
                ("move_service", cpu_per_call(served, service)),
            ):
                got[name] = min(us, got.get(name, us))
    return got


def cpu_per_call(steps: list[tuple], call: Any) -> float:
    """Microseconds of this process's CPU per ``call(*step)``, collected as a worker
    collects (``serve.GC_THRESHOLDS``), starting clean."""
    gc.collect()
    start = time.process_time()
    for step in steps:
        call(*step)
    return 1e6 * (time.process_time() - start) / len(steps)


def admin_headers() -> dict[str, str]:
    return {"Authorization": f"Bearer {ADMIN_TOKEN}"}


def size_run(api: ApiProc, redis_pid: int, games: int, args: argparse.Namespace) -> None:
    base = api.url
    pids = [*api.worker_pids(), redis_pid]
    ids, tokens = register_many(base, 8 * games)
    # the moves phase and the loop phase seat different players: a scripted game
    # must not show up in a looping bot's me/turns
    scripted, looping = range(games), range(games, 2 * games)
    per_table = int((args.seconds * args.rounds + args.spy + 2) * 200) + 400  # more than played
    tables = {
        "moves": [
            {
                "tokens": tokens[4 * i : 4 * i + 4],
                "games": scripted_games(base, ids[4 * i : 4 * i + 4], f"m{games}-{i}", per_table),
            }
            for i in scripted
        ],
        "loop": [
            {"tokens": tokens[4 * i : 4 * i + 4], "ids": ids[4 * i : 4 * i + 4], "seed": f"l{i}"}
            for i in looping
        ],
    }
    with requests.Session() as s:  # the loop's first games; later ones the bots start
        for t in tables["loop"]:
            body = {"game": "concerto", "seats": t["ids"], "seed": f"{t['seed']}-0"}
            s.post(
                f"{base}/v1/games",
                json=body,
                headers={"Authorization": f"Bearer {ADMIN_TOKEN}"},
                timeout=30,
            ).raise_for_status()
    got: dict[str, dict[str, Any]] = {
        m: {"lat": [], "cpu": 0.0, "redis_cpu": 0.0, "secs": 0.0, "polls": 0} for m in PHASES
    }
    reply = 2000
    for _ in range(args.rounds):
        for mode in PHASES:
            plan = {"base": base, "mode": mode, "seconds": args.seconds, "admin": ADMIN_TOKEN}
            plan.update(tables=tables.get(mode, []), clients=4 * games, reply_bytes=reply)
            if mode == "push":
                plan["tables"] = tables["loop"]
            out = drive(plan, pids)
            got[mode]["lat"] += out["latencies"]
            got[mode]["cpu"] += out["cpu"]
            got[mode]["redis_cpu"] += out["redis_cpu"]
            got[mode]["secs"] += out["elapsed"]
            got[mode]["polls"] += out["polls"]
            if mode == "moves":  # the next round resumes each table where this one stopped
                for t, (g, s) in zip(tables["moves"], out["progress"], strict=True):
                    rest = t["games"][g:]
                    if not rest:
                        raise RuntimeError("a table ran out of scripted games")
                    rest[0] = {**rest[0], "steps": rest[0]["steps"][s:]}
                    t["games"] = rest
    report(games, got)
    if args.spy:
        for mode in ("push", "moves"):
            plan = {"base": base, "mode": mode, "seconds": args.spy + 1, "admin": ADMIN_TOKEN}
            plan.update(tables=tables["loop"] if mode == "push" else tables["moves"])
            spy(api, plan, pids, args.spy, f"{tag_of(games)}_{mode}")


def tag_of(games: int) -> str:
    return f"botloop_{games}x4"


def spy(api: ApiProc, plan: dict[str, Any], pids: list[int], seconds: float, tag: str) -> None:
    """py-spy over every worker while ``plan`` runs: where the workers' CPU goes, as the
    share of busy samples each function appears in (inclusive), the top ones."""
    with tempfile.TemporaryDirectory(prefix="parlour-spy-") as tmp:
        spies = []
        for pid in api.worker_pids():
            out = Path(tmp) / f"{pid}.txt"
            spies.append((out, subprocess.Popen(
                [str(Path(sys.executable).with_name("py-spy")), "record", "-p", str(pid),
                 "-d", str(int(seconds)), "-r", "200", "-f", "raw", "-o", str(out),
                 "--nonblocking"],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            )))  # fmt: skip
        drive(plan, pids)
        counts: dict[str, int] = {}
        total = 0
        for out, proc in spies:
            proc.wait(60)
            for row in out.read_text().splitlines() if out.exists() else []:
                stack, _, n = row.rpartition(" ")
                total += int(n)
                for name in {
                    frame.split(" (")[0] + frame_file(frame) for frame in stack.split(";")
                }:
                    counts[name] = counts.get(name, 0) + int(n)
    print(f"{tag} spy: {total} busy samples; functions by inclusive share:", flush=True)
    for name, n in sorted(counts.items(), key=lambda kv: -kv[1])[:25]:
        print(f"{tag} spy {100 * n / max(1, total):5.1f}%  {name}", flush=True)


def frame_file(frame: str) -> str:
    """`` (module.py)`` of a py-spy frame ``func (path/module.py:12)``."""
    if "(" not in frame:
        return ""
    where = frame.rsplit("(", 1)[1].split(":")[0]
    return f" ({Path(where).name})"


PHASES = ("moves", "loop", "push", "floor")


def report(games: int, got: dict[str, dict[str, Any]]) -> None:
    tag = tag_of(games)
    rate = {m: len(g["lat"]) / max(1e-9, g["secs"]) for m, g in got.items()}
    cpu = {m: 1e6 * g["cpu"] / max(1, len(g["lat"])) for m, g in got.items()}
    redis = {m: 1e6 * g["redis_cpu"] / max(1, len(g["lat"])) for m, g in got.items()}
    for m in PHASES:
        line(f"{tag}_{m}_rate", rate[m], "req/s" if m == "floor" else "moves/s", 0)
        line(f"{tag}_{m}_p50", 1000 * quantile(got[m]["lat"], 0.50), "ms")
        line(f"{tag}_{m}_p99", 1000 * quantile(got[m]["lat"], 0.99), "ms")
        unit = "us/move" if m != "floor" else "us/request"
        line(f"{tag}_{m}_server_cpu", cpu[m], unit, 0)
        line(f"{tag}_{m}_redis_cpu", redis[m], unit, 0)  # of which Redis's own
    polls = got["loop"]["polls"] / max(1, len(got["loop"]["lat"]))
    line(f"{tag}_loop_polls_per_move", polls, "", 2)
    p99 = quantile(got["moves"]["lat"], 0.99) / max(1e-9, quantile(got["floor"]["lat"], 0.99))
    line(f"{tag}_moves_p99_to_floor_p99", p99, "x", 2)
    line(f"{tag}_long_poll_cpu_ratio_to_move", cpu["loop"] / max(1e-9, cpu["moves"]), "", 2)
    # the headline figures: the SDK's loop is the turn stream (push)
    print(f"{tag} move throughput ratio to floor: {rate['moves'] / rate['floor']:.2f}")
    print(f"{tag} bot loop cpu ratio to move: {cpu['push'] / max(1e-9, cpu['moves']):.2f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=4.0, help="per phase and round")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--sizes", type=lambda s: [int(x) for x in s.split(",")], default=[16, 64])
    parser.add_argument("--spy", type=float, default=0.0, help="py-spy seconds per phase")
    args = parser.parse_args(argv or [])
    parts()
    if shutil.which("node") is None:
        print("botloop: skipped (no node on PATH)")
        return 0
    with tempfile.TemporaryDirectory(prefix="parlour-botloop-") as tmp:
        red = RedisNode(Path(tmp) / "redis", fsync="everysec")
        api = ApiProc(red.url, Path(tmp), workers=args.workers)
        with running(red, api):
            red.start()
            api.start()
            assert red.proc is not None
            for games in args.sizes:
                size_run(api, red.proc.pid, games, args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(__import__("sys").argv[1:]))

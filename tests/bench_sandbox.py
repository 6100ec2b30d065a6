"""``make bench`` section ``sandbox``: what a hosted seat costs (docs/sandbox.md).

* ``sandbox_bwrap_start``: bubblewrap alone, the seat's whole jail around ``/bin/true``;
* ``sandbox_python_outside``: the same interpreter importing the SDK, unsandboxed (the
  floor of a Python seat's cold start);
* ``sandbox_cold_start_python``: a hosted Python seat from nothing to its first answer
  (cgroup, bubblewrap, interpreter, SDK, bundle, one turn), and the same for a
  ``command`` seat in sh; ``_cpu``: the CPU its processes used meanwhile, which a busy
  host inflates less than the wall time;
* ``sandbox_turn``: a turn's round trip once warm (a view of 13 legal moves), median
  and 99th percentile;
* ``sandbox_seat_rss``: the memory a live seat's processes hold once warm (Python, sh);
* ``hosted_cpu_per_move`` against ``callback_cpu_per_move``, in the same run: Concerto
  games of two hosted bots (sh, first legal move) played by a sandbox worker, then as
  many of two callback bots played by the dispatcher against a callback host in another
  process; the server's CPU per move (this process: the worker or the dispatcher, the
  scheduler and the services, and Redis), the bots' own excluded (the host's process;
  the sandboxes', printed apart as ``hosted_sandbox_cpu_per_move``).

Medians of several runs; this host is shared, so read them as orders of magnitude.
Run: ``python -m tests.bench_sandbox [--turns N] [--starts N] [--games N]``.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from server.sandbox import Limits, Seat, available, jail
from tests.sandbox.support import PLAIN_BOT, write_bundle
from tests.sandbox.test_limits import cpu_seconds

VIEW = {
    "legal_moves": [{"type": "play", "card": f"{r}S"} for r in "23456789TJQKA"],
    "hand": [f"{r}{s}" for r in "23456789TJQKA" for s in "SH"],
    "trick": [{"seat": 1, "card": "4S"}],
}


def figure(name: str, value: float, unit: str) -> None:
    print(f"{name}: {value:.4g} {unit}", flush=True)


def _median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def bench_bwrap(starts: int) -> None:
    cap = available()
    assert cap.bwrap
    layout = jail.python_layout()
    with tempfile.TemporaryDirectory() as tmp:
        bot = Path(tmp) / "bot"
        bot.mkdir()
        bot.chmod(0o755)
        argv = jail.bwrap_argv(
            cap.bwrap, layout=layout, bot=bot, program=["/bin/true"], limits=Limits(),
            privileged=cap.privileged, setpriv=cap.setpriv,
        )  # fmt: skip
        samples = []
        for _ in range(starts):
            started = time.perf_counter()
            subprocess.run(argv, env={}, check=True)
            samples.append(time.perf_counter() - started)
    figure("sandbox_bwrap_start", _median_ms(samples), "ms")
    samples = []
    for _ in range(starts):
        started = time.perf_counter()
        path = ":".join((str(Path(layout.sdk).parent), *layout.sites))
        subprocess.run(
            [layout.python, "-S", "-c", "import client_sdk"], check=True, env={"PYTHONPATH": path}
        )
        samples.append(time.perf_counter() - started)
    figure("sandbox_python_outside", _median_ms(samples), "ms")


def cold_start(bundle: Path, starts: int) -> tuple[float, float]:
    """Median wall and CPU milliseconds from nothing to a seat's first answer."""
    walls, cpus = [], []
    for _ in range(starts):
        started = time.perf_counter()
        with Seat(bundle, name="bench") as seat:
            reply = seat.turn(VIEW)
            walls.append(time.perf_counter() - started)
            assert reply.failure is None and seat.cgroup is not None, reply
            cpus.append(cpu_seconds(seat.cgroup.pids()))
    return _median_ms(walls), _median_ms(cpus)


def bench_seats(root: Path, starts: int, turns: int) -> None:
    python = write_bundle(root / "python", PLAIN_BOT)
    shell = write_bundle(
        root / "sh",
        manifest={"language": "command", "argv": ["sh", "bot.sh"]},
        files={"bot.sh": """while read -r l; do echo '{"move":{"type":"pass"}}'; done\n"""},
    )
    for name, bundle in (("python", python), ("command_sh", shell)):
        wall, cpu = cold_start(bundle, starts)
        figure(f"sandbox_cold_start_{name}", wall, "ms")
        figure(f"sandbox_cold_start_{name}_cpu", cpu, "ms")
    with Seat(python, name="bench") as seat:
        seat.turn(VIEW)
        samples = []
        for _ in range(turns):
            started = time.perf_counter()
            reply = seat.turn(VIEW)
            samples.append(time.perf_counter() - started)
            assert reply.failure is None
    samples.sort()
    figure("sandbox_turn_median", _median_ms(samples), "ms")
    figure("sandbox_turn_p99", samples[int(len(samples) * 0.99) - 1] * 1000, "ms")


def rss_bytes(pids: list[int]) -> int:
    """The resident memory of the processes ``pids``."""
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/status") as f:
                total += next(int(ln.split()[1]) * 1024 for ln in f if ln.startswith("VmRSS:"))
        except (OSError, StopIteration):
            continue
    return total


def bench_memory(root: Path) -> None:
    python = write_bundle(root / "mem-python", PLAIN_BOT)
    shell = write_bundle(
        root / "mem-sh",
        manifest={"language": "command", "argv": ["sh", "bot.sh"]},
        files={"bot.sh": """while read -r l; do echo '{"move":{"type":"pass"}}'; done\n"""},
    )
    for name, bundle in (("python", python), ("command_sh", shell)):
        with Seat(bundle, name="bench-mem") as seat:
            assert seat.turn(VIEW).failure is None and seat.cgroup is not None
            figure(f"sandbox_seat_rss_{name}", rss_bytes(seat.cgroup.pids()) / 2**20, "MiB")


def _loop(kind: str, games: int, root: Path, url: str, callback: str) -> tuple[float, float, int]:
    """Play ``games`` Concerto games of two ``kind`` bots; the server's CPU seconds, the
    sandboxes' and the moves made."""
    import resource
    import threading

    from server.api import create_app
    from server.processes.dispatch import Dispatcher
    from server.processes.sandboxd import SandboxWorker
    from server.processes.scheduler import Runner
    from server.services.bundle import Services
    from server.store import connect
    from tests.hosted.support import sh_bot

    app = create_app({"REDIS_URL": url, "ADMIN_TOKEN": "bench", "TESTING": True,
                      "REGISTER_LIMIT": 0, "WEBHOOK_ALLOW": "127.0.0.0/8"})  # fmt: skip
    client = app.test_client()
    services = Services(connect(url), admin_token=None, webhook_allow="127.0.0.0/8")
    services.hosted.heartbeat("bench", True, "", 0)
    owner = client.post("/v1/players", json={"name": f"{kind} owner"}).get_json()
    auth = {"Authorization": f"Bearer {owner['token']}"}
    body: dict = {"kind": kind}
    body |= {"bundle": sh_bot()} if kind == "hosted" else {"url": callback}
    bots = [client.post("/v1/me/bots", json={**body, "name": f"b{i}"}, headers=auth).get_json()
            for i in range(2)]  # fmt: skip
    clubs = []
    for _ in range(games):
        spec = {"game": "concerto", "format": "round_robin", "options": {"deals": 1}}
        club = client.post("/v1/tournaments", headers=auth, json=spec).get_json()
        for bot in bots:
            client.post(f"/v1/me/bots/{bot['id']}/tournaments", headers=auth,
                        json={"tournament_id": club["id"], "seats": 2})  # fmt: skip
        client.post(f"/v1/tournaments/{club['id']}/start", headers=auth, json={})
        clubs.append(club["id"])
    if kind == "hosted":
        player: Any = SandboxWorker(services.hosted, seats=4 * games)
    else:
        player = Dispatcher(services.dispatch, allow="127.0.0.0/8")
    runner = Runner(services, interval=0.02)
    stop = threading.Event()
    threads = [threading.Thread(target=t.run, args=(stop,), daemon=True) for t in (player, runner)]
    before = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    redis_before = cpu_seconds([REDIS_PID[0]])
    for t in threads:
        t.start()
    while any(client.get(f"/v1/tournaments/{c}").get_json()["status"] != "finished" for c in clubs):
        time.sleep(0.1)
    stop.set()
    for t in threads:
        t.join(10)
    player.close()
    after = resource.getrusage(resource.RUSAGE_SELF)
    done = resource.getrusage(resource.RUSAGE_CHILDREN)
    server = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    server += cpu_seconds([REDIS_PID[0]]) - redis_before
    sandboxes = done.ru_utime + done.ru_stime - children.ru_utime - children.ru_stime
    moves = 0
    for c in clubs:
        for rd in client.get(f"/v1/tournaments/{c}").get_json()["rounds"]:
            for table in rd["tables"]:
                moves += client.get(f"/v1/games/{table['game_id']}").get_json()["version"]
    return server, sandboxes, moves


REDIS_PID: list[int] = []


def bench_loops(root: Path, games: int) -> None:
    """The hosted loop and the callback loop, one after the other in one run."""
    from server.processes.redis_embed import EmbeddedRedis
    from server.processes.served import free_port

    redis = EmbeddedRedis(root / "redis", appendonly=False)
    url = redis.start()
    port = free_port()
    code = f"from tests.bench_callbacks import serve_callbacks; serve_callbacks({port})"
    host = subprocess.Popen([sys.executable, "-c", code])
    try:
        assert redis.process is not None
        REDIS_PID[:] = [redis.process.pid]
        time.sleep(1.0)  # the callback host listening
        for kind in ("hosted", "callback"):
            server, sandboxes, moves = _loop(kind, games, root, url, f"http://127.0.0.1:{port}/")
            figure(f"{kind}_cpu_per_move", server / max(moves, 1) * 1000, "ms")
            if kind == "hosted":
                figure("hosted_sandbox_cpu_per_move", sandboxes / max(moves, 1) * 1000, "ms")
            figure(f"{kind}_moves", moves, "moves")
    finally:
        host.terminate()
        host.wait(10)
        redis.stop()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=1000, help="warm turns timed (1000)")
    parser.add_argument("--starts", type=int, default=7, help="cold starts timed (7)")
    parser.add_argument("--games", type=int, default=4, help="games of each loop (4)")
    args = parser.parse_args(argv or [])
    cap = available()
    if not cap.ok:
        print(f"# {cap.describe()}", flush=True)
        return
    print(f"# {cap.describe()}", flush=True)
    bench_bwrap(args.starts)
    with tempfile.TemporaryDirectory() as tmp:
        bench_seats(Path(tmp), args.starts, args.turns)
        bench_memory(Path(tmp))
        bench_loops(Path(tmp), args.games)


if __name__ == "__main__":
    main(sys.argv[1:])

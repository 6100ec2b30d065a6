"""``make bench`` section ``sandbox``: what a hosted seat costs (docs/sandbox.md).

* ``sandbox_bwrap_start``: bubblewrap alone, the seat's whole jail around ``/bin/true``;
* ``sandbox_python_outside``: the same interpreter importing the SDK, unsandboxed (the
  floor of a Python seat's cold start);
* ``sandbox_cold_start_python``: a hosted Python seat from nothing to its first answer
  (cgroup, bubblewrap, interpreter, SDK, bundle, one turn), and the same for a
  ``command`` seat in sh; ``_cpu``: the CPU its processes used meanwhile, which a busy
  host inflates less than the wall time;
* ``sandbox_turn``: a turn's round trip once warm (a view of 13 legal moves), median
  and 99th percentile.

Medians of several runs; this host is shared, so read them as orders of magnitude.
Run: ``python -m tests.bench_sandbox [--turns N] [--starts N]``.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

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


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=1000, help="warm turns timed (1000)")
    parser.add_argument("--starts", type=int, default=7, help="cold starts timed (7)")
    args = parser.parse_args(argv or [])
    cap = available()
    if not cap.ok:
        print(f"# {cap.describe()}", flush=True)
        return
    print(f"# {cap.describe()}", flush=True)
    bench_bwrap(args.starts)
    with tempfile.TemporaryDirectory() as tmp:
        bench_seats(Path(tmp), args.starts, args.turns)


if __name__ == "__main__":
    main(sys.argv[1:])

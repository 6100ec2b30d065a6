"""The scheduler killed at any moment: restarted, it finishes the work and duplicates nothing.

* In-process: a runner dies at a random step boundary (:meth:`Runner.checkpoint`,
  which precedes every write) on every pass, over and over, and the next
  runner takes over from whatever Redis holds.
* A ``parlour scheduler`` process killed with SIGKILL mid-round, then started again.
* A move committed whose clock arming never happened (the API worker died
  in between): the scheduler re-arms the deadlines and the clock still works.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from server.processes.scheduler import Runner
from server.services.bundle import Services
from server.services.core import Core
from server.store import clocks as clock_store
from server.store import keys
from tests.scheduler.support import (
    Movers,
    assert_exactly_once,
    entry_points_from_games,
    make_tournament,
    register,
    scheduler,
    status,
    wait_for,
)

ROOT = Path(__file__).resolve().parents[2]


class Killed(BaseException):
    """Not an Exception: nothing in the runner may catch it, like a real kill."""


class DyingRunner(Runner):
    """A runner that dies at the first step boundary of a kind not killed yet, else at
    random (about one boundary in four)."""

    def __init__(self, service: Services, rng: random.Random, survived: set[str]) -> None:
        super().__init__(service)
        self.rng = rng
        self.survived = survived

    def checkpoint(self, step: str) -> None:
        if step in self.survived or self.rng.random() < 0.25:
            self.survived.discard(step)
            raise Killed(step)


def test_killed_at_random_steps_over_and_over(service, tours):
    players = register(service, 8)
    tid = make_tournament(
        tours,
        players,
        seats_per_entry=2,
        game="concerto",
        format="duplicate",
        options={"deals": 1},
        boards_per_match=2,
    )
    movers = Movers(service, players, seed=11)
    rng = random.Random(11)
    never_killed = {"pair", "create", "games", "results", "rate", "finish"}
    deaths = 0
    for _ in range(1000):
        if status(tours, tid) == "finished":
            break
        try:
            DyingRunner(service, rng, never_killed).tick()
        except Killed:
            deaths += 1
        movers.step()
    shown = assert_exactly_once(service, tours, tid)
    assert never_killed == set() and deaths > 20  # every kind of step was interrupted
    expected = entry_points_from_games(service, shown)
    assert {s["entry"]: s["points"] for s in shown["standings"]} == expected


def test_a_scheduler_process_killed_with_sigkill_and_restarted(
    service, tours, redis_server, tmp_path
):
    players = register(service, 8)
    tid = make_tournament(
        tours,
        players,
        seats_per_entry=2,
        game="concerto",
        format="round_robin",
        options={"deals": 1},
    )
    movers = Movers(service, players, seed=12)
    log = tmp_path / "scheduler.log"

    def spawn() -> subprocess.Popen:
        return subprocess.Popen(
            [
                sys.executable,
                "-m",
                "server.processes.cli",
                "scheduler",
                "--redis-url",
                redis_server.url,
                "--interval",
                "0.01",
            ],
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            stdout=subprocess.DEVNULL,
            stderr=log.open("ab"),
        )

    def games_finished() -> int:
        """``progress.games_finished`` of the tournament's show (its recorded results),
        read without building the whole show between every two steps."""
        return service.core.r.hlen(keys.tournament_results(tid))

    def started(n: int) -> None:  # the n-th process is running, its signal handlers set
        wait_for(lambda: log.exists() and log.read_text().count("running on") >= n, 30)

    for n, target in enumerate((1, 3, 5), start=1):  # killed mid-round, three times
        proc = spawn()
        try:
            started(n)
            wait_for(lambda t=target: games_finished() >= t, 30, movers.step)
        finally:
            proc.send_signal(signal.SIGKILL)
            proc.wait(10)
    proc = spawn()
    try:
        started(4)
        wait_for(lambda: status(tours, tid) == "finished", 60, movers.step)
    finally:
        proc.terminate()
    assert proc.wait(10) == 0  # SIGTERM: a clean stop
    assert_exactly_once(service, tours, tid)
    assert "Traceback" not in log.read_text()


def test_a_lost_clock_arming_is_repaired(service, tours, monkeypatch):
    players = register(service, 4)
    tid = make_tournament(
        tours,
        players,
        seats_per_entry=2,
        game="concerto",
        format="round_robin",
        options={"deals": 1},
        clock={"move_seconds": 0.2},
    )
    runner = Runner(service)
    runner.tick()
    (table,) = tours.show(tid)["rounds"][0]["tables"]
    gid = table["game_id"]
    # one move is committed, and the worker "dies" before arming the clock
    view = service.games.view(None, gid)
    token = next(
        p["token"] for p in players if p["id"] == view["seats"][view["to_move"][0]]["player_id"]
    )
    monkeypatch.setattr(Core, "arm", lambda self, record, state, clock, **kw: clock)
    service.games.move(token, gid, service.games.view(token, gid)["legal_moves"][0], 0)
    monkeypatch.undo()
    clock = clock_store.read(service.core.r, gid)
    assert clock.version == 0 and service.games.view(None, gid)["version"] == 1
    time.sleep(0.25)  # the old deadline has passed: the seat now to move must not pay for it
    runner.enforce_clocks()
    clock = clock_store.read(service.core.r, gid)
    assert clock.version == 1 and service.games.view(None, gid)["version"] == 1  # re-armed, no move
    assert min(clock.deadlines.values()) > time.time()
    time.sleep(0.25)
    runner.enforce_clocks()
    assert service.games.view(None, gid)["version"] == 2  # and the clock works again
    with scheduler(service):
        wait_for(lambda: status(tours, tid) == "finished", 30, Movers(service, players).step)
    assert_exactly_once(service, tours, tid)

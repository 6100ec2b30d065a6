"""``make bench`` section ``ladder``: games a ladder plays per minute with 16 house bots.

An embedded Redis, one scheduler thread and sixteen house bots in this process
(eight ``signals``, eight ``random``) on a Concerto ladder of one-deal games
(duplicate boards: two games per match), the bots driven in-process through the
services as fast as they can move. Printed:

* ``ladder: N games/min``: games finished per minute of wall time;
* ``ladder scheduler cpu share: P%``: the scheduler thread's CPU time over the
  whole process's CPU time (bots, services and scheduler; Redis is apart);
* ``ladder scheduler cpu per game: S ms``.
"""

from __future__ import annotations

import tempfile
import threading
import time

from bots import concerto_signals, uniform
from server.processes.redis_embed import EmbeddedRedis
from server.processes.scheduler import Runner
from server.services.bundle import Services
from server.store import connect
from server.store import ladders as ladder_store

ADMIN = "bench-admin"


class TimedRunner(Runner):
    """A scheduler that adds up the CPU time of its own thread."""

    cpu = 0.0

    def tick(self, now: float | None = None) -> None:
        start = time.thread_time()
        try:
            super().tick(now)
        finally:
            self.cpu += time.thread_time() - start


def finished_games(service: Services, ladder_id: str) -> int:
    return len(ladder_store.all_results(service.core.r, ladder_id)[1])


def main(seconds: float = 15.0) -> None:
    from tests.ladder.support import HouseBots

    with tempfile.TemporaryDirectory(prefix="parlour-bench-ladder-") as tmp:
        redis = EmbeddedRedis(tmp, appendonly=False)
        url = redis.start()
        try:
            service = Services(connect(url), admin_token=ADMIN, seed_secret="bench")
            players = [service.players.register(None, f"b{i}") for i in range(16)]
            ladder = service.ladders.create(
                ADMIN, game="concerto", options={"deals": 1}, clock={"move_seconds": 10}
            )
            for p in players:
                service.ladders.join(p["token"], ladder["id"])
            bots = HouseBots(
                service, players, [concerto_signals.make_bot, uniform.make_bot] * 8, seed=1
            )
            runner = TimedRunner(service, interval=0.05)
            stop = threading.Event()
            thread = threading.Thread(target=runner.run, args=(stop,), daemon=True)
            bots.step()  # every bot seen waiting before the first pass
            thread.start()
            cpu0, t0 = time.process_time(), time.monotonic()
            while time.monotonic() - t0 < seconds:
                if not bots.step():
                    time.sleep(0.002)
            stop.set()
            thread.join(10)
            wall, cpu = time.monotonic() - t0, time.process_time() - cpu0
            games = finished_games(service, ladder["id"])
            print(f"ladder: {games / wall * 60:.0f} games/min", flush=True)
            print(f"ladder scheduler cpu share: {100 * runner.cpu / cpu:.0f}%", flush=True)
            print(
                f"ladder scheduler cpu per game: {1000 * runner.cpu / max(games, 1):.1f} ms",
                flush=True,
            )
        finally:
            redis.stop()


if __name__ == "__main__":
    main()

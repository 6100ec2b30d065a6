"""kill -9 in the middle of a tournament: a gunicorn worker, the whole API, the scheduler,
then Redis itself. After each restart the tournament goes on; at the end it is finished,
every move the server acknowledged is in its game's record, no game or result exists
twice, and the standings are those of an undisturbed run of the same boards.

The processes are real: ``redis-server`` with AOF, ``parlour serve`` (gunicorn, two
gevent workers) and ``parlour scheduler``, and eight bots over HTTP.

Durability: this Redis runs ``appendfsync always``, so a write is on disk before
Redis answers it, and an acknowledged move survives a SIGKILL of Redis. The
production default ``everysec`` (docs/architecture.md) can lose up to about one second of
writes on a SIGKILL of Redis (or a power cut, not on a Redis or API restart); a
bot whose acknowledged move was lost sees the older version and plays again.
"""

from __future__ import annotations

import time

import orjson

from server.services.bundle import Services
from server.store import connect, keys
from tests.faults.bots import (
    SHOW_EVERY,
    HttpBots,
    copy_redis,
    open_tournament,
    outcome,
    play_in_process,
    register,
    show,
    start,
    wait_until,
)
from tests.faults.procs import SEED_SECRET, ApiProc, RedisNode, SchedulerProc, running
from tests.scheduler.support import all_game_ids, assert_exactly_once

ADMIN = "faults-admin-token"


def test_kill_9_of_a_worker_the_api_the_scheduler_and_redis(tmp_path, redis_client, redis_server):
    red = RedisNode(tmp_path / "redis", fsync="always").start()
    api = ApiProc(red.url, tmp_path, workers=2)
    sched = SchedulerProc(red.url, tmp_path)
    with running(red, api, sched):
        api.start()
        sched.start()
        players = register(api.url, 8)
        tid = open_tournament(api.url, players)

        # the undisturbed run: the same players and tournament, copied, on another Redis
        copy_redis(red.client(), redis_client)
        quiet = Services(connect(redis_server.url), admin_token=ADMIN, seed_secret=SEED_SECRET)
        expected = outcome(play_in_process(quiet, tid, players))
        assert expected["status"] == "finished" and len(expected["tables"]) == 6

        start(api.url, tid)
        bots = HttpBots([api.url], players).start()
        try:

            def after_moves(n: int) -> None:
                wait_until(lambda: len(bots.acks) >= n, 60, f"{n} acknowledged moves")

            def after_moves_or_quiet(n: int, quiet: float = 3.0) -> None:
                """``n`` acks, or none for ``quiet`` s: the round's games may all end
                while no scheduler is there to pair the next round."""
                last = [len(bots.acks), time.monotonic()]

                def done() -> bool:
                    if len(bots.acks) != last[0]:
                        last[:] = [len(bots.acks), time.monotonic()]
                    return len(bots.acks) >= n or time.monotonic() - last[1] > quiet

                wait_until(done, 60, f"{n} acknowledged moves or a quiet table")

            after_moves(30)
            killed = api.kill_worker()  # the arbiter forks a new one
            wait_until(
                lambda: killed not in api.worker_pids() and len(api.worker_pids()) == 2,
                30,
                "a new worker",
            )
            after_moves(len(bots.acks) + 30)
            sched.kill9()  # rounds stop being paired and results recorded...
            after_moves_or_quiet(len(bots.acks) + 20)  # ...while the games go on
            sched.start()
            after_moves(len(bots.acks) + 30)
            api.kill9()  # the arbiter and both workers at once
            api.start()
            after_moves(len(bots.acks) + 30)
            red.kill9()  # no shutdown, no final fsync
            red.start()
            wait_until(
                lambda: (show(api.url, tid) or {}).get("status") == "finished",
                90,
                "the tournament to finish",
                every=SHOW_EVERY,
            )
        finally:
            bots.stop()

        assert not bots.unexpected, bots.unexpected[:3]
        assert bots.refused["connection"] > 0  # the faults were felt...
        # ...and nothing was lost: every acknowledged move is in its game's record
        r = red.client()
        for ack in bots.acks:
            stored = r.hget(keys.game_moves(ack.game_id), str(ack.version))
            assert stored is not None, ack
            assert orjson.loads(stored) == {"seat": ack.seat, "move": ack.move}, ack
        # no game or result twice, every rated game applied once
        service = Services(connect(red.url), admin_token=ADMIN, seed_secret=SEED_SECRET)
        shown = assert_exactly_once(service, service.tournaments, tid)
        assert all_game_ids(r) == {t[2] for t in expected["tables"]}
        assert outcome(shown) == expected

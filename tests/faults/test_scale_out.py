"""Several API processes and several schedulers on one Redis give the same results as one.

Two ``parlour serve`` processes (three gevent workers between them) and three
``parlour scheduler`` processes share one Redis; the bots send each request to
the next API in turn. The tournament ends exactly as an undisturbed in-process run
of the same boards with one scheduler (same games, results and standings), nothing
is created or rated twice, and ``GET /metrics`` on either API counts the moves
served by both.
"""

from __future__ import annotations

import re

import requests

from server.services.bundle import Services
from server.store import connect
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
from tests.scheduler.support import assert_exactly_once

ADMIN = "faults-admin-token"


def metric(url: str, name: str) -> float:
    text = requests.get(f"{url}/metrics", timeout=10).text
    found = re.search(rf"^{re.escape(name)} (\S+)$", text, re.MULTILINE)
    assert found, text
    return float(found.group(1))


def test_two_apis_and_three_schedulers_play_like_one(tmp_path, redis_client, redis_server):
    red = RedisNode(tmp_path / "redis", fsync="everysec").start()
    apis = [ApiProc(red.url, tmp_path, workers=2), ApiProc(red.url, tmp_path, workers=1)]
    scheds = [SchedulerProc(red.url, tmp_path / f"s{i}") for i in range(3)]
    with running(red, *apis, *scheds):
        for proc in (*apis, *scheds):
            proc.start()
        players = register(apis[0].url, 8)
        tid = open_tournament(apis[1].url, players)

        copy_redis(red.client(), redis_client)
        quiet = Services(connect(redis_server.url), admin_token=ADMIN, seed_secret=SEED_SECRET)
        expected = outcome(play_in_process(quiet, tid, players))

        start(apis[0].url, tid)
        bots = HttpBots([a.url for a in apis], players).start()
        try:
            wait_until(
                lambda: (show(apis[1].url, tid) or {}).get("status") == "finished",
                60,
                "the tournament to finish",
                every=SHOW_EVERY,
            )
        finally:
            bots.stop()

        assert not bots.unexpected and not bots.refused, (bots.unexpected[:3], bots.refused)
        service = Services(connect(red.url), admin_token=ADMIN, seed_secret=SEED_SECRET)
        shown = assert_exactly_once(service, service.tournaments, tid)
        assert outcome(shown) == expected

        # every worker hands its counts to Redis within a second: both APIs see them all
        wait_until(
            lambda: metric(apis[0].url, "parlour_moves_total") == len(bots.acks),
            10,
            "the moves in /metrics",
        )
        assert metric(apis[1].url, "parlour_moves_total") == len(bots.acks)
        assert metric(apis[1].url, "parlour_api_workers") == 3
        assert metric(apis[0].url, "parlour_tournaments_running") == 0

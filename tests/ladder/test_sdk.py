"""Bots on a ladder over real sockets: the SDK's ``Runner(ladder=...)`` (what ``parlour bot
run mybot --ladder ID`` does) joins, plays what the scheduler makes, and leaves on stop."""

from __future__ import annotations

import random
import threading
import time

from bots import uniform
from client_sdk import Client
from client_sdk.runner import Runner as BotRunner
from tests.conftest import ADMIN_TOKEN
from tests.scheduler.support import scheduler


def test_runners_join_play_and_leave(live_server, service_for_live):
    admin = Client(live_server.url, ADMIN_TOKEN)
    ladder = admin.ladders.create(
        "concerto", options={"deals": 1}, clock={"move_seconds": 5}, seen_seconds=3
    )
    runners = []
    for i in range(4):
        player = admin.players.register(f"bot{i}")
        client = Client(live_server.url, player["token"])
        bot = uniform.make_bot(random.Random(i))
        runners.append(BotRunner(bot, client, wait=0.5, handle_signals=False, ladder=ladder["id"]))
    threads = [threading.Thread(target=r.run, daemon=True) for r in runners]
    with scheduler(service_for_live, interval=0.05):
        for t in threads:
            t.start()
        deadline = time.monotonic() + 30
        while True:
            board = admin.ladders.leaderboard(ladder["id"])["leaderboard"]
            if len(board) == 4:
                break
            assert time.monotonic() < deadline, "no board was rated"
            time.sleep(0.1)
        assert len(admin.ladders.get(ladder["id"])["entries"]) == 4
        for r in runners:
            r.stop()
        for t in threads:
            t.join(10)
            assert not t.is_alive()
    shown = admin.ladders.get(ladder["id"])
    assert shown["entries"] == []  # each left on its way out
    assert all(row["games"] >= 1 for row in board)
    after = admin.ladders.leaderboard(ladder["id"])["leaderboard"]
    assert not any(row["on_ladder"] for row in after)  # rated, still listed, off the ladder
    history = admin.ladders.entry(ladder["id"], board[0]["player_id"])["history"]
    assert history and history[-1]["games"][0]["replay"].startswith("/v1/games/")
    assert sum(r.stats.moves for r in runners) > 0 and not any(
        r.stats.illegal_moves for r in runners
    )


def test_the_sdk_enters_a_fixed_pair(live_server):
    admin = Client(live_server.url, ADMIN_TOKEN)
    ladder = admin.ladders.create("concerto", options={"deals": 1}, sides="fixed")
    ann, bob = (admin.players.register(name) for name in ("ann", "bob"))
    as_ann, as_bob = Client(live_server.url, ann["token"]), Client(live_server.url, bob["token"])
    assert as_ann.ladders.join(ladder["id"], partner=bob["id"])["status"] == "held"
    assert as_bob.ladders.join(ladder["id"], partner=ann["id"])["partner"] == ann["id"]
    assert as_ann.ladders.get(ladder["id"])["entries"][0]["status"] != "held"
    assert as_ann.ladders.leave(ladder["id"])["partner_left"] == bob["id"]
    assert as_ann.ladders.get(ladder["id"])["entries"] == []

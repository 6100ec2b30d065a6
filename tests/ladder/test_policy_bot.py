"""A policy from OpenSpiel on a ladder: OpenSpiel's IS-MCTS, through the policy bridge
(``client_sdk.policy``), joins a live ladder with the SDK's runner and plays a rated
game to its end against house bots, over real sockets."""

from __future__ import annotations

import random
import threading
import time

from bots import uniform
from client_sdk import Client
from client_sdk.policy import ismcts_bot
from client_sdk.runner import Runner as BotRunner
from tests.conftest import ADMIN_TOKEN
from tests.scheduler.support import scheduler


def test_ismcts_plays_a_ladder_game_to_the_end(live_server, service_for_live):
    admin = Client(live_server.url, ADMIN_TOKEN)
    ladder = admin.ladders.create(
        "concerto", options={"deals": 1}, clock={"move_seconds": 10}, seen_seconds=5
    )
    runners = []
    for i in range(4):
        player = admin.players.register(f"spiel{i}")
        client = Client(live_server.url, player["token"])
        bot = (
            ismcts_bot(random.Random(i), simulations=8)
            if i == 0
            else uniform.make_bot(random.Random(i))
        )
        runners.append(BotRunner(bot, client, wait=0.5, handle_signals=False, ladder=ladder["id"]))
    threads = [threading.Thread(target=r.run, daemon=True) for r in runners]
    with scheduler(service_for_live, interval=0.05):
        for t in threads:
            t.start()
        deadline = time.monotonic() + 60
        while len(admin.ladders.leaderboard(ladder["id"])["leaderboard"]) < 4:
            assert time.monotonic() < deadline, "no board was rated"
            time.sleep(0.1)
        for r in runners:
            r.stop()
        for t in threads:
            t.join(15)
    searcher = runners[0].stats
    assert searcher.moves > 0 and not searcher.illegal_moves
    board = admin.ladders.leaderboard(ladder["id"])["leaderboard"]
    assert all(row["games"] >= 1 for row in board)

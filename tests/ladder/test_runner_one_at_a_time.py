"""``parlour-bot run BOT --ladder L --games 1`` (the SDK's ``Runner(ladder=,
max_games=1)``) is seated in one ladder game, never two at once, and in none after it:
it joins with its own cap of one game at a time (``max_games`` of the join) and leaves
as its last game begins (docs/ladder.md, section 2), on a ladder whose cap is two."""

from __future__ import annotations

import random
import threading
import time
from datetime import datetime

from bots import uniform
from client_sdk import Client
from client_sdk.runner import Runner as BotRunner
from server.store import ladders as ladder_store
from tests.api.helpers import Api, assert_error
from tests.conftest import ADMIN_TOKEN
from tests.scheduler.support import scheduler


def test_games_1_on_a_ladder_is_seated_once(live_server, service_for_live):
    admin = Client(live_server.url, ADMIN_TOKEN)
    ladder = admin.ladders.create("concerto", options={"deals": 1}, clock={"move_seconds": 5})
    assert ladder["max_games"] == 2
    others = []
    for i in range(3):  # three that stay, as house bots do, each up to two games at once
        player = admin.players.register(f"stayer{i}")
        bot = uniform.make_bot(random.Random(i))
        client = Client(live_server.url, player["token"])
        others.append(BotRunner(bot, client, wait=0.5, handle_signals=False, ladder=ladder["id"]))
    me = admin.players.register("once")
    mine = BotRunner(
        uniform.make_bot(random.Random(9)),
        Client(live_server.url, me["token"]),
        wait=0.5,
        max_games=1,
        handle_signals=False,
        ladder=ladder["id"],
    )
    threads = [threading.Thread(target=r.run, daemon=True) for r in others]
    with scheduler(service_for_live, interval=0.05):
        for t in threads:
            t.start()
        time.sleep(0.5)  # the others are seen waiting: the first pass after I join seats me
        ended: list[float] = []

        def play() -> None:
            mine.run()
            ended.append(time.time())

        mine_thread = threading.Thread(target=play, daemon=True)
        mine_thread.start()
        mine_thread.join(30)
        assert not mine_thread.is_alive(), "--games 1 did not end"
        time.sleep(1.0)  # passes that would seat me again, were I still entered
        for r in others:
            r.stop()
        for t in threads:
            t.join(10)
    matches = ladder_store.all_matches(service_for_live.core.r, ladder["id"])
    seated = [n for n, m in matches.items() if any(me["id"] in s for s in m["tables"])]
    assert len(seated) == 1, f"seated in matches {seated}"
    assert mine.stats.games_finished == 1 and mine.stats.games_started == 1
    assert me["id"] not in {e["player_id"] for e in admin.ladders.get(ladder["id"])["entries"]}
    entry = admin.ladders.entry(ladder["id"], me["id"])
    assert entry["status"] == "left" and entry["history"][0]["outcome"] is not None
    # out within a second (or so: the rating is read first) of its game's end
    assert ended[0] - _when(entry["last_played"]) < 1.5, entry["last_played"]


def _when(text: str) -> float:
    return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


def test_an_entry_cap_out_of_range_is_refused_and_enters_nobody(client, players):
    api = Api(client=client)
    alice = players.register("alice")
    lid = api.post("/v1/ladders", {"game": "seconds"}, who="admin").body["id"]
    for bad in (0, 65, "1", 1.5):
        refused = api.post(f"/v1/ladders/{lid}/entries", {"max_games": bad}, who=alice)
        assert_error(refused, 400, "invalid_request")
        assert "max_games" in refused.body["error"]["details"], refused.body
    assert api.get(f"/v1/ladders/{lid}").body["entries"] == []  # nothing changed
    joined = api.post(f"/v1/ladders/{lid}/entries", {"max_games": 1}, who=alice)
    assert joined.status == 201 and joined.body["player_id"] == alice.id

"""Callback bots on a ladder: they are matched (their dispatcher keeps them waiting), play
their games through their URLs, and one that keeps failing ends its turns in the clock's
default moves and is paused, as any entry that times out is; its ladder entry shows the
callback's health (counts, the last failures) beside the ladder's own."""

from __future__ import annotations

import threading

import pytest

from server.processes.dispatch import Dispatcher
from server.processes.scheduler import Runner
from server.services.bundle import Services
from server.store import callbacks as callback_store
from tests.callbacks.support import Bot, dispatching, serving, wait_for
from tests.conftest import ADMIN_TOKEN
from tests.scheduler.support import register


@pytest.fixture
def service(redis_client) -> Services:
    return Services(redis_client, admin_token=ADMIN_TOKEN)


def test_a_failing_callback_is_paused_on_its_ladder(service):
    players = register(service, 4, "cb")
    broken = players[0]["id"]

    failing = Bot(behave=lambda call: (500, b"{}", 0.0))
    with serving(Bot()) as good, serving(failing) as bad:
        for p in players:
            bot = bad if p["id"] == broken else good
            callback_store.put(service.core.r, p["id"], bot.url(), f"cbs_{p['id']}", 1.0)
            bot.secrets[p["id"]] = f"cbs_{p['id']}"
        ladder = service.ladders.create(
            ADMIN_TOKEN,
            game="concerto",
            options={"deals": 1},
            clock={"move_seconds": 0.25},
            pause_after=2,
            pause_seconds=60.0,
            rematch_seconds=0.0,
            max_games=1,
        )
        for p in players:
            service.ladders.join(p["token"], ladder["id"])
        runner, stop = Runner(service), threading.Event()

        def schedule() -> None:
            while not stop.is_set():
                runner.tick()
                stop.wait(0.02)

        thread = threading.Thread(target=schedule, daemon=True)
        thread.start()
        dispatcher = Dispatcher(service.dispatch, consumer="d1", timeout=2, allow="127.0.0.0/8")
        try:
            with dispatching(dispatcher):
                wait_for(
                    lambda: service.ladders.entry(ladder["id"], broken)["status"] == "paused",
                    25,
                    "the failing callback paused",
                )
        finally:
            stop.set()
            thread.join(5)
    entry = service.ladders.entry(ladder["id"], broken)
    assert "timed out in its last 2 games" in entry["paused_reason"]
    mine = entry["health"]["callback"]
    assert mine["errors"] >= 2 and mine["moves"] == 0
    assert {f["kind"] for f in mine["last_failures"]} == {"status"}
    assert all(f["detail"] == "HTTP 500" for f in mine["last_failures"])
    others = [service.ladders.entry(ladder["id"], p["id"]) for p in players[1:]]
    assert all(o["health"]["callback"]["moves"] > 0 for o in others)
    # the good bots failed no call but by time (a clock this short may beat a call on a
    # loaded host): no error, no refused move
    assert all(o["health"]["callback"]["errors"] == 0 for o in others)
    assert all(o["health"]["callback"]["refused_moves"] == 0 for o in others)
    assert good.bad_signatures == bad.bad_signatures == 0

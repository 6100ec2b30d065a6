"""Ladder entries that hold the house bots, or slip past validation.

* A hog: one entry that stalls its games (polls, never moves) took both of the house
  bots' game slots (the ladder's ``max_games``, 2), and a validated newcomer stayed
  unmatched while the hog's clocks ran. House bots are now bound by no ``max_games``:
  one entry holds at most its own cap of games, and a newcomer is matched at the
  scheduler's first pass once it is validated (docs/ladder.md, *House bots*).
* A departed bot: one that left the ladder mid-game (Ctrl-C) and stopped polling kept
  its games running on its move clock, a full clock a turn. Its turns are now given the
  timeout policy at once once it has not been seen waiting for the ladder's
  ``seen_seconds``; its games end in moments.
* A rejoin: leave, change the callback URL, join again, and the old, passed validation
  game counted again (its id came from ladder, player and attempt, and the attempt
  restarted at 1). Every new entry now plays a validation game of its own, whose id no
  earlier attempt had.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

import pytest

from bots import uniform
from server.processes.scheduler import Runner
from server.services.bundle import Services
from server.store import connect
from server.store import ladders as ladder_store
from tests.conftest import ADMIN_TOKEN
from tests.ladder.support import HouseBots
from tests.scheduler.support import register

PROMISE = 1.0
"""docs/ladder.md: a validated newcomer is matched within a second (the next passes)."""


@pytest.fixture
def service(redis_client, redis_server) -> Services:
    return Services(connect(redis_server.url), admin_token=ADMIN_TOKEN)


def house_ladder(service: Services, **settings: Any) -> tuple[str, list[dict[str, str]]]:
    """A Concerto ladder (four seats, one deal) with three house bots, a long move clock
    (a stalled turn lasts the whole test) and the ladder's default ``max_games`` (2)."""
    (bot,) = service.apps.ensure_bots(ADMIN_TOKEN, [{"name": "random", "games": None, "count": 3}])[
        "bots"
    ]
    body = {
        "game": "concerto",
        "options": {"deals": 1},
        "clock": {"move_seconds": 60},
        "rematch_seconds": 0.0,
        "seen_seconds": 0.5,
    }
    ladder_id = service.ladders.create(ADMIN_TOKEN, **body | settings)["id"]
    for p in bot["players"]:
        service.ladders.join(p["token"], ladder_id)
    return ladder_id, bot["players"]


def drive(service: Services, bots: HouseBots, done: Callable[[], bool], timeout: float) -> float:
    """Scheduler passes and the bots' steps until ``done()``; the seconds it took."""
    runner = Runner(service)
    began = time.monotonic()
    while not done():
        assert time.monotonic() - began < timeout, "timed out"
        runner.tick()
        bots.step()
    return time.monotonic() - began


def status(service: Services, ladder_id: str, player_id: str) -> dict[str, Any]:
    return service.ladders.entry(ladder_id, player_id)


def open_games(service: Services, ladder_id: str, player_id: str) -> list[str]:
    """The games of the ladder's open matches at which ``player_id`` sits, not over."""
    record = ladder_store.read(service.core.r, ladder_id)
    assert record is not None
    return [
        record.games[ladder_store.slot(n, t)]
        for n, match in record.open.items()
        for t, seats in enumerate(match["tables"])
        if player_id in seats and ladder_store.slot(n, t) not in record.results
    ]


def matched(service: Services, ladder_id: str, player_id: str) -> bool:
    matches = ladder_store.all_matches(service.core.r, ladder_id)
    return any(player_id in side for m in matches.values() for side in m["sides"])


def validated(service: Services, ladder_id: str, player_id: str) -> bool:
    return status(service, ladder_id, player_id)["validation"]["status"] == "passed"


def hog_at_its_cap(service: Services) -> tuple[str, list[dict[str, str]], HouseBots, dict]:
    """A ladder whose one entry (validated first) stalls its games at its cap of two."""
    ladder_id, house = house_ladder(service)
    (hog,) = register(service, 1, prefix="hog")
    service.ladders.join(hog["token"], ladder_id)
    bots = HouseBots(service, [*house, hog], [uniform.make_bot] * 4, seed=7)
    drive(service, bots, lambda: validated(service, ladder_id, hog["id"]), timeout=10)
    bots.silent.add(hog["id"])  # polls (seen waiting), never moves: its clock runs
    drive(service, bots, lambda: len(open_games(service, ladder_id, hog["id"])) == 2, timeout=5)
    return ladder_id, house, bots, hog


def newcomer_matched(service: Services, ladder_id: str, bots: HouseBots) -> float:
    """A newcomer joins, plays its validation game; the seconds from its passing to its
    first match."""
    (new,) = register(service, 1, prefix="new")
    service.ladders.join(new["token"], ladder_id)
    bots.players.append(new)
    bots.bots[new["id"]] = uniform.make_bot(random.Random(8))
    drive(service, bots, lambda: validated(service, ladder_id, new["id"]), timeout=10)
    return drive(service, bots, lambda: matched(service, ladder_id, new["id"]), timeout=3)


def test_a_hog_stalling_its_games_does_not_keep_a_newcomer_from_the_house_bots(service):
    ladder_id, house, bots, hog = hog_at_its_cap(service)
    held = open_games(service, ladder_id, hog["id"])
    took = newcomer_matched(service, ladder_id, bots)
    assert took < PROMISE, took
    assert open_games(service, ladder_id, hog["id"]) == held  # still stalled: its clock runs
    assert len(ladder_store.all_matches(service.core.r, ladder_id)) == 3


def test_a_bot_that_left_mid_game_has_its_games_ended_at_once(service):
    ladder_id, house, bots, hog = hog_at_its_cap(service)
    held = open_games(service, ladder_id, hog["id"])
    service.ladders.leave(hog["token"], ladder_id)  # Ctrl-C: it leaves, and is gone
    bots.asleep.add(hog["id"])
    seen = service.ladders.show(ladder_id)["seen_seconds"]
    took = drive(service, bots, lambda: not open_games(service, ladder_id, hog["id"]), timeout=4)
    assert took < seen + 2.0, took  # one deal of default moves, not a minute a turn
    for game_id in held:
        shown = service.games.view(ADMIN_TOKEN, game_id)
        assert shown["status"] == "finished"
        seat = next(s["seat"] for s in shown["seats"] if s["player_id"] == hog["id"])
        timeouts = service.clocks.timeouts([game_id])[game_id]
        assert timeouts.get(str(seat), 0) > 0  # the clock's default moves (its policy)
    assert newcomer_matched(service, ladder_id, bots) < PROMISE


def test_a_rejoin_after_a_new_callback_validates_again(service):
    ladder_id, house = house_ladder(service)
    (me,) = register(service, 1, prefix="cb")
    service.ladders.join(me["token"], ladder_id)
    bots = HouseBots(service, [*house, me], [uniform.make_bot] * 4, seed=9)
    drive(service, bots, lambda: validated(service, ladder_id, me["id"]), timeout=10)
    passed = status(service, ladder_id, me["id"])["validation"]["game_id"]
    service.ladders.leave(me["token"], ladder_id)
    before = len(ladder_store.all_matches(service.core.r, ladder_id))
    service.callbacks.put(me["token"], "https://8.8.8.8/bot")  # another bot: never called
    service.ladders.join(me["token"], ladder_id)
    bots.silent.add(me["id"])  # seen waiting; this bot has not played a game yet
    runner = Runner(service)
    for _ in range(5):
        runner.tick()
        bots.step()
    entry = status(service, ladder_id, me["id"])
    assert entry["status"] == "validating", entry["validation"]
    assert entry["validation"]["status"] == "playing"
    assert entry["validation"]["game_id"] not in (None, passed)
    since = [
        m for n, m in ladder_store.all_matches(service.core.r, ladder_id).items() if n >= before
    ]
    assert not any(me["id"] in side for m in since for side in m["sides"])  # not matched


def test_a_bot_that_left_but_still_plays_keeps_its_turns(service):
    """``parlour bot run --games N`` leaves as its last game begins and plays it: seen
    waiting, it is not gone, and the clock makes none of its moves."""
    ladder_id, house, bots, hog = hog_at_its_cap(service)
    bots.silent.discard(hog["id"])  # it plays again
    held = open_games(service, ladder_id, hog["id"])
    service.ladders.leave(hog["token"], ladder_id)
    drive(service, bots, lambda: not open_games(service, ladder_id, hog["id"]), timeout=4)
    for game_id in held:
        seat = next(
            s["seat"]
            for s in service.games.view(ADMIN_TOKEN, game_id)["seats"]
            if s["player_id"] == hog["id"]
        )
        assert service.clocks.timeouts([game_id])[game_id].get(str(seat), 0) == 0


def test_a_bot_that_left_during_its_validation_game_has_it_ended_at_once(service):
    ladder_id, house = house_ladder(service)
    (me,) = register(service, 1, prefix="quit")
    service.ladders.join(me["token"], ladder_id)
    bots = HouseBots(service, [*house, me], [uniform.make_bot] * 4, seed=10)
    bots.silent.add(me["id"])
    drive(
        service,
        bots,
        lambda: status(service, ladder_id, me["id"])["validation"]["status"] == "playing",
        timeout=3,
    )
    game_id = status(service, ladder_id, me["id"])["validation"]["game_id"]
    service.ladders.leave(me["token"], ladder_id)
    bots.asleep.add(me["id"])
    over = lambda: service.games.view(ADMIN_TOKEN, game_id)["status"] == "finished"  # noqa: E731
    assert drive(service, bots, over, timeout=4) < 0.5 + 2.0
    Runner(service).tick()
    assert not ladder_store.left_validations(service.core.r, ladder_id)  # dropped once over

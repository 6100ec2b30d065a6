"""A ladder's validation game (docs/ladder.md, *Validation game*).

On a ladder that validates (the default) and has house bots enough to fill a table,
a new entry first plays one game against the house bots; it is matched and rated
only once that game ends with no timeout and no illegal move of its own. Otherwise
its status says why, and joining again tries again. The game itself is not rated.
House bots are never validated.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from bots import uniform
from server.games import IllegalMove
from server.processes.scheduler import Runner
from server.services.bundle import Services
from server.services.ladders import pool
from server.store import ladders as ladder_store
from server.store import ratings as rating_store
from tests.conftest import ADMIN_TOKEN
from tests.ladder.support import HouseBots
from tests.scheduler.support import register

DECK = [r + s for r in "23456789TJQKA" for s in "SHDC"]


def house_ladder(service: Services, **settings: Any) -> tuple[str, list[dict[str, str]]]:
    """A Concerto ladder (four seats) with three house bots entered: one table less one."""
    (pool_bot,) = service.apps.ensure_bots(
        ADMIN_TOKEN, [{"name": "random", "games": None, "count": 3}]
    )["bots"]
    house = pool_bot["players"]
    body = {"game": "concerto", "options": {"deals": 1}, "rematch_seconds": 0.0} | settings
    ladder_id = service.ladders.create(ADMIN_TOKEN, **body)["id"]
    for p in house:
        service.ladders.join(p["token"], ladder_id)
    return ladder_id, house


def drive(service: Services, bots: HouseBots, done, timeout: float = 30.0, extra=None) -> None:
    runner = Runner(service)
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, "timed out"
        runner.tick()
        bots.step()
        if extra is not None:
            extra()


def validation(service: Services, ladder_id: str, player_id: str) -> dict[str, Any]:
    return service.ladders.entry(ladder_id, player_id)["validation"]


def test_a_good_bot_is_validated_unrated_then_matched(service) -> None:
    ladder_id, house = house_ladder(service, clock={"move_seconds": 5})
    (me,) = register(service, 1, prefix="good")
    joined = service.ladders.join(me["token"], ladder_id)
    assert joined["status"] == "validating"
    assert joined["validation"] == {
        "status": "pending",
        "attempt": 1,
        "game_id": None,
        "reason": None,
    }
    # house bots are never validated
    assert all(service.ladders.entry(ladder_id, p["id"])["validation"] is None for p in house)
    bots = HouseBots(service, [*house, me], [uniform.make_bot] * 4, seed=1)
    r = service.core.r
    passes = []

    def no_match_while_validating() -> None:
        entry = service.ladders.entry(ladder_id, me["id"])
        if entry["status"] == "validating":
            passes.append(entry["validation"]["status"])
            record = ladder_store.read(r, ladder_id)
            assert record is not None and record.matches_count == 0

    drive(
        service,
        bots,
        lambda: validation(service, ladder_id, me["id"])["status"] == "passed",
        extra=no_match_while_validating,
    )
    assert "playing" in passes  # it was validating, with its game on, unmatched
    got = validation(service, ladder_id, me["id"])
    assert got["reason"] is None and got["game_id"] is not None
    assert me["id"] not in rating_store.pool(r, pool(ladder_id))  # the game was not rated
    assert service.games.view(me["token"], got["game_id"])["status"] == "finished"
    # now it is matched and rated like any entry
    drive(service, bots, lambda: me["id"] in rating_store.pool(r, pool(ladder_id)))
    matches = ladder_store.all_matches(r, ladder_id)
    assert any(me["id"] in side for m in matches.values() for side in m["sides"])
    _, results = ladder_store.all_results(r, ladder_id)
    assert got["game_id"] not in {v["game_id"] for v in results.values()}


def test_a_bot_that_times_out_fails_validation_and_may_try_again(service) -> None:
    ladder_id, house = house_ladder(service, clock={"move_seconds": 0.05})
    (me,) = register(service, 1, prefix="slow")
    service.ladders.join(me["token"], ladder_id)
    bots = HouseBots(service, [*house, me], [uniform.make_bot] * 4, seed=2)
    bots.silent.add(me["id"])  # polls, never moves: its clock runs out
    drive(service, bots, lambda: validation(service, ladder_id, me["id"])["status"] == "failed")
    entry = service.ladders.entry(ladder_id, me["id"])
    assert entry["status"] == "failed_validation"
    reason = entry["validation"]["reason"]
    assert "ran out of time" in reason and entry["validation"]["game_id"] in reason
    record = ladder_store.read(service.core.r, ladder_id)
    assert record is not None and record.matches_count == 0  # never matched
    again = service.ladders.join(me["token"], ladder_id)
    assert again["status"] == "validating"
    assert again["validation"] == {
        "status": "pending",
        "attempt": 2,
        "game_id": None,
        "reason": None,
    }


def test_a_bot_that_moves_illegally_fails_validation(service) -> None:
    ladder_id, house = house_ladder(service, clock={"move_seconds": 5})
    (me,) = register(service, 1, prefix="wild")
    service.ladders.join(me["token"], ladder_id)
    bots = HouseBots(service, [*house, me], [uniform.make_bot] * 4, seed=3)
    bots.asleep.add(me["id"])  # played by hand below
    tried: list[str] = []

    def play_me() -> None:
        for turn in service.feeds.turns(me["token"])["turns"]:
            view, gid, version = turn["view"], turn["game_id"], turn["version"]
            if not tried:  # one card it does not hold: illegal
                card = next(c for c in DECK if c not in view["hand"])
                tried.append(card)
                with pytest.raises(IllegalMove):  # refused by the engine
                    service.games.move(me["token"], gid, {"type": "play", "card": card}, version)
            service.games.move(me["token"], gid, view["legal_moves"][0], version)

    drive(
        service,
        bots,
        lambda: validation(service, ladder_id, me["id"])["status"] == "failed",
        extra=play_me,
    )
    entry = service.ladders.entry(ladder_id, me["id"])
    assert entry["status"] == "failed_validation"
    assert "made 1 illegal move(s)" in entry["validation"]["reason"]
    assert "ran out of time" not in entry["validation"]["reason"]


def test_no_validation_where_the_ladder_turns_it_off_or_has_no_house_bots(service) -> None:
    off, _ = house_ladder(service, validation=False)
    (me,) = register(service, 1, prefix="off")
    entry = service.ladders.join(me["token"], off)
    assert entry["validation"] is None and entry["status"] != "validating"
    assert service.ladders.show(off)["validation"] is False
    bare = service.ladders.create(ADMIN_TOKEN, game="concerto")["id"]  # nobody to play
    assert service.ladders.show(bare)["validation"] is True
    assert service.ladders.join(me["token"], bare)["validation"] is None


def test_revalidate_asks_a_validated_entry_again(service) -> None:
    ladder_id, house = house_ladder(service, clock={"move_seconds": 5})
    (me,) = register(service, 1, prefix="cb")
    service.ladders.join(me["token"], ladder_id)
    bots = HouseBots(service, [*house, me], [uniform.make_bot] * 4, seed=4)
    drive(service, bots, lambda: validation(service, ladder_id, me["id"])["status"] == "passed")
    assert service.ladders.revalidate(me["id"]) == [ladder_id]
    entry = service.ladders.entry(ladder_id, me["id"])
    assert entry["status"] == "validating" and entry["validation"]["attempt"] == 2
    assert service.ladders.revalidate(house[0]["id"]) == []  # a house bot: never


def test_a_callback_set_to_a_new_url_asks_a_validation_game_again(service) -> None:
    """Setting a callback is a change of bot: a validated entry validates again. The same
    URL set again (a new secret only) is the same bot: no new validation."""
    ladder_id, house = house_ladder(service, clock={"move_seconds": 5})
    (me,) = register(service, 1, prefix="url")
    service.ladders.join(me["token"], ladder_id)
    bots = HouseBots(service, [*house, me], [uniform.make_bot] * 4, seed=5)
    drive(service, bots, lambda: validation(service, ladder_id, me["id"])["status"] == "passed")
    service.callbacks.put(me["token"], "https://8.8.8.8/bot")  # a public address: not called
    entry = service.ladders.entry(ladder_id, me["id"])
    assert entry["status"] == "validating" and entry["validation"]["attempt"] == 2
    service.callbacks.put(me["token"], "https://8.8.8.8/bot")
    assert service.ladders.entry(ladder_id, me["id"])["validation"]["attempt"] == 2
    service.callbacks.put(me["token"], "https://8.8.4.4/bot")
    assert service.ladders.entry(ladder_id, me["id"])["validation"]["attempt"] == 3

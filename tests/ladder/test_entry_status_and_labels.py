"""An entry at its games says ``playing`` (not ``away``), and two entries of one name
are told apart on the leaderboard by their ``label`` (docs/ladder.md, sections 4-5)."""

from __future__ import annotations

import time

from bots import uniform
from server.processes.scheduler import Runner
from server.services.bundle import Services
from server.services.ladders import label
from server.store import ladders as ladder_store
from tests.conftest import ADMIN_TOKEN
from tests.ladder.support import HouseBots
from tests.scheduler.support import register


def _ladder(service: Services, players, **settings) -> str:
    ladder = service.ladders.create(ADMIN_TOKEN, game="concerto", options={"deals": 1}, **settings)
    for p in players:
        service.ladders.join(p["token"], ladder["id"])
    return ladder["id"]


def test_an_entry_at_its_game_is_playing_even_when_not_seen_waiting(service):
    players = register(service, 5)
    ladder_id = _ladder(service, players, seen_seconds=0.3, clock={"move_seconds": 60})
    now = time.time()
    for p in players[:4]:  # four seen waiting; the fifth never
        ladder_store.seen(service.core.r, p["id"], now)
    Runner(service).tick()
    (match,) = ladder_store.read(service.core.r, ladder_id).open.values()
    seated = {p for seats in match["tables"] for p in seats}
    assert seated == {p["id"] for p in players[:4]}
    time.sleep(0.5)  # past seen_seconds: they hold their games, they do not poll
    status = {e["player_id"]: e["status"] for e in service.ladders.show(ladder_id)["entries"]}
    assert {status[p] for p in seated} == {"playing"}, status
    assert status[players[4]["id"]] == "away"
    assert service.ladders.entry(ladder_id, players[0]["id"])["status"] == "playing"


def test_a_shared_name_is_told_apart_by_the_player_id_tail(service):
    players = [service.players.register(None, n) for n in ("mybot", "mybot", "ann", "bob")]
    ladder_id = _ladder(service, players, clock={"move_seconds": 5})
    bots = HouseBots(service, players, [uniform.make_bot] * 4, seed=3)
    runner = Runner(service)
    deadline = time.monotonic() + 30
    while not service.ladders.leaderboard(ladder_id)["leaderboard"]:
        assert time.monotonic() < deadline, "no contest rated"
        runner.tick()
        bots.step()
    rows = {r["player_id"]: r for r in service.ladders.leaderboard(ladder_id)["leaderboard"]}
    twins = [players[0]["id"], players[1]["id"]]
    labels = [rows[p]["label"] for p in twins]
    assert labels == [f"mybot #{p[-4:]}" for p in twins] and labels[0] != labels[1]
    assert rows[players[2]["id"]]["label"] == "ann"  # a name of its own stays as it is
    assert all(rows[p]["name"] == "mybot" for p in twins)


def test_label_of_a_player_without_a_name():
    assert label(None, "0123456789abcdef", False) == "0123456789abcdef"


def _watches(service: Services) -> int:
    """How many WATCH commands Redis has run (each pairing transaction starts with one)."""
    return int(service.core.r.info("commandstats").get("cmdstat_watch", {}).get("calls", 0))


def test_a_pass_over_a_ladder_too_small_for_a_table_opens_no_pairing_transaction(service):
    """Three entries on a four-seat ladder (as a house ladder waits for its newcomer): a
    scheduler's pass reads the ladder and stops there; with a fourth it pairs."""
    players = register(service, 4)
    ladder_id = _ladder(service, players[:3])
    for p in players[:3]:
        ladder_store.seen(service.core.r, p["id"], time.time())
    before = _watches(service)
    Runner(service).tick()
    assert _watches(service) == before
    assert ladder_store.read(service.core.r, ladder_id).open == {}
    service.ladders.join(players[3]["token"], ladder_id)
    ladder_store.seen(service.core.r, players[3]["id"], time.time())  # kept for entries only
    Runner(service).tick()
    assert _watches(service) > before  # the pairing, then the new tables' own
    (match,) = ladder_store.read(service.core.r, ladder_id).open.values()
    assert {p for seats in match["tables"] for p in seats} == {p["id"] for p in players}

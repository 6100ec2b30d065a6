"""Ladders of fixed pairs (``sides: "fixed"``): a pair joins together, is held until the
partner accepts, plays as one side, is rated as a team, and leaves together."""

from __future__ import annotations

import time

import pytest

from bots import uniform
from server.processes.scheduler import Runner
from server.services.bundle import Services
from server.services.errors import InvalidRequest
from server.store import ladders as ladder_store
from tests.conftest import ADMIN_TOKEN
from tests.ladder.support import HouseBots
from tests.ladder.test_ladder import rated, run_until
from tests.scheduler.support import register


def fixed_ladder(service: Services, **settings) -> str:
    body = {"game": "concerto", "options": {"deals": 1}, "sides": "fixed"} | settings
    return service.ladders.create(ADMIN_TOKEN, **body)["id"]


def pair_up(service: Services, ladder_id: str, a: dict, b: dict) -> None:
    service.ladders.join(a["token"], ladder_id, partner=b["id"])
    service.ladders.join(b["token"], ladder_id, partner=a["id"])


def plan_now(service: Services, ladder_id: str, players) -> list[dict]:
    now = time.time()
    for p in players:
        ladder_store.seen(service.core.r, p["id"], now)  # every one waiting for a turn
    record = ladder_store.read(service.core.r, ladder_id)
    assert record is not None
    return service.ladders.plan(record, now)


def test_a_held_pair_is_not_matched_an_accepted_one_is_one_side(service):
    p = register(service, 4)
    ladder_id = fixed_ladder(service)
    assert service.ladders.show(ladder_id)["sides"] == "fixed"
    pair_up(service, ladder_id, p[2], p[3])
    held = service.ladders.join(p[0]["token"], ladder_id, partner=p[1]["id"])
    assert (held["status"], held["partner"]) == ("held", p[1]["id"])
    # p1 has not named p0 back: only one pair plays, so nothing is matched
    assert plan_now(service, ladder_id, p) == []

    accepted = service.ladders.join(p[1]["token"], ladder_id, partner=p[0]["id"])
    assert accepted["status"] != "held"
    assert service.ladders.entry(ladder_id, p[0]["id"])["status"] != "held"
    [match] = plan_now(service, ladder_id, p)
    pairs = {frozenset((p[0]["id"], p[1]["id"])), frozenset((p[2]["id"], p[3]["id"]))}
    assert {frozenset(side) for side in match["sides"]} == pairs
    # two pairs cannot fill a duplicate board's two tables with other players: one
    # ordinary game, Concerto partners sitting across (seats 0 and 2, 1 and 3)
    [seats] = match["tables"]
    assert {frozenset((seats[0], seats[2])), frozenset((seats[1], seats[3]))} == pairs


def test_four_pairs_play_a_duplicate_board_as_two_teams(service):
    p = register(service, 8)
    ladder_id = fixed_ladder(service)
    for i in range(0, 8, 2):
        pair_up(service, ladder_id, p[i], p[i + 1])
    [match] = plan_now(service, ladder_id, p)
    pairs = {frozenset((p[i]["id"], p[i + 1]["id"])) for i in range(0, 8, 2)}
    x, y = match["tables"]
    assert not set(x) & set(y)  # nobody at both tables of the board
    for seats in (x, y):  # each pair whole at one table, partners across
        assert {frozenset((seats[0], seats[2])), frozenset((seats[1], seats[3]))} <= pairs
    for team in match["sides"]:  # a team: one pair North-South at one table, one East-West
        assert frozenset(team[:2]) in pairs and frozenset(team[2:]) in pairs
        assert {x[0], x[2]} == set(team[:2]) or {x[1], x[3]} == set(team[:2])
        at_y = {y[0], y[2]} if {x[1], x[3]} == set(team[:2]) else {y[1], y[3]}
        assert at_y == set(team[2:])


def test_a_pair_is_rated_as_a_team(service):
    p = register(service, 4)
    ladder_id = fixed_ladder(service, max_games=1)  # one game at a time: the first is rated first
    pair_up(service, ladder_id, p[0], p[1])
    pair_up(service, ladder_id, p[2], p[3])
    bots = HouseBots(service, p, [uniform.make_bot] * 4, seed=2)
    run_until(Runner(service), bots, lambda: rated(service, ladder_id) >= 1)
    board = {row["player_id"]: row for row in service.ladders.leaderboard(ladder_id)["leaderboard"]}
    ids = [x["id"] for x in p]
    # partners start equal and share every result: their ratings stay equal
    assert (board[ids[0]]["mu"], board[ids[0]]["sigma"]) == (
        board[ids[1]]["mu"],
        board[ids[1]]["sigma"],
    )
    assert (board[ids[2]]["mu"], board[ids[2]]["sigma"]) == (
        board[ids[3]]["mu"],
        board[ids[3]]["sigma"],
    )
    first = service.ladders.entry(ladder_id, ids[0])["history"][-1]
    assert first["partners"] == [ids[1]] and sorted(first["opponents"]) == sorted(ids[2:])
    mine, theirs = board[ids[0]]["mu"], board[ids[2]]["mu"]
    # equal teams: the winner's mean rises above the loser's; a draw leaves both equal
    expected = {"won": mine > theirs, "lost": mine < theirs, "drawn": mine == theirs}
    assert expected[first["outcome"]], (first["outcome"], mine, theirs)


def test_either_partner_leaving_takes_the_pair_out(service):
    p = register(service, 4)
    ladder_id = fixed_ladder(service)
    pair_up(service, ladder_id, p[0], p[1])
    pair_up(service, ladder_id, p[2], p[3])
    left = service.ladders.leave(p[1]["token"], ladder_id)
    assert left["partner_left"] == p[0]["id"]
    statuses = {e["player_id"]: e["status"] for e in service.ladders.show(ladder_id)["entries"]}
    assert statuses == {p[2]["id"]: "away", p[3]["id"]: "away"}  # p0 and p1 gone
    assert plan_now(service, ladder_id, p) == []


def test_pairs_are_refused_when_they_cannot_form(service):
    p = register(service, 4)
    ladder_id = fixed_ladder(service)
    with pytest.raises(InvalidRequest):
        service.ladders.join(p[0]["token"], ladder_id)  # no partner named
    with pytest.raises(InvalidRequest):
        service.ladders.join(p[0]["token"], ladder_id, partner=p[0]["id"])
    pair_up(service, ladder_id, p[0], p[1])
    with pytest.raises(InvalidRequest):
        service.ladders.join(p[2]["token"], ladder_id, partner=p[0]["id"])  # p0 is taken
    with pytest.raises(InvalidRequest):
        service.ladders.join(p[0]["token"], ladder_id, partner=p[2]["id"])  # leave first
    service.ladders.join(p[0]["token"], ladder_id, partner=p[1]["id"])  # again: harmless
    # without a partner, joining only confirms an entry (what a bot runner does)
    assert service.ladders.join(p[1]["token"], ladder_id)["partner"] == p[0]["id"]
    solo = service.ladders.create(ADMIN_TOKEN, game="concerto", options={"deals": 1})["id"]
    assert service.ladders.show(solo)["sides"] == "solo"
    with pytest.raises(InvalidRequest):
        service.ladders.join(p[0]["token"], solo, partner=p[1]["id"])
    with pytest.raises(InvalidRequest):  # fixed pairs need two players a side
        service.ladders.create(ADMIN_TOKEN, game="concerto", side_size=1, sides="fixed")

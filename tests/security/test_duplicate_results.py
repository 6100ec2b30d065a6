"""A duplicate board's table shows no result anywhere until every table of its board is over.

The tables of a board hold the same cards: a finished table's score (``33 : 2``)
tells of the deal its twin is still playing. The lobby
hides it; so must the tournament resource (``GET /v1/tournaments/{id}``, each
round's tables) and its web page, which draws that resource. Once the twin is
over too, both results show.
"""

from __future__ import annotations

import random

from server.processes.scheduler import Runner
from tests.security.support import play_out, start_tournament, step
from tests.web.conftest import Web, web  # noqa: F401  (the page fixture)


def _tables(api, tid: str) -> dict[str, dict]:
    return {t["game_id"]: t for t in api.get(f"/v1/tournaments/{tid}").body["rounds"][0]["tables"]}


def _board(api, app, people) -> tuple[str, str, str, Runner]:
    tid = start_tournament(api, people)
    runner = Runner(app.extensions["parlour"])
    runner.tick()
    x, y = _tables(api, tid)
    return tid, x, y, runner


def test_the_tournament_hides_a_tables_result_until_its_twin_ends(api, app, players):
    people = players.many(8)
    tid, x, y, runner = _board(api, app, people)
    rng = random.Random(4)
    step(api, y, people, rng)
    ended = play_out(api, x, people, rng)["result"]
    runner.tick()  # the scheduler records x's result
    shown = api.get(f"/v1/tournaments/{tid}")
    tables = _tables(api, tid)
    assert tables[x]["status"] == "finished" and tables[x]["result"] is None
    assert tables[y]["status"] == "playing" and tables[y]["result"] is None
    assert shown.body["progress"]["games_finished"] == 1
    assert shown.body["standings"] and all(s["played"] == 0 for s in shown.body["standings"])
    assert all(t["result"] is None for rnd in shown.body["rounds"] for t in rnd["tables"])
    play_out(api, y, people, rng)
    runner.tick()
    tables = _tables(api, tid)
    assert tables[x]["result"]["scores"] == ended["scores"][:2]
    assert tables[y]["result"] is not None and tables[y]["status"] == "finished"


def test_the_tournament_page_shows_no_score_before_the_twin_ends(
    api,
    app,
    players,
    web: Web,  # noqa: F811
):
    people = players.many(8)
    tid, x, y, runner = _board(api, app, people)
    rng = random.Random(5)
    step(api, y, people, rng)
    ended = play_out(api, x, people, rng)["result"]
    runner.tick()
    page = web.open(f"/tournaments/{tid}")
    row = page.locator(f".round tr[data-game='{x}']")
    row.wait_for()
    cells = row.locator("td")
    assert "finished" in cells.nth(2).inner_text()
    assert cells.nth(3).inner_text() == ""  # no score while the twin plays
    assert " : ".join(map(str, ended["scores"][:2])) not in page.locator("main").inner_text()
    play_out(api, y, people, rng)
    runner.tick()
    page = web.open(f"/tournaments/{tid}")
    row = page.locator(f".round tr[data-game='{x}']")
    row.wait_for()
    assert row.locator("td").nth(3).inner_text() == " : ".join(map(str, ended["scores"][:2]))

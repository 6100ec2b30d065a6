"""The pages around the tables, at phone and desktop sizes: the lobby, a replay (and the
page that opens a replay file), a rules page, a running tournament, the ratings and a
player's rating history (a ladder's pages: test_access_ladder.py). axe-core finds no
serious or critical violation, no page scrolls sideways, each is photographed
(tests/web/audit.py).
"""

from __future__ import annotations

import random

from playwright.sync_api import Browser

from server.processes.scheduler import Runner
from tests.conftest import ADMIN_TOKEN, LiveServer, Player
from tests.web.audit import audit, play, report
from tests.web.conftest import Seats


def a_running_tournament(seats: Seats, app, players: list[Player]) -> str:
    """A Concerto round robin of two partnerships, its one table paired and under way."""
    made = seats.call(
        "post",
        "/v1/tournaments",
        {"game": "concerto", "format": "round_robin", "options": {"deals": 1}, "name": "Friday"},
        ADMIN_TOKEN,
    )
    for pair in ((players[0], players[2]), (players[1], players[3])):
        body = {"players": [p.id for p in pair]}
        seats.call("post", f"/v1/tournaments/{made['id']}/entries", body, ADMIN_TOKEN)
    seats.call("post", f"/v1/tournaments/{made['id']}/start", {}, ADMIN_TOKEN)
    Runner(app.extensions["parlour"]).tick()
    return made["id"]


def test_the_lobby_replay_rules_tournament_and_ratings_pages_pass_axe_and_fit(
    browser: Browser, live_server: LiveServer, seats: Seats, axe_source: str, app
) -> None:
    players = [seats.register(name) for name in ("ann", "ben", "cat", "dan")]
    done = seats.game("concerto", players, {"deals": 1})["id"]
    play(app.extensions["parlour"], done, players, random.Random(2))
    tournament = a_running_tournament(seats, app, players)
    # two rated games (as a tournament's tables are, straight through the ratings): the
    # ratings page's rows with their range and provisional mark, a player's history
    ids = [p.id for p in players]
    for n, ranks in enumerate(((0, 1), (1, 0))):
        teams = ((ids[0], ids[2]), (ids[1], ids[3]))
        app.extensions["parlour"].ratings.rate("concerto", f"x:{n}", teams, ranks, consented=True)
    pages = {
        "lobby": "/",
        "replay": f"/replay/{done}?step=30",
        "replayfile": "/replay",  # the page that opens a replay file, before one is chosen
        "rules": "/rules/concerto",
        "tournament": f"/tournaments/{tournament}",
        "ratings": "/ratings/concerto",
        "rating-history": f"/ratings/concerto/players/{ids[0]}",
    }
    problems = audit(browser, live_server.url, axe_source, pages)
    assert not problems, report(problems)

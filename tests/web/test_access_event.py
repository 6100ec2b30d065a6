"""A class event's pages at phone and desktop sizes: the tournament page with its
tie-breaks, its standings' 95% intervals and cross-table, and the projector page (large
type, no controls). axe-core finds no serious or critical violation, no page scrolls
sideways, each is photographed
(tests/web/audit.py: var/screenshots/event-*.png and projector-*.png)."""

from __future__ import annotations

import random

from playwright.sync_api import Browser, Page

from server.processes.scheduler import Runner
from tests.conftest import ADMIN_TOKEN, LiveServer, Player
from tests.web.audit import audit, play, report
from tests.web.conftest import Seats

ROSTER = "name,team\nAda,Owls\nBo,Owls\nCy,Cats\nDi,Cats\nEd,Hens\nFay,Hens\n"


def a_finished_event(seats: Seats, app) -> str:
    """Three teams from a roster (the admin's), a round robin played to its end."""
    body = {"game": "concerto", "format": "round_robin", "options": {"deals": 1}}
    made = seats.call("post", "/v1/tournaments", body | {"name": "Class 7B"}, ADMIN_TOKEN)
    tid = made["id"]
    entered = seats.call("post", f"/v1/tournaments/{tid}/roster", {"csv": ROSTER}, ADMIN_TOKEN)
    people = {p["id"]: Player(p["id"], p["name"], p["token"])
              for e in entered["entries"] for p in e["players"]}  # fmt: skip
    seats.call("post", f"/v1/tournaments/{tid}/start", {}, ADMIN_TOKEN)
    services, rng = app.extensions["parlour"], random.Random(4)
    runner = Runner(services)
    for _ in range(6):
        runner.tick()
        page = seats.call("get", f"/v1/tournaments/{tid}")
        if page["status"] == "finished":
            return tid
        for rnd in page["rounds"]:
            for table in rnd["tables"]:
                if table["status"] == "playing":
                    view = seats.view(table["game_id"])
                    seated = [people[s["player_id"]] for s in view["seats"]]
                    play(services, table["game_id"], seated, rng)
    raise AssertionError("the event did not finish")


def test_an_event_s_standings_cross_table_and_projector_pass_axe_and_fit(
    browser: Browser, live_server: LiveServer, seats: Seats, axe_source: str, app
) -> None:
    tid = a_finished_event(seats, app)
    pages = {"event": f"/tournaments/{tid}", "projector": f"/tournaments/{tid}/projector"}
    seen: dict[str, str] = {}
    intervals: dict[str, list[str]] = {}

    def look(name: str, size: str, page: Page) -> None:
        seen[f"{name} {size}"] = page.locator("table.crosstable").inner_text()
        if name == "event":  # the standings in the shot carry each entry's 95% interval
            intervals[size] = page.locator("table.standings td.interval").all_inner_texts()
        if name == "projector":
            assert page.locator("button, input, select, .topbar:visible").count() == 0

    problems = audit(browser, live_server.url, axe_source, pages, look)
    assert not problems, report(problems)
    sheets = seats.call("get", f"/v1/tournaments/{tid}/sheets")
    for text in seen.values():  # every team, by name, in the cross-table
        assert all(row["name"] in text for row in sheets["standings"])
    standings = seats.call("get", f"/v1/tournaments/{tid}")["standings"]
    shown = [f"{s['interval']['low']:.2f} – {s['interval']['high']:.2f}" for s in standings]
    assert intervals == {"desktop": shown, "phone": shown}

"""A ladder's leaderboard and an entry's page (over a ladder the house bots played),
at phone and desktop sizes: axe-core finds no serious or critical violation, no page
scrolls sideways, each is photographed (tests/web/audit.py).
"""

from __future__ import annotations

from playwright.sync_api import Browser

from tests.conftest import LiveServer
from tests.web.audit import audit, report
from tests.web.test_ladders import played_ladder


def test_a_ladder_s_pages_pass_axe_and_fit(
    browser: Browser, live_server: LiveServer, axe_source: str, app
) -> None:
    ladder, entries = played_ladder(app.extensions["parlour"], contests=2)
    pages = {
        "ladder": f"/ladders/{ladder}",
        "ladder-player": f"/ladders/{ladder}/players/{entries[0]['id']}",
    }
    problems = audit(browser, live_server.url, axe_source, pages)
    assert not problems, report(problems)

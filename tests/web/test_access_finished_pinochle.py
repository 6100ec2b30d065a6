"""The Pinochle family's tables at their end (one deal of a partnership, a Firehouse
and a double-deck game), as seat 0 sees it, at phone and desktop sizes: axe-core finds
no serious or critical violation (an emptied hand is no unnamed landmark), no page
scrolls sideways, and each end is photographed (tests/web/audit.py).
"""

from __future__ import annotations

from playwright.sync_api import Browser

from tests.conftest import LiveServer
from tests.web.audit import audit, report
from tests.web.conftest import Seats
from tests.web.test_access_finished import finished_tables

TABLES = [
    ("pinochle", {"variant": "partnership", "max_deals": 1}, 4),
    ("pinochle", {"variant": "firehouse", "max_deals": 1}, 4),
    ("pinochle", {"variant": "double-deck", "max_deals": 1}, 6),
]


def test_finished_pinochle_tables_pass_axe_fit_and_are_photographed(
    browser: Browser, live_server: LiveServer, seats: Seats, axe_source: str, app
) -> None:
    pages = finished_tables(seats, app, TABLES)
    problems = audit(browser, live_server.url, axe_source, pages)
    assert not problems, report(problems)

"""The Pinochle family's tables at phone and desktop sizes: a partnership and a
double-deck table mid-deal (watched and seated; a Firehouse auction is
test_access_auction.py). axe-core finds no serious or critical violation, no page
scrolls sideways, each is photographed (tests/web/audit.py).
"""

from __future__ import annotations

from playwright.sync_api import Browser

from tests.conftest import LiveServer
from tests.web.audit import audit, report
from tests.web.conftest import Seats
from tests.web.test_access_tables import live_tables

TABLES = [
    ("pinochle", {"variant": "partnership"}, 4),
    ("pinochle", {"variant": "double-deck"}, 6),
]


def test_pinochle_tables_mid_deal_pass_axe_and_fit_at_both_sizes(
    browser: Browser, live_server: LiveServer, seats: Seats, axe_source: str, app
) -> None:
    pages = live_tables(seats, app, TABLES)
    problems = audit(browser, live_server.url, axe_source, pages)
    assert not problems, report(problems)

"""Every game's table mid-deal, watched and seated (seat 0 to move: its legal cards
and move buttons showing), at phone and desktop sizes: axe-core finds no serious or
critical violation, no page scrolls sideways, each is photographed (tests/web/audit.py).

Pinochle's tables are tests/web/test_access_pinochle.py; finished tables
test_access_finished.py; the other pages test_access_pages.py.
"""

from __future__ import annotations

import random

from playwright.sync_api import Browser, Page

from tests.conftest import LiveServer
from tests.web.audit import audit, play, report, seat_zero_to_move, table_name
from tests.web.conftest import Seats

TABLES = [("concerto", {"deals": 1}, 4), ("seconds", {}, 4), ("cowpoke", {"players": 5}, 5)]
NAMES = ("ann", "ben", "cat", "dan")


def live_tables(seats: Seats, app, tables) -> dict[str, str]:
    """Each of ``tables`` a few moves in, as a spectator and as seat 0 (to move) see it."""
    service = app.extensions["parlour"]
    players = [seats.register(name) for name in NAMES + ("eve", "fay")]
    pages: dict[str, str] = {}
    for number, (game, options, count) in enumerate(tables):
        live = seats.game(game, players[:count], options)["id"]
        mine = play(service, live, players[:count], random.Random(number), after=7,
                    until=seat_zero_to_move)  # fmt: skip
        assert mine["status"] == "active" and mine["legal_moves"]
        name = table_name(game, options)
        # Seated first: the watched page then needs no detour by about:blank to load
        # afresh (audit.open_fresh).
        pages[f"table-{name}-seated"] = f"/table/{live}#token={players[0].token}"
        pages[f"table-{name}-spectator"] = f"/table/{live}"
    return pages


def test_every_game_s_table_mid_deal_passes_axe_and_fits_at_both_sizes(
    browser: Browser, live_server: LiveServer, seats: Seats, axe_source: str, app
) -> None:
    pages = live_tables(seats, app, TABLES)
    cut: dict[str, bool] = {}

    def look(name: str, size: str, page: Page) -> None:
        # the panel's score table is whole, not cut off in its box (five Cowpoke players too)
        cut[f"{name} {size}"] = page.evaluate(
            "() => [...document.querySelectorAll('.side .info')]"
            ".some(e => e.scrollWidth > e.clientWidth)"
        )

    problems = audit(browser, live_server.url, axe_source, pages, look)
    assert not problems, report(problems)
    assert not any(cut.values()), cut

"""A Pinochle auction (Firehouse) with seat 0 to bid, its bid stepper showing (Min,
−10, +10 and the bid), watched and seated, at phone and desktop sizes: axe-core finds
no serious or critical violation (each button's name holds its text), no page scrolls
sideways, each is photographed (tests/web/audit.py).
"""

from __future__ import annotations

import random

from playwright.sync_api import Browser, Page

from tests.conftest import LiveServer
from tests.web.audit import (
    SHOTS,
    audit,
    play,
    report,
    seat_zero_to_move,
    serious_violations,
    shoot,
)
from tests.web.conftest import Seats
from tests.web.test_access_tables import NAMES


def an_auction(seats: Seats, app) -> dict[str, str]:
    """A Firehouse deal in its auction, seat 0 to bid after the two seats left of the
    dealer (seat 1) spoke."""
    service = app.extensions["parlour"]
    players = [seats.register(f"{name}2") for name in NAMES]
    game = seats.game("pinochle", players, {"variant": "firehouse", "first_dealer": 1})["id"]
    mine = play(service, game, players, random.Random(5), until=seat_zero_to_move)
    assert mine["state"]["phase"] == "auction" and mine["version"] > 0  # after other bids
    assert sum(m["type"] == "bid" for m in mine["legal_moves"]) > 6  # a stepper, not buttons
    return {
        "table-pinochle-firehouse-auction-seated": f"/table/{game}#token={players[0].token}",
        "table-pinochle-firehouse-auction-spectator": f"/table/{game}",
    }


def test_a_pinochle_auction_passes_axe_and_fits_at_both_sizes(
    browser: Browser, live_server: LiveServer, seats: Seats, axe_source: str, app
) -> None:
    auction = an_auction(seats, app)
    steps: dict[str, list[str]] = {}
    helps: dict[str, str] = {}

    def look(name: str, size: str, page: Page) -> None:
        if name == "table-pinochle-firehouse-auction-seated":  # it shows the bid stepper
            steps[size] = page.locator(".stepper button").all_inner_texts()
            helps[size] = page.locator(".moves .move-help").all_inner_texts()
            stepper = page.locator(".stepper button")
            titles = [stepper.nth(i).get_attribute("title") for i in range(4)]
            assert all(titles), titles  # each says what it does on hover
            # How to play in one minute: the aim, a turn, the scoring and Firehouse's own
            # paragraph (not the other variants'), without sideways scrolling when open.
            page.locator(".how-to summary").click()
            minute = page.locator(".how-to .minute").inner_text()
            for part in ("The aim.", "A turn.", "Scoring.", "Firehouse", "One round of bidding"):
                assert part in minute, (part, minute)
            assert "Partnership" not in minute and "Double-deck" not in minute
            page.locator(".prefs summary").click()  # the table settings, open beside it
            assert page.locator(".prefs input[type=checkbox]").count() == 2
            assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
            assert serious_violations(page) == [], size  # both boxes open
            shoot(page, SHOTS / f"table-pinochle-minute-and-settings-{size}.png")
            page.locator(".how-to summary").click()
            page.locator(".prefs summary").click()

    problems = audit(browser, live_server.url, axe_source, auction, look)
    assert not problems, report(problems)
    for size, texts in steps.items():
        assert texts[:3] == ["Min", "−10", "+10"] and texts[3].startswith("bid "), (size, texts)
    assert set(steps) == {"phone", "desktop"}
    for size, lines in helps.items():  # what a bid commits to, what a pass does, the stepper
        text = " ".join(lines)
        assert "promises to make this deal in melds plus counters" in text, (size, text)
        assert "loses its bid" in text and "each player bids once" in text, (size, text)
        assert "Min, −10 and +10 change the amount shown" in text, (size, text)

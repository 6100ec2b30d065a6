"""Concerto's, Seconds' and Cowpoke's tables at their end, as seat 0 sees it, at phone
and desktop sizes: axe-core finds no serious or critical violation (an emptied hand is no unnamed
landmark), no page scrolls sideways (Seconds' score sheet of seven deals stays in its
panel at 1280×800), and each end is photographed: ``var/screenshots/table-<game>-end-
<size>.png`` (tests/web/audit.py). The Pinochle family's are
test_access_finished_pinochle.py. It also checks what the audit's shortcuts rest on:
a page resized to 390 wide is laid out as one loaded at 390 wide (the audit loads each
page once), and its fast screenshot is Playwright's, pixel for pixel.
"""

from __future__ import annotations

import random
from pathlib import Path

from playwright.sync_api import Browser, Page

from tests.conftest import LiveServer
from tests.web.audit import (
    READY,
    SIZES,
    audit,
    audit_tab,
    differing_pixels,
    layout,
    open_fresh,
    play,
    report,
    shoot,
    table_name,
)
from tests.web.conftest import Seats

TABLES = [
    ("concerto", {"deals": 1}, 4),
    ("seconds", {}, 4),
    ("cowpoke", {"players": 3, "hands": 1}, 3),
]
NAMES = ("Annabelle North", "Benedict Easton", "Catherine South", "Dominic Westwood", "eve", "fay")
"""Names as long as people give (a score sheet has a column per seat's name)."""


def finished_tables(seats: Seats, app, tables) -> dict[str, str]:
    service = app.extensions["parlour"]
    players = [seats.register(name) for name in NAMES]
    pages: dict[str, str] = {}
    for number, (game, options, count) in enumerate(tables):
        done = seats.game(game, players[:count], options)["id"]
        assert play(service, done, players[:count], random.Random(number))["status"] == "finished"
        pages[f"table-{table_name(game, options)}-end"] = f"/table/{done}#token={players[0].token}"
    return pages


def test_finished_tables_pass_axe_fits_and_is_photographed(
    tmp_path: Path, browser: Browser, live_server: LiveServer, seats: Seats, axe_source: str, app
) -> None:
    pages = finished_tables(seats, app, TABLES)
    last = list(SIZES)[-1]  # audit() loads each page at the first size, then resizes it
    resized: list[str] = []

    ends: dict[str, tuple[str, list[list[str]]]] = {}

    def look(name: str, size: str, page: Page) -> None:
        if name == "table-concerto-end" and size == last:
            resized.extend(layout(page))
        if size == last:
            rows = page.locator(".info table.scores tbody tr").evaluate_all(
                "rows => rows.map(r => [...r.children].map(c => c.textContent.trim()))"
            )
            ends[name] = (page.locator(".status.result").inner_text(), rows)

    problems = audit(browser, live_server.url, axe_source, pages, look)
    assert not problems, report(problems)
    # Concerto's panel: one total per row, and the rows above the game's add up to it.
    _, rows = ends["table-concerto-end"]
    *parts, total = rows
    assert total[0] == "game (one deal)" and [r[0] for r in parts] == ["hands", "left-overs"], rows
    for column in (1, 2):
        assert int(total[column]) == sum(int(r[column]) for r in parts), rows
    # Seconds' end names the rule that decided it, who won by it, and why seat 0 did or not.
    text, _ = ends["table-seconds-end"]
    assert "In Seconds the second-highest total wins" in text and "Totals: North " in text, text
    assert "won with" in text and ("You won!" in text or "You lost." in text), text
    assert "Yours is the" in text or "Your total, " in text, text
    # The audit checks each size on one load, resized: the same layout as a page loaded
    # at that size (no script of the page lays it out by the window's size at load).
    tab = audit_tab(browser)
    tab.set_viewport_size(SIZES[last])
    open_fresh(tab, live_server.url + pages["table-concerto-end"])
    tab.wait_for_selector(READY["table"])
    loaded = layout(tab)
    assert len(loaded) > 50 and resized == loaded, [
        (a, b) for a, b in zip(resized, loaded, strict=False) if a != b
    ][:5] or (len(resized), len(loaded))
    # The audit's screenshots are the ones Playwright takes, pixel for pixel.
    shoot(tab, tmp_path / "fast.png")
    playwright_s = tab.screenshot(full_page=True)
    assert differing_pixels(tab, (tmp_path / "fast.png").read_bytes(), playwright_s) == 0

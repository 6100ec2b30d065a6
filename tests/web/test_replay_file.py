"""A replay file written by ``parlour-bot play`` opens in the browser at ``/replay``: the
board drawn by the same stepper as ``/replay/<id>``, a JSON Lines file (``--rotate``)
a list of games to pick from, par explained with a link to the rules that define it;
axe-clean and without sideways scrolling at both sizes with a file loaded.
"""

from __future__ import annotations

import json
from pathlib import Path

from playwright.sync_api import Browser, Page

from client_sdk import cli
from tests.conftest import LiveServer
from tests.web.audit import SHOTS, SIZES, audit_tab, check, open_fresh, serious_violations, shoot

GAME = "concerto"  # the one game whose replays carry par


def hand_cards(page: Page, seat: int) -> list[str]:
    return page.eval_on_selector_all(
        f".seat[data-seat='{seat}'] .hand [data-card]", "els => els.map(e => e.dataset.card)"
    )


def test_a_rotated_replay_file_steps_through_its_games_on_the_board(
    browser: Browser, live_server: LiveServer, axe_source: str, tmp_path: Path
) -> None:
    out = tmp_path / "plays.jsonl"
    argv = ["play", GAME, "random", "random", "--seed", "file", "--option", "deals=1"]
    assert cli.main([*argv, "--rotate", "--games", "2", "--out", str(out)]) == 0
    replays = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(replays) == 2  # two seeded games, one seating (the same bot all round)
    second = replays[1]
    dealt = {e["data"]["seat"]: e["data"]["cards"] for e in second["events"] if e["kind"] == "hand"}

    page = audit_tab(browser)
    page.set_viewport_size(SIZES["desktop"])
    open_fresh(page, live_server.url + "/replay")
    page.set_input_files("#replay-file", str(out))
    page.wait_for_selector(".replay-file .board[data-version='0']")
    assert page.locator("#replay-game option").count() == 2
    page.select_option("#replay-game", "1")
    page.wait_for_selector(".replay-file .board[data-version='0']")
    for seat in range(4):  # every hand face up, as the second play dealt it
        assert hand_cards(page, seat) == dealt[seat]
    last = second["version"]
    caption = page.locator(".step-caption")
    assert caption.inner_text() == f"Step 0 of {last} · As dealt"

    page.click("button[data-step=next]")
    page.wait_for_selector(".board[data-version='1']")
    first_play = next(e for e in second["events"] if e["version"] == 1 and e["kind"] == "play")
    card = first_play["data"]["card"]
    assert page.locator(f".center [data-card='{card}']").count() == 1
    assert card not in hand_cards(page, first_play["data"]["seat"])
    page.click("button[data-step=last]")  # past the first chunk of frames
    page.wait_for_selector(f".board[data-version='{last}']")
    assert page.locator(".status").inner_text().startswith("Game over. ")
    assert page.locator(".replay-seats li").all_inner_texts() == [
        f"{label}: random" for label in ("North", "East", "South", "West")
    ]
    scores = " · ".join(str(s) for s in second["result"]["scores"])
    seed = second["revealed"]["seed"]
    assert f"Final scores {scores} · seed {seed}" in page.locator(".seed").inner_text()
    assert page.locator(".par-table tbody tr").count() == 2  # one deal, each side's par
    about = page.locator(".par-about")
    assert "Par is the most a side" in about.inner_text()
    assert about.locator("a").get_attribute("href") == f"/rules/{GAME}#par"

    page.add_script_tag(content=axe_source)
    SHOTS.mkdir(parents=True, exist_ok=True)
    problems = {}
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        found = check(page) + serious_violations(page)
        shoot(page, SHOTS / f"replayfile-loaded-{size}.png")
        if found:
            problems[size] = found
    assert not problems, problems

    rules = page.context.new_page()  # the link lands on the rules' own section on par
    rules.goto(live_server.url + f"/rules/{GAME}#par")
    assert "Par" in rules.locator("h2#par").inner_text()
    rules.close()

    (tmp_path / "not.json").write_text('{"game": "concerto"}')
    page.set_input_files("#replay-file", str(tmp_path / "not.json"))
    alert = page.locator(".replay-file-status [role=alert]")
    assert alert.inner_text() == "not.json is not a replay: it has no game, seats and events"

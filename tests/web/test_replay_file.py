"""A replay file written by ``parlour-bot play`` opens in the browser at ``/replay``."""

from __future__ import annotations

import json
import random
from pathlib import Path

from client_sdk import Bot
from client_sdk.local import play_match
from tests.web.audit import SHOTS
from tests.web.conftest import DESKTOP, PHONE, Web


class Drawn(Bot):
    def choose_move(self, view):
        return self.rng.choice(view["legal_moves"])


def test_a_local_replay_file_opens_with_its_seats_result_par_and_events(
    web: Web, tmp_path: Path
) -> None:
    bots = [Drawn(random.Random(s)) for s in range(4)]
    names = ["ann", "bob", "cy", "di"]
    replay = play_match("concerto", bots, seed="file", options={"deals": 1}, names=names).replay
    path = tmp_path / "replay.json"
    path.write_text(json.dumps(replay))

    page = web.open("/replay")
    page.set_input_files("#replay-file", str(path))
    page.wait_for_selector(".replay-file .log li")
    seats = page.locator(".replay-seats li").all_inner_texts()
    assert seats == ["North: ann", "East: bob", "South: cy", "West: di"]
    scores = " · ".join(str(s) for s in replay["result"]["scores"])
    assert f"Final scores {scores} · seed file" in page.locator(".seed").inner_text()
    assert page.locator(".par-table tbody tr").count() == 2  # one deal, each side's par
    assert page.locator(".replay-file .log li").count() == len(replay["events"])
    dealt = page.locator(".replay-file .log li[data-kind=hand]").all_inner_texts()
    assert [line.split(" is dealt")[0] for line in dealt] == ["North", "East", "South", "West"]

    # the stepper: the board as the events tell it, event by event
    events = replay["events"]
    first_play = next(i for i, e in enumerate(events) if e["kind"] == "play")
    page.locator("#file-step").fill(str(first_play + 1))
    caption = page.locator(".file-stepper .step-caption").inner_text()
    assert caption.startswith(f"Event {first_play + 1} of {len(events)}: "), caption
    played = events[first_play]["data"]
    middle = page.locator(".file-middle [data-card]")
    assert middle.count() == 1 and middle.get_attribute("data-card") == played["card"]
    seat = page.locator(f".file-seat[data-seat='{played['seat']}'] [data-card]")
    dealt = next(e["data"]["cards"] for e in events if e["kind"] == "hand"
                 and e["data"]["seat"] == played["seat"])  # fmt: skip
    assert seat.count() == len(dealt) - 1
    assert played["card"] not in [
        seat.nth(i).get_attribute("data-card") for i in range(seat.count())
    ]

    # JSON Lines: several replays, one a line (parlour-bot play --games, archive)
    other = play_match("concerto", bots, seed="file2", options={"deals": 1}, names=names).replay
    lines = tmp_path / "plays.jsonl"
    lines.write_text(json.dumps(replay) + "\n" + json.dumps(other) + "\n")
    page.set_input_files("#replay-file", str(lines))
    page.wait_for_selector("#replay-pick")
    assert page.locator("#replay-pick option").count() == 2
    page.select_option("#replay-pick", "1")
    scores = " · ".join(str(s) for s in other["result"]["scores"])
    page.wait_for_selector(f".seed:has-text('Final scores {scores} · seed file2')")
    for size in (PHONE, DESKTOP):  # the stepper's board fits both screens
        page.set_viewport_size(size)
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth"), size
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=SHOTS / f"replayfile-stepper-{size['width']}.png", full_page=True)

    (tmp_path / "not.json").write_text('{"game": "concerto"}')
    page.set_input_files("#replay-file", str(tmp_path / "not.json"))
    alert = page.locator(".replay-file [role=alert]")
    assert alert.inner_text() == "not.json is not a replay: it has no game, seats and events"

"""A replay file written by ``parlour-bot play`` opens in the browser at ``/replay``."""

from __future__ import annotations

import json
import random
from pathlib import Path

from client_sdk import Bot
from client_sdk.local import play_match
from tests.web.conftest import Web


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

    (tmp_path / "not.json").write_text('{"game": "concerto"}')
    page.set_input_files("#replay-file", str(tmp_path / "not.json"))
    alert = page.locator(".replay-file [role=alert]")
    assert alert.inner_text() == "not.json is not a replay: it has no game, seats and events"

"""The local runner (``client_sdk.local``, ``parlour-bot play``): time limits, refused
moves, the hooks, the replay file and the seat rotation. That its views and replay are
the server's is tests/api/test_local_replay.py; that it runs with the SDK and the
engines alone is tests/docs/test_local_page.py."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any

import pytest

from client_sdk import Bot
from client_sdk.cli import main
from client_sdk.local import LocalMatch, play_match
from server.tournaments.clock import default_move

ONE_DEAL = {"deals": 1}  # Concerto, one deal: about 50 moves


class First(Bot):
    name = "first"

    def __init__(self, rng: random.Random | None = None) -> None:
        super().__init__(rng)
        self.started: list[dict[str, Any]] = []
        self.over: list[dict[str, Any]] = []

    def choose_move(self, view: dict[str, Any]) -> dict[str, Any]:
        return view["legal_moves"][0]

    def on_game_start(self, view: dict[str, Any]) -> None:
        self.started.append(view)

    def on_game_over(self, view: dict[str, Any]) -> None:
        self.over.append(view)


class SlowOnce(First):
    """Overruns its first move's time limit (and remembers the deadline it was shown)."""

    def __init__(self, rng: random.Random | None = None) -> None:
        super().__init__(rng)
        self.deadlines: list[str | None] = []

    def choose_move(self, view: dict[str, Any]) -> dict[str, Any]:
        self.deadlines.append(view["deadline"])
        if len(self.deadlines) == 1:
            time.sleep(0.5)
        return super().choose_move(view)


class NonsenseOnce(First):
    def choose_move(self, view: dict[str, Any]) -> dict[str, Any]:
        if not hasattr(self, "said"):
            self.said = True
            return {"type": "nonsense"}
        return super().choose_move(view)


def play(bots: list[Bot], **kwargs: Any) -> LocalMatch:
    return play_match("concerto", bots, seed="local-test", options=ONE_DEAL, **kwargs)


def test_a_move_past_the_time_limit_is_the_clocks_default_move() -> None:
    first = play([First() for _ in range(4)])
    mover = first.moves[0]["seat"]
    bots: list[Bot] = [First() for _ in range(4)]
    slow = bots[mover] = SlowOnce()
    match = play(bots, move_time=0.1)

    unhurried = first.replay["events"]  # the same seed: the same deal, the same first turn
    assert match.timeouts == {mover: 1} and match.illegal == {}
    assert match.moves[0]["timeout"] is True and "timeout" not in match.moves[1]
    opening = [e for e in match.replay["events"] if e["version"] == 0]
    assert opening == [e for e in unhurried if e["version"] == 0]
    (timeout,) = [e for e in match.replay["events"] if e["kind"] == "timeout"]
    assert timeout == {
        "seq": len(opening) + 1,
        "version": 1,
        "kind": "timeout",
        "data": {"seat": mover, "timeouts": 1, "action": "default_move"},
        "visible_to": None,
    }
    # the bot was shown a deadline, as a clocked game shows it, and got the default move
    assert slow.deadlines[0] is not None and slow.deadlines[0].endswith("+00:00")
    asked = slow.started[0]
    assert match.moves[0]["move"] == default_move(asked["legal_moves"])
    assert match.replay["version"] == len(match.moves)


def test_without_a_time_limit_nobody_times_out_and_no_deadline_is_shown() -> None:
    bots = [First() for _ in range(4)]
    match = play(bots)
    assert match.timeouts == {} and all(bot.started[0]["deadline"] is None for bot in bots)
    assert not [e for e in match.replay["events"] if e["kind"] == "timeout"]


def test_a_refused_move_is_replaced_by_a_legal_one_and_counted() -> None:
    bots: list[Bot] = [First() for _ in range(4)]
    bots[0] = NonsenseOnce()
    match = play(bots)
    assert match.illegal == {0: 1}
    assert match.replay["status"] == "finished"
    assert {"type": "nonsense"} not in [m["move"] for m in match.moves]


def test_each_bot_hears_the_start_and_the_end_once_with_its_own_seat() -> None:
    bots = [First() for _ in range(4)]
    match = play(bots)
    for seat, bot in enumerate(bots):
        assert [v["you"] for v in bot.started] == [seat] and len(bot.over) == 1
        end = bot.over[0]
        assert end["status"] == "finished" and end["result"] == match.replay["result"]
    assert bots[0].started[0]["status"] == "active" and bots[0].started[0]["result"] is None


def test_one_bot_per_seat_and_a_known_game(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="seats 4: got 3"):
        play([First() for _ in range(3)])
    with pytest.raises(ValueError, match="no game 'chess'"):
        play_match("chess", [First()], seed="s")


MY_BOT = """
from client_sdk import Bot


class Last(Bot):
    name = "last"

    def choose_move(self, view):
        return view["legal_moves"][-1]
"""


def test_parlour_bot_play_writes_the_replay(tmp_path: Path, monkeypatch, capsys) -> None:
    """A bot module of its own name: another test file in this worker may have imported
    a different ``mybot`` already."""
    (tmp_path / "local_play_bot.py").write_text(MY_BOT)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.path", list(__import__("sys").path))
    status = main(["play", "concerto", "local_play_bot:Last", "random", "--seed", "7",
                   "--option", "deals=1", "--out", "replay.json"])  # fmt: skip
    said = capsys.readouterr()
    assert status == 0, said.err
    replay = json.loads((tmp_path / "replay.json").read_text())
    assert replay["status"] == "finished" and replay["options"]["deals"] == 1
    assert [s["name"] for s in replay["seats"]] == ["local_play_bot:Last", "random"] * 2
    assert replay["revealed"]["seed"] == "7"
    for seat, score in enumerate(replay["result"]["scores"]):
        assert f"seat {seat} {replay['seats'][seat]['name']}: {score}" in said.out
    assert f"{replay['version']} moves; replay in replay.json" in said.out


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["play", "chess", "random", "--seed", "1"], "no game 'chess'"),
        (["play", "concerto", "random", "--seed", "1", "--option", "deals=0"], "deals"),
        (["play", "concerto", "random", "--seed", "1", "--option", "deals"], "name=value"),
        (["play", "concerto", "no_such_bot", "--seed", "1"], "no bot 'no_such_bot'"),
        (["play", "concerto", *["random"] * 5, "--seed", "1"], "1 to 4 names of bots"),
    ],
)
def test_parlour_bot_play_refuses_bad_input_plainly(argv, said, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main([*argv, "--out", "replay.json"]) == 2
    assert said in capsys.readouterr().err
    assert not (tmp_path / "replay.json").exists()


def test_parlour_bot_play_rotates_the_seats_for_a_duplicate(tmp_path: Path, capsys) -> None:
    out = tmp_path / "plays.jsonl"
    status = main(["play", "concerto", "random", "concerto_greedy", "--seed", "d", "--rotate",
                   "--games", "2", "--option", "deals=1", "--out", str(out)])  # fmt: skip
    said = capsys.readouterr().out
    assert status == 0
    assert "2 deals, each played twice with the seats rotated" in said
    assert "random − concerto_greedy per deal:" in said
    plays = [json.loads(line) for line in out.read_text().splitlines()]
    assert [[s["name"] for s in p["seats"]] for p in plays] == [
        ["random", "concerto_greedy"] * 2,
        ["concerto_greedy", "random"] * 2,
    ] * 2
    # each deal twice, the same cards: the sides swapped
    assert plays[0]["revealed"]["seed"] == plays[1]["revealed"]["seed"] == "d/0"
    assert plays[2]["revealed"]["seed"] == "d/1"


def test_parlour_bot_play_needs_a_positive_time_and_a_writable_file(tmp_path, capsys) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["play", "concerto", "random", "--seed", "1", "--move-time", "0"])
    assert stopped.value.code == 2
    assert "a number of seconds above 0, not '0'" in capsys.readouterr().err
    nowhere = tmp_path / "no-such-folder" / "replay.json"
    argv = ["play", "concerto", "random", "--seed", "1", "--option", "deals=1"]
    assert main([*argv, "--out", str(nowhere)]) == 1
    assert f"cannot write {nowhere}: No such file or directory" in capsys.readouterr().err
    assert main([*argv, "--rotate", "--out", str(nowhere)]) == 1
    assert f"cannot write {nowhere}" in capsys.readouterr().err

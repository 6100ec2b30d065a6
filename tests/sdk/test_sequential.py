"""``parlour-bot test`` and ``play --deals``: a sequential test of two bots on duplicate
boards played locally, and the regression set of the boards the new bot lost."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from client_sdk import local
from client_sdk.cli import main
from server.games import REGISTRY

# one deal a game, no target in reach: a board is one deal (a fast Concerto board)
GAME = "concerto"
ONE_DEAL = ["--option", "deals=1", "--option", "target=10000"]


def test_the_game_is_registered() -> None:
    assert GAME in REGISTRY


def test_a_strong_bot_passes_against_a_weak_one_and_stops(tmp_path: Path, capsys) -> None:
    out = tmp_path / "lost.json"
    argv = ["test", "concerto_signals", "random", "--game", GAME, *ONE_DEAL, "--jobs", "1",
            "--max-boards", "30", "--deals-out", str(out)]  # fmt: skip
    assert main(argv) == 0
    printed = capsys.readouterr().out.splitlines()
    assert printed[-1].startswith("pass: concerto_signals vs random after ")
    boards = int(printed[-1].split("after ")[1].split()[0])
    # no decision before the test's minimum, and it stopped well before the cap
    assert 8 <= boards < 30
    assert sum(line.startswith("board ") for line in printed) == boards
    kept = json.loads(out.read_text())
    assert kept["format"] == local.REGRESSION_FORMAT
    assert all(b["difference"] < 0 for b in kept["boards"])


def test_a_bot_against_itself_fails_or_reaches_the_cap(tmp_path: Path, capsys) -> None:
    argv = ["test", "random", "random", "--game", GAME, *ONE_DEAL, "--jobs", "1",
            "--max-boards", "12", "--deals-out", str(tmp_path / "lost.json")]  # fmt: skip
    assert main(argv) == 1
    last = capsys.readouterr().out.splitlines()[-1]
    assert last.startswith(("fail:", "inconclusive:")), last


def test_the_regression_set_replays_to_the_same_scores(tmp_path: Path, capsys) -> None:
    out = tmp_path / "lost.json"
    argv = ["test", "random", "concerto_signals", "--game", GAME, *ONE_DEAL, "--jobs", "1",
            "--max-boards", "10", "--deals-out", str(out), "--seed", "regress"]  # fmt: skip
    assert main(argv) == 1
    kept = json.loads(out.read_text())["boards"]
    assert kept, "random lost no board to the signals bot"
    capsys.readouterr()
    assert main(["play", "--deals", str(out)]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert printed[-1] == f"{len(kept)} of {len(kept)} boards scored as kept"
    # each board was two tables with the cards swapped: NEW held each side once
    seats = [t["seats"] for t in kept[0]["tables"]]
    assert seats == [["new", "old", "new", "old"], ["old", "new", "old", "new"]]


def test_a_changed_regression_set_is_noticed(tmp_path: Path, capsys) -> None:
    board = local.play_board(GAME, {"new": _random, "old": _random}, 0, seed="s",
                             options={"deals": 1, "target": 10000})  # fmt: skip
    regression = {"format": local.REGRESSION_FORMAT, "game": GAME,
                  "options": {"deals": 1, "target": 10000}, "new": "random", "old": "random",
                  "mode": local.DUPLICATE, "par_adjusted": False, "seed": "s",
                  "boards": [{**board.to_dict(), "difference": board.difference + 1}]}  # fmt: skip
    path = tmp_path / "changed.json"
    path.write_text(json.dumps(regression))
    assert main(["play", "--deals", str(path)]) == 1
    assert "0 of 1 boards scored as kept" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--e0", "0.3", "--e1", "0.2"], "e0 < e1"),
        (["--alpha", "0.7"], "alpha"),
        (["--max-boards", "1"], "at least 2"),
    ],
)
def test_bad_settings_are_refused_before_any_board(argv, said, tmp_path, capsys) -> None:
    base = ["test", "random", "random", "--game", GAME, "--jobs", "1",
            "--deals-out", str(tmp_path / "x.json")]  # fmt: skip
    assert main([*base, *argv]) == 2
    assert said in capsys.readouterr().err
    assert not (tmp_path / "x.json").exists()


def _random(rng):  # type: ignore[no-untyped-def]
    from bots.uniform import make_bot

    return make_bot(rng)

"""The runner's bookkeeping stays bounded however long a bot plays (a bot pool runs for weeks)."""

from __future__ import annotations

from client_sdk import Bot, Client
from client_sdk.runner import RECENT_GAMES, Runner, _Game


class Finisher(Bot):
    def choose_move(self, view):  # never asked: the games here only finish
        raise AssertionError("no move expected")


def test_finished_games_keeps_the_most_recent_and_counts_them_all() -> None:
    runner = Runner(Finisher(), Client("http://127.0.0.1:9", "unused"), handle_signals=False)
    total = RECENT_GAMES + 57
    for i in range(total):
        runner._games[f"g{i}"] = _Game(seat=0)
        runner._finish(f"g{i}", {"status": "finished", "result": None})
    assert runner.stats.games_finished == total
    assert list(runner.stats.finished_games) == [f"g{i}" for i in range(57, total)]
    runner._finish("g3", {"status": "finished"})  # a game not being played: nothing counted
    assert runner.stats.games_finished == total

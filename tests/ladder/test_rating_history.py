"""An entry's history carries its rating after each contest (rating over time)."""

from __future__ import annotations

from bots import uniform
from server.processes.scheduler import Runner
from server.store import ladders as ladder_store
from tests.ladder.support import HouseBots
from tests.ladder.test_ladder import make_ladder, rated, run_until
from tests.scheduler.support import register


def test_history_ratings_change_contest_by_contest_and_end_at_the_leaderboards(service):
    """Four entries at a four-seat table with ``max_games`` 2 (one duplicate board each
    at a time): every match seats all four, one after the other, so the newest rated
    row is the last rating applied and must equal the leaderboard's."""
    players = register(service, 4)
    ladder_id = make_ladder(service, players, max_games=2, rematch_seconds=0.0)
    bots = HouseBots(service, players, [uniform.make_bot] * 4, seed=3)
    runner = Runner(service)
    run_until(runner, bots, lambda: rated(service, ladder_id) >= 4)
    board = {row["player_id"]: row for row in service.ladders.leaderboard(ladder_id)["leaderboard"]}
    for p in players:
        history = service.ladders.entry(ladder_id, p["id"])["history"]  # newest first
        done = [row for row in history if row["outcome"] is not None]
        assert len(done) >= 4, history
        assert all(row["rating"] is None for row in history if row["outcome"] is None)
        ordinals = [row["rating"]["ordinal"] for row in reversed(done)]  # oldest first
        # a contest won, drawn or lost always moves the rating (sigma shrinks at least)
        assert all(a != b for a, b in zip(ordinals, ordinals[1:], strict=False)), ordinals
        # openskill's default is mu 25, sigma 25/3: ordinal 0 before any contest
        assert ordinals[0] != 0.0
        latest = done[0]["rating"]
        assert latest["ordinal"] == board[p["id"]]["ordinal"]
        assert (latest["mu"], latest["sigma"]) == (board[p["id"]]["mu"], board[p["id"]]["sigma"])
        assert abs(latest["ordinal"] - (latest["mu"] - 3 * latest["sigma"])) < 2e-3


def test_ratings_after_a_match_are_recorded_once(service):
    """Recording again (a second runner, or one killed after rating) keeps the first."""
    players = register(service, 4)
    ladder_id = make_ladder(service, players, max_games=2)
    r = service.core.r
    assert ladder_store.put_after(r, ladder_id, 0, {"a": {"mu": 30.0, "sigma": 7.0}})
    assert not ladder_store.put_after(r, ladder_id, 0, {"a": {"mu": 1.0, "sigma": 1.0}})
    assert ladder_store.after(r, ladder_id, [0, 1]) == {0: {"a": {"mu": 30.0, "sigma": 7.0}}}

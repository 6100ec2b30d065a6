"""An entry's history carries its rating after each contest (rating over time)."""

from __future__ import annotations

import orjson

from bots import uniform
from server.processes.scheduler import Runner
from server.services.ladders import pool
from server.store import keys
from server.store import ratings as rating_store
from tests.ladder.support import HouseBots
from tests.ladder.test_ladder import make_ladder, rated, run_until
from tests.scheduler.support import register


def test_history_ratings_change_contest_by_contest_and_end_at_the_leaderboards(service):
    """Four entries at a four-seat table, one game each at a time (too few players for
    a duplicate board: ordinary games): every match seats all four, one after the
    other, so the newest rated row is the last rating applied and must equal the
    leaderboard's."""
    players = register(service, 4)
    ladder_id = make_ladder(service, players, max_games=1, rematch_seconds=0.0)
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
    """Applying the match's rating again (a second runner, or one killed after rating)
    writes nothing, the ratings recorded with the first write included."""
    r, scripts = service.core.r, service.core.scripts
    first = [{"mu": 30.0, "sigma": 7.0, "games": 1}]
    assert rating_store.apply(r, scripts, "ladder:L", "L:0", ["a"], [None], first, True)
    raw = rating_store.read(r, "ladder:L", ["a"])
    again = [{"mu": 1.0, "sigma": 1.0, "games": 2}]
    assert not rating_store.apply(r, scripts, "ladder:L", "L:0", ["a"], raw, again, True)
    assert rating_store.after(r, "ladder:L", ["L:0", "L:1"]) == {
        "L:0": {"a": {"mu": 30.0, "sigma": 7.0}}
    }


def test_ratings_kept_apart_by_earlier_schedulers_are_still_shown(service):
    players = register(service, 4)
    ladder_id = make_ladder(service, players, max_games=2, rematch_seconds=0.0)
    bots = HouseBots(service, players, [uniform.make_bot] * 4, seed=3)
    run_until(Runner(service), bots, lambda: rated(service, ladder_id) >= 1)
    r, first = service.core.r, players[0]["id"]
    r.delete(keys.ratings_after(pool(ladder_id)))  # as an earlier scheduler left it:
    r.hset(f"L:{{L{ladder_id}}}:after", "0", orjson.dumps({first: {"mu": 30, "sigma": 7}}))
    [row] = [x for x in service.ladders.entry(ladder_id, first)["history"] if x["match"] == 0]
    # ordinal 30 - 3 * 7 = 9; the 95% interval 30 -+ 1.96 * 7 = 30 -+ 13.72
    assert row["rating"] == {"mu": 30, "sigma": 7, "ordinal": 9, "low": 16.28, "high": 43.72}


def test_the_rating_after_a_contest_is_the_one_its_rating_wrote(service, monkeypatch):
    """Another contest of the same players rated right after a match's rating write (by a
    second scheduler, say) must not slip into the rating recorded after that match: the
    record is written with the rating, in one step."""
    players = register(service, 4)
    ladder_id = make_ladder(service, players, max_games=2, rematch_seconds=0.0)
    written: dict[str, dict[str, tuple[float, float]]] = {}
    real_apply = rating_store.apply

    def apply_then_intrude(r, scripts, game, event_id, who, read_back, new, *rest, **kw):
        applied = real_apply(r, scripts, game, event_id, who, read_back, new, *rest, **kw)
        if not event_id.startswith("intruder:"):  # a rival rates the same players at once
            written[event_id] = {p: (v["mu"], v["sigma"]) for p, v in zip(who, new, strict=True)}
            teams = (tuple(who[:2]), tuple(who[2:]))
            service.ratings.rate(game, f"intruder:{event_id}", teams, (0, 1), consented=True)
        return applied

    monkeypatch.setattr(rating_store, "apply", apply_then_intrude)
    bots = HouseBots(service, players, [uniform.make_bot] * 4, seed=5)
    run_until(Runner(service), bots, lambda: rated(service, ladder_id) >= 4)  # two + rivals
    for p in players:
        rows = [r for r in service.ladders.entry(ladder_id, p["id"])["history"] if r["rating"]]
        assert len(rows) >= 2
        for row in rows:
            mu, sigma = written[f"{ladder_id}:{row['match']}"][p["id"]]
            assert (row["rating"]["mu"], row["rating"]["sigma"]) == (round(mu, 3), round(sigma, 3))

"""Ratings that show their doubt: provisional until sigma is below 25/6, the 95% interval,
and each player's rating history (server.tournaments.ratings, server.services.ratings)."""

from __future__ import annotations

import pytest

from client_sdk.leaderboard import LEGEND
from server.api.schemas.fields import EXAMPLE_GAME
from server.store import keys
from server.store import ratings as rating_store
from server.tournaments import ratings as model


def test_the_threshold_and_the_interval_by_hand():
    # openskill's defaults: sigma0 = 25/3 = 8.3333; the threshold is half of it, 25/6
    assert abs(model.SIGMA_SURE - 4.16667) < 1e-5
    assert model.provisional(25 / 3) and model.provisional(4.17) and not model.provisional(4.16)
    # a new player: 25 +- 1.96 * 8.3333 = 25 +- 16.3333 -> 8.6667 .. 41.3333
    assert model.interval((25.0, 25 / 3)) == pytest.approx((8.66667, 41.33333), abs=1e-5)
    assert f"below {model.SIGMA_SURE:.2f}," in LEGEND  # the SDK's legend says the same
    # mu - 3 sigma is 3 sigma below the mean: the normal's mass above -3 is 0.99865
    assert model.ordinal((30.0, 2.0)) == 24.0


def test_one_win_by_hand():
    """Bradley-Terry, two new players, a wins. tau^2 = (25/300)^2 is added first:
    s^2 = 625/9 + 1/144 = 69.45139; c^2 = 2 s^2 + 2 beta^2 = 138.90278 + 34.72222 = 173.625,
    c = 13.17668; p = 1/2; mu = 25 + s^2/c * (1 - 1/2) = 25 + 2.63538 = 27.63538;
    eta = (s/c) (s^2/c^2) p (1-p) = 0.632462 * 0.400008 * 0.25 = 0.0632475;
    sigma = s * sqrt(1 - eta) = 8.333750 * 0.967860 = 8.06590, still provisional;
    interval 27.63538 +- 15.80916 = 11.82622 .. 43.44454."""
    new = model.rate_teams({}, [["a"], ["b"]], [0, 1])
    assert new["a"].mu == pytest.approx(27.63538, abs=1e-4)
    assert new["a"].sigma == pytest.approx(8.06590, abs=1e-4)
    assert model.provisional(new["a"].sigma)
    assert model.interval(new["a"]) == pytest.approx((11.82622, 43.44454), abs=1e-3)


def test_provisional_flips_once_sigma_is_below_the_threshold(app, client, players):
    """Four players, free-for-all, places rotating so all stay level: sigma falls each
    game; the flag is on while sigma >= 25/6 and flips off for all four together
    (measured: the 10th game), and each game adds a row to every player's history."""
    ratings = app.extensions["parlour"].ratings
    four = players.many(4)
    ids = [p.id for p in four]
    teams = tuple((p,) for p in ids)
    flipped_at = None
    for n in range(1, 21):
        ranks = tuple((n + i) % 4 for i in range(4))
        assert ratings.rate(
            EXAMPLE_GAME, f"T:{n}", teams, ranks, consented=True, game_ids=(f"g{n}",)
        )
        got = client.get(f"/v1/ratings/{EXAMPLE_GAME}")
        assert got.status_code == 200
        rows = got.get_json()["leaderboard"]
        assert len(rows) == 4
        for row in rows:
            assert row["provisional"] is (row["sigma"] >= 25 / 6)
            assert row["low"] == pytest.approx(row["mu"] - 1.96 * row["sigma"])
            assert row["high"] == pytest.approx(row["mu"] + 1.96 * row["sigma"])
        flags = {row["provisional"] for row in rows}
        assert len(flags) == 1  # level players: the same sigma
        if flags == {False} and flipped_at is None:
            flipped_at = n
        if flipped_at is not None:
            assert flags == {False}  # sigma only falls here: it stays sure
    assert flipped_at is not None and 5 < flipped_at <= 15, flipped_at

    got = client.get(f"/v1/ratings/{EXAMPLE_GAME}/{ids[0]}/history")
    assert got.status_code == 200
    body = got.get_json()
    assert body["name"] == four[0].name and body["rating"]["games"] == 20
    rows = body["history"]
    assert [row["event"] for row in rows] == [f"T:{n}" for n in range(20, 0, -1)]
    assert rows[0]["game_ids"] == ["g20"]
    assert rows[0]["sigma"] == body["rating"]["sigma"]  # the newest is the current rating
    sigmas = [row["sigma"] for row in reversed(rows)]
    assert all(a > b for a, b in zip(sigmas, sigmas[1:], strict=False))
    assert [row["provisional"] for row in reversed(rows)].index(False) == flipped_at - 1
    # the profile shows the same flag
    me = client.get("/v1/players/me", headers=four[0].headers).get_json()
    assert me["ratings"][EXAMPLE_GAME]["provisional"] is False


def test_history_unknown_is_not_found(client, players):
    one = players.register()
    for path in (
        f"/v1/ratings/{EXAMPLE_GAME}/{one.id}/history",  # never rated
        f"/v1/ratings/nosuchgame/{one.id}/history",
        f"/v1/ratings/{EXAMPLE_GAME}/{'x' * 200}/history",
    ):
        got = client.get(path)
        assert got.status_code == 404, path
        assert got.get_json()["error"]["code"] == "not_found"


def test_history_keeps_the_latest_rows_only(app):
    core = app.extensions["parlour"].core
    r, scripts = core.r, core.scripts
    limit = rating_store.HISTORY_LIMIT
    raw: list[bytes | None] = [None]
    for n in range(limit + 3):
        new = [{"mu": 25.0 + n, "sigma": 8.0, "games": n + 1}]
        assert rating_store.apply(r, scripts, "h", f"e:{n}", ["a"], raw, new)
        raw = rating_store.read(r, "h", ["a"])
    assert r.llen(keys.rating_history("h", "a")) == limit
    rows = rating_store.history(r, "h", "a", limit)
    assert rows[0]["event"] == f"e:{limit + 2}" and rows[-1]["event"] == "e:3"

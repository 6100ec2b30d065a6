"""Ratings (server/tournaments/ratings.py): openskill over plain dicts."""

from __future__ import annotations

import doctest
import itertools
from dataclasses import replace

import pytest

from server.tournaments import ratings
from server.tournaments.formats import (
    Entry,
    Format,
    PlayedRound,
    TableResult,
    TournamentSnapshot,
    next_round,
    rating_events,
)
from server.tournaments.ratings import (
    DEFAULT,
    Rating,
    RatingError,
    leaderboard,
    ordinal,
    rate_board,
    rate_free_for_all,
    rate_teams,
)

NS, EW = ["n", "s"], ["e", "w"]


def test_doctests() -> None:
    assert doctest.testmod(ratings).failed == 0


def test_a_team_that_keeps_winning_rises_above_the_team_it_beats() -> None:
    pool: dict[str, Rating] = {}
    history = []
    for _ in range(10):
        pool |= rate_teams(pool, [NS, EW], [0, 1])
        history.append(pool["n"].mu)
    assert all(ordinal(pool[p]) > ordinal(pool[q]) for p in NS for q in EW)
    assert pool["n"].mu > 25 > pool["e"].mu
    assert history == sorted(history)  # every win raised it
    assert pool["n"].sigma < DEFAULT.sigma  # and made it surer
    assert pool["n"] == pool["s"]  # partners share the result


def test_draws_move_less_than_wins() -> None:
    # Between equals a draw leaves mu where it was and only shrinks sigma.
    drawn = rate_teams({}, [NS, EW], [0, 0])
    assert drawn["n"].mu == pytest.approx(25) and drawn["n"].sigma < DEFAULT.sigma
    won = rate_teams({}, [NS, EW], [0, 1])
    assert won["n"].mu - 25 > abs(drawn["n"].mu - 25)
    # Between unequal teams a draw moves the favourite down less than a loss would.
    start = {"n": Rating(30, 4), "s": Rating(30, 4)}
    draw = rate_teams(start, [NS, EW], [0, 0])["n"].mu - 30
    loss = rate_teams(start, [NS, EW], [1, 0])["n"].mu - 30
    assert loss < draw < 0


def test_free_for_all_orders_by_place() -> None:
    new = rate_free_for_all({}, ["a", "b", "c", "d"], [0, 1, 2, 3])
    mus = [new[p].mu for p in "abcd"]
    assert mus == sorted(mus, reverse=True) and mus[0] > 25 > mus[3]
    shared = rate_free_for_all({}, ["a", "b", "c"], [0, 0, 1])
    assert shared["a"].mu == pytest.approx(shared["b"].mu)
    assert shared["b"].mu > shared["c"].mu


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_pattern_of_places_is_kept_by_the_ratings(players: int) -> None:
    """From equal ratings, a better place always ends higher and a shared place level.

    Every pattern of places a table of ``players`` can finish in (a place is
    the number of players strictly ahead, so ties share one). openskill 6's
    Plackett-Luce failed this: places (0, 0, 2, 3) left the two winners level
    with the third.
    """
    names = "abcde"[:players]
    patterns = {p for p in itertools.product(range(players), repeat=players)
                if list(p) == [sum(1 for o in p if o < r) for r in p]}  # fmt: skip
    for places in patterns:
        new = rate_free_for_all({}, list(names), list(places))
        for (x, px), (y, py) in itertools.permutations(zip(names, places, strict=True), 2):
            if px < py:
                assert new[x].mu > new[y].mu, places
            elif px == py:
                assert new[x].mu == pytest.approx(new[y].mu), places
    assert len(patterns) == {2: 3, 3: 13, 4: 75, 5: 541}[players]  # ordered Bell numbers


def test_board_difference_decides_not_the_raw_score() -> None:
    assert rate_board({}, NS, EW, 40) == rate_teams({}, [NS, EW], [0, 1])
    assert rate_board({}, NS, EW, -1) == rate_teams({}, [NS, EW], [1, 0])
    assert rate_board({}, NS, EW, 0) == rate_teams({}, [NS, EW], [0, 0])


def test_duplicate_results_feed_ratings_by_board() -> None:
    # A wins its own table 100-20, but B scores 150-10 at the other table with the
    # same cards as A (both sit North-South): B beat A on the board.
    entries = tuple(Entry(e, (f"{e.lower()}0", f"{e.lower()}1")) for e in "ABCD")
    snap = TournamentSnapshot(Format.DUPLICATE, entries, seats_per_entry=2)
    rnd = next_round(snap)
    assert rnd is not None
    assert [t.entries for t in rnd.tables] == [("A", "D"), ("B", "C")]
    results = (TableResult((100, 20), (0,)), TableResult((150, 10), (0,)))
    snap = replace(snap, rounds=(PlayedRound(rnd, results),))
    pool: dict[str, Rating] = {}
    for event in rating_events(snap):
        pool |= rate_teams(pool, event.teams, event.ranks)
    assert pool["b0"].mu > pool["a0"].mu


def test_inputs_untouched_and_new_players_default() -> None:
    pool = {"n": (27.0, 5.0)}
    before = dict(pool)
    new = rate_teams(pool, [NS, EW], [1, 0])
    assert pool == before
    assert set(new) == {"n", "s", "e", "w"}
    assert new["n"].mu < 27  # started from the stored rating
    assert new["s"].mu < 25  # started from the default


def test_leaderboard_orders_by_ordinal() -> None:
    # ordinal = mu - 3 sigma: sure (27, 2) -> 21 beats unsure (30, 8) -> 6.
    board = leaderboard({"unsure": (30.0, 8.0), "sure": (27.0, 2.0), "new": DEFAULT})
    assert [(r.rank, r.player) for r in board] == [(1, "sure"), (2, "unsure"), (3, "new")]
    assert [r.ordinal for r in board] == pytest.approx([21, 6, 0])
    # equal ordinals: higher mu first, then the player id
    tied = leaderboard({"b": (12.0, 2.0), "a": (12.0, 2.0), "c": (15.0, 3.0)})
    assert [r.player for r in tied] == ["c", "a", "b"]


@pytest.mark.parametrize(
    ("teams", "ranks"),
    [
        ([["a"]], [0]),
        ([["a"], []], [0, 1]),
        ([["a"], ["a"]], [0, 1]),
        ([["a"], ["b"]], [0]),
    ],
)
def test_unratable_games_are_rejected(teams: list[list[str]], ranks: list[int]) -> None:
    with pytest.raises(RatingError):
        rate_teams({}, teams, ranks)

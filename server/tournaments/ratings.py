"""Ratings: openskill (Bradley-Terry, full pairing) over plain dicts, one pool per game.

Pure functions: each takes a mapping ``player_id -> (mu, sigma)`` and returns
the *new* ratings of the players in the game (a fresh dict; the input is not
touched). Players missing from the mapping start at :data:`DEFAULT`. The
runner keeps one pool per game id (a Concerto rating says nothing about
Cowpoke), reads the players of a finished game, calls one function and
writes back what it returns — applying each ``formats.RatingEvent`` once, by
its key.

Why openskill: it rates teams and free-for-all games of any size with one
model (Weng & Lin's Bayesian approximation, the open cousin of TrueSkill),
and it is a small, maintained, pure-Python library.

Why Bradley-Terry with full pairing, not openskill's default Plackett-Luce:
in openskill 6 Plackett-Luce mishandles shared places (openskill.py issues
#155 and #173, fix not yet released). Two players sharing first place of four
came out level with the third, so a Seconds table with two winners rated its
winners no higher than the player they beat. Bradley-Terry compares every
pair of players and keeps the order of places, shared ones included
(``tests/scheduler/test_ratings.py`` checks every pattern of places for two to
five players). For two teams (Concerto, duplicate boards) the two models are
the same.

Only the order of a result counts, never its margin: a 2-point win and a
200-point win move ratings alike, so a bot gains nothing by running up the
score. Duplicate boards come in already reduced to their board difference
(see ``formats.rating_events``), never as raw table scores.

>>> new = rate_teams({}, [["n", "s"], ["e", "w"]], [0, 1])
>>> new["n"].mu > 25 > new["e"].mu
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from openskill.models import BradleyTerryFull


class Rating(NamedTuple):
    """A skill estimate: mean ``mu`` and uncertainty ``sigma`` (a plain 2-tuple)."""

    mu: float
    sigma: float


MODEL = BradleyTerryFull()
"""openskill's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300."""

DEFAULT = Rating(MODEL.mu, MODEL.sigma)
"""Every new player's rating."""

Ratings = Mapping[str, "Rating | tuple[float, float]"]

SIGMA_SURE = MODEL.sigma / 2
"""A rating is provisional while its ``sigma`` is at least this: 25/6 ~ 4.17, half the
starting 25/3 and equal to ``beta``, the noise of one game's performance. Below it
the 95% interval (:func:`interval`) is at most +-8.2, half a new player's +-16.3.
Evenly matched players get there in about 30 two-player games, about 10 four-player
free-for-alls (docs/ladder.md, *How sure a rating is*)."""

Z95 = 1.96
"""The two-sided 95% point of the normal: ``mu +- 1.96 sigma`` holds the skill with
95% probability under the model."""


class RatingError(ValueError):
    """The game cannot be rated as given (one team, a player twice, lengths differ)."""


def ordinal(rating: Rating | tuple[float, float]) -> float:
    """The conservative skill used for ordering: ``mu - 3 sigma``.

    A new player (25, 8.33) has ordinal 0 and climbs as results make the
    rating both higher and surer, so one lucky win cannot top the board. Under the
    model the skill is above it with 99.87% probability (the normal's mass above
    -3 standard deviations): a conservative estimate, not the likeliest skill.

    >>> ordinal(DEFAULT)
    0.0
    """
    mu, sigma = rating
    return mu - 3 * sigma


def provisional(sigma: float) -> bool:
    """Whether a rating is still provisional: ``sigma`` not yet below :data:`SIGMA_SURE`.

    >>> provisional(DEFAULT.sigma), provisional(4.2), provisional(4.1)
    (True, True, False)
    """
    return sigma >= SIGMA_SURE


def interval(rating: Rating | tuple[float, float]) -> tuple[float, float]:
    """The 95% interval of the skill: ``mu - 1.96 sigma`` to ``mu + 1.96 sigma``.

    >>> [round(x, 3) for x in interval(DEFAULT)]
    [8.667, 41.333]
    """
    mu, sigma = rating
    return mu - Z95 * sigma, mu + Z95 * sigma


def doubt(rating: Rating | tuple[float, float]) -> dict[str, float | bool]:
    """How sure a shown rating is, as the API says it: the 95% interval ``low``..``high``
    (:func:`interval`) and ``provisional`` (:func:`provisional`).

    >>> doubt(Rating(25.0, 5.0))  # 25 -+ 1.96 * 5 = 25 -+ 9.8; sigma 5 >= 25/6
    {'low': 15.2, 'high': 34.8, 'provisional': True}
    >>> doubt(Rating(20.0, 2.5))
    {'low': 15.1, 'high': 24.9, 'provisional': False}
    >>> doubt(DEFAULT)["provisional"]
    True
    """
    low, high = interval(rating)
    return {"low": low, "high": high, "provisional": provisional(rating[1])}


def rate_teams(
    ratings: Ratings, teams: Sequence[Sequence[str]], ranks: Sequence[float]
) -> dict[str, Rating]:
    """Update the ratings of every player after one game between teams.

    Args:
        ratings: current ratings; missing players start at :data:`DEFAULT`.
        teams: the player ids of each team (Concerto: ``[[N, S], [E, W]]``).
        ranks: each team's place, lower is better, equal for a draw
            (``formats.TableResult.ranks()`` gives them).

    Returns:
        The new rating of every player in ``teams``.

    Raises:
        RatingError: fewer than two teams, an empty team, a player in two
            seats, or ``ranks`` not one per team.
    """
    players = [p for team in teams for p in team]
    if len(teams) < 2 or any(not team for team in teams):
        raise RatingError("a rated game needs at least two non-empty teams")
    if len(set(players)) != len(players):
        raise RatingError("a player appears twice in one rated game")
    if len(ranks) != len(teams):
        raise RatingError(f"{len(ranks)} ranks for {len(teams)} teams")
    model_teams = [[MODEL.rating(*_get(ratings, p), name=p) for p in team] for team in teams]
    rated = MODEL.rate(model_teams, ranks=[float(r) for r in ranks])
    return {r.name: Rating(r.mu, r.sigma) for team in rated for r in team if r.name is not None}


def rate_free_for_all(
    ratings: Ratings, players: Sequence[str], ranks: Sequence[float]
) -> dict[str, Rating]:
    """Update ratings after a game of 2-5 individual players (Seconds, Cowpoke).

    Each player is a team of one; ``ranks`` as in :func:`rate_teams`.

    Raises:
        RatingError: as :func:`rate_teams`.
    """
    return rate_teams(ratings, [[p] for p in players], ranks)


def rate_board(
    ratings: Ratings, team_a: Sequence[str], team_b: Sequence[str], difference: float
) -> dict[str, Rating]:
    """Update ratings after one duplicate board, from A's board difference.

    Positive: A won the board; zero: a draw; negative: B won. The raw
    scores of the two tables are deliberately not an input.

    Raises:
        RatingError: as :func:`rate_teams`.
    """
    ranks = (0, 0) if difference == 0 else (0, 1) if difference > 0 else (1, 0)
    return rate_teams(ratings, [team_a, team_b], ranks)


@dataclass(frozen=True)
class LeaderboardRow:
    rank: int
    player: str
    mu: float
    sigma: float
    ordinal: float


def leaderboard(ratings: Ratings) -> list[LeaderboardRow]:
    """Players best first by :func:`ordinal`; ties by higher ``mu``, then player id.

    ``rank`` is 1-based and unique, so the order is stable between calls.
    """
    rows = sorted(
        ((p, Rating(*r)) for p, r in ratings.items()),
        key=lambda item: (-ordinal(item[1]), -item[1].mu, item[0]),
    )
    return [LeaderboardRow(i + 1, p, r.mu, r.sigma, ordinal(r)) for i, (p, r) in enumerate(rows)]


def _get(ratings: Ratings, player: str) -> Rating:
    return Rating(*ratings.get(player, DEFAULT))

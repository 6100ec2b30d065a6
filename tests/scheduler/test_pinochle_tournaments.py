"""Pinochle tournaments through the real scheduler: sides of two, three and four players.

Partnership, Firehouse and Check seat two sides of two (seats 0 & 2 against
1 & 3); double-deck seats two teams of three (six players) or four (eight),
alternately. An entry is one whole side, so every table is two entries and
``seats_per_entry`` is 2, 3 or 4. Games are kept short with ``max_deals=1``
(one deal, the higher side wins, equal is a draw) and played by random movers
through the service; the scheduler runs in a thread.

Everything is checked against the games themselves, not the scheduler's
records: who sat where (from each game's seats), the points (from each game's
result), and the ratings, replayed from the games' results with the teams
read off the seats.
"""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from server.tournaments.ratings import DEFAULT, rate_teams
from tests.scheduler.support import (
    ROUNDS_ONLY,
    Movers,
    assert_exactly_once,
    entry_points_from_games,
    make_tournament,
    play_out,
    register,
    scheduler,
)

ONE_DEAL = {"max_deals": 1}

SIDES = [
    pytest.param({"variant": "partnership"}, 2, id="partnership-2"),
    pytest.param({"variant": "firehouse"}, 2, id="firehouse-2"),
    pytest.param({"variant": "check"}, 2, id="check-2"),
    pytest.param({"variant": "double-deck", "players": 6}, 3, id="double-deck-6"),
    pytest.param({"variant": "double-deck", "players": 8}, 4, id="double-deck-8"),
]


def _tables(shown: dict) -> list[tuple[int, dict]]:
    return [(rd["index"], t) for rd in shown["rounds"] for t in rd["tables"]]


def _check_seating(service, shown: dict, size: int) -> None:
    """Each entry holds every other seat, its players in entry order; the table has 2 × size."""
    players = {e["id"]: [p["id"] for p in e["players"]] for e in shown["entries"]}
    for _, t in _tables(shown):
        view = service.games.view(None, t["game_id"])
        seated = [s["player_id"] for s in view["seats"]]
        assert len(seated) == 2 * size
        a, b = t["seats"][0], t["seats"][1]
        assert t["seats"] == [a, b] * size  # alternately: a whole side per entry
        assert seated[0::2] == players[a] and seated[1::2] == players[b]
        assert view["state"]["sides"] == [list(range(0, 2 * size, 2)),
                                          list(range(1, 2 * size, 2))]  # fmt: skip
        assert len(view["state"]["deal_results"]) == 1  # max_deals=1: one deal


def _check_standings(service, shown: dict) -> None:
    expected = entry_points_from_games(service, shown)
    got = {s["entry"]: s["points"] for s in shown["standings"]}
    assert got == pytest.approx({e: expected.get(e, 0.0) for e in got})
    points = [s["points"] for s in shown["standings"]]
    assert points == sorted(points, reverse=True)
    assert [s["rank"] for s in shown["standings"]] == list(range(1, len(points) + 1))


RatedGame = tuple[list[list[str]], list[int]]
"""Two teams of player ids and their places (0 first; equal places: a draw)."""


def _rated_games(service, shown: dict) -> list[list[RatedGame]]:
    """Per round, the rated games worked from the games alone.

    Each game is one rated game between two teams: the players on the even
    seats and those on the odd seats, placed by the game's winners. A
    duplicate board is one rated game per direction: the teams that held the
    same seats' cards at its tables, placed by their nets (own score minus the
    opponents').
    """
    rounds = []
    for rd in shown["rounds"]:
        boards: dict[int, list[dict]] = {}
        for t in rd["tables"]:
            key = t["board"] if t["board"] is not None else -1 - t["table"]
            boards.setdefault(key, []).append(t)
        games: list[RatedGame] = []
        for tables in boards.values():
            fields: list[Counter[tuple[str, ...]]] = [Counter(), Counter()]
            for t in tables:
                view = service.games.view(None, t["game_id"])
                scores = view["result"]["scores"]
                for side in (0, 1):
                    team = tuple(s["player_id"] for s in view["seats"][side::2])
                    won = any(w % 2 == side for w in view["result"]["winners"])
                    # one table: the winners decide; a board: the nets of each direction
                    net = scores[side] - scores[1 - side]
                    fields[side if len(tables) > 1 else 0][team] += net if len(tables) > 1 else won
            for totals in fields if len(tables) > 1 else fields[:1]:
                (a, x), (b, y) = totals.items()
                ranks = [0, 0] if x == y else [0, 1] if x > y else [1, 0]
                games.append(([list(a), list(b)], ranks))
        rounds.append(games)
    return rounds


def _replay(rounds: list[list[RatedGame]]) -> list[dict[str, tuple[float, float]]]:
    """The ratings the rated games leave, for every order the games of a round may have
    been applied in: the scheduler rates each game as it finishes, and the boards of one
    duplicate match share their players, so their order matters (tables of a round robin
    or swiss round share nobody, so there it does not)."""
    results: list[dict[str, tuple[float, float]]] = [{}]
    for games in rounds:
        after = []
        for start in results:
            for order in itertools.permutations(games):
                ratings = dict(start)
                for teams, ranks in order:
                    new = rate_teams(ratings, teams, ranks)
                    ratings.update({p: (r.mu, r.sigma) for p, r in new.items()})
                after.append(ratings)
        results = after
    return results


def _check_ratings(service, tours, shown: dict) -> None:
    """Every player rated; a team's players always move together; the values replay."""
    board = {
        row["player_id"]: row for row in service.ratings.leaderboard("pinochle")["leaderboard"]
    }
    got = {p: (row["mu"], row["sigma"]) for p, row in board.items()}
    candidates = _replay(_rated_games(service, shown))
    assert all(set(c) == set(got) for c in candidates)
    assert any(all(got[p] == pytest.approx(c[p]) for p in got) for c in candidates)
    for entry in shown["entries"]:
        rows = [board[p["id"]] for p in entry["players"]]
        assert len({(r["mu"], r["sigma"], r["games"]) for r in rows}) == 1  # one team, one rating
    assert any(row["mu"] != DEFAULT.mu for row in board.values())


@pytest.mark.parametrize(("options", "size"), SIDES)
def test_round_robin(service, tours, options, size):
    """Three entries: each round one table and one bye; every pair meets once."""
    players = register(service, 3 * size)
    tid = make_tournament(tours, players, seats_per_entry=size, game="pinochle",
                          format="round_robin", options=options | ONE_DEAL)  # fmt: skip
    with scheduler(service, ROUNDS_ONLY):
        play_out(tours, tid, Movers(service, players, seed=size))
    shown = assert_exactly_once(service, tours, tid)
    assert len(shown["rounds"]) == 3
    met = Counter(frozenset(t["entries"]) for _, t in _tables(shown))
    assert sorted(met.values()) == [1, 1, 1]
    assert sorted(e for rd in shown["rounds"] for e in rd["byes"]) == ["e1", "e2", "e3"]
    _check_seating(service, shown, size)
    _check_standings(service, shown)
    assert all(s["played"] == 2 and s["byes"] == 1 for s in shown["standings"])
    _check_ratings(service, tours, shown)


@pytest.mark.parametrize(("options", "size"), SIDES)
def test_swiss(service, tours, options, size):
    """Four entries, two rounds of two tables; no rematch in round two."""
    players = register(service, 4 * size)
    tid = make_tournament(tours, players, seats_per_entry=size, game="pinochle",
                          format="swiss", options=options | ONE_DEAL)  # fmt: skip
    with scheduler(service, ROUNDS_ONLY):
        play_out(tours, tid, Movers(service, players, seed=10 + size))
    shown = assert_exactly_once(service, tours, tid)
    assert [len(rd["tables"]) for rd in shown["rounds"]] == [2, 2]
    met = Counter(frozenset(t["entries"]) for _, t in _tables(shown))
    assert set(met.values()) == {1}
    _check_seating(service, shown, size)
    _check_standings(service, shown)
    assert [s["played"] for s in shown["standings"]] == [2] * 4
    assert all(s["buchholz"] is not None for s in shown["standings"])
    _check_ratings(service, tours, shown)


@pytest.mark.parametrize(("options", "size"), SIDES)
def test_duplicate(service, tours, options, size):
    """Four entries, one round of two boards: each board dealt alike at two tables, each
    seating other entries (and players); an entry compared with the one that held its cards."""
    players = register(service, 4 * size)
    tid = make_tournament(tours, players, seats_per_entry=size, game="pinochle",
                          format="duplicate", boards_per_match=2, rounds=1,
                          options=options | ONE_DEAL)  # fmt: skip
    with scheduler(service, ROUNDS_ONLY):
        play_out(tours, tid, Movers(service, players, seed=20 + size))
    shown = assert_exactly_once(service, tours, tid)
    (rd,) = shown["rounds"]
    boards: dict[int, list[dict]] = {}
    for t in rd["tables"]:
        boards.setdefault(t["board"], []).append(t)
    assert sorted(boards) == [0, 1] and all(len(b) == 2 for b in boards.values())
    difference: Counter[str] = Counter()
    for x, y in boards.values():
        assert not set(x["entries"]) & set(y["entries"])
        views = [service.games.view(None, t["game_id"]) for t in (x, y)]
        seated = [{s["player_id"] for s in view["seats"]} for view in views]
        assert not seated[0] & seated[1]  # nobody at both tables of the board
        assert views[0]["deal_commitment"] == views[1]["deal_commitment"]
        assert _dealt(service, x["game_id"]) == _dealt(service, y["game_id"])
        net = {}
        for t, view in zip((x, y), views, strict=True):
            scores = view["result"]["scores"]
            for side in (0, 1):
                net[t["seats"][side]] = scores[side] - scores[1 - side]
        for side in (0, 1):
            a, b = x["seats"][side], y["seats"][side]
            difference[a] += net[a] - net[b]
            difference[b] += net[b] - net[a]
    got = {s["entry"]: s["score_difference"] for s in shown["standings"]}
    assert got == pytest.approx(dict(difference))
    _check_seating(service, shown, size)
    _check_standings(service, shown)
    _check_ratings(service, tours, shown)


def _dealt(service, game_id: str) -> list[list[str]]:
    """Each seat's dealt cards and the turned card, from the finished game's full replay."""
    events = service.replays.replay(None, game_id)["events"]
    hands = {e["data"]["seat"]: sorted(e["data"]["cards"]) for e in events if e["kind"] == "hand"}
    deal = next(e["data"] for e in events if e["kind"] == "deal")
    return [hands[s] for s in sorted(hands)] + [[deal["dealer"], deal["turn_up"]]]

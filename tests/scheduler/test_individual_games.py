"""Individual games through the real scheduler: one player per entry, four at a Seconds
table, two or three at a Cowpoke table (``min_table_size``), round robin and swiss.

Players move at random through the service with their own tokens; the scheduler
runs in a thread. What is checked comes from the pairing rules documented in
``server/tournaments/pairing.py`` and from each game's own result, never from the
scheduler's records:

* every entry is seated exactly once per round (no byes when the tables fit);
* meetings are balanced: the round robin meets every pair at least once in the
  documented number of rounds (8 entries at tables of 4: three rounds, which
  needs four pairs to meet three times), and a pair meets again only when it
  must;
* each game seats the players of its table in table order;
* the standings' points are the placing points worked from the games' results
  (winners first, then by score; below + ½ tied, over table size − 1);
* ratings are free-for-all: one team of one per seat, in the table's order.
"""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Any

import pytest

from server.services.bundle import Services
from server.services.tournaments import Tournaments
from server.tournaments.pairing.round_robin import round_robin_cycle
from tests.conftest import ADMIN_TOKEN
from tests.scheduler.support import (
    ROUNDS_ONLY,
    Movers,
    assert_exactly_once,
    make_tournament,
    play_out,
    register,
    scheduler,
)


def play_tournament(service: Services, tours: Tournaments, entries: int, seed: int,
                    **settings: Any) -> tuple[dict, list[dict[str, str]]]:  # fmt: skip
    """Register ``entries`` players, enter each alone, start, and play to the end."""
    players = register(service, entries)
    tid = make_tournament(tours, players, seats_per_entry=1, **settings)
    with scheduler(service, ROUNDS_ONLY):
        shown = play_out(tours, tid, Movers(service, players, seed=seed), timeout=90)
    assert shown["status"] == "finished", shown["error"]
    assert_exactly_once(service, tours, tid)
    return shown, players


def placing_points(service: Services, shown: dict) -> dict[str, float]:
    """Points per entry worked from each game's own result (its public view).

    At a table of ``k`` entries, an entry is placed by (is a winner, score); it
    earns the entries placed below it plus half those level with it, over
    ``k - 1``. No byes occur in these tournaments.
    """
    points: Counter[str] = Counter()
    for rd in shown["rounds"]:
        assert rd["byes"] == []
        for t in rd["tables"]:
            result = service.games.view(None, t["game_id"])["result"]
            key = {t["seats"][s]: (s in result["winners"], result["scores"][s])
                   for s in range(len(t["seats"]))}  # fmt: skip
            for e in t["entries"]:
                below = sum(1 for o in t["entries"] if key[o] < key[e])
                level = sum(1 for o in t["entries"] if o != e and key[o] == key[e])
                points[e] += (below + level / 2) / (len(t["entries"]) - 1)
    return dict(points)


def check_tables(service: Services, shown: dict, sizes: list[int]) -> Counter[frozenset[str]]:
    """Each round seats every entry once at tables of ``sizes``; each game has the table's
    players in the table's seats. Returns how often each pair of entries met."""
    everyone = sorted(e["id"] for e in shown["entries"])
    player_of = {e["id"]: e["players"][0]["id"] for e in shown["entries"]}
    met: Counter[frozenset[str]] = Counter()
    for rd in shown["rounds"]:
        assert sorted(len(t["entries"]) for t in rd["tables"]) == sorted(sizes)
        assert sorted(e for t in rd["tables"] for e in t["entries"]) == everyone
        for t in rd["tables"]:
            assert t["seats"] == t["entries"]  # one seat per entry, position = seat
            view = service.games.view(None, t["game_id"])
            assert view["status"] == "finished"
            assert [s["player_id"] for s in view["seats"]] == [player_of[e] for e in t["seats"]]
            met.update(frozenset(p) for p in itertools.combinations(t["entries"], 2))
    return met


def check_standings(service: Services, shown: dict, rounds: int) -> None:
    expected = placing_points(service, shown)
    got = {s["entry"]: s["points"] for s in shown["standings"]}
    assert got == pytest.approx(expected)
    assert [s["points"] for s in shown["standings"]] == sorted(got.values(), reverse=True)
    assert [s["rank"] for s in shown["standings"]] == list(range(1, len(got) + 1))
    assert all(s["played"] == rounds and s["byes"] == 0 for s in shown["standings"])


# --------------------------------------------------------------------------- Seconds


def test_seconds_round_robin_of_eight_at_tables_of_four(service, tours):
    shown, _ = play_tournament(service, tours, 8, seed=21, game="seconds",
                               format="round_robin")  # fmt: skip
    # pairing.py: eight entries at tables of four cover all 28 pairs in three rounds
    assert round_robin_cycle(8, 4) == 3
    assert shown["rounds_planned"] == 3 and len(shown["rounds"]) == 3
    met = check_tables(service, shown, [4, 4])
    assert len(met) == 28  # every pair met
    # 3 rounds x 2 tables x 6 pairs = 36 meetings for 28 pairs: the 8 extra are
    # four pairs meeting three times (pairing.new_pair_table_cost), all others once
    assert sorted(Counter(met.values()).items()) == [(1, 24), (3, 4)]
    # seats: nobody holds the same seat twice in three rounds (pairing: positions balanced)
    for entry in (e["id"] for e in shown["entries"]):
        seats = [t["seats"].index(entry) for rd in shown["rounds"] for t in rd["tables"]
                 if entry in t["seats"]]  # fmt: skip
        assert len(set(seats)) == 3, (entry, seats)
    check_standings(service, shown, rounds=3)
    # Seconds' default winner is the second-highest score (docs/rules/seconds.md), and
    # a table's winners are placed first, whatever the highest score
    for rd in shown["rounds"]:
        for t in rd["tables"]:
            result = service.games.view(None, t["game_id"])["result"]
            ranks = t["result"]["ranks"]
            second = sorted(result["scores"], reverse=True)[1]
            for s in result["winners"]:
                assert result["scores"][s] == second and ranks[s] == 0


def test_seconds_swiss_of_eight_at_tables_of_four(service, tours):
    shown, players = play_tournament(service, tours, 8, seed=22, game="seconds",
                                     format="swiss")  # fmt: skip
    assert len(shown["rounds"]) == 3  # ceil(log2 8)
    met = check_tables(service, shown, [4, 4])
    # Each entry meets 3 others a round and there are only 7: rematches must come in
    # the third round, but the swaps spread them: no pair meets three times
    assert max(met.values()) <= 2
    first, second = ({frozenset(p) for t in rd["tables"]
                      for p in itertools.combinations(t["entries"], 2)}
                     for rd in shown["rounds"][:2])  # fmt: skip
    # Round 2 cannot avoid rematches: a table of four holds at most one entry of each
    # first-round table without one, and there are only two. The fewest: two entries
    # of each first-round table at each new table, one repeated pair from each, 4 in all.
    assert len(first & second) == 4
    check_standings(service, shown, rounds=3)
    assert all(s["buchholz"] is not None for s in shown["standings"])
    # ratings: every player rated once per game, as one of four teams of one
    board = {row["player_id"]: row for row in service.ratings.leaderboard("seconds")["leaderboard"]}
    assert sorted(board) == sorted(p["id"] for p in players)
    assert all(row["games"] == 3 for row in board.values())


def test_a_seconds_table_is_rated_free_for_all(service, tours):
    """One game of four: the ratings come out in the order of the table's places."""
    shown, _ = play_tournament(service, tours, 4, seed=23, game="seconds",
                               format="round_robin")  # fmt: skip
    (rd,) = shown["rounds"]
    (table,) = rd["tables"]
    result = service.games.view(None, table["game_id"])["result"]
    key = [(s in result["winners"], result["scores"][s]) for s in range(4)]
    assert table["result"]["ranks"] == [sum(1 for o in key if o > k) for k in key]
    player_of = {e["id"]: e["players"][0]["id"] for e in shown["entries"]}
    mu = {
        row["player_id"]: row["mu"] for row in service.ratings.leaderboard("seconds")["leaderboard"]
    }
    for a, b in itertools.combinations(range(4), 2):
        pa, pb = player_of[table["seats"][a]], player_of[table["seats"][b]]
        if key[a] > key[b]:
            assert mu[pa] > mu[pb]
        elif key[a] < key[b]:
            assert mu[pa] < mu[pb]
        else:
            assert mu[pa] == pytest.approx(mu[pb])


# --------------------------------------------------------------------------- Cowpoke

COWPOKE = {"game": "cowpoke", "options": {"players": 3, "hands": 1}, "min_table_size": 2}


def test_cowpoke_round_robin_of_five_at_tables_of_two_and_three(service, tours):
    shown, _ = play_tournament(service, tours, 5, seed=24, format="round_robin", **COWPOKE)
    rounds = round_robin_cycle(5, 3, min_table_size=2)
    assert shown["table_size"] == 3 and shown["min_table_size"] == 2
    assert len(shown["rounds"]) == rounds
    met = check_tables(service, shown, [3, 2])  # five at two tables: 3 + 2, no bye
    assert len(met) == 10  # every pair met at least once over the cycle
    # four new pairs a round at most (3 + 1), ten pairs: at least three rounds
    assert rounds >= 3
    check_standings(service, shown, rounds=rounds)


def test_cowpoke_swiss_of_five_at_tables_of_two_and_three(service, tours):
    shown, players = play_tournament(service, tours, 5, seed=25, format="swiss", **COWPOKE)
    assert len(shown["rounds"]) == 3  # ceil(log2 5)
    met = check_tables(service, shown, [3, 2])
    first, second = ({frozenset(p) for t in rd["tables"]
                      for p in itertools.combinations(t["entries"], 2)}
                     for rd in shown["rounds"][:2])  # fmt: skip
    # Round 1 is {a b c} {d e}. A new table of three would need three entries from
    # different first-round tables, of which there are two: one rematch is
    # unavoidable, and one is enough (two of a b c with one of d e, then the
    # other two apart).
    assert len(first & second) == 1
    assert max(met.values()) <= 2
    check_standings(service, shown, rounds=3)
    board = service.ratings.leaderboard("cowpoke")["leaderboard"]
    assert sorted(row["player_id"] for row in board) == sorted(p["id"] for p in players)
    assert all(row["games"] == 3 for row in board)


def test_a_round_robin_shows_before_it_has_enough_entries(service, tours):
    """A round robin's length depends on its entries: unknown (None) until one table can
    be seated, and showing the tournament meanwhile must not fail (it did: a
    ``min_table_size`` fixes one seat per entry at creation, so the standings were
    computed over zero entries)."""
    tid = tours.create(ADMIN_TOKEN, format="round_robin", **COWPOKE)["id"]
    assert tours.show(tid)["rounds_planned"] is None
    players = register(service, 3)
    tours.enter(ADMIN_TOKEN, tid, [players[0]["id"]])
    assert tours.show(tid)["rounds_planned"] is None
    tours.enter(ADMIN_TOKEN, tid, [players[1]["id"]])
    assert tours.show(tid)["rounds_planned"] == round_robin_cycle(2, 3, min_table_size=2) == 1

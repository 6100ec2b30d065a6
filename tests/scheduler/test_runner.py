"""The scheduler on a real Redis: whole tournaments of every format, clocks, ratings,
and two schedulers at once.

Players move at random through the service with their own tokens, the way a bot
does over HTTP (``/me/turns``, then a move with the version it saw); the
scheduler runs in a thread. Expected standings are worked from each game's own
result, not from the scheduler's records.
"""

from __future__ import annotations

import random
import time
from collections import Counter

import pytest

from server.processes.scheduler import Runner
from server.services.bundle import Services
from server.services.errors import BoardInPlay, DeadlinePassed
from server.store import connect, keys
from server.tournaments.clock import RANKS
from server.tournaments.ratings import ordinal
from tests.conftest import ADMIN_TOKEN
from tests.scheduler.support import (
    Movers,
    all_game_ids,
    assert_exactly_once,
    entry_points_from_games,
    make_tournament,
    play_out,
    register,
    scheduler,
    status,
)

SHORT = {"deals": 1}  # one Concerto deal per game: about 70 moves


def test_round_robin_concerto_to_the_end(service, tours):
    players = register(service, 8)
    tid = make_tournament(
        tours,
        players,
        seats_per_entry=2,
        game="concerto",
        format="round_robin",
        options=SHORT,
        clock={"move_seconds": 30},
    )
    movers = Movers(service, players, seed=1)
    with scheduler(service):
        shown = play_out(tours, tid, movers)
    assert_exactly_once(service, tours, tid)

    # every pair of entries met exactly once, each entry once per round, sides alternate
    rounds = shown["rounds"]
    assert len(rounds) == 3
    met = Counter(frozenset(t["entries"]) for rd in rounds for t in rd["tables"])
    assert sorted(met.values()) == [1] * 6 and len(met) == 6
    for rd in rounds:
        seated = [e for t in rd["tables"] for e in t["entries"]]
        assert sorted(seated) == ["e1", "e2", "e3", "e4"] and rd["byes"] == []
    for entry in ("e1", "e2", "e3", "e4"):
        sides = {
            t["entries"].index(entry)
            for rd in rounds
            for t in rd["tables"]
            if entry in t["entries"]
        }
        assert sides == {0, 1}, entry  # North-South and East-West both played

    # Concerto seats: an entry's two players hold seats p and p+2 (partners)
    for rd in rounds:
        for t in rd["tables"]:
            view = service.games.view(None, t["game_id"])
            entry_players = {e["id"]: [p["id"] for p in e["players"]] for e in shown["entries"]}
            a, b = t["entries"]
            assert [s["player_id"] for s in view["seats"]] == [
                entry_players[a][0],
                entry_players[b][0],
                entry_players[a][1],
                entry_players[b][1],
            ]

    # standings: points from the games' own results; best first; ranks 1..4
    expected = entry_points_from_games(service, shown)
    got = {s["entry"]: s["points"] for s in shown["standings"]}
    assert got == pytest.approx(expected)
    points = [s["points"] for s in shown["standings"]]
    assert points == sorted(points, reverse=True)
    assert [s["rank"] for s in shown["standings"]] == [1, 2, 3, 4]
    assert all(s["played"] == 3 for s in shown["standings"])


def test_ratings_move_with_results_and_order_the_leaderboard(service, tours):
    players = register(service, 8)
    tid = make_tournament(
        tours, players, seats_per_entry=2, game="concerto", format="round_robin", options=SHORT
    )
    with scheduler(service):
        shown = play_out(tours, tid, Movers(service, players, seed=7))
    board = service.ratings.leaderboard("concerto")["leaderboard"]
    assert len(board) == 8 and [row["rank"] for row in board] == list(range(1, 9))
    keys = [(row["ordinal"], row["mu"]) for row in board]
    assert keys == sorted(keys, reverse=True)  # best ordinal (mu - 3 sigma) first
    for row in board:
        assert row["ordinal"] == pytest.approx(ordinal((row["mu"], row["sigma"])))
        assert row["sigma"] < 25 / 3  # every rated game makes a rating surer
        assert row["games"] == 3
    # the best entry's players gained, the worst one's lost (unless all games were draws)
    top, bottom = shown["standings"][0], shown["standings"][-1]
    mu = {row["player_id"]: row["mu"] for row in board}
    if top["points"] > bottom["points"]:
        assert all(mu[p] > mu[q] for p in top["players"] for q in bottom["players"])
    # the profile shows the same rating
    me = service.players.me(players[0]["token"])["ratings"]["concerto"]
    row = next(r for r in board if r["player_id"] == players[0]["id"])
    shown_keys = ("mu", "sigma", "ordinal", "games", "low", "high", "provisional")
    assert me == {k: row[k] for k in shown_keys}


def test_swiss_over_cowpoke_with_smaller_tables(service, tours):
    """Seven entries at tables of at most three, at least two: 3 + 2 + 2, nobody sits out."""
    players = register(service, 7)
    tid = make_tournament(
        tours,
        players,
        seats_per_entry=1,
        game="cowpoke",
        format="swiss",
        options={"players": 3, "hands": 1},
        min_table_size=2,
    )
    with scheduler(service):
        shown = play_out(tours, tid, Movers(service, players, seed=3))
    assert_exactly_once(service, tours, tid)
    assert len(shown["rounds"]) == 3  # ceil(log2 7)
    for rd in shown["rounds"]:
        assert sorted(len(t["entries"]) for t in rd["tables"]) == [2, 2, 3]
        assert rd["byes"] == []
        for t in rd["tables"]:  # the game has as many seats as the table
            assert len(service.games.view(None, t["game_id"])["seats"]) == len(t["entries"])
    assert [s["played"] for s in shown["standings"]] == [3] * 7
    assert all(s["buchholz"] is not None for s in shown["standings"])


def test_knockout_over_cowpoke_with_byes(service, tours):
    """Five entries: a bracket of eight, byes to seeds 1-3, then 4 v 5; four games in all."""
    players = register(service, 5)
    tid = make_tournament(
        tours,
        players,
        seats_per_entry=1,
        game="cowpoke",
        format="knockout",
        options={"players": 2, "hands": 1},
    )
    with scheduler(service):
        shown = play_out(tours, tid, Movers(service, players, seed=4))
    assert_exactly_once(service, tours, tid)
    first = shown["rounds"][0]
    assert sorted(first["byes"]) == ["e1", "e2", "e3"]
    assert [sorted(t["entries"]) for t in first["tables"]] == [["e4", "e5"]]
    assert [len(rd["tables"]) for rd in shown["rounds"]] == [1, 2, 1]
    # one champion, never eliminated; every other entry lost exactly one game
    table = shown["standings"]
    assert table[0]["eliminated_in"] is None
    assert all(s["eliminated_in"] is not None for s in table[1:])
    final = shown["rounds"][-1]["tables"][0]
    winner = final["entries"][final["result"]["ranks"].index(0)]
    assert table[0]["entry"] == winner
    assert table[1]["eliminated_in"] == 2  # the other finalist


def test_duplicate_concerto_every_table_of_a_board_gets_the_same_deal_other_players(service, tours):
    players = register(service, 8)
    tid = make_tournament(
        tours, players, seats_per_entry=2, game="concerto", format="duplicate", options=SHORT
    )
    with scheduler(service):
        shown = play_out(tours, tid, Movers(service, players, seed=5))
    assert_exactly_once(service, tours, tid)
    boards: dict[int, list[dict]] = {}
    for rd in shown["rounds"]:
        assert len(rd["tables"]) == 2 and rd["byes"] == []  # four entries, two tables
        for t in rd["tables"]:
            boards.setdefault(t["board"], []).append(t)
    assert len(boards) == 3
    difference: Counter[str] = Counter()
    for x, y in boards.values():
        assert not set(x["entries"]) & set(y["entries"])  # other entries at each table ...
        views = [service.games.view(None, t["game_id"]) for t in (x, y)]
        seated = [{s["player_id"] for s in view["seats"]} for view in views]
        assert len(seated[0]) == len(seated[1]) == 4 and not seated[0] & seated[1]  # ... players
        hands_x, hands_y = (_dealt_hands(service, t["game_id"]) for t in (x, y))
        assert hands_x == hands_y  # the same cards in the same seats at both tables
        assert views[0]["deal_commitment"] == views[1]["deal_commitment"]
        # by hand: each entry's net minus the net of the entry that held its cards
        net = {}
        for t, view in zip((x, y), views, strict=True):
            scores = view["result"]["scores"]
            for seat in (0, 1):
                net[t["seats"][seat]] = scores[seat] - scores[1 - seat]
        for seat in (0, 1):
            a, b = x["seats"][seat], y["seats"][seat]
            difference[a] += net[a] - net[b]
            difference[b] += net[b] - net[a]
    got = {s["entry"]: s["score_difference"] for s in shown["standings"]}
    assert got == pytest.approx(dict(difference))
    # ratings: one rated game per board per player (compared within its direction)
    assert all(row["games"] == 3 for row in service.ratings.leaderboard("concerto")["leaderboard"])


def test_a_duplicate_table_reveals_nothing_until_its_twin_is_over(service, tours):
    players = register(service, 8)
    tid = make_tournament(
        tours,
        players,
        seats_per_entry=2,
        game="concerto",
        format="duplicate",
        options=SHORT,
        rounds=1,
    )
    runner = Runner(service)
    runner.tick()
    x, y = (t["game_id"] for t in tours.show(tid)["rounds"][0]["tables"])
    at = {
        gid: {s["player_id"] for s in service.games.view(ADMIN_TOKEN, gid)["seats"]}
        for gid in (x, y)
    }
    token = {p["id"]: p["token"] for p in players}
    _play_to_the_end(service, players, x)
    for caller in (None, token[min(at[x])], token[min(at[y])]):  # not even its players
        with pytest.raises(BoardInPlay):
            service.replays.replay(caller, x)
    # a hosted seat's game-over view is sealed the same way (the sandbox workers')
    sealed = service.hosted.over([x])[x]
    assert sealed and all(v["state"] is None and "hand" not in v for v in sealed.values())
    _play_to_the_end(service, players, y)
    assert service.replays.replay(None, x)["revealed"] is not None
    assert all(v["state"] is not None for v in service.hosted.over([x])[x].values())
    runner.tick()
    assert status(tours, tid) == "finished"


def _play_to_the_end(service, players, game_id: str) -> None:
    """Random legal moves in one game, each by the token of the seat to move."""
    tokens = {p["id"]: p["token"] for p in players}
    rng = random.Random(game_id)
    view = service.games.view(ADMIN_TOKEN, game_id)  # the admin may watch a board in play
    while view["status"] == "active":
        seat = view["to_move"][0]
        token = tokens[view["seats"][seat]["player_id"]]
        mine = service.games.view(token, game_id, seat)
        service.games.move(token, game_id, rng.choice(mine["legal_moves"]), mine["version"], seat)
        view = service.games.view(ADMIN_TOKEN, game_id)


def _dealt_hands(service, game_id: str) -> list[list[str]]:
    """Each seat's dealt cards, from the finished game's full replay."""
    replay = service.replays.replay(None, game_id)
    hands = {e["data"]["seat"]: e["data"]["cards"] for e in replay["events"] if e["kind"] == "hand"}
    return [sorted(hands[s]) for s in range(4)]


# --------------------------------------------------------------------------- clocks


def _start_clocked(service, tours, players, **settings):
    tid = make_tournament(
        tours,
        players,
        seats_per_entry=2,
        game="concerto",
        format="round_robin",
        options=SHORT,
        **settings,
    )
    Runner(service).tick()  # creates the games
    (table,) = tours.show(tid)["rounds"][0]["tables"]
    return tid, table["game_id"]


def test_a_player_who_does_not_move_gets_the_default_move(service, tours):
    players = register(service, 4)
    tid, gid = _start_clocked(service, tours, players, clock={"move_seconds": 0.3})
    before = service.games.view(None, gid)
    (seat,) = before["to_move"]
    token = next(p["token"] for p in players if p["id"] == before["seats"][seat]["player_id"])
    mine = service.games.view(token, gid)
    deadline = mine["deadline"]
    assert deadline is not None and deadline.endswith("+00:00")
    # the leader of a hand may not pass: the default is its lowest card, by rank
    assert {"type": "pass"} not in mine["legal_moves"]
    lowest = min((m["card"] for m in mine["legal_moves"]), key=lambda c: RANKS.index(c[0]))
    runner = Runner(service)
    runner.enforce_clocks()
    assert service.games.view(None, gid)["version"] == 0  # not before the deadline
    time.sleep(0.35)
    assert runner.enforce_clocks() == 1
    after = service.games.view(token, gid)
    assert after["version"] == 1 and seat not in after["to_move"]
    events = service.feeds.events(None, gid)["events"]
    timeout = [e for e in events if e["kind"] == "timeout"]
    assert [e["data"] for e in timeout] == [{"seat": seat, "timeouts": 1, "action": "default_move"}]
    played = [e["data"] for e in events if e["kind"] == "play"]
    assert played[0]["seat"] == seat and played[0]["card"][0] == lowest[0]
    # the next seat has a fresh deadline, later than the first one
    assert service.games.view(None, gid)["deadline"] > deadline
    # then the players take over and the tournament ends normally
    with scheduler(service):
        play_out(tours, tid, Movers(service, players, seed=2))
    assert assert_exactly_once(service, tours, tid)["status"] == "finished"


def test_a_sleeping_entry_gets_default_moves_then_forfeits(service, tours):
    players = register(service, 6)
    asleep = [players[0]["id"], players[1]["id"]]  # entry e1
    tid = make_tournament(
        tours,
        players,
        seats_per_entry=2,
        game="concerto",
        format="round_robin",
        options=SHORT,
        clock={"move_seconds": 0.15},
        timeout_policy={"kind": "forfeit", "after": 2},
    )
    with scheduler(service):
        shown = play_out(tours, tid, Movers(service, players, seed=6, asleep=asleep))
    assert_exactly_once(service, tours, tid)
    e1_tables = [t for rd in shown["rounds"] for t in rd["tables"] if "e1" in t["entries"]]
    assert len(e1_tables) == 2
    for t in e1_tables:
        assert t["status"] == "forfeited" and t["result"]["forfeit"] == "e1"
        assert t["result"]["ranks"][t["entries"].index("e1")] == 1  # last
        view = service.games.view(None, t["game_id"])
        assert view["status"] == "aborted" and view["result"]["termination"] == "forfeit"
        assert view["to_move"] == [] and view["legal_moves"] == []
        timeouts = [
            e["data"]
            for e in service.feeds.events(None, t["game_id"])["events"]
            if e["kind"] == "timeout"
        ]
        # the seat that forfeited: one default move, then the forfeit on its 2nd timeout
        seat = view["result"]["forfeit"]
        assert [d["action"] for d in timeouts if d["seat"] == seat] == ["default_move", "forfeit"]
        assert all(t["seats"][d["seat"]] == "e1" for d in timeouts)  # only sleepers time out
    table = shown["standings"]
    assert table[-1]["entry"] == "e1" and table[-1]["points"] == 0.5  # its bye only
    # its players left the games they forfeited: no turns are waiting for them
    assert service.feeds.turns(players[0]["token"]) == {"turns": []}


def test_a_move_after_its_deadline_is_refused(service, tours):
    players = register(service, 4)
    _, gid = _start_clocked(service, tours, players, clock={"move_seconds": 0.1})
    view = service.games.view(None, gid)
    (seat,) = view["to_move"]
    token = next(p["token"] for p in players if p["id"] == view["seats"][seat]["player_id"])
    move = service.games.view(token, gid)["legal_moves"][0]
    time.sleep(0.15)
    with pytest.raises(DeadlinePassed) as caught:
        service.games.move(token, gid, move, 0)
    assert caught.value.details["deadline"] == view["deadline"]
    assert service.games.view(None, gid)["version"] == 0  # nothing changed
    Runner(service).enforce_clocks()
    assert service.games.view(None, gid)["version"] == 1  # the clock moved instead


# --------------------------------------------------------------------------- concurrency


def test_two_schedulers_at_once_do_the_work_of_one(service, tours, redis_server):
    players = register(service, 8)
    tid = make_tournament(
        tours,
        players,
        seats_per_entry=2,
        game="concerto",
        format="round_robin",
        options=SHORT,
        clock={"move_seconds": 30},
    )
    other = Services(connect(redis_server.url), admin_token=ADMIN_TOKEN)
    movers = Movers(service, players, seed=8)
    with scheduler(service, interval=0.001), scheduler(other, interval=0.001):
        play_out(tours, tid, movers)
    shown = assert_exactly_once(service, tours, tid)
    assert len(all_game_ids(service.core.r)) == 6  # no game created twice
    assert len(service.core.r.hkeys(keys.tournament_results(tid))) == 6
    expected = entry_points_from_games(service, shown)
    assert {s["entry"]: s["points"] for s in shown["standings"]} == pytest.approx(expected)

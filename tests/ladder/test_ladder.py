"""A ladder played by house bots in-process: strength shows on the leaderboard, away and
timing-out entries are left out, and concurrent schedulers never duplicate a game or a
rating. Every game is real (Redis, engines, clocks); only HTTP is skipped."""

from __future__ import annotations

import random
import threading
import time
from collections import Counter
from collections.abc import Sequence

import pytest

from bots import concerto_greedy, concerto_search, concerto_signals, uniform
from server.games import GameError
from server.processes.scheduler import Runner
from server.services.bundle import Services
from server.services.ladders import pool
from server.services.rounds import table_game_id
from server.store import connect, keys
from server.store import ladders as ladder_store
from tests.conftest import ADMIN_TOKEN
from tests.ladder.support import HouseBots, play_rounds, rated_per_player, seeded_ids
from tests.scheduler.support import all_game_ids, register


def _players(match: dict) -> set[str]:
    """Every player of a ladder match (a duplicate board seats other players at each table)."""
    return {p for side in match["sides"] for p in side}


def make_ladder(service: Services, players, **settings) -> str:
    settings = {"game": "concerto", "options": {"deals": 1}} | settings
    ladder = service.ladders.create(ADMIN_TOKEN, **settings)
    for p in players:
        service.ladders.join(p["token"], ladder["id"])
    return ladder["id"]


def rated(service: Services, ladder_id: str) -> int:
    return service.core.r.scard(keys.ratings_applied(pool(ladder_id)))


def idle_wait(r) -> float:
    """Seconds to sleep when no bot could move: until the earliest move clock runs out
    (a silent seat: the next pass moves for it), within 20 to 100 ms. Waking every 20 ms
    instead polled each entry five times per 100 ms clock, for nothing."""
    first = r.zrange(keys.deadlines(), 0, 0, withscores=True)
    if not first:
        return 0.02
    return min(0.1, max(0.02, first[0][1] - time.time() + 0.001))


def run_until(runner: Runner, bots: HouseBots, done, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, "timed out"
        runner.tick()
        if not bots.step():
            time.sleep(idle_wait(bots.service.core.r))  # a clock or a pause: let others run


def search_bot(rng: random.Random) -> concerto_search.SearchBot:
    """The search bot on a small budget that is not a clock: two sampled worlds per
    decision (``budget_ms=0`` with ``min_worlds = max_worlds = 2``), so its play depends
    on its seed alone. With two worlds as with four the leaderboard below has 12 or
    fewer inversions (four: 11, two: 12; the bound is 16, the same p-value), and the
    test costs a sixth less CPU (20 CPU-s with four worlds, 17 with two)."""
    return concerto_search.SearchBot(rng, budget_ms=0, min_worlds=2, max_worlds=2)


KINDS = {
    "search": search_bot,
    "signals": concerto_signals.make_bot,
    "greedy": concerto_greedy.make_bot,
    "random": uniform.make_bot,
}


def inversions(tiers: Sequence[int]) -> int:
    """Pairs of entries out of order: a higher tier number (weaker) listed first.

    >>> inversions([0, 1, 0, 2, 1])
    2
    """
    return sum(a > b for i, a in enumerate(tiers) for b in tiers[i + 1 :])


def arrangements(counts: Sequence[int], most: int) -> int:
    """How many arrangements of tiers of these sizes have at most ``most`` inversions: the
    first terms of the Gaussian multinomial coefficient, built one place at a time.

    >>> arrangements([1, 1], 0), arrangements([1, 1], 1), arrangements([2, 2], 1)
    (1, 2, 2)
    """
    by_count: Counter[tuple[tuple[int, ...], int]] = Counter({(tuple(counts), 0): 1})
    for _ in range(sum(counts)):  # choose the tier of the last place still free
        nxt: Counter[tuple[tuple[int, ...], int]] = Counter()
        for (left, inv), ways in by_count.items():
            for t, n in enumerate(left):
                if n:
                    rest = (*left[:t], n - 1, *left[t + 1 :])
                    nxt[rest, inv + sum(rest[t + 1 :])] += ways  # weaker ones still before
        by_count = nxt
    return sum(ways for (_, inv), ways in by_count.items() if inv <= most)


def test_house_bots_of_known_strength_rank_in_tiers(redis_client, redis_server, monkeypatch):
    """Sixteen house bots, four of each kind (search, signals, greedy, random), on a
    Concerto ladder of solo entries (partners formed board by board), 32 duplicate
    boards of one deal (two teams of two pairs, eight players a board, nobody at both
    tables) played in rounds (:func:`play_rounds`). Seeds fixed: the player
    and ladder ids (so the pairings and the deals), the seed secret and the bots; two
    runs give the same leaderboard.

    Tiers: search and signals (8 entries) above greedy (4) above random (4). Criterion:
    of the 8*4 + 8*4 + 4*4 = 80 pairs of entries of different tiers, at most 16 are
    inverted on the leaderboard (the weaker one ranked above). Null hypothesis: the
    kinds are equally strong, so all 16!/(8! 4! 4!) = 900,900 arrangements of the
    tiers on the leaderboard are equally likely; 7,977 have at most 16 inversions
    (:func:`arrangements`): p = 0.89% < 1%.
    """
    seeded_ids(monkeypatch, "ladder-strength")
    service = Services(connect(redis_server.url), admin_token=ADMIN_TOKEN, seed_secret="ladder")
    kinds = [k for _ in range(4) for k in KINDS]
    players = register(service, len(kinds))
    ladder_id = make_ladder(
        service,
        players,
        clock={"move_seconds": 600},  # no move is ever timed: nothing depends on time
        seen_seconds=600,
        rematch_seconds=0,
    )
    bots = HouseBots(service, players, [KINDS[k] for k in kinds], seed=7)
    play_rounds(Runner(service), bots, lambda: rated(service, ladder_id) >= 32)
    board = service.ladders.leaderboard(ladder_id)["leaderboard"]
    kind = {p["id"]: k for p, k in zip(players, kinds, strict=True)}
    assert len(board) == 16, board  # every entry rated (an empty board would pass the rest)
    tier = {"search": 0, "signals": 0, "greedy": 1, "random": 2}
    tiers = [tier[kind[row["player_id"]]] for row in board]
    assert arrangements([8, 4, 4], 16) / 900_900 < 0.01
    assert inversions(tiers) <= 16, [(kind[r["player_id"]], r["ordinal"]) for r in board]
    assert all(row["games"] == 16 for row in board)  # two boards of eight, every round
    assert bots.refused == 0


def test_an_entry_that_stops_polling_is_not_paired_until_it_comes_back(service):
    players = register(service, 5)
    ladder_id = make_ladder(
        service,
        players,
        seen_seconds=0.3,
        clock={"move_seconds": 0.2},
        pause_after=100,
        rematch_seconds=0.0,  # four of five free at a time: no one to wait for
    )
    bots = HouseBots(service, players, [uniform.make_bot] * 5, seed=1)
    runner = Runner(service)
    away = players[0]["id"]
    bots.asleep.add(away)
    run_until(runner, bots, lambda: rated(service, ladder_id) >= 3)
    matches = ladder_store.all_matches(service.core.r, ladder_id)
    assert all(away not in _players(m) for m in matches.values())  # never seen: never paired
    assert service.ladders.entry(ladder_id, away)["status"] == "away"

    bots.asleep = {players[1]["id"]}  # one leaves its loop, the other comes back
    stopped = time.time()
    before = len(matches)
    run_until(runner, bots, lambda: rated(service, ladder_id) >= before + 3)
    matches = ladder_store.all_matches(service.core.r, ladder_id)
    later = [m for n, m in matches.items() if m["created"] > stopped + 0.3 + 0.05]
    assert later and all(players[1]["id"] not in _players(m) for m in later)
    assert any(away in _players(m) for m in later)  # back, and paired again


PAUSE = 15.0
"""Seconds a timed-out entry is paused: long enough for the others' last board with
it to end and a board without it to start, even on a loaded host."""


def test_an_entry_that_times_out_is_paused_and_resumes_when_it_plays_again(service):
    players = register(service, 5)
    ladder_id = make_ladder(
        service,
        players,
        clock={"move_seconds": 0.1},
        pause_after=2,
        pause_seconds=PAUSE,
        rematch_seconds=0.0,
        max_games=1,  # one game at a time (five entries: ordinary games, no boards)
    )
    bots = HouseBots(service, players, [uniform.make_bot] * 5, seed=2)
    slow = players[0]["id"]
    bots.silent.add(slow)
    runner = Runner(service)

    def paused() -> bool:
        return service.ladders.entry(ladder_id, slow)["status"] == "paused"

    run_until(runner, bots, paused)
    entry = service.ladders.entry(ladder_id, slow)
    assert "timed out in its last 2 games" in entry["paused_reason"]
    assert entry["health"]["timeout_streak"] >= 2 and entry["health"]["timeouts"] > 0
    shown = {e["player_id"]: e for e in service.ladders.show(ladder_id)["entries"]}
    assert shown[slow]["status"] == "paused"
    until = entry["paused_until"]
    paused_at = until - PAUSE  # when its last timed-out game was recorded

    def others_matched() -> bool:  # the others go on without it while it is paused
        found = ladder_store.all_matches(service.core.r, ladder_id).values()
        return any(m["created"] >= paused_at and slow not in _players(m) for m in found)

    run_until(runner, bots, others_matched)  # (their last board with it may end late)
    matches = ladder_store.all_matches(service.core.r, ladder_id)
    while_paused = [m for m in matches.values() if paused_at <= m["created"] < until]
    assert while_paused and all(slow not in _players(m) for m in while_paused)

    # The rest of the pause is waited out idle (no pass, no poll): playing on meanwhile
    # showed nothing more and cost most of the test's CPU. The others' game stands still
    # meanwhile; the next pass makes one default move in it, a single timeout (the
    # others' pauses need two in a row, and even one paused other leaves a table).
    time.sleep(max(0.0, until - time.time()))
    bots.silent.clear()  # it plays again: after the pause it is paired, and playing in time
    run_until(
        runner,
        bots,
        lambda: service.ladders.entry(ladder_id, slow)["health"]["timeout_streak"] == 0,
    )
    # resumed: no longer paused (it may be at its next game already)
    assert service.ladders.entry(ladder_id, slow)["status"] in ("available", "playing", "away")


def test_two_schedulers_at_once_create_each_game_and_rate_each_match_once(service):
    players = register(service, 8)
    ladder_id = make_ladder(service, players, clock={"move_seconds": 5})
    bots = HouseBots(service, players, [uniform.make_bot] * 8, seed=3)
    stop = threading.Event()
    runners = [Runner(service, interval=0.0) for _ in range(2)]
    threads = [threading.Thread(target=r.run, args=(stop,), daemon=True) for r in runners]
    for t in threads:
        t.start()
    try:
        deadline = time.monotonic() + 30
        while rated(service, ladder_id) < 10:
            assert time.monotonic() < deadline, "timed out"
            bots.step()
    finally:
        stop.set()
        for t in threads:
            t.join(10)
    r = service.core.r
    matches = ladder_store.all_matches(r, ladder_id)
    games, results = ladder_store.all_results(r, ladder_id)
    expected = {
        ladder_store.slot(n, t): table_game_id(f"ladder:{ladder_id}", n, t)
        for n, m in matches.items()
        for t in range(len(m["tables"]))
    }
    assert {k: v for k, v in games.items()} == {k: expected[k] for k in games}
    assert set(all_game_ids(r)) == set(games.values())  # no stray game
    for game_id in games.values():  # each created once: one move record per version
        view = service.games.view(ADMIN_TOKEN, game_id)  # a board still in play: admin only
        assert r.hlen(keys.game_moves(game_id)) == view["version"]
    # concurrent games of one player never exceed the cap (2: a table of two boards)
    for n, m in matches.items():
        live = Counter(
            p
            for k, o in matches.items()
            if k <= n
            for t, seats in enumerate(o["tables"])
            if results.get(ladder_store.slot(k, t), {}).get("ended", 1e18) > m["created"]
            for p in seats
        )
        assert max(live.values()) <= 2
    per_player = rated_per_player(r, ladder_id, matches)
    board = service.ladders.leaderboard(ladder_id)["leaderboard"]
    assert {row["player_id"]: row["games"] for row in board} == dict(per_player)


def test_response_times_and_refused_moves_are_shown_per_entry(service):
    players = register(service, 4)
    ladder_id = make_ladder(service, players, clock={"move_seconds": 5})
    bots = HouseBots(service, players, [uniform.make_bot] * 4, seed=4)
    runner = Runner(service)
    bots.step()
    runner.tick()  # the four are seen waiting: too few for a duplicate board, one game starts
    turns = {p["id"]: service.feeds.turns(p["token"])["turns"] for p in players}
    mover = next(p for p in players if turns[p["id"]])
    turn = turns[mover["id"]][0]
    with pytest.raises(GameError):
        service.games.move(mover["token"], turn["game_id"], {"type": "hop"}, turn["version"])
    time.sleep(0.05)  # every reply below is at least this slow
    run_until(runner, bots, lambda: rated(service, ladder_id) >= 1)
    health = service.ladders.entry(ladder_id, mover["id"])["health"]
    assert health["refused_moves"] == 1
    assert health["response_samples"] > 0
    assert 50 <= health["response_p99"] < 5000  # ms: the slow first move, within the clock
    assert health["response_p50"] <= health["response_p99"]
    others = [service.ladders.entry(ladder_id, p["id"])["health"] for p in players]
    assert sum(h["refused_moves"] for h in others) == 1


def test_only_entrants_are_kept_as_seen_waiting_and_leaving_prunes_them(service):
    """Every ``/me/turns`` marks its caller seen, but only a player on some ladder is kept,
    and one that leaves its last ladder is dropped: the record never outgrows the entries."""
    players = register(service, 3)
    ids = [p["id"] for p in players]
    ladder_id = make_ladder(service, players[:2])
    other = make_ladder(service, players[1:2])
    for p in players:
        service.feeds.turns(p["token"])
    r = service.core.r
    assert set(ladder_store.last_seen(r, ids)) == set(ids[:2])  # not the one on no ladder
    assert service.ladders.entry(ladder_id, ids[0])["status"] == "available"
    service.ladders.leave(players[0]["token"], ladder_id)
    service.ladders.leave(players[1]["token"], ladder_id)  # still on the other ladder
    for p in players:
        service.feeds.turns(p["token"])
    assert set(ladder_store.last_seen(r, ids)) == {ids[1]}
    assert service.ladders.entry(other, ids[1])["status"] == "available"


def test_a_pass_reads_the_open_matches_only_not_the_history(service):
    """The scheduler reads a ladder every pass: what it reads must not grow with the
    ladder's age. After six rated matches, the record holds the games and results of
    the matches still open, and none of the finished ones (their history stays whole
    for the leaderboard)."""
    players = register(service, 4)
    ladder_id = make_ladder(service, players, rematch_seconds=0.0)
    bots = HouseBots(service, players, [uniform.make_bot] * 4, seed=3)
    runner = Runner(service)
    run_until(runner, bots, lambda: rated(service, ladder_id) >= 6)
    record = ladder_store.read(service.core.r, ladder_id)
    assert record is not None
    open_slots = {
        ladder_store.slot(n, t) for n, m in record.open.items() for t in range(len(m["tables"]))
    }
    assert set(record.games) <= open_slots
    assert set(record.results) <= open_slots
    _, results = ladder_store.all_results(service.core.r, ladder_id)
    assert len(results) >= 6 > len(record.results)  # the history is all still there


def test_a_six_player_pinochle_ladder_seats_the_game_s_two_teams(service):
    """Double-deck Pinochle for six is two teams of three seated alternately (pinochle.md
    P2): the ladder's default sides are those teams. A duplicate board seats twelve
    players at two tables, nobody at both: each of the board's two teams is two such
    sides, one on the even seats of one table and one on the odd seats of the other;
    the board is rated."""
    players = register(service, 12)
    ladder_id = make_ladder(
        service,
        players,
        game="pinochle",
        options={"variant": "double-deck", "max_deals": 1},
        table_size=6,
        clock={"move_seconds": 5},
        rematch_seconds=0.0,
    )
    bots = HouseBots(service, players, [uniform.make_bot] * 12, seed=6)
    bots.step()  # all twelve seen waiting before the first pass: one board, no ordinary game
    run_until(Runner(service), bots, lambda: rated(service, ladder_id) >= 1, timeout=60)
    matches = ladder_store.all_matches(service.core.r, ladder_id).values()
    match = next(m for m in matches if len(m["tables"]) == 2)
    teams = [tuple(side) for side in match["sides"]]
    assert sorted(map(len, teams)) == [6, 6] and len(match["tables"]) == 2
    x, y = match["tables"]
    assert not set(x) & set(y)  # nobody at both tables of the board
    halves = {frozenset(team[h * 3 : h * 3 + 3]) for team in teams for h in (0, 1)}
    for table in (x, y):  # each table: a half of each team, seated alternately
        assert {frozenset(table[0::2]), frozenset(table[1::2])} <= halves
    first, second = frozenset(teams[0][:3]), frozenset(teams[0][3:])
    assert frozenset(x[0::2]) == first and frozenset(y[1::2]) == second  # team 0 at both


def test_a_house_bot_that_times_out_is_never_paused(service):
    """House bots are the ladder's anchors: a timeout of theirs is the server's load, and
    pausing them would leave the bots that joined with nobody to play (docs/ladder.md)."""
    (pool_bot,) = service.apps.ensure_bots(
        ADMIN_TOKEN, [{"name": "random", "games": None, "count": 4}]
    )["bots"]
    house = pool_bot["players"]
    ladder_id = make_ladder(
        service,
        house,
        clock={"move_seconds": 0.1},
        pause_after=2,
        pause_seconds=60.0,
        rematch_seconds=0.0,
        max_games=1,
    )
    bots = HouseBots(service, house, [uniform.make_bot] * 4, seed=3)
    slow = house[0]["id"]
    bots.silent.add(slow)
    runner = Runner(service)
    run_until(
        runner,
        bots,
        lambda: service.ladders.entry(ladder_id, slow)["health"]["timeout_streak"] >= 3,
    )
    entry = service.ladders.entry(ladder_id, slow)
    assert entry["house"] is True
    assert entry["status"] != "paused" and entry["paused_reason"] is None
    before = ladder_store.read(service.core.r, ladder_id).matches_count
    run_until(  # and it is matched again at once
        runner, bots, lambda: ladder_store.read(service.core.r, ladder_id).matches_count > before
    )

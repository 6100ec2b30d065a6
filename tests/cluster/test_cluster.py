"""Parlour unchanged on a Redis Cluster of three masters (``REDIS_URL=redis+cluster://...``).

The whole stack — ``parlour serve`` (gunicorn), ``parlour scheduler`` and bots over
HTTP — plays a casual game and a short tournament through the cluster; a second
test drives the move clocks (the timeout scripts, the deadline index) and a blocking
event long-poll. Keys of one game, player or tournament share a hash tag, so every
script and transaction stays in one slot (the cluster refuses anything else with
CROSSSLOT), and the data ends up spread over all three nodes.
"""

from __future__ import annotations

import threading
import time

import pytest
import requests
from redis import Redis
from redis.cluster import RedisCluster
from redis.crc import key_slot

from server.processes.scheduler import Runner
from server.services.bundle import Services
from server.store import connect, is_cluster_url, keys
from server.store.connection import cluster_nodes as parse_cluster_url
from tests.conftest import ADMIN_TOKEN as TEST_ADMIN
from tests.faults.bots import (
    SHOW_EVERY,
    HttpBots,
    admin,
    open_tournament,
    register,
    show,
    start,
    wait_until,
)
from tests.faults.procs import ADMIN_TOKEN, ApiProc, SchedulerProc, running
from tests.scheduler.support import all_game_ids, assert_exactly_once, make_tournament


def test_cluster_urls():
    assert is_cluster_url("redis+cluster://127.0.0.1:7000")
    assert is_cluster_url("REDISS+CLUSTER://h:1")
    assert not is_cluster_url("redis://127.0.0.1:6379/0")
    assert not is_cluster_url("unix:///tmp/redis.sock")
    assert parse_cluster_url("rediss+cluster://:pw@a:7000,[::1]:7001") == (
        "rediss",
        [("a", 7000), ("::1", 7001)],
        None,
        "pw",
    )
    assert parse_cluster_url("redis+cluster://node") == ("redis", [("node", 6379)], None, None)
    assert isinstance(connect("redis://127.0.0.1:1/0"), Redis)  # lazy: nothing listens there


@pytest.mark.parametrize("tag", ["g1", "f00dbabe", "x"])
def test_the_keys_of_one_thing_share_a_slot(tag):
    groups = [
        [
            keys.game_state(tag),
            keys.game_seats(tag),
            keys.game_events(tag),
            keys.game_moves(tag),
            keys.game_clock(tag),
        ],
        [keys.player(tag), keys.player_games(tag), keys.player_wake(tag)],
        [
            keys.tournament(tag),
            keys.tournament_entries(tag),
            keys.tournament_players(tag),
            keys.tournament_rounds(tag),
            keys.tournament_games(tag),
            keys.tournament_results(tag),
            keys.tournament_voids(tag),
        ],
        [
            keys.ratings(tag),
            keys.ratings_applied(tag),
            keys.ratings_after(tag),
            keys.rating_history(tag, "p1"),
        ],
        [keys.metrics_counters(), keys.metrics_waiting()],
    ]
    for group in groups:
        assert len({key_slot(k.encode()) for k in group}) == 1, group


def keys_by_node(nodes) -> dict[int, set[bytes]]:
    """Every key each node holds, by port (each node lists only its own keys): one SCAN
    of each node, not one per key looked up."""
    held: dict[int, set[bytes]] = {}
    for n in nodes:
        client = n.client()
        try:
            held[n.port] = set(client.scan_iter(count=1000))
        finally:
            client.close()
    return held


def node_of(held: dict[int, set[bytes]], key: str) -> list[int]:
    """The ports of the nodes holding ``key``."""
    return [port for port, found in held.items() if key.encode() in found]


def test_the_whole_stack_on_a_cluster(tmp_path, cluster, cluster_nodes):
    api = ApiProc(cluster, tmp_path, workers=2)
    sched = SchedulerProc(cluster, tmp_path)
    with running(api, sched):
        api.start()
        sched.start()
        players = register(api.url, 8)
        casual = requests.post(
            f"{api.url}/v1/games",
            headers=admin(api.url),
            timeout=10,
            json={
                "game": "concerto",
                "options": {"deals": 1},
                "seats": [p["id"] for p in players[:4]],
            },
        ).json()["id"]
        tid = open_tournament(api.url, players)
        start(api.url, tid)
        bots = HttpBots([api.url], players).start()
        try:
            wait_until(
                lambda: (show(api.url, tid) or {}).get("status") == "finished",
                60,
                "the tournament",
                SHOW_EVERY,
            )
            wait_until(
                lambda: (
                    requests.get(f"{api.url}/v1/games/{casual}", timeout=5).json()["status"]
                    == "finished"
                ),
                30,
                "the casual game",
                SHOW_EVERY,
            )
        finally:
            bots.stop()
        assert not bots.unexpected and not bots.refused, (bots.unexpected[:3], bots.refused)

        replay = requests.get(f"{api.url}/v1/games/{casual}/replay", timeout=5).json()
        assert replay["revealed"] and replay["events"][-1]["kind"] == "game_over"
        metrics = requests.get(f"{api.url}/metrics", timeout=5).text
        assert "parlour_games_live 0" in metrics

    service = Services(connect(cluster), admin_token=ADMIN_TOKEN)
    assert isinstance(service.core.r, RedisCluster)
    shown = assert_exactly_once(service, service.tournaments, tid)
    games = all_game_ids(service.core.r)
    assert games == {casual} | {t["game_id"] for rd in shown["rounds"] for t in rd["tables"]}
    held = keys_by_node(cluster_nodes)
    for gid in games:  # each game's keys together on one node...
        (port,) = node_of(held, keys.game_state(gid))
        assert node_of(held, keys.game_events(gid)) == [port]
        assert node_of(held, keys.game_moves(gid)) == [port]
    for node in cluster_nodes:  # ...and the data spread over every node
        assert node.client().dbsize() > 0


def test_clocks_and_long_polls_on_a_cluster(cluster):
    """Nobody moves: the scheduler's timeouts play a whole tournament game (the timeout
    and arming scripts, the deadline index), and a blocked event long-poll wakes up."""
    service = Services(connect(cluster, block_timeout=5), admin_token=TEST_ADMIN, max_wait=5)
    tours = service.tournaments
    players = [service.players.register(None, f"p{i}") for i in range(4)]
    tid = make_tournament(
        tours,
        players,
        seats_per_entry=2,
        game="concerto",
        format="round_robin",
        options={"deals": 1},
        clock={"move_seconds": 30},
    )
    runner = Runner(service)
    runner.tick()
    (table,) = tours.show(tid)["rounds"][0]["tables"]
    gid = table["game_id"]
    first = service.feeds.events(None, gid)["last"]

    woken: dict = {}
    waiter = threading.Thread(
        target=lambda: woken.update(
            service.feeds.events(None, gid, after=first, wait=5), at=time.monotonic()
        )
    )
    waiter.start()
    time.sleep(0.3)  # the waiter is blocked in XREAD on the game's node
    assert "at" not in woken
    timed_out = time.monotonic()
    now = time.time() + 60  # a clock of our own: a timeout's fresh deadline is now + 30 s
    assert runner.enforce_clocks(now) >= 1
    waiter.join(10)
    assert woken["events"] and woken["events"][0]["kind"] == "timeout"
    assert woken["at"] - timed_out < 2  # woken by the timeout, not by the end of its wait

    for _ in range(200):
        if tours.show(tid)["status"] == "finished":
            break
        now += 60
        runner.enforce_clocks(now)
        runner.tick()
    assert service.games.view(None, gid)["status"] == "finished"
    assert_exactly_once(service, tours, tid)
    assert service.core.r.zcard(keys.deadlines()) == 0

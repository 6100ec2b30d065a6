"""A sandbox worker killed mid-turn loses nothing: its turn stays pending, another worker
claims it once idle, and the game is played to its end, each turn once."""

from __future__ import annotations

import time

from server.processes.sandboxd import SandboxWorker
from server.processes.scheduler import Runner
from server.services.bundle import Services
from server.store import connect
from tests.api.helpers import Api

from .support import LIMITS, sh_bot


def test_a_turn_taken_by_a_dead_worker_is_claimed_and_played(
    api: Api, players, can_sandbox, redis_server
):
    services = Services(connect(redis_server.url), admin_token=None)
    services.hosted.heartbeat("a host", True, "", 0)  # bots may be made; no worker runs yet
    owners = [players.register(f"o{i}") for i in range(2)]
    club = api.post(
        "/v1/tournaments",
        {"game": "concerto", "format": "round_robin", "options": {"deals": 1}},
        owners[0],
    ).body
    for owner in owners:
        bot = api.post(
            "/v1/me/bots", {"name": "b", "kind": "hosted", "bundle": sh_bot()}, owner
        ).body
        body = {"tournament_id": club["id"], "seats": 2}
        assert api.post(f"/v1/me/bots/{bot['id']}/tournaments", body, owner).status == 201
    assert api.post(f"/v1/tournaments/{club['id']}/start", {}, owners[0]).status == 200
    runner = Runner(services, interval=0)
    runner.tick()  # the round's one game is made, its first turn queued
    (game_id,) = [
        t["game_id"] for t in api.get(f"/v1/tournaments/{club['id']}").body["rounds"][0]["tables"]
    ]
    # a worker takes the first turn and dies with it (kill -9: no ack, nothing played)
    services.hosted.start()
    (taken,) = services.hosted.take("killed", 10, 0)
    assert taken.game_id == game_id and services.hosted.pending() == 1
    first = api.view(game_id)["version"]
    heir = SandboxWorker(services.hosted, seats=4, limits=LIMITS, claim_idle=0.3)
    try:
        deadline = time.monotonic() + 60
        while api.view(game_id)["status"] != "finished":
            assert time.monotonic() < deadline
            heir.tick(block=0.05)
            runner.tick()
        assert api.view(game_id)["version"] > first
        assert services.hosted.pending() == 0  # every turn acked, the dead one's too
        heir.close_over()
        assert heir.live == 0  # the game over, its seats closed
    finally:
        heir.close()

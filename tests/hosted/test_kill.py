"""A sandbox worker killed mid-turn loses nothing: its turn stays pending, another worker
claims it once idle, and the game is played to its end, each turn once."""

from __future__ import annotations

import time

from server.processes.sandboxd import SandboxWorker
from server.processes.scheduler import Runner
from server.services.bot_health import FAILED_TURNS
from server.services.bundle import Services
from server.store import connect
from tests.api.helpers import Api

from .support import FIRST_LEGAL_SH, LIMITS, sh_bot


def one_game(api: Api, players, services: Services, *scripts: str) -> tuple[str, list]:
    """One Concerto game of two hosted bots (one a side) of ``scripts``, started: its id
    and the bots' (owner, bot)."""
    services.hosted.heartbeat("a host", True, "", 0)  # bots may be made; no worker runs yet
    owners = [players.register(f"o{i}") for i in range(2)]
    club = api.post(
        "/v1/tournaments",
        {"game": "concerto", "format": "round_robin", "options": {"deals": 1}},
        owners[0],
    ).body
    made = []
    for owner, script in zip(owners, scripts, strict=True):
        bot = api.post(
            "/v1/me/bots", {"name": "b", "kind": "hosted", "bundle": sh_bot(script)}, owner
        ).body
        body = {"tournament_id": club["id"], "seats": 2}
        assert api.post(f"/v1/me/bots/{bot['id']}/tournaments", body, owner).status == 201
        made.append((owner, bot))
    assert api.post(f"/v1/tournaments/{club['id']}/start", {}, owners[0]).status == 200
    Runner(services, interval=0).tick()  # the round's one game is made, its first turn queued
    (game_id,) = [
        t["game_id"] for t in api.get(f"/v1/tournaments/{club['id']}").body["rounds"][0]["tables"]
    ]
    return game_id, made


def play_out(api: Api, services: Services, game_id: str, worker: SandboxWorker) -> None:
    runner = Runner(services, interval=0)
    deadline = time.monotonic() + 60
    while api.view(game_id)["status"] != "finished":
        assert time.monotonic() < deadline
        worker.tick(block=0.05)
        runner.tick()


def test_a_turn_taken_by_a_dead_worker_is_claimed_and_played(
    api: Api, players, can_sandbox, redis_server
):
    services = Services(connect(redis_server.url), admin_token=None)
    game_id, _ = one_game(api, players, services, FIRST_LEGAL_SH, FIRST_LEGAL_SH)
    # a worker takes the first turn and dies with it (kill -9: no ack, nothing played)
    services.hosted.start()
    (taken,) = services.hosted.take("killed", 10, 0)
    assert taken.game_id == game_id and services.hosted.pending() == 1
    first = api.view(game_id)["version"]
    heir = SandboxWorker(services.hosted, seats=4, limits=LIMITS, claim_idle=0.3)
    try:
        play_out(api, services, game_id, heir)
        assert api.view(game_id)["version"] > first
        # every turn acked, the dead one's too: a turn left stale by the game's end (the
        # clock's move, the last move) is acked when the heir next takes or claims it
        deadline = time.monotonic() + 10
        while services.hosted.pending() and time.monotonic() < deadline:
            heir.tick(block=0.05)
        assert services.hosted.pending() == 0
        heir.close_over()
        assert heir.live == 0  # the game over, its seats closed
    finally:
        heir.close()


def test_a_crashing_bot_gets_the_default_move_and_a_restart_every_turn(
    api: Api, players, can_sandbox, redis_server
):
    services = Services(connect(redis_server.url), admin_token=None)
    crash = 'read -r line; echo "I give up" >&2; exit 3\n'
    game_id, made = one_game(api, players, services, crash, FIRST_LEGAL_SH)
    worker = SandboxWorker(services.hosted, seats=4, limits=LIMITS)
    try:
        play_out(api, services, game_id, worker)  # the game ends all the same
    finally:
        worker.close()
    (crasher_owner, crasher), (good_owner, good) = made
    bad = api.get(f"/v1/me/bots/{crasher['id']}/games/{game_id}", crasher_owner).body["seats"]
    fine = api.get(f"/v1/me/bots/{good['id']}/games/{game_id}", good_owner).body["seats"]
    assert len(bad) == len(fine) == 2
    assert all(set(s["failures"]) == {"crash"} and s["failures"]["crash"] >= 1 for s in bad)
    assert all("I give up" in s["stderr"] for s in bad), bad
    assert all(s["failures"] == {} for s in fine)
    # the crasher's seats made only default moves, one a turn: its turns counted
    turns = sum(s["failures"]["crash"] for s in bad)
    assert turns >= 4  # a Concerto deal asks each seat more than once
    # its health: every turn failed, one run over both seats (five pause it); the other's is ok
    health = api.get(f"/v1/me/bots/{crasher['id']}", crasher_owner).body["health"]
    assert health["failed_turns_in_a_row"] == turns >= FAILED_TURNS  # a deal: 26 a seat
    assert (
        health["status"] == "paused" and "5 failed turns in a row (last: crash" in health["reason"]
    )
    assert "I give up" not in (health["reason"] or "")  # its stderr waits for the seat log
    fine_health = api.get(f"/v1/me/bots/{good['id']}", good_owner).body["health"]
    assert fine_health["status"] == "ok" and fine_health["failed_turns_in_a_row"] == 0

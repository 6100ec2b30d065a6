"""Stop and restart ``parlour serve`` (gunicorn + its embedded Redis with AOF) mid-game.

The game continues from the last accepted move: same version, same hands, same
events, and the same tokens still work.

The server runs with its scheduler but without its bot pool, webhook deliverer and
callback dispatcher: no seat here is a house bot's or a callback player's and no app
is registered, so they would only start up (and the pool's house bots play ladder games
of their own) for nothing. The stop of the whole stack is tests/docs/test_serve_console.py's.
"""

from __future__ import annotations

import random

from server.processes.served import Served, free_port
from tests.api.helpers import Api
from tests.api.play import play_random_moves
from tests.conftest import Player

ONLY_THE_SCHEDULER = ("--no-botpool", "--no-webhooks", "--no-dispatch")


def test_game_survives_a_restart(tmp_path):
    data_dir = tmp_path / "var"
    port = free_port()
    server = Served(data_dir, port, options=ONLY_THE_SCHEDULER)
    try:
        api = Api(base_url=server.url)
        four = []
        for i in range(4):
            body = api.post("/v1/players", {"name": f"p{i}"}).body
            four.append(Player(body["id"], body["name"], body["token"]))
        created = api.create(server.admin_token, [p.id for p in four], seed="restart")
        gid = created["id"]
        before = play_random_moves(api, gid, four, random.Random(4), limit=12)
        views = [api.view(gid, p) for p in four]
        events = api.get(f"/v1/games/{gid}/events", four[0]).body
        api.session.close()  # idle keep-alive connections would hold the graceful stop
    finally:
        assert server.stop() == 0
    assert before["version"] == 12
    assert list(data_dir.glob("appendonly*")), "no AOF written"
    redis_socket = data_dir / "redis.sock"
    assert not redis_socket.exists()  # the embedded Redis stopped with the server

    server = Served(data_dir, port, admin_token=server.admin_token, options=ONLY_THE_SCHEDULER)
    try:
        api = Api(base_url=server.url)
        assert [api.view(gid, p) for p in four] == views
        assert api.get(f"/v1/games/{gid}/events", four[0]).body == events
        after = play_random_moves(api, gid, four, random.Random(5), limit=8)
        assert after["version"] == 20
        assert (
            api.post("/v1/games", {"game": "concerto", "seed": "x"}, server.admin_token).status
            == 201
        )
        api.session.close()
    finally:
        assert server.stop() == 0

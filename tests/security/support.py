"""A duplicate board over the API for the security tests: two tables, the same deal.

Four players in two entries play one board of one Concerto deal: entry A
(``people[0]``, ``people[2]``) sits North-South at one table and East-West at
the other (docs/api.md#duplicate-boards). The scheduler creates both tables in
one pass; tests then move by hand with each seat's own token.
"""

from __future__ import annotations

import random
from typing import Any

from server.games import REGISTRY
from server.processes.scheduler import Runner
from server.store import games as game_store
from tests.api.helpers import Api
from tests.conftest import Player

CONCERTO = REGISTRY["concerto"]
DECK = {rank + suit for rank in "AKQJT98765432" for suit in "SHDC"}
OVER = ("finished", "aborted")


def start_board(api: Api, app, people: list[Player]) -> list[str]:
    """A running duplicate tournament of one board; returns its two tables' game ids."""
    body = {
        "game": "concerto",
        "format": "duplicate",
        "options": {"deals": 1},
        "boards_per_match": 1,
    }
    reply = api.post("/v1/tournaments", body, "admin")
    assert reply.status == 201, reply.body
    tid = reply.body["id"]
    for entry in ((people[0], people[2]), (people[1], people[3])):
        players = {"players": [p.id for p in entry]}
        assert api.post(f"/v1/tournaments/{tid}/entries", players, "admin").status == 201
    assert api.post(f"/v1/tournaments/{tid}/start", {}, "admin").status == 200
    Runner(app.extensions["parlour"]).tick()
    tables = api.get(f"/v1/tournaments/{tid}").body["rounds"][0]["tables"]
    assert len(tables) == 2 and tables[0]["board"] == tables[1]["board"]
    return [t["game_id"] for t in tables]


def holder(api: Api, gid: str, people: list[Player], seat: int) -> Player:
    """The player seated at ``seat`` (read as the admin, who may always read)."""
    pid = api.view(gid, "admin")["seats"][seat]["player_id"]
    return next(p for p in people if p.id == pid)


def step(api: Api, gid: str, people: list[Player], rng: random.Random) -> dict[str, Any]:
    """One random legal move at ``gid`` by the seat to move, with its own token."""
    seat = api.view(gid, "admin")["to_move"][0]
    who = holder(api, gid, people, seat)
    mine = api.view(gid, who)
    reply = api.move(gid, who, rng.choice(mine["legal_moves"]), mine["version"])
    assert reply.status == 200, reply.body
    return reply.body


def play_out(api: Api, gid: str, people: list[Player], rng: random.Random) -> dict[str, Any]:
    """Random moves until ``gid`` is over; returns the reply to its last move."""
    while True:
        last = step(api, gid, people, rng)
        if last["status"] in OVER:
            return last


def truth(redis_client, gid: str):
    """The stored record and engine state of ``gid``."""
    record = game_store.read(redis_client, gid).game
    return record, CONCERTO.from_dict(record.state)


def snapshot(redis_client, gids: list[str]) -> list[tuple]:
    """What a read must never change: each game's version, status, state and events."""
    out = []
    for gid in gids:
        record = game_store.read(redis_client, gid).game
        events = game_store.all_events(redis_client, gid)
        out.append((record.version, record.status, record.state, record.seq, len(events)))
    return out

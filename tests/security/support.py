"""A duplicate board over the API for the security tests: two tables, the same deal.

Eight players in four entries (pairs) play one board of one Concerto deal at
two tables, each table seating two entries and nobody seated at both
(docs/api.md#duplicate-boards): the entries North-South at the two tables hold
the same cards, as do the two East-West. The scheduler creates both tables in
one pass; tests then move by hand with each seat's own token.
"""

from __future__ import annotations

import random
from typing import Any

from server.games import REGISTRY
from server.processes.scheduler import Runner
from server.store import game_events as event_store
from server.store import games as game_store
from tests.api.helpers import Api
from tests.conftest import Player

CONCERTO = REGISTRY["concerto"]
DECK = {rank + suit for rank in "AKQJT98765432" for suit in "SHDC"}
OVER = ("finished", "aborted")


def start_board(api: Api, app, people: list[Player]) -> list[str]:
    """A running duplicate tournament of one board (eight players, one round); returns its
    two tables' game ids."""
    assert len(people) == 8
    tid = start_tournament(api, people)
    Runner(app.extensions["parlour"]).tick()
    tables = api.get(f"/v1/tournaments/{tid}").body["rounds"][0]["tables"]
    assert len(tables) == 2 and tables[0]["board"] == tables[1]["board"]
    return [t["game_id"] for t in tables]


def start_ladder_board(api: Api, app, people: list[Player]) -> list[str]:
    """A duplicate board of a Concerto ladder (eight entries, all seen waiting: one board
    of two teams); returns its two tables' game ids."""
    assert len(people) == 8
    body = {"game": "concerto", "options": {"deals": 1}, "seen_seconds": 600}
    reply = api.post("/v1/ladders", body, "admin")
    assert reply.status == 201, reply.body
    lid = reply.body["id"]
    for p in people:
        assert api.post(f"/v1/ladders/{lid}/entries", {}, p).status in (200, 201)
        assert api.get("/v1/me/turns", p).status == 200  # seen waiting
    Runner(app.extensions["parlour"]).tick()
    games = [
        g["game_id"]
        for row in api.get(f"/v1/ladders/{lid}/entries/{people[0].id}").body["history"]
        for g in row["games"]
    ]
    assert len(games) == 2 and all(games)
    return games


def start_tournament(api: Api, people: list[Player], **settings: Any) -> str:
    """A started duplicate Concerto tournament of one round, the players in pairs
    (``people[i]`` with ``people[i + n/2]``); returns its id."""
    body = {
        "game": "concerto",
        "format": "duplicate",
        "options": {"deals": 1},
        "boards_per_match": 1,
        "rounds": 1,
    } | settings
    reply = api.post("/v1/tournaments", body, "admin")
    assert reply.status == 201, reply.body
    tid = reply.body["id"]
    half = len(people) // 2
    for entry in zip(people[:half], people[half:], strict=True):
        players = {"players": [p.id for p in entry]}
        assert api.post(f"/v1/tournaments/{tid}/entries", players, "admin").status == 201
    assert api.post(f"/v1/tournaments/{tid}/start", {}, "admin").status == 200
    return tid


def seated(api: Api, gid: str, people: list[Player]) -> list[Player]:
    """The players seated at ``gid``, in seat order (read as the admin)."""
    ids = [s["player_id"] for s in api.view(gid, "admin")["seats"]]
    return [next(p for p in people if p.id == pid) for pid in ids]


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
        events = event_store.all_events(redis_client, gid)
        out.append((record.version, record.status, record.state, record.seq, len(events)))
    return out

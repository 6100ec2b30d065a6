"""The archive costs no CPU a reader can spend.

Par was worked out on every read of every replay: one unauthenticated archive page
of 44 replays took 5.8 s of a worker, and ``/v1/rules`` on the same server waited
1.4 s meanwhile. Now a game's par is computed once, where the game finishes, and
stored with its record; a replay and the archive read it back (a game finished
before par was stored gets it computed on its first read, once). And archive
pages are counted per client address (``PARLOUR_ARCHIVE_LIMIT`` per
``PARLOUR_ARCHIVE_PERIOD``), whatever token they carry.
"""

from __future__ import annotations

import json
import random
import time
from datetime import UTC, datetime
from typing import Any

import pytest

from server.api import create_app
from server.store import keys
from tests.security.support import play_out

ARCHIVE = 3


@pytest.fixture
def app_config(app_config: dict[str, Any]) -> dict[str, Any]:
    return app_config | {"ARCHIVE_LIMIT": ARCHIVE, "ARCHIVE_PERIOD": 120}


def _since(epoch: float) -> str:
    return datetime.fromtimestamp(epoch, UTC).isoformat()


def _archive(client, address: str, headers: dict[str, str] | None = None, **query: Any):
    return client.get(
        "/v1/archive",
        query_string=query,
        headers=headers or {},
        environ_base={"REMOTE_ADDR": address},
    )


def test_par_is_stored_when_the_game_ends_and_reads_only_read_it(
    api, client, players, redis_client
):
    since = _since(time.time() - 1)
    people = players.many(4, "par")
    gid = api.create("admin", [p.id for p in people], options={"deals": 1})["id"]
    record = keys.game_state(gid)
    last = play_out(api, gid, people, random.Random(45))
    assert last["status"] == "finished"
    stored = redis_client.hget(record, "par")
    assert stored is not None  # stored by the move that ended the game, before any read
    par = json.loads(stored)
    assert isinstance(par, list) and len(par) == 1  # Concerto has a par: one per deal

    # Reads show what is stored and work nothing out: a value par never takes shows through
    # (in par's shape: the replay's schema dumps what it says a par is).
    never = {"max_hands": 999_999, "min_leftover": 999_999, "hand_points": 999_999}
    marker = [{**par[0], "NS": never}]
    redis_client.hset(record, "par", json.dumps(marker))
    assert api.get(f"/v1/games/{gid}/replay").body["par"] == marker
    page = _archive(client, "192.0.2.1", since=since)
    assert page.status_code == 200
    (line,) = [json.loads(x) for x in page.get_data(as_text=True).splitlines()]
    assert line["id"] == gid and line["par"] == marker

    # A game finished before par was stored: worked out on its first read, and kept.
    redis_client.hdel(record, "par")
    assert api.get(f"/v1/games/{gid}/replay").body["par"] == par
    assert json.loads(redis_client.hget(record, "par")) == par


def test_archive_pages_are_limited_per_address_whatever_the_token(client, players, redis_client):
    since = _since(time.time() - 60)
    fresh = players.register("fresh")
    for _ in range(ARCHIVE):
        assert _archive(client, "198.51.100.20", since=since).status_code == 200
    refused = _archive(client, "198.51.100.20", since=since)
    assert refused.status_code == 429
    assert refused.get_json()["error"]["code"] == "rate_limited"
    assert int(refused.headers["Retry-After"]) >= 1
    # a fresh account's token is no way round the address's count
    assert _archive(client, "198.51.100.20", fresh.headers, since=since).status_code == 429
    assert _archive(client, "198.51.100.21", since=since).status_code == 200  # another address
    admin = players.admin_headers()  # the admin is never counted
    assert _archive(client, "198.51.100.20", admin, since=since).status_code == 200
    # an IPv6 client per /64
    for i in range(ARCHIVE):
        assert _archive(client, f"2001:db8:45::{i + 1}", since=since).status_code == 200
    assert _archive(client, "2001:db8:45::ff", since=since).status_code == 429
    assert _archive(client, "2001:db8:46::1", since=since).status_code == 200


def test_the_archive_rate_is_on_by_default(redis_server):
    app = create_app({"REDIS_URL": redis_server.url, "TESTING": True})
    assert (app.config["ARCHIVE_LIMIT"], app.config["ARCHIVE_PERIOD"]) == (30, 60)

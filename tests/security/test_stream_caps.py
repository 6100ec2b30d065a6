"""Open streams and long-polls are capped per player and per client address, a
player's counting against both (docs/operations.md, security settings).

Each open stream (``/v1/me/turns/stream``, ``/v1/games/{id}/stream``) and each
long-poll with ``wait`` holds a lease counted in Redis; past the cap the answer
is 429 ``too_many_streams`` with ``Retry-After``; a closed stream or an answered
poll gives its slot back, and a lease its worker never gave back lapses by
itself. Over a real socket: a slot is given back when the server sees the
client go.
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
import requests
from werkzeug.serving import make_server

from server.api import create_app
from server.store import keys
from server.store import slots as slot_store
from tests.api.helpers import Api
from tests.conftest import ADMIN_TOKEN, KeepAliveHandler, LiveServer, Player

PER_PLAYER = 3
PER_ADDRESS = 4


@pytest.fixture
def app_config(app_config: dict[str, Any]) -> dict[str, Any]:
    return app_config | {
        "SSE_HEARTBEAT": 0.5,  # a closed client is noticed at the next heartbeat
        "SSE_MAX_SECONDS": 30.0,
        "STREAMS_PER_PLAYER": PER_PLAYER,
        "STREAMS_PER_ADDRESS": PER_ADDRESS,
    }


@pytest.fixture
def live_api(live_server) -> Api:
    return Api(base_url=live_server.url)


@pytest.fixture
def game(live_api: Api, live_players) -> tuple[str, list[Player]]:
    people = live_players.many(4)
    made = live_api.post(
        "/v1/games", {"game": "concerto", "seats": [p.id for p in people]}, "admin"
    )
    assert made.status == 201, made.body
    return made.body["id"], people


def auth(who: Player | str | None) -> dict[str, str]:
    if who is None:
        return {}
    return {"Authorization": f"Bearer {who if isinstance(who, str) else who.token}"}


def open_(url: str, path: str, who: Player | str | None = None, **kw: Any) -> requests.Response:
    """A stream (or long-poll), its headers read and its body left open."""
    headers = auth(who) | kw.pop("headers", {})
    return requests.get(url + path, headers=headers, stream=True, timeout=(5, 30), **kw)


def assert_capped(r: requests.Response, cap: int) -> None:
    assert r.status_code == 429, (r.status_code, r.text[:300])
    body = r.json()
    assert set(body) == {"error"}
    assert body["error"]["code"] == "too_many_streams"
    assert body["error"]["details"]["limit"] == cap
    assert int(r.headers["Retry-After"]) >= 1
    assert r.headers["X-Content-Type-Options"] == "nosniff"
    r.close()


def held(redis_client, subject: str) -> int:
    return slot_store.count(redis_client, subject, int(time.time() * 1000))


def eventually(condition, seconds: float = 5.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def test_one_player_holds_at_most_its_cap_of_streams_and_long_polls(
    live_server, game, redis_client
):
    url = live_server.url
    gid, people = game
    ann = people[0]
    streams = [
        open_(url, "/v1/me/turns/stream", ann),
        open_(url, f"/v1/games/{gid}/stream", ann),
        open_(url, "/v1/me/turns/stream", ann),
    ]
    try:
        assert [s.status_code for s in streams] == [200] * PER_PLAYER
        assert held(redis_client, f"p:{ann.id}") == PER_PLAYER
        # one more of any kind: a stream, a long-poll of turns or of events
        assert_capped(open_(url, "/v1/me/turns/stream", ann), PER_PLAYER)
        assert_capped(open_(url, f"/v1/games/{gid}/stream", ann), PER_PLAYER)
        assert_capped(open_(url, "/v1/me/turns", ann, params={"wait": 2}), PER_PLAYER)
        events = f"/v1/games/{gid}/events"
        assert_capped(open_(url, events, ann, params={"wait": 2}), PER_PLAYER)
        # what holds nothing open is still answered: a poll without wait, others' streams
        assert requests.get(url + "/v1/me/turns", headers=auth(ann), timeout=5).ok
        assert requests.get(url + events, headers=auth(ann), timeout=5).ok
        other = open_(url, "/v1/me/turns/stream", people[1])
        assert other.status_code == 200
        other.close()
        admin = [open_(url, f"/v1/games/{gid}/stream", ADMIN_TOKEN) for _ in range(4)]
        assert [s.status_code for s in admin] == [200] * 4  # the admin is never capped
        for s in admin:
            s.close()
        assert held(redis_client, f"p:{ann.id}") == PER_PLAYER  # refusals took nothing
    finally:
        streams[0].close()
    # one closed: the server sees it at its next heartbeat and gives the slot back
    eventually(lambda: held(redis_client, f"p:{ann.id}") == PER_PLAYER - 1)
    again = open_(url, "/v1/me/turns/stream", ann)
    assert again.status_code == 200
    assert_capped(open_(url, "/v1/me/turns/stream", ann), PER_PLAYER)
    for s in [again, *streams[1:]]:
        s.close()
    eventually(lambda: held(redis_client, f"p:{ann.id}") == 0)


def test_anonymous_callers_are_capped_per_address(live_server, game, redis_client):
    url = live_server.url
    gid, people = game
    path = f"/v1/games/{gid}/stream"
    streams = [open_(url, path) for _ in range(PER_ADDRESS)]
    try:
        assert [s.status_code for s in streams] == [200] * PER_ADDRESS
        assert held(redis_client, "a:127.0.0.1") == PER_ADDRESS
        assert_capped(open_(url, path), PER_ADDRESS)
        events = f"/v1/games/{gid}/events"
        assert_capped(open_(url, events, params={"wait": 2}), PER_ADDRESS)
        assert requests.get(url + events, timeout=5).ok  # no wait: nothing held open
        # a player counts against its address too (fresh accounts share the address's cap)
        assert_capped(open_(url, path, people[0]), PER_ADDRESS)
        assert held(redis_client, f"p:{people[0].id}") == 0  # the refusal held nothing
    finally:
        streams[0].close()
    eventually(lambda: held(redis_client, "a:127.0.0.1") == PER_ADDRESS - 1)
    again = open_(url, path)
    assert again.status_code == 200
    for s in [again, *streams[1:]]:
        s.close()
    eventually(lambda: held(redis_client, "a:127.0.0.1") == 0)


def test_slots_do_not_leak(live_server, game, redis_client):
    """Opened and closed many times over (streams closed by the client, streams the
    server ends, long-polls answered at the end of their wait or at once): the whole
    cap is still there."""
    url = live_server.url
    gid, people = game
    ann = people[0]
    for _ in range(3):
        batch = [open_(url, "/v1/me/turns/stream", ann) for _ in range(PER_PLAYER)]
        assert [s.status_code for s in batch] == [200] * PER_PLAYER
        for s in batch:
            s.close()
        eventually(lambda: held(redis_client, f"p:{ann.id}") == 0)
    for _ in range(2 * PER_PLAYER):
        poll = requests.get(
            f"{url}/v1/games/{gid}/events",
            params={"wait": 0.1, "after": 10**6},
            headers=auth(ann),
            timeout=5,
        )
        assert poll.status_code == 200
        turns = requests.get(
            f"{url}/v1/me/turns", params={"wait": 0.1}, headers=auth(ann), timeout=5
        )
        assert turns.status_code == 200
    assert held(redis_client, f"p:{ann.id}") == 0
    batch = [open_(url, "/v1/me/turns/stream", ann) for _ in range(PER_PLAYER)]
    assert [s.status_code for s in batch] == [200] * PER_PLAYER
    for s in batch:
        s.close()


def test_a_lease_never_given_back_lapses(redis_client):
    """A worker killed mid-stream gives nothing back: its lease stops counting once it
    lapses, and the key goes with its last lease."""
    now = int(time.time() * 1000)
    assert slot_store.take(redis_client, "p:x", "dead", 1, 200, now) is None
    left = slot_store.take(redis_client, "p:x", "new", 1, 200, now + 50)
    assert left is not None and 0 < left <= 150  # the cap: held until the lease lapses
    assert slot_store.take(redis_client, "p:x", "new", 1, 200, now + 201) is None
    assert 0 < redis_client.pttl(keys.slots("p:x")) <= 401


@contextlib.contextmanager
def serve(app) -> Iterator[LiveServer]:
    server = make_server("127.0.0.1", 0, app, threaded=True, request_handler=KeepAliveHandler)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05})
    thread.start()
    try:
        yield LiveServer(f"http://127.0.0.1:{server.server_port}")
    finally:
        server.shutdown()
        thread.join(5)


def test_behind_a_trusted_proxy_the_address_is_the_forwarded_one(app_config, redis_client, game):
    """The same client address as the rate limiter's: ``X-Forwarded-For`` counts only
    behind ``PARLOUR_TRUSTED_PROXIES``, the rightmost entries."""
    gid, _ = game
    app = create_app(app_config | {"TRUSTED_PROXIES": 1, "STREAMS_PER_ADDRESS": 1})
    with serve(app) as live:
        path = f"/v1/games/{gid}/stream"

        def from_(address: str) -> requests.Response:
            return open_(live.url, path, headers={"X-Forwarded-For": f"6.6.6.6, {address}"})

        first = from_("10.0.0.1")
        assert first.status_code == 200
        second = from_("10.0.0.2")
        assert second.status_code == 200
        assert_capped(from_("10.0.0.1"), 1)
        assert held(redis_client, "a:10.0.0.1") == 1 and held(redis_client, "a:6.6.6.6") == 0
        first.close()
        second.close()
        eventually(lambda: held(redis_client, "a:10.0.0.1") == 0)


def test_the_caps_follow_the_environment(monkeypatch, redis_server):
    monkeypatch.setenv("PARLOUR_STREAMS_PER_PLAYER", "5")
    monkeypatch.setenv("PARLOUR_STREAMS_PER_ADDRESS", "0")
    app = create_app({"REDIS_URL": redis_server.url, "TESTING": True})
    slots = app.extensions["parlour"].slots
    assert (slots.per_player, slots.per_address) == (5, 0)
    monkeypatch.delenv("PARLOUR_STREAMS_PER_PLAYER")
    monkeypatch.delenv("PARLOUR_STREAMS_PER_ADDRESS")
    slots = create_app({"REDIS_URL": redis_server.url}).extensions["parlour"].slots
    assert (slots.per_player, slots.per_address) == (8, 64)


def test_the_cap_holds_across_gunicorn_workers(redis_server, redis_client, tmp_path):
    """``parlour serve`` with two gevent workers: the count lives in Redis, so the cap
    is one cap whichever worker each stream lands on; a chunked body over the limit is
    a 413 there too (gunicorn hands werkzeug a terminated input)."""
    from tests.faults.procs import ApiProc

    env = {
        "PARLOUR_STREAMS_PER_PLAYER": "2",
        "PARLOUR_SSE_HEARTBEAT": "0.5",
        "PARLOUR_WORKER_CONNECTIONS": "100",
    }
    api = ApiProc(redis_server.url, tmp_path, workers=2, env=env).start()
    try:
        url = api.url
        ann = requests.post(url + "/v1/players", json={"name": "ann"}, timeout=5).json()
        token = ann["token"]
        streams = [open_(url, "/v1/me/turns/stream", token) for _ in range(2)]
        assert [s.status_code for s in streams] == [200, 200]
        for _ in range(4):  # new connections: both workers get their turn
            assert_capped(open_(url, "/v1/me/turns/stream", token), 2)
            assert_capped(open_(url, "/v1/me/turns", token, params={"wait": 1}), 2)
        streams[0].close()
        eventually(lambda: held(redis_client, f"p:{ann['id']}") == 1)
        again = open_(url, "/v1/me/turns/stream", token)
        assert again.status_code == 200
        for s in (again, streams[1]):
            s.close()
        eventually(lambda: held(redis_client, f"p:{ann['id']}") == 0)

        big = json.dumps({"name": "x" * (70 * 1024)}).encode()
        chunks = (big[i : i + 4096] for i in range(0, len(big), 4096))
        r = requests.post(url + "/v1/players", data=chunks, timeout=10)
        assert r.status_code == 413, r.text[:200]
    finally:
        api.stop()

"""A token rotated or revoked while a long-poll or a stream waits gets no more answers
(docs/api.md, tokens).

Long-polls and streams check the token again when their wait ends, in the wait's
own Redis round trip: the poll parked before the rotation answers 401, never 200
with a view; a stream sends its ``error`` message instead of the batch that woke it.
Over a real socket (a werkzeug server in a thread), since what matters is the
order of the rotation, the wait and the wake-up.
"""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
import requests

from tests.api.helpers import Api
from tests.conftest import Player
from tests.embed.sse import SseReader

PARKED = 0.4
"""Seconds for a request started in a thread to be parked in its wait."""


@pytest.fixture
def app_config(app_config: dict[str, Any]) -> dict[str, Any]:
    """Streams that live long enough to be parked in; game-stream pages of 5 s."""
    return app_config | {"SSE_HEARTBEAT": 5.0, "SSE_MAX_SECONDS": 30.0}


@pytest.fixture
def live_api(live_server) -> Api:
    return Api(base_url=live_server.url)


def kill(url: str, who: Player, how: str) -> None:
    """Rotate or revoke ``who``'s token (its own request)."""
    headers = {"Authorization": f"Bearer {who.token}"}
    if how == "rotate":
        r = requests.post(f"{url}/v1/players/me/token", headers=headers, timeout=5)
        assert r.status_code == 200 and r.json()["token"] != who.token
    else:
        r = requests.delete(f"{url}/v1/players/me/token", headers=headers, timeout=5)
        assert r.status_code == 204
    assert requests.get(f"{url}/v1/players/me", headers=headers, timeout=5).status_code == 401


def a_game(api: Api, people: list[Player]) -> tuple[str, Player, list[Player]]:
    """A running Concerto game: its id, the player to move, the three others."""
    made = api.post("/v1/games", {"game": "concerto", "seats": [p.id for p in people]}, "admin")
    assert made.status == 201, made.body
    gid = made.body["id"]
    seat = api.get(f"/v1/games/{gid}").body["to_move"][0]
    mover = people[seat]
    return gid, mover, [p for p in people if p is not mover]


def move(api: Api, gid: str, mover: Player) -> None:
    mine = api.get(f"/v1/games/{gid}", mover).body
    reply = api.move(gid, mover, mine["legal_moves"][0], mine["version"])
    assert reply.status == 200, reply.body


def get(url: str, path: str, who: Player, **params: Any) -> requests.Response:
    headers = {"Authorization": f"Bearer {who.token}"}
    return requests.get(url + path, params=params, headers=headers, timeout=15)


@pytest.mark.parametrize("how", ["rotate", "revoke"])
def test_a_parked_long_poll_of_turns_answers_401_after_a_rotation(
    how, live_server, live_api, live_players
):
    url = live_server.url
    gid, mover, others = a_game(live_api, live_players.many(4))
    with ThreadPoolExecutor(3) as pool:
        polls = [pool.submit(get, url, "/v1/me/turns", p, wait=2) for p in others]
        time.sleep(PARKED)
        for p in others:
            kill(url, p, how)
        started = time.monotonic()
        move(live_api, gid, mover)  # wakes the next mover's poll, now with a dead token
        answers = [f.result() for f in polls]
    assert [a.status_code for a in answers] == [401, 401, 401], [a.text for a in answers]
    assert all(a.json()["error"]["code"] == "unauthorized" for a in answers)
    assert not any("turns" in a.json() or "view" in a.text for a in answers)
    assert time.monotonic() - started < 5


@pytest.mark.parametrize("how", ["rotate", "revoke"])
def test_a_parked_long_poll_of_events_answers_401_after_a_rotation(
    how, live_server, live_api, live_players
):
    url = live_server.url
    gid, mover, others = a_game(live_api, live_players.many(4))
    watcher = others[0]
    last = get(url, f"/v1/games/{gid}/events", watcher).json()["last"]
    with ThreadPoolExecutor(1) as pool:
        poll = pool.submit(get, url, f"/v1/games/{gid}/events", watcher, after=last, wait=3)
        time.sleep(PARKED)
        kill(url, watcher, how)
        move(live_api, gid, mover)  # an event the parked poll wakes on
        answer = poll.result()
    assert answer.status_code == 401, answer.text
    assert answer.json()["error"]["code"] == "unauthorized"
    assert "events" not in answer.json()


def open_stream(url: str, path: str, who: Player, **params: Any) -> SseReader:
    headers = {"Authorization": f"Bearer {who.token}", "Accept": "text/event-stream"}
    response = requests.get(
        url + path, params=params, headers=headers, stream=True, timeout=(5, 15)
    )
    return SseReader(response)


@pytest.mark.parametrize("how", ["rotate", "revoke"])
def test_the_game_stream_sends_no_batch_after_a_rotation(how, live_server, live_api, live_players):
    url = live_server.url
    gid, mover, others = a_game(live_api, live_players.many(4))
    watcher = others[0]
    known = len(get(url, f"/v1/games/{gid}/events", watcher).json()["events"])
    reader = open_stream(url, f"/v1/games/{gid}/stream", watcher)
    for _ in range(known):  # what happened before: the stream's first page
        message = reader.next()
        assert message is not None and message.id is not None
    time.sleep(PARKED)  # parked in its next page's wait (5 s)
    kill(url, watcher, how)
    move(live_api, gid, mover)
    after = reader.next()
    assert after is not None and after.event == "error", after
    assert "token" in after.json["message"]
    assert reader.next() is None  # and nothing more
    reader.response.close()


@pytest.mark.parametrize("how", ["rotate", "revoke"])
def test_the_turn_stream_pushes_nothing_after_a_rotation(how, live_server, live_api, live_players):
    """Waits of 0.5 s (the shortest heartbeat a client may ask for): the wake-up comes
    within the wait that saw the rotation, where a check of the record read as the
    wait began would let the push through."""
    url = live_server.url
    gid, mover, others = a_game(live_api, live_players.many(4))
    readers = [open_stream(url, "/v1/me/turns/stream", p, heartbeat=0.5) for p in others]
    assert all(r.next_item() == "heartbeat" for r in readers)  # no turn: waiting
    for p in others:
        kill(url, p, how)
    move(live_api, gid, mover)  # a push for the next mover, whose token is dead
    for reader in readers:
        message = reader.next()
        assert message is not None and message.event == "error", message
        assert reader.next() is None
        reader.response.close()

"""``GET /v1/games/{id}/stream``: server-sent events per seat, over a real socket.

The stream must carry exactly the long-poll's events for the seat, resume
after a dropped connection from ``Last-Event-ID`` with nothing lost and
nothing repeated, beat while idle, and never show another seat's cards.
"""

from __future__ import annotations

import json
import random

from tests.api.helpers import Api, assert_error, cards_in
from tests.api.play import play_random_moves
from tests.conftest import Player
from tests.embed.conftest import app_game, make_app
from tests.embed.sse import SseReader, open_stream


def guests_of(made: dict) -> list[Player]:
    return [Player(i["token"].partition(".")[0], "Guest", i["token"]) for i in made["invitations"]]


def long_poll(api: Api, game_id: str, who) -> list[dict]:
    reply = api.get(f"/v1/games/{game_id}/events", who, after=0)
    assert reply.status == 200, reply.body
    return reply.body["events"]


def test_the_stream_resumes_without_loss_or_repeats_after_a_dropped_connection(
    live_api, live_server
):
    api = live_api
    made = app_game(api, make_app(api), [None, None, None, None])
    gid = made["game"]["id"]
    guests = guests_of(made)
    me = guests[0]
    rng = random.Random(11)

    # Connect (token in the query, as EventSource must), read while moves happen.
    first = SseReader(open_stream(live_server.url, gid, token=me.token))
    got = [first.next() for _ in long_poll(api, gid, me)]  # the opening events
    play_random_moves(api, gid, guests, rng, limit=6)
    while got[-1].json["version"] < 6:
        got.append(first.next())
    # Idle now: the server beats (comments, no message).
    assert first.next_item() == "heartbeat"
    assert first.retry == 2000
    first.close()  # the connection drops mid-game

    play_random_moves(api, gid, guests, rng, limit=10)  # missed while away
    last_id = int(got[-1].id)
    second = SseReader(
        open_stream(live_server.url, gid, header_token=me.token, last_event_id=last_id)
    )
    play_random_moves(api, gid, guests, rng)  # to the end, while connected
    rest = list(second)  # the server ends the stream after the game's last event
    assert rest[-1].event == "end" and rest[-1].json == {"status": "finished"}
    events = [m.json for m in got + rest[:-1]]
    assert [m.event for m in got + rest[:-1]] == ["message"] * len(events)
    assert [m.id for m in got + rest[:-1]] == [str(e["seq"]) for e in events]

    # Exactly the long-poll's events for this seat: none lost, none twice, same order.
    assert events == long_poll(api, gid, me)
    seqs = [e["seq"] for e in events]
    assert len(set(seqs)) == len(seqs) and seqs == sorted(seqs)

    # What the spectator does not see is this seat's own, and nobody else's.
    public = {e["seq"] for e in long_poll(api, gid, None)}
    private = [e for e in events if e["seq"] not in public]
    assert private and all(e["data"].get("seat") == 0 for e in private)
    assert {e["kind"] for e in private} == {"hand"}
    replay = api.get(f"/v1/games/{gid}/replay").body
    others = {
        c
        for e in replay["events"]
        if e["kind"] == "hand" and e["data"]["seat"] != 0
        for c in e["data"]["cards"]
    }
    played: set[str] = set()
    for event in events:  # no card of another seat shows before it is played...
        if event["kind"] == "deal_end":
            break  # ...until the deal's scoring reveals left-overs (docs/rules/concerto.md)
        if event["kind"] == "play":
            played.add(event["data"]["card"])
        assert not (cards_in(json.dumps(event)) & others) - played, event

    # Reconnecting once everything was sent: 204, which stops an EventSource.
    done = open_stream(live_server.url, gid, token=me.token, last_event_id=seqs[-1])
    assert done.status_code == 204


def test_the_stream_checks_the_caller_before_streaming(live_api, live_server):
    api = live_api
    made = app_game(api, make_app(api), [None, None, None, None])
    gid = made["game"]["id"]
    me = guests_of(made)[0]
    bad = open_stream(live_server.url, gid, token="x.y")
    assert bad.status_code == 401 and bad.json()["error"]["code"] == "unauthorized"
    other_seat = open_stream(live_server.url, gid, token=me.token, seat=1)
    assert other_seat.status_code == 403
    assert open_stream(live_server.url, "nope").status_code == 404
    garbled = open_stream(live_server.url, gid, token=me.token, after="x")
    assert garbled.status_code == 400
    response = open_stream(live_server.url, gid, header_token=me.token)
    response.close()
    reply = Api(base_url=live_server.url)
    assert_error(reply.get(f"/v1/games/{gid}/stream", me.token, **{"seat": 2}), 403, "forbidden")


def test_a_spectator_stream_carries_only_public_events(live_api, live_server):
    api = live_api
    made = app_game(api, make_app(api), [None, None, None, None])
    gid = made["game"]["id"]
    play_random_moves(api, gid, guests_of(made), random.Random(2), limit=5)
    reader = SseReader(open_stream(live_server.url, gid))
    seen = []
    while len(seen) < len(long_poll(api, gid, None)):
        seen.append(reader.next().json)
    reader.close()
    assert seen == long_poll(api, gid, None)
    assert "hand" not in {e["kind"] for e in seen}

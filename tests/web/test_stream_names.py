"""The browser's readers with hostile names — the web table and EventSource.

The web table reads JSON answers (``fetch``, long-polled events), never a stream by
hand; the embedding example (bots/examples/embed) reads the game stream with the
browser's ``EventSource``, which follows the SSE spec. Both are checked on a game
whose players' names hold every character some reader takes for a line end.
"""

from __future__ import annotations

import json
import random

from tests.conftest import Player
from tests.security.test_stream_names import legacy_name
from tests.web.conftest import Seats, Web, play_random

JSON = {"Content-Type": "application/json"}
NAMES = ["a\u2028b", "c\u2029d", "data: x\u0085", 'q"\\e\x0b\x1c']


def test_the_table_shows_hostile_names_and_event_source_reads_the_stream(
    web: Web, seats: Seats, redis_client
) -> None:
    players, refused = [], []
    for seat, name in enumerate(NAMES):
        body = json.dumps({"name": name}).encode()
        reply = seats.http.request("POST", "/v1/players", body, JSON)
        if reply.status == 400:  # a rule on names refuses it...
            reply = seats.http.request("POST", "/v1/players", b'{"name": "p"}', JSON)
        assert reply.status == 201, reply.body
        if reply.body["name"] != name:  # ...or changes it: stored before the rule
            refused.append(seat)
        players.append(Player(reply.body["id"], reply.body["name"], reply.body["token"]))
    game_id = seats.game("concerto", players, {"deals": 1})["id"]
    for seat in refused:
        legacy_name(redis_client, game_id, [seat], NAMES[seat])
    play_random(seats, game_id, players, random.Random(3), limit=9)
    me = players[0]

    page = web.open(f"/table/{game_id}#token={me.token}")
    shown = page.evaluate("document.body.textContent")
    assert all(name in shown for name in NAMES), [n for n in NAMES if n not in shown]

    expected = seats.call("get", f"/v1/games/{game_id}/events?after=0&seat=0", token=me.token)
    got = page.evaluate(
        """([gameId, token, count]) => new Promise((resolve, reject) => {
            const url = `/v1/games/${gameId}/stream?seat=0&token=${encodeURIComponent(token)}`;
            const source = new EventSource(url), got = [];
            const timer = setTimeout(() => { source.close(); reject(new Error("timeout")); }, 8000);
            source.onmessage = (e) => {
                got.push({id: e.lastEventId, data: JSON.parse(e.data)});
                if (got.length === count) { clearTimeout(timer); source.close(); resolve(got); }
            };
        })""",
        [game_id, me.token, len(expected["events"])],
    )
    assert [g["data"] for g in got] == expected["events"]
    assert [int(g["id"]) for g in got] == [e["seq"] for e in expected["events"]]

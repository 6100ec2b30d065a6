"""Public input never reaches a 5xx: event numbers beyond Redis's range, odd digits in
``Last-Event-ID``, and preset deals whose cards are not strings all get a 4xx envelope.

Redis stream ids are two unsigned 64-bit numbers, so ``after`` may be at most
2**64 - 1; Python's ``str.isdigit`` is true for ``'²'``, which ``int`` refuses.
"""

from __future__ import annotations

from typing import Any

import pytest

from server.games import REGISTRY
from tests.api.helpers import Api, assert_error

HUGE = [str(2**64), str(2**64 + 1), str(10**30)]
ODD_DIGITS = ["²", "¹", "٣", "1²", "\u2460"]


@pytest.fixture
def app_config(app_config: dict[str, Any]) -> dict[str, Any]:
    """Short streams: a stream wrongly opened ends within a second, not five minutes."""
    return app_config | {"SSE_HEARTBEAT": 0.2, "SSE_MAX_SECONDS": 1.0}


@pytest.fixture
def api(client) -> Api:
    return Api(client=client)


@pytest.fixture
def game_id(api, players) -> str:
    four = players.many(4)
    return api.create(four[0], [p.id for p in four], options={"deals": 1})["id"]


@pytest.mark.parametrize("after", HUGE)
def test_events_after_beyond_a_stream_id_is_a_400(api, game_id, after):
    details = assert_error(
        api.get(f"/v1/games/{game_id}/events", after=after), 400, "invalid_request"
    )
    assert "after" in details


@pytest.mark.parametrize("after", HUGE)
def test_stream_after_beyond_a_stream_id_is_a_400(api, game_id, after):
    details = assert_error(
        api.get(f"/v1/games/{game_id}/stream", after=after), 400, "invalid_request"
    )
    assert "after" in details


@pytest.mark.parametrize("last", [*ODD_DIGITS, *HUGE])
def test_stream_last_event_id_that_is_no_event_number_is_a_400(client, game_id, last):
    r = client.get(f"/v1/games/{game_id}/stream", headers={"Last-Event-ID": last})
    reply_body = r.get_json()
    assert r.status_code == 400, (r.status_code, r.get_data(as_text=True)[:200])
    assert reply_body["error"]["code"] == "invalid_request"
    assert "Last-Event-ID" in reply_body["error"]["details"]


def test_the_largest_stream_id_is_still_accepted(api, game_id):
    reply = api.get(f"/v1/games/{game_id}/events", after=str(2**64 - 1))
    assert reply.status == 200, reply.body
    assert reply.body["events"] == []


SEATS = {g: len(game.new_state({}, "seats").seat_scores()) for g, game in REGISTRY.items()}
"""Each game's seats at its default table."""
NOT_STRINGS = [{"a": 1}, ["AS"], 7, None, True]


@pytest.mark.parametrize("game", sorted(SEATS))
@pytest.mark.parametrize("card", NOT_STRINGS, ids=repr)
def test_preset_cards_that_are_not_strings_are_a_400(api, game, card):
    hands = [[card] for _ in range(SEATS[game])]
    body = {"game": game, "deals": [{"hands": hands, "stack": [card]}]}
    details = assert_error(api.post("/v1/games", body, "admin"), 400, "invalid_request")
    assert any("is not a card" in p for p in details["deals"]), details

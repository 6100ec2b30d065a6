"""The ladder endpoints, exercised through ``tests/api/test_openapi.py``'s checked client.

That test validates every answer against ``openapi.yaml`` and requires every
documented operation to be called; this function makes those calls for
``/v1/ladders``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.conftest import ADMIN_TOKEN

Call = Callable[..., tuple[int, Any]]


def exercise_ladders(call: Call, players: list[dict[str, Any]]) -> None:
    """Define, list, show, join, read an entry and the leaderboard, leave; and errors.

    Args:
        call: ``Checked`` from test_openapi (validates each answer).
        players: registered players (``{"id", "token"}``), two at least.
    """
    body = {"game": "concerto", "options": {"deals": 1}, "clock": {"move_seconds": 5}}
    assert call("post", "/v1/ladders", body)[0] == 401
    assert call("post", "/v1/ladders", body, players[0]["token"])[0] == 403
    assert call("post", "/v1/ladders", {"game": "concerto", "side_size": 9}, ADMIN_TOKEN)[0] == 400
    status, ladder = call("post", "/v1/ladders", body, ADMIN_TOKEN)
    assert status == 201
    lid = ladder["id"]
    status, listed = call("get", "/v1/ladders")
    assert status == 200 and lid in [x["id"] for x in listed["ladders"]]
    assert call("get", "/v1/ladders/nope")[0] == 404

    entries = f"/v1/ladders/{lid}/entries"
    me, other = players[0], players[1]
    assert call("post", entries, {}, me["token"])[0] == 201
    assert call("post", entries, {"player_id": other["id"]}, me["token"])[0] == 403
    assert call("post", entries, {"player_id": 5}, me["token"])[0] == 400
    assert call("post", entries, {})[0] == 401
    assert call("post", "/v1/ladders/nope/entries", {}, me["token"])[0] == 404
    status, shown = call("get", f"/v1/ladders/{lid}")
    assert status == 200 and [e["player_id"] for e in shown["entries"]] == [me["id"]]
    status, entry = call("get", f"{entries}/{me['id']}")
    assert status == 200 and entry["history"] == []
    assert call("get", f"{entries}/nobody")[0] == 404
    status, board = call("get", f"/v1/ladders/{lid}/leaderboard")
    assert status == 200 and board["leaderboard"] == []
    assert call("get", "/v1/ladders/nope/leaderboard")[0] == 404

    assert call("delete", entries, token=me["token"], query={"player_id": other["id"]})[0] == 403
    assert call("delete", entries)[0] == 401
    assert call("delete", entries, token=me["token"])[0] == 200
    assert call("delete", entries, token=me["token"])[0] == 404
    assert call("delete", entries, token=ADMIN_TOKEN)[0] == 400  # the admin names a player

    # a ladder of fixed pairs: held until the partner names the player back
    fixed = body | {"sides": "fixed"}
    assert call("post", "/v1/ladders", fixed | {"sides": "pairs"}, ADMIN_TOKEN)[0] == 400
    status, pairs = call("post", "/v1/ladders", fixed, ADMIN_TOKEN)
    assert status == 201 and pairs["sides"] == "fixed"
    entries = f"/v1/ladders/{pairs['id']}/entries"
    assert call("post", entries, {}, me["token"])[0] == 400  # no partner named
    status, held = call("post", entries, {"partner": other["id"]}, me["token"])
    assert status == 201 and (held["status"], held["partner"]) == ("held", other["id"])
    status, accepted = call("post", entries, {"partner": me["id"]}, other["token"])
    assert status == 201 and accepted["status"] != "held"
    status, left = call("delete", entries, token=other["token"])
    assert status == 200 and left["partner_left"] == me["id"]

"""The ``/v1/matches`` calls of the spec's response test (tests/api/test_openapi.py): each
answer checked against openapi.yaml by ``call``."""

from __future__ import annotations

from typing import Any


def exercise_matches(call: Any) -> None:
    """Make a Concerto match of eight players, agree to it, read it and its regression set,
    and the errors on the way."""
    people = []
    for i in range(8):
        status, made = call("post", "/v1/players", {"name": f"matcher{i}"})
        assert status == 201
        people.append(made)
    ids = [p["id"] for p in people]
    body = {"game": "concerto", "options": {"deals": 1}, "new": ids[:4], "old": ids[4:],
            "max_boards": 4}  # fmt: skip
    assert call("post", "/v1/matches", body)[0] == 401
    assert call("post", "/v1/matches", body | {"old": ids[:4]}, people[0]["token"])[0] == 400
    status, match = call("post", "/v1/matches", body, people[0]["token"])
    assert status == 201 and match["status"] == "waiting"
    for p in people[1:]:
        status, match = call("post", f"/v1/matches/{match['id']}/agree", None, p["token"])
        assert status == 200
    assert match["status"] == "running" and match["waiting_for"] == []
    status, shown = call("get", f"/v1/matches/{match['id']}")
    assert status == 200 and shown["llr"] == 0.0
    assert call("get", "/v1/matches/nope")[0] == 404
    assert call("post", "/v1/matches/nope/agree", None, people[0]["token"])[0] == 404
    status, lost = call("get", f"/v1/matches/{match['id']}/regression")
    assert status == 200 and lost["boards"] == []
    assert call("get", "/v1/matches/nope/regression")[0] == 404

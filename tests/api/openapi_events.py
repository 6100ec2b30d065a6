"""An organiser's operations for tests/api/test_openapi.py (each answer validated there):
a roster, closing registration, a voided table, a withdrawal and the sheets."""

from __future__ import annotations

import random
from typing import Any, Protocol

from tests.api.helpers import Api
from tests.api.play import play_random_moves
from tests.conftest import ADMIN_TOKEN, Player


class Call(Protocol):
    def __call__(
        self, method: str, path: str, body: Any = None, token: str | None = None, query: Any = None
    ) -> tuple[int, Any]: ...


def exercise_events(call: Call, client: Any, app: Any) -> None:
    """Three teams from a roster (the admin's: entered at once), played a round."""
    from server.processes.scheduler import Runner

    body = {"game": "concerto", "format": "round_robin", "options": {"deals": 1}}
    status, made = call("post", "/v1/tournaments", {**body, "seats_per_entry": 2}, ADMIN_TOKEN)
    tid = made["id"]
    base = f"/v1/tournaments/{tid}"
    roster = {"csv": "name,team\nA,Owls\nB,Owls\nC,Cats\nD,Cats\nE,Hens\nF,Hens\n"}
    assert call("post", f"{base}/roster", roster)[0] == 401
    assert call("post", f"{base}/roster", {"players": []}, ADMIN_TOKEN)[0] == 400
    status, entered = call("post", f"{base}/roster", roster, ADMIN_TOKEN)
    assert status == 201 and [e["entry"]["pending"] for e in entered["entries"]] == [[]] * 3
    people = [
        Player(p["id"], p["name"], p["token"]) for e in entered["entries"] for p in e["players"]
    ]
    status, code = call("post", f"{base}/join-code", {}, ADMIN_TOKEN)
    assert status == 200 and code["code"]
    assert call("post", f"{base}/join-code", {}, people[0].token)[0] == 403
    assert call("post", "/v1/tournaments/nope/join-code", {}, ADMIN_TOKEN)[0] == 404
    assert call("post", f"{base}/close", {}, ADMIN_TOKEN)[0] == 200
    assert call("post", f"{base}/roster", roster, ADMIN_TOKEN)[0] == 409
    assert call("post", f"{base}/rounds/0/void", {}, ADMIN_TOKEN)[0] == 409  # not running
    assert call("post", f"{base}/start", {}, ADMIN_TOKEN)[0] == 200
    runner = Runner(app.extensions["parlour"])
    runner.tick()
    assert call("post", f"{base}/rounds/0/void", {}, ADMIN_TOKEN)[0] == 409  # being played
    status, page = call("get", base)
    play_random_moves(Api(client=client), page["rounds"][0]["tables"][0]["game_id"], people,
                      random.Random(3))  # fmt: skip
    runner.tick()
    assert call("post", f"{base}/rounds/9/void", {}, ADMIN_TOKEN)[0] == 400
    assert call("post", f"{base}/rounds/0/void", {"tables": [0]}, people[0].token)[0] == 403
    status, voided = call("post", f"{base}/rounds/0/void", {"tables": [0]}, ADMIN_TOKEN)
    assert status == 200 and len(voided["voided"]) == 1
    assert call("post", f"{base}/entries/e9/withdraw", {}, ADMIN_TOKEN)[0] == 404
    assert call("post", f"{base}/entries/e1/withdraw", {}, people[0].token)[0] == 200
    assert call("get", f"{base}/sheets")[0] == 200
    assert call("get", "/v1/tournaments/nope/sheets")[0] == 404
    for part in ("standings", "crosstable", "games"):
        assert call("get", f"{base}/sheets.csv", query={"part": part})[0] == 200
    assert call("get", f"{base}/sheets.csv", query={"part": "x"})[0] == 400
    assert call("get", "/v1/tournaments/nope/sheets.csv")[0] == 404

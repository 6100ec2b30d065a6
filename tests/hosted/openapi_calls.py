"""``/v1/me/bots``, exercised through ``tests/api/test_openapi.py``'s checked client:
the answers the spec documents for it, validated against it. No turn is played: a
heartbeat written for a sandbox worker lets hosted bots be made, and none runs."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.conftest import ADMIN_TOKEN

from .support import sh_bot

Call = Callable[..., tuple[int, Any]]


def exercise_player_bots(call: Call, app: Any) -> None:
    """Make, list, show, upload, enter; the logs' refusals; the sandbox's refusal."""
    _, owner = call("post", "/v1/players", {"name": "bot owner"})
    token = owner["token"]
    path = "/v1/me/bots"
    hosted = {"name": "hosted", "kind": "hosted", "bundle": sh_bot()}
    assert call("post", path, hosted, token)[0] == 503  # no worker can sandbox yet
    app.extensions["parlour"].hosted.heartbeat("openapi-test", True, "", 0)
    status, bot = call("post", path, hosted, token)
    assert status == 201 and bot["version"] == 1
    assert call("post", path, {"name": "x", "kind": "psychic"}, token)[0] == 400
    assert call("post", path, hosted, ADMIN_TOKEN)[0] == 403
    assert call("post", path, hosted)[0] == 401
    status, connected = call("post", path, {"name": "runner", "kind": "connected"}, token)
    assert status == 201 and len(connected["tokens"]) == len(connected["identities"])
    status, listed = call("get", path, token=token)
    assert status == 200 and len(listed["bots"]) == 2
    assert call("get", path, token=ADMIN_TOKEN)[0] == 403
    one = f"{path}/{bot['id']}"
    assert call("get", one, token=token)[0] == 200
    assert call("get", f"{path}/nope", token=token)[0] == 404
    assert call("get", one, token=ADMIN_TOKEN)[0] == 403
    status, resumed = call("post", f"{one}/resume", None, token)
    assert status == 200 and resumed["health"]["status"] == "ok"
    assert call("post", f"{path}/nope/resume", None, token)[0] == 404
    assert call("post", f"{one}/resume", None, ADMIN_TOKEN)[0] == 403
    status, again = call("post", f"{one}/versions", sh_bot(), token)
    assert status == 201 and again["version"] == 2
    assert (
        call("post", f"{one}/versions", {"filename": "x.exe", "content_base64": ""}, token)[0]
        == 400
    )
    assert call("post", f"{path}/nope/versions", sh_bot(), token)[0] == 404
    assert call("post", f"{one}/versions", sh_bot(), ADMIN_TOKEN)[0] == 403
    assert call("post", f"{one}/ladders", {"ladder_id": "nope"}, token)[0] == 404
    assert call("post", f"{one}/ladders", {}, token)[0] == 400
    assert call("post", f"{one}/ladders", {"ladder_id": "x"}, ADMIN_TOKEN)[0] == 403
    status, club = call(
        "post", "/v1/tournaments",
        {"game": "concerto", "format": "round_robin", "options": {"deals": 1}}, token,
    )  # fmt: skip
    assert status == 201
    entry = {"tournament_id": club["id"], "seats": 2}
    status, entered = call("post", f"{one}/tournaments", entry, token)
    assert status == 201 and entered["pending"] == []
    assert call("post", f"{one}/tournaments", entry, token)[0] == 409  # entered already
    assert (
        call("post", f"{one}/tournaments", {"tournament_id": club["id"], "seats": 9}, token)[0]
        == 400
    )
    assert call("post", f"{one}/tournaments", entry, ADMIN_TOKEN)[0] == 403
    assert call("post", f"{path}/nope/tournaments", entry, token)[0] == 404
    assert call("get", f"{one}/games/nope", token=token)[0] == 404
    assert call("get", f"{one}/games/nope", token=ADMIN_TOKEN)[0] == 403

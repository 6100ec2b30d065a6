"""The embedding endpoints, exercised through ``tests/api/test_openapi.py``'s checked client.

That test validates every answer against ``openapi.yaml`` and requires every
documented operation to be called; this function makes those calls for
the embedding endpoints (apps, bots, webhooks, the SSE stream).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.conftest import ADMIN_TOKEN

Call = Callable[..., tuple[int, Any]]


def exercise_embedding(call: Call, finished_game: str, player_token: str) -> None:
    """Every status each embedding operation documents, or nearly.

    Args:
        call: ``Checked`` from test_openapi (validates each answer).
        finished_game: the id of a finished game (a stream of it ends at once).
        player_token: a registered player's token (refused where only apps may act).
    """
    status, bots = call("post", "/v1/bots", {"bots": [{"name": "random", "count": 2}]}, ADMIN_TOKEN)
    assert status == 200 and len(bots["bots"][0]["players"]) == 2
    assert (
        call("post", "/v1/bots", {"bots": [{"name": "random", "count": 0}]}, ADMIN_TOKEN)[0] == 400
    )
    assert call("post", "/v1/bots", {"bots": [{"name": "random", "count": 1}]})[0] == 401
    assert (
        call("post", "/v1/bots", {"bots": [{"name": "random", "count": 1}]}, player_token)[0] == 403
    )
    status, listed = call("get", "/v1/bots")
    assert status == 200 and listed["bots"][0]["name"] == "random"

    status, app = call(
        "post",
        "/v1/apps",
        {"name": "cardroom", "invite_url": "http://127.0.0.1:9/play"},
        ADMIN_TOKEN,
    )
    assert status == 201
    token, apps = app["token"], f"/v1/apps/{app['id']}"
    assert call("post", "/v1/apps", {"name": ""}, ADMIN_TOKEN)[0] == 400
    assert call("post", "/v1/apps", {"name": "x"})[0] == 401
    assert call("post", "/v1/apps", {"name": "x"}, player_token)[0] == 403

    hook = {"url": "http://8.8.8.8:9/hook", "events": ["game_end"]}  # public: never sent here
    status, made = call("post", f"{apps}/webhooks", hook, token)
    assert status == 201 and made["secret"]
    assert call("post", f"{apps}/webhooks", {"url": "file:///etc/passwd"}, token)[0] == 400
    assert call("post", f"{apps}/webhooks", hook)[0] == 401
    assert call("post", f"{apps}/webhooks", hook, player_token)[0] == 403
    assert call("post", "/v1/apps/appnope/webhooks", hook, ADMIN_TOKEN)[0] == 404

    body = {
        "game": "concerto",
        "options": {"deals": 1},
        "seats": [None, "bot:random", None, "bot:random"],
    }
    status, game = call("post", f"{apps}/games", body, token)
    assert status == 201 and [i["seat"] for i in game["invitations"]] == [0, 2]
    assert (
        call("post", f"{apps}/games", {**body, "seats": [None, "bot:ghost", None, None]}, token)[0]
        == 400
    )
    assert call("post", f"{apps}/games", body)[0] == 401
    assert call("post", f"{apps}/games", body, player_token)[0] == 403
    assert call("post", "/v1/apps/appnope/games", body, ADMIN_TOKEN)[0] == 404

    status, shown = call("get", apps, token=token)
    assert status == 200 and shown["webhooks"][0]["events"] == ["game_end"]
    assert call("get", apps, token="x.y")[0] == 401
    assert call("get", apps, token=player_token)[0] == 403
    assert call("get", "/v1/apps/appnope", token=ADMIN_TOKEN)[0] == 404

    hooks = f"{apps}/webhooks"
    status, listed = call("get", hooks, token=token)
    assert status == 200 and [h["id"] for h in listed["webhooks"]] == [made["id"]]
    assert call("get", hooks)[0] == 401
    assert call("get", hooks, token=player_token)[0] == 403
    assert call("get", "/v1/apps/appnope/webhooks", token=ADMIN_TOKEN)[0] == 404
    one = f"{hooks}/{made['id']}"
    assert call("delete", one, token=player_token)[0] == 403
    assert call("delete", one)[0] == 401
    assert call("delete", f"{hooks}/whnope", token=token)[0] == 404
    assert call("delete", one, token=token)[0] == 204

    stream = f"/v1/games/{finished_game}/stream"
    status, _ = call("get", stream)  # finished: every public event, then `end`, at once
    assert status == 200
    assert call("get", stream, query={"after": 10_000})[0] == 204
    assert call("get", stream, query={"after": -1})[0] == 400
    assert call("get", stream, query={"token": "x.y"})[0] == 401
    assert call("get", stream, query={"seat": 1}, token=player_token)[0] == 403
    assert call("get", "/v1/games/nope/stream")[0] == 404

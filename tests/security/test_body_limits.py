"""Bodies are capped (413 in the envelope) and error details stay small.

A body over ``MAX_CONTENT_LENGTH`` (64 KiB unless configured) is refused
before it is parsed; an error lists its first problems, each once, and counts
the rest, so a request cannot make the server write many times its own size.
"""

from __future__ import annotations

import json
from typing import Any

import requests

from server.api import errors
from tests.api.helpers import assert_error


def test_a_body_over_the_default_limit_is_a_413_envelope(live_server):
    body = json.dumps({"name": "x" * (64 * 1024)})
    r = requests.post(
        live_server.url + "/v1/players",
        data=body,
        headers={"Content-Type": "application/json"},
        timeout=10,
    )
    assert r.status_code == 413, r.text[:200]
    assert r.json()["error"]["code"] == "invalid_request"
    assert len(r.content) < 1000


def test_the_limit_follows_the_environment(monkeypatch, redis_server):
    from server.api import create_app

    monkeypatch.setenv("PARLOUR_MAX_BODY", "1000")
    app = create_app({"REDIS_URL": redis_server.url, "TESTING": True})
    assert app.config["MAX_CONTENT_LENGTH"] == 1000
    reply = app.test_client().post("/v1/players", json={"name": "y" * 2000})
    assert reply.status_code == 413


def _problems(details: Any) -> int:
    if isinstance(details, dict):
        return sum(_problems(v) for k, v in details.items() if k != errors.MORE)
    if isinstance(details, list):
        return sum(_problems(v) for v in details)
    return 1


def test_many_unknown_options_give_a_small_answer(client, players):
    caller = players.register("c")
    options = {f"unknown_{i:05d}": i for i in range(2500)}
    sent = json.dumps({"game": "concerto", "options": options})
    assert len(sent) < 64 * 1024
    r = client.post(
        "/v1/games", data=sent, headers=caller.headers | {"Content-Type": "application/json"}
    )
    assert r.status_code == 400
    answer = r.get_data(as_text=True)
    assert len(answer) < 5000, len(answer)
    details = r.get_json()["error"]["details"]
    assert _problems(details) == errors.MAX_PROBLEMS
    assert details[errors.MORE] == 2500 - errors.MAX_PROBLEMS
    assert answer.count("unknown_00000") == 1  # each problem once, not in the message too


def test_many_unknown_fields_give_a_small_answer(client):
    body = {f"f{i}": 0 for i in range(5000)} | {"name": "z"}
    r = client.post("/v1/players", json=body)
    details = assert_error_reply(r)
    assert _problems(details) == errors.MAX_PROBLEMS
    assert details[errors.MORE] == 5000 - errors.MAX_PROBLEMS
    assert len(r.get_data()) < 5000


def assert_error_reply(r) -> dict[str, Any]:
    from tests.api.helpers import Reply

    reply = Reply(r.status_code, r.get_json(), r.get_data(as_text=True))
    return assert_error(reply, 400, "invalid_request")

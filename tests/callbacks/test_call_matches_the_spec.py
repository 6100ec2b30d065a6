"""The callback call as the spec's ``webhooks.callback`` states it, held to real calls: the
dispatcher plays a game through a real HTTP receiver, and every call it got (the body as
sent, the signature header) validates against the committed openapi.yaml, as does every
answer the game was played with."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from server.processes.dispatch import Dispatcher
from server.services.bundle import Services
from server.services.notifications import SIGNATURE_HEADER, verify
from server.store import callbacks as callback_store
from tests import spec
from tests.callbacks.support import Bot, clocked_game, dispatching, serving, wait_for
from tests.conftest import ADMIN_TOKEN


class Receiver(Bot):
    """The tests' callback bot, keeping each call's raw body and headers as they came."""

    def __init__(self) -> None:
        super().__init__()
        self.raw: list[tuple[bytes, dict[str, str]]] = []

    def __call__(self, environ: dict[str, Any], start_response: Any) -> list[bytes]:
        body = environ["wsgi.input"].read(int(environ.get("CONTENT_LENGTH") or 0))
        headers = {
            k[5:].replace("_", "-").lower(): v for k, v in environ.items() if k[:5] == "HTTP_"
        }
        headers["content-type"] = environ.get("CONTENT_TYPE", "")
        with self.lock:
            self.raw.append((body, headers))
        environ["wsgi.input"] = io.BytesIO(body)
        return super().__call__(environ, start_response)


@pytest.fixture
def svc(redis_client) -> Services:
    return Services(redis_client, admin_token=ADMIN_TOKEN)


def test_every_call_and_answer_is_what_the_spec_says(svc, players):
    document = spec.document()
    webhook = document["webhooks"]["callback"]["post"]
    body = webhook["requestBody"]["content"]["application/json"]["schema"]
    (signature,) = [p for p in webhook["parameters"] if p["name"] == SIGNATURE_HEADER]
    answer = webhook["responses"]["200"]["content"]["application/json"]["schema"]
    assert webhook["requestBody"]["required"] and signature["required"]
    # Three players: at a table of two, Cowpoke's dummy puts out a card whose `owner` is
    # "dummy", which the spec's TableCard (a per-game shape) does not allow yet.
    three = players.many(3, "wh")
    with serving(Receiver()) as bot:
        for p in three:
            secret = f"cbs_test_{p.id}"
            callback_store.put(svc.core.r, p.id, bot.url(), secret, 1.0)
            bot.secrets[p.id] = secret
        game_id = clocked_game(svc, [p.id for p in three], move_seconds=10)
        dispatcher = Dispatcher(svc.dispatch, consumer="d1", timeout=5, allow="127.0.0.0/8")
        with dispatching(dispatcher):
            wait_for(lambda: svc.core.game(game_id).status == "finished", 20, "the game's end")
    assert len(bot.raw) >= 4 and bot.bad_signatures == 0
    calls = Draft202012Validator({**document, **body})
    for raw, headers in bot.raw:
        call = json.loads(raw)
        calls.validate(call)
        assert call["view"]["you"] == call["seat"]  # the seat's own view, as a Turn says
        assert headers["content-type"] == "application/json"
        signed = headers[SIGNATURE_HEADER.lower()]
        Draft202012Validator(signature["schema"]).validate(signed)
        holder = call["view"]["seats"][call["seat"]]["player_id"]
        assert verify(bot.secrets[holder], signed, raw)
        played = {"move": call["view"]["legal_moves"][0]}  # what the bot answered
        Draft202012Validator({**document, **answer}).validate(played)
    # the check could fail: a call without its id, or with a view of no game, is refused
    first = json.loads(bot.raw[0][0])
    assert not calls.is_valid({k: v for k, v in first.items() if k != "id"})
    assert not calls.is_valid({**first, "view": {"game": "cowpoke"}})

"""Names and house bots: look-alikes, impersonation, rating farming.

Names held NUL, right-to-left overrides, only whitespace, or a house bot's name
("random #1"). Every name now goes through one validator
(:mod:`server.services.names`): NFC, stripped, no control, bidi or invisible
format characters, not blank, not over the documented length; refused with 400
``invalid_request`` whose ``details`` name the class, and nothing is stored.
House bots are marked ``"house": true`` in every seat and entry row, no one
else may take a name that folds to theirs, and they play in tournaments only
where the operator allows (``PARLOUR_HOUSE_BOTS``; not by default): 403.
"""

from __future__ import annotations

from typing import Any

import pytest

from server.api import create_app
from tests.api.helpers import Api, assert_error
from tests.conftest import Player
from tests.embed.conftest import make_app, register_bots
from tests.security.test_invitation_spam import everything

REFUSED = [
    ("nul\x00byte", "control"),
    ("esc\x1b[31mred", "control"),
    ("next\x85line", "control"),
    ("line\u2028sep", "control"),
    ("para\u2029sep", "control"),
    ("evil\u202egnp.exe", "bidi"),
    ("embed\u202bx", "bidi"),
    ("isolate\u2066x\u2069", "bidi"),
    ("mark\u200fx", "bidi"),
    ("zero\u200bwidth", "format"),
    ("soft\u00adhyphen", "format"),
    ("\ufeffbom", "format"),
    ("word\u2060joiner", "format"),
    ("tag\U000e0041", "format"),
    ("trailing joiner\u200d", "format"),
    ("", "empty"),
    ("   ", "empty"),
    ("\t\n ", "empty"),
    ("\u3000\u00a0", "empty"),
    ("x" * 65, "too_long"),
]

ACCEPTED = [
    ("Ada", "Ada"),
    ("  Ada Lovelace  ", "Ada Lovelace"),
    ("Cafe\u0301", "Caf\u00e9"),  # stored NFC
    (
        "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645",
        "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645",
    ),
    ("\U0001f469\u200d\U0001f4bb coder", "\U0001f469\u200d\U0001f4bb coder"),
    ("\u00e9" * 64, "\u00e9" * 64),
    ("random fan", "random fan"),
]


@pytest.mark.parametrize(
    ("name", "kind"), REFUSED, ids=[k + str(i) for i, (_, k) in enumerate(REFUSED)]
)
def test_registration_refuses_each_class_and_stores_nothing(api, redis_client, name, kind):
    before = everything(redis_client)
    details = assert_error(api.post("/v1/players", {"name": name}), 400, "invalid_request")
    assert details["name"][0].startswith(kind + ":"), details
    assert everything(redis_client) == before


@pytest.mark.parametrize(("name", "stored"), ACCEPTED)
def test_registration_accepts_normal_names_in_nfc(api, name, stored):
    reply = api.post("/v1/players", {"name": name})
    assert reply.status == 201, reply.body
    assert reply.body["name"] == stored
    assert api.get("/v1/players/me", reply.body["token"]).body["name"] == stored


@pytest.mark.parametrize(
    ("name", "kind"),
    [("v\x85isitor", "control"), ("a\u202eb", "bidi"), ("  ", "empty"), ("random #1", "reserved")],
)
def test_visitors_names_go_through_the_same_check(api, redis_client, name, kind):
    register_bots(api)
    before = everything(redis_client)
    reply = api.post("/v1/visitors/games", {"game": "seconds", "name": name})
    details = assert_error(reply, 400, "invalid_request")
    assert details["name"][0].startswith(kind + ":"), details
    assert everything(redis_client) == before
    ok = api.post("/v1/visitors/games", {"game": "seconds", "name": " Zo\u0308e "})
    assert ok.status == 201, ok.body
    assert ok.body["game"]["seats"][0]["name"] == "Z\u00f6e"


def test_app_guest_names_tournament_and_ladder_names_are_checked(api, players, redis_client):
    app = make_app(api)
    ada = players.register("ada")
    before = everything(redis_client)
    body = {"game": "concerto", "seats": [None, None, None, None], "guest_names": ["ok", "a\x00b"]}
    details = assert_error(
        api.post(f"/v1/apps/{app.id}/games", body, app.token), 400, "invalid_request"
    )
    assert details["guest_names"]["1"][0].startswith("control:")
    body = {"game": "concerto", "format": "round_robin", "name": "cup\u202e"}
    details = assert_error(api.post("/v1/tournaments", body, ada), 400, "invalid_request")
    assert details["name"][0].startswith("bidi:")
    body = {"game": "concerto", "name": "\u200b"}
    details = assert_error(api.post("/v1/ladders", body, "admin"), 400, "invalid_request")
    assert details["name"][0].startswith("format:")
    details = assert_error(api.post("/v1/apps", {"name": " \t"}, "admin"), 400, "invalid_request")
    assert details["name"][0].startswith("empty:")
    assert everything(redis_client) == before


@pytest.mark.parametrize(
    "name",
    [
        "random #1",
        "Random #1",
        "RANDOM #2",
        "\uff52\uff41\uff4e\uff44\uff4f\uff4d #1",
        "random#1",
        "random  #3",
        "Concerto Signals #1",
        "concerto-signals #4",
        "random",
    ],
)
def test_no_one_may_take_a_house_bot_s_name(api, redis_client, name):
    register_bots(api)
    before = everything(redis_client)
    details = assert_error(api.post("/v1/players", {"name": name}), 400, "invalid_request")
    assert details["name"][0].startswith("reserved:")
    assert everything(redis_client) == before


def test_house_bots_are_marked_in_every_seat_and_lobby_row(api, players):
    bots = register_bots(api)
    ada = players.register("ada")
    view = api.create(ada, [ada.id, "bot:random", "bot:random", "bot:concerto_signals"])
    house = {b["id"] for pool in bots.values() for b in pool}
    for seats in (
        view["seats"],
        api.view(view["id"])["seats"],
        api.get("/v1/games").body["games"][0]["seats"],
    ):
        assert [s.get("house", False) for s in seats] == [False, True, True, True]
        assert all((s["player_id"] in house) == s.get("house", False) for s in seats)
        assert all(s.get("house") in (None, True) for s in seats)


def test_house_bots_stay_out_of_a_player_s_rated_tournament(app_config, redis_client):
    # without `reference` an organiser may not invite them either (tests/api/test_events.py)
    api = Api(create_app(app_config | {"HOUSE_BOTS": "visitors,apps,games,ladders"}).test_client())
    bots = register_bots(api)
    ada = Player(**api.post("/v1/players", {"name": "ada"}).body)
    body = {"game": "concerto", "format": "round_robin", "options": {"deals": 1}}
    tid = api.post("/v1/tournaments", body, ada).body["id"]
    entries = f"/v1/tournaments/{tid}/entries"
    before = everything(redis_client)
    shown = api.get(f"/v1/tournaments/{tid}").body
    pairs = [[ada.id, bots["random"][0]["id"]], [bots["random"][1]["id"], bots["random"][2]["id"]]]
    for pair in pairs:
        details = assert_error(api.post(entries, {"players": pair}, ada), 403, "forbidden")
        assert details["players"] == [p for p in pair if p != ada.id]
    assert everything(redis_client) == before
    assert api.get(f"/v1/tournaments/{tid}").body == shown


def test_the_operator_may_let_house_bots_into_tournaments(app_config, players, redis_client):
    config = app_config | {"HOUSE_BOTS": "visitors,apps,games,ladders,tournaments"}
    api = Api(create_app(config).test_client())
    bots = register_bots(api)
    ada = api.post("/v1/players", {"name": "ada"}).body
    body = {"game": "concerto", "format": "round_robin", "options": {"deals": 1}}
    tid = api.post("/v1/tournaments", body, ada["token"]).body["id"]
    pair = [bots["random"][0]["id"], bots["random"][1]["id"]]
    entered = api.post(f"/v1/tournaments/{tid}/entries", {"players": pair}, ada["token"])
    assert entered.status == 201, entered.body
    assert [p.get("house") for p in entered.body["players"]] == [True, True]
    shown = api.get(f"/v1/tournaments/{tid}").body
    assert [p.get("house") for p in shown["entries"][0]["players"]] == [True, True]


def test_a_misspelt_house_bots_setting_stops_the_server(app_config: dict[str, Any]):
    with pytest.raises(ValueError, match="PARLOUR_HOUSE_BOTS"):
        create_app(app_config | {"HOUSE_BOTS": "visitors,tournament"})


def test_an_app_guest_may_not_pass_for_a_house_bot(api, redis_client):
    register_bots(api)
    app = make_app(api)
    before = everything(redis_client)
    body = {"game": "concerto", "seats": [None, None, None, None], "guest_names": ["Random #2"]}
    reply = api.post(f"/v1/apps/{app.id}/games", body, app.token)
    details = assert_error(reply, 400, "invalid_request")
    assert details["guest_names"]["0"][0].startswith("reserved:")
    assert everything(redis_client) == before

"""Every error status of docs/api.md, produced by a real request, in the documented envelope.

(429 has its own file: tests/api/test_rate_limit.py.)
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.api import create_app
from tests.api.helpers import assert_error
from tests.api.play import play_random_moves


@pytest.fixture
def game(api, players):
    """A started game: (game id, the four players, the seat to move)."""
    four = players.many(4)
    view = api.create("admin", [p.id for p in four])
    return view["id"], four, view["to_move"][0]


# -- 400 ---------------------------------------------------------------------------------
def test_malformed_json(api, players):
    reply = api.post("/v1/players", raw='{"name": ')
    assert assert_error(reply, 400, "invalid_request") == {"body": ["not valid JSON"]}


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("/v1/players", {}, "name"),
        ("/v1/players", {"name": 7}, "name"),
        ("/v1/players", {"name": "x", "admin": True}, "admin"),
        ("/v1/games", {"options": {}}, "game"),
        ("/v1/games", {"game": "concerto", "seats": "all"}, "seats"),
        ("/v1/games", {"game": "concerto", "allow_multiple_seats": "yes"}, "allow_multiple_seats"),
        ("/v1/games", {"game": "nim"}, "game"),
        ("/v1/games", {"game": "concerto", "seats": [None, None]}, "seats"),
        ("/v1/games", ["concerto"], "_schema"),
    ],
)
def test_schema_violations_name_the_fields(api, players, path, body, field):
    caller = players.register("c")
    details = assert_error(api.post(path, body, caller), 400, "invalid_request")
    assert field in details


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "move"),
        ({"move": "QS"}, "move"),
        ({"move": {"card": "QS"}}, "move"),
        ({"move": {"type": "play", "card": "1Z"}}, "move"),
        ({"move": {"type": "pass"}, "version": "3"}, "version"),
        ({"move": {"type": "pass"}, "version": -1}, "version"),
        ({"move": {"type": "pass"}, "version": True}, "version"),
        ({"move": {"type": "jump"}}, "move"),  # shape ok, but not a Concerto move (engine)
        ({"move": {"type": "pass", "card": "QS"}}, "move"),
    ],
)
def test_malformed_moves(api, game, body, field):
    gid, four, seat = game
    details = assert_error(
        api.post(f"/v1/games/{gid}/moves", body, four[seat]), 400, "invalid_request"
    )
    assert field in details
    assert api.view(gid)["version"] == 0


def test_invalid_options_and_deals_list_every_problem(api, players):
    caller = players.register("c")
    reply = api.post(
        "/v1/games",
        {"game": "concerto", "options": {"rules": "hoyle", "deals": 0, "colour": 1}},
        caller,
    )
    details = assert_error(reply, 400, "invalid_request")
    assert set(details["options"]) == {"rules", "deals", "colour"}
    bad = [["AS"] * 13, [], ["ZZ"] * 13, ["KS"] * 13]
    reply = api.post(
        "/v1/games", {"game": "concerto", "deals": [{"dealer": 9, "hands": bad}]}, "admin"
    )
    problems = assert_error(reply, 400, "invalid_request")["deals"]
    assert len(problems) >= 3  # the dealer, the short hand, unknown and duplicate cards


@pytest.mark.parametrize(
    "query", [{"after": "x"}, {"wait": "-1"}, {"wait": "nan"}, {"after": "-2"}]
)
def test_bad_query_strings(api, game, query):
    gid, four, _ = game
    details = assert_error(
        api.get(f"/v1/games/{gid}/events", four[0], **query), 400, "invalid_request"
    )
    assert set(details) == set(query)


def test_join_a_seat_that_does_not_exist(api, players):
    a, b = players.many(2)
    gid = api.create(a, [a.id, None, None, None])["id"]
    assert "seat" in assert_error(
        api.post(f"/v1/games/{gid}/join", {"seat": 4}, b), 400, "invalid_request"
    )


# -- 401 ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", "/v1/players/me"),
        ("get", "/v1/me/turns"),
        ("post", "/v1/games"),
        ("post", "/v1/games/{gid}/join"),
        ("post", "/v1/games/{gid}/moves"),
    ],
)
@pytest.mark.parametrize("token", [None, "nobody.secret", "garbage", "admin-ish"])
def test_missing_or_unknown_token(api, game, method, path, token):
    gid, _, seat = game
    path = path.format(gid=gid)
    body = {"moves": {"move": {"type": "pass"}}, "join": {}}.get(
        path.rsplit("/", 1)[1], {"game": "concerto"}
    )
    reply = api.get(path, token) if method == "get" else api.post(path, body, token)
    assert_error(reply, 401, "unauthorized")


def test_a_real_players_id_with_a_wrong_secret(api, game):
    gid, four, seat = game
    forged = four[seat].id + ".not-the-secret"
    assert_error(api.move(gid, forged, {"type": "pass"}), 401, "unauthorized")
    assert_error(api.get(f"/v1/games/{gid}", forged), 401, "unauthorized")


def test_malformed_authorization_header(client):
    reply = client.get("/v1/players/me", headers={"Authorization": "Basic dXNlcg=="})
    assert reply.status_code == 401
    assert reply.get_json()["error"]["code"] == "unauthorized"


# -- 403 ---------------------------------------------------------------------------------
def test_moving_without_a_seat(api, game, players):
    gid, _, _ = game
    outsider = players.register("o")
    assert_error(api.move(gid, outsider, {"type": "pass"}), 403, "forbidden")
    assert_error(api.move(gid, "admin", {"type": "pass"}), 403, "forbidden")


def test_viewing_a_seat_that_is_not_yours(api, game):
    gid, four, _ = game
    assert_error(api.get(f"/v1/games/{gid}", four[0], seat=1), 403, "forbidden")
    assert_error(api.get(f"/v1/games/{gid}/events", four[0], seat=2), 403, "forbidden")


def test_admin_only_options(api, players):
    caller = players.register("c")
    details = assert_error(
        api.post("/v1/games", {"game": "concerto", "seed": "s"}, caller), 403, "forbidden"
    )
    assert details == {"fields": ["seed"]}


@pytest.fixture
def closed_registration(app_config):
    app_config["OPEN_REGISTRATION"] = False
    return app_config


def test_closed_registration(closed_registration, api):
    assert_error(api.post("/v1/players", {"name": "x"}, None), 401, "unauthorized")
    assert api.post("/v1/players", {"name": "x"}, "admin").status == 201
    someone = api.post("/v1/players", {"name": "y"}, "admin").body["token"]
    assert_error(api.post("/v1/players", {"name": "z"}, someone), 403, "forbidden")


# -- 404 ---------------------------------------------------------------------------------
@pytest.mark.parametrize("suffix", ["", "/events", "/replay"])
def test_no_such_game(api, players, suffix):
    assert_error(
        api.get(f"/v1/games/0000000000000000{suffix}", players.register()), 404, "not_found"
    )


def test_no_such_game_for_moves_and_joins(api, players):
    p = players.register()
    assert_error(api.move("nope", p, {"type": "pass"}), 404, "not_found")
    assert_error(api.post("/v1/games/nope/join", {}, p), 404, "not_found")


def test_no_such_player_in_seats(api, players):
    p = players.register()
    details = assert_error(
        api.post("/v1/games", {"game": "concerto", "seats": [p.id, "ghost", None, None]}, p),
        404,
        "not_found",
    )
    assert details == {"seats": {"1": "no such player"}}


def test_unknown_route_and_method(client):
    assert client.get("/v1/nothing").get_json()["error"]["code"] == "not_found"
    reply = client.delete("/v1/players")
    assert reply.status_code == 405
    assert reply.get_json()["error"]["code"] == "method_not_allowed"


# -- 409 ---------------------------------------------------------------------------------
def test_not_your_turn(api, game):
    gid, four, seat = game
    assert_error(api.move(gid, four[(seat + 1) % 4], {"type": "pass"}), 409, "not_your_turn")


def test_stale_version(api, game):
    gid, four, seat = game
    details = assert_error(api.move(gid, four[seat], {"type": "pass"}, 5), 409, "stale_version")
    assert details == {"version": 0}


def test_game_over_and_seat_taken(api, players):
    four = players.many(4)
    gid = api.create("admin", [p.id for p in four], options={"deals": 1})["id"]
    play_random_moves(api, gid, four, random.Random(1))
    assert_error(api.move(gid, four[0], {"type": "pass"}), 409, "game_over")
    assert_error(
        api.post(f"/v1/games/{gid}/join", {"seat": 1}, players.register()), 409, "seat_taken"
    )


# -- 422 ---------------------------------------------------------------------------------
def test_illegal_move_lists_the_callers_legal_moves(api, game):
    gid, four, seat = game
    mine = api.view(gid, four[seat])
    # docs/rules/concerto.md: the leader must play the first card of a hand: no pass.
    details = assert_error(api.move(gid, four[seat], {"type": "pass"}), 422, "illegal_move")
    assert details == {"legal_moves": mine["legal_moves"]}
    assert all(m["type"] == "play" for m in details["legal_moves"])
    not_mine = next(c for c in ("AS", "KS", "QS", "JS") if c not in mine["hand"])
    reply = api.move(gid, four[seat], {"type": "play", "card": not_mine})
    assert assert_error(reply, 422, "illegal_move") == {"legal_moves": mine["legal_moves"]}
    assert api.view(gid)["version"] == 0


# -- never a 500 -------------------------------------------------------------------------
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)
bodies = st.one_of(
    json_values,
    st.fixed_dictionaries(
        {"move": json_values}, optional={"version": json_values, "seat": json_values}
    ),
    st.fixed_dictionaries(
        {"game": st.just("concerto")},
        optional={
            "options": json_values,
            "seats": json_values,
            "allow_multiple_seats": json_values,
        },
    ),
)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(body=bodies, target=st.sampled_from(["moves", "join", "create", "players"]))
def test_malformed_input_is_never_a_500(api, game, body, target):
    gid, four, seat = game
    path = {
        "moves": f"/v1/games/{gid}/moves",
        "join": f"/v1/games/{gid}/join",
        "create": "/v1/games",
        "players": "/v1/players",
    }[target]
    reply = api.post(path, body, four[seat])
    assert reply.status < 500, reply.body
    if reply.status >= 400:
        assert set(reply.body["error"]) == {"code", "message", "details"}


# -- 503 (not in docs/api.md's table: the store is down) ---------------------------------------
def test_store_down_is_503_not_500(tmp_path):
    down = create_app({"REDIS_URL": f"unix://{tmp_path}/no.sock"}).test_client()
    for path in ("/healthz", "/v1/games/abc"):
        reply = down.get(path)
        assert reply.status_code == 503
        assert reply.get_json()["error"]["code"] == "unavailable"


# -- one table: every code's status, answer and details schema ---------------------------
def test_every_code_has_its_details_schema_and_an_answer_that_carries_it_at_its_status():
    """ERRORS (what the server answers), ANSWERS (what the spec documents) and DETAILS
    (each code's details schema) name the same codes, each at the same status."""
    from server.api import errors, schemas

    sent = {(status, code) for status, code, _ in errors.ERRORS.values()}
    sent |= {(s, c) for s, c in errors._HTTP_CODES.items() if c != "method_not_allowed"}
    documented = {(a.status, code) for a in errors.ANSWERS.values() for code in a.codes}
    assert sent == documented
    assert {code for _, code in sent} == set(schemas.DETAILS)


def _raising(exc: Exception, testing: bool = True):
    from flask import Flask

    from server.api import errors

    app = Flask(__name__)
    app.testing = testing
    errors.register(app)

    @app.get("/boom")
    def boom():
        raise exc

    return app.test_client()


@pytest.mark.parametrize(
    "exc",
    [
        pytest.param(("Forbidden", {"fields": ["admin"], "bogus": 1}), id="a key not named"),
        pytest.param(("BoardInPlay", {}), id="a required key missing"),
        pytest.param(("NotFound", {"players": ["p1"]}), id="a value of another shape"),
        pytest.param(("InvalidRequest", {"name": 7}), id="not a field's problems"),
    ],
)
def test_under_test_details_its_schema_does_not_say_fail_loudly(exc):
    from server.services import errors as service_errors

    name, details = exc
    error = getattr(service_errors, name)("refused", details)
    with pytest.raises(AssertionError, match="not its schema's"):
        _raising(error).get("/boom")
    served = _raising(error, testing=False).get("/boom")  # served as it always was
    assert served.get_json()["error"]["details"] == details


def test_details_its_schema_says_pass():
    from server.services.errors import NotFound, TooManyStreams

    reply = _raising(NotFound("no such game", {"game_id": "g1"})).get("/boom")
    assert (reply.status_code, reply.get_json()["error"]["details"]) == (404, {"game_id": "g1"})
    reply = _raising(TooManyStreams(8, 3.2)).get("/boom")
    assert reply.get_json()["error"]["details"] == {"limit": 8, "retry_after": 4}
    assert reply.headers["Retry-After"] == "4"

"""``openapi.yaml`` against real responses, so the contract cannot drift from the server.

Every response of a scripted session that touches every endpoint (and most
error statuses) is validated with openapi-core; successful requests are
validated too. Then two coverage checks: every route of the app is in the
spec, and every operation of the spec was exercised here. Each game, in every
option set of tests/train/option_sets.py, is played to its end and has its
views, moves, turns, events, replay, errors and the messages of both SSE
streams (parsed with client_sdk/sse.py) checked against the spec's schemas, and the spec names
a `details` schema for every error code and a `data` schema for every event kind.
"""

from __future__ import annotations

import importlib
import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from openapi_core import Config, OpenAPI
from openapi_core.contrib.werkzeug import WerkzeugOpenAPIRequest, WerkzeugOpenAPIResponse
from openapi_schema_validator import OAS31Validator
from referencing import Registry
from referencing._core import Resolver
from werkzeug.test import EnvironBuilder

from client_sdk.sse import SseParser
from server.games import find_game
from tests.api.game_setups import check_every_game_is_set_up
from tests.api.openapi_events import exercise_events
from tests.api.openapi_matches import exercise_matches
from tests.api.play import play_random_moves
from tests.callbacks.openapi_calls import exercise_callbacks
from tests.conftest import ADMIN_TOKEN
from tests.embed.openapi_calls import exercise_embedding
from tests.hosted.openapi_calls import exercise_player_bots
from tests.ladder.openapi_calls import exercise_ladders
from tests.security.openapi_tokens import exercise_tokens
from tests.train.option_sets import OPTION_SETS, option_sets
from tests.train.option_sets import ids as option_set_ids
from tests.web.openapi_calls import exercise_visitors

SPEC_PATH = Path(__file__).resolve().parents[2] / "openapi.yaml"
HEARTBEAT = 0.5  # the least a client may ask for


@pytest.fixture
def app_config(app_config: dict) -> dict:
    # a quiet stream heartbeats soon; one that never sends what a test awaits ends soon
    return {**app_config, "SSE_HEARTBEAT": HEARTBEAT, "SSE_MAX_SECONDS": 30}


@pytest.fixture(scope="module")
def document() -> dict:
    """openapi.yaml, read once for the module (with libyaml where PyYAML has it)."""
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    return yaml.load(SPEC_PATH.read_text(), Loader=loader)


def validator(document: dict, name: str) -> OAS31Validator:
    """A validator of the spec's schema ``name`` (its ``$ref`` resolved in the document)."""
    return OAS31Validator({**document, "$ref": f"#/components/schemas/{name}"})


def _text(raw: bytes | str, **parameters: str) -> str:
    """A body the spec calls a string of encoded content (the archive's JSON Lines)."""
    return raw.decode() if isinstance(raw, bytes) else raw


def _messages(raw: bytes | str, **parameters: str) -> list[dict]:
    """A whole event stream as the spec's schema reads it: the list of its messages, each
    as :class:`Stream` shows one."""
    raw = raw if isinstance(raw, bytes) else raw.encode()
    return Stream.parse(SseParser(), raw)


@pytest.fixture(scope="module")
def spec(document: dict) -> OpenAPI:
    read = {"application/x-ndjson": _text, "text/event-stream": _messages}
    config = Config(extra_media_type_deserializers=read)
    return OpenAPI.from_dict(document, config=config)  # also validates the document itself


@pytest.fixture(scope="module", autouse=True)
def pointers_resolved_once(spec: OpenAPI, document: dict) -> Iterator[None]:
    """Each ``#/...`` reference of the spec resolved once, not once per use, while the
    answers are validated (after the document itself was, by ``spec``, unchanged).

    jsonschema asks ``referencing`` for the target of every ``$ref`` it meets (each event
    of a list, each discriminated ``oneOf``), and ``referencing`` walks the JSON pointer
    anew each time (about a tenth of this module's CPU). A pointer's target within one
    registry is always the same schema; the resolver handed back differs only in its
    dynamic scope, which only ``$dynamicRef`` reads, and the spec has none. An invalid
    answer fails exactly as before: only the finding of the schema is shared.
    """
    assert "$dynamicRef" not in json.dumps(document)
    lookup = Resolver.lookup
    found: dict[tuple[str, int, str], tuple[Registry, Any]] = {}

    def cached(self: Resolver, ref: str) -> Any:
        if not ref.startswith("#/"):
            return lookup(self, ref)
        key = (self._base_uri, id(self._registry), ref)
        hit = found.get(key)
        if hit is None or hit[0] is not self._registry:  # (the registry is held: ids unique)
            hit = found[key] = (self._registry, lookup(self, ref))
        return hit[1]

    Resolver.lookup = cached  # type: ignore[method-assign]
    yield
    Resolver.lookup = lookup  # type: ignore[method-assign]


class Checked:
    """A test client whose every answer is validated against the spec."""

    def __init__(self, client, spec: OpenAPI, app, document: dict) -> None:
        self.client, self.spec, self.document = client, spec, document
        self.urls = app.url_map.bind("localhost")
        self.seen: set[tuple[str, str, int]] = set()
        self.codes: set[str] = set()

    def __call__(self, method: str, path: str, body=None, token=None, query=None):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        if body is not None:
            headers["Content-Type"] = "application/json"
        args = {
            "path": path,
            "method": method.upper(),
            "headers": headers,
            "query_string": query,
            "data": None if body is None else json.dumps(body),
        }
        response = self.client.open(**args)
        # A fresh copy of the request: the app has consumed the original's body.
        request = WerkzeugOpenAPIRequest(EnvironBuilder(**args).get_request())
        self.spec.validate_response(request, WerkzeugOpenAPIResponse(response))
        if response.status_code < 400:
            self.spec.validate_request(request)
        rule, _ = self.urls.match(path, method.upper(), return_rule=True)
        self.seen.add((method.lower(), template(rule.rule), response.status_code))
        if response.mimetype == "application/x-ndjson":  # each line, by the contentSchema
            answer = self.document["paths"][template(rule.rule)][method.lower()]["responses"]
            media = answer[str(response.status_code)]["content"][response.mimetype]["schema"]
            lines = [json.loads(line) for line in response.get_data().splitlines()]
            OAS31Validator({**self.document, **media["contentSchema"]}).validate(lines)
        body = response.get_json(silent=True)
        if response.status_code >= 400 and isinstance(body, dict):
            self.codes.add(body["error"]["code"])
        return response.status_code, body

    def stream(self, path: str, schema: str, token=None, query=None, until=None) -> list[dict]:
        """The messages of an SSE stream read until ``until`` holds of them (or the stream
        ends), then closed; each validated as in :class:`Stream`."""
        with self.open_stream(path, schema, token, query) as stream:
            return stream.read(until)

    def open_stream(self, path: str, schema: str, token=None, query=None) -> Stream:
        headers = {"Accept": "text/event-stream"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        response = self.client.get(path, headers=headers, query_string=query, buffered=False)
        assert response.status_code == 200, response.get_data()
        assert response.mimetype == "text/event-stream"
        rule, _ = self.urls.match(path, "GET", return_rule=True)
        self.seen.add(("get", template(rule.rule), 200))
        return Stream(response, validator(self.document, schema))


class Stream:
    """An open SSE stream (the test client's, read in this thread: between two reads the
    test may act, and the stream sees it next). Frames are parsed with client_sdk/sse.py and
    each message is validated against the spec's ``schema`` (the items of the path's
    ``text/event-stream`` answer) as a dict: ``event`` (a named message) or ``id`` (an
    event), and ``data``; or ``comment`` (the heartbeat). A whole stream read by
    :class:`Checked` is that list of messages (:func:`_messages`)."""

    def __init__(self, response, check: OAS31Validator) -> None:
        self.response, self.check = response, check
        self.chunks = iter(response.response)
        self.parser = SseParser()
        self.messages: list[dict] = []

    def __enter__(self) -> Stream:
        return self

    def __exit__(self, *exc) -> None:
        self.response.close()

    def read(self, until=None) -> list[dict]:
        """Every message so far, read until ``until(messages)`` holds or the stream ends."""
        for chunk in self.chunks:
            new = self.parse(self.parser, chunk if isinstance(chunk, bytes) else chunk.encode())
            for message in new:
                self.check.validate(message)
            self.messages += new
            if until is not None and until(self.messages):
                break
        return self.messages

    @staticmethod
    def parse(parser: SseParser, raw: bytes) -> list[dict]:
        """The messages ``raw`` completes, fed to ``parser`` (one stream's)."""
        new = [
            {"comment": line[1:].decode().strip()}  # a comment: the heartbeat
            for line in raw.splitlines()
            if line.startswith(b":")
        ]
        for message in parser.feed(raw):
            out: dict = {"data": json.loads(message.data)}
            if message.event != "message":
                out["event"] = message.event
            else:
                out["id"] = int(message.id)
            new.append(out)
        return new


def events_of(messages: list[dict]) -> set[str]:
    return {m["event"] for m in messages if "event" in m}


def template(rule: str) -> str:
    """A Flask rule as an OpenAPI path: ``/v1/games/<game_id>`` -> ``/v1/games/{game_id}``."""
    return re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule)


def test_responses_match_the_spec(client, spec, players, app, document):
    call = Checked(client, spec, app, document)
    assert call("get", "/healthz")[0] == 200
    assert call("get", "/v1/_ping_redis")[0] == 200
    assert call("get", "/metrics")[0] == 200
    assert call("get", "/v1/rules")[0] == 200
    four = [call("post", "/v1/players", {"name": f"p{i}"})[1] for i in range(4)]
    tokens = [p["token"] for p in four]
    assert call("post", "/v1/players", {"nom": "x"})[0] == 400
    assert call("get", "/v1/players/me", token=tokens[0])[0] == 200
    assert call("get", "/v1/players/me")[0] == 401
    assert call("get", "/v1/players/me", token=ADMIN_TOKEN)[0] == 403

    status, view = call(
        "post",
        "/v1/games",
        {"game": "concerto", "seats": [four[0]["id"], None, None, None], "options": {"deals": 1}},
        tokens[0],
    )
    assert status == 201
    gid = view["id"]
    assert call("post", "/v1/games", {"game": "concerto", "seed": "s"}, tokens[0])[0] == 403
    assert (
        call(
            "post",
            "/v1/games",
            {"game": "concerto", "seats": ["ghost", "ghoul", None, None]},
            tokens[0],
        )[0]
        == 404
    )
    # leaving a seat of a waiting game (docs/api.md#leaving-a-seat)
    seat1 = f"/v1/games/{gid}/seats/1"
    assert call("post", f"/v1/games/{gid}/join", {"seat": 1}, tokens[1])[0] == 200
    assert call("delete", seat1, token=tokens[2])[0] == 403
    assert call("delete", seat1, token=tokens[1])[0] == 200
    assert call("delete", seat1, token=tokens[1])[0] == 409  # nobody sits there now
    assert call("delete", f"/v1/games/{gid}/seats/9", token=tokens[1])[0] == 400
    assert call("delete", "/v1/games/nope/seats/1", token=tokens[1])[0] == 404
    assert call("delete", seat1)[0] == 401
    for i in (1, 2, 3):
        assert call("post", f"/v1/games/{gid}/join", {"seat": i}, tokens[i])[0] == 200
    assert call("delete", seat1, token=tokens[1])[0] == 409  # started: game_started
    assert call("post", f"/v1/games/{gid}/join", {}, tokens[1])[0] == 409
    assert call("post", f"/v1/games/{gid}/join", {"seat": 9}, tokens[1])[0] == 400
    assert call("post", "/v1/games/nope/join", {}, tokens[1])[0] == 404
    assert call("post", f"/v1/games/{gid}/join", {}, ADMIN_TOKEN)[0] == 403
    assert call("post", f"/v1/games/{gid}/join", {})[0] == 401

    status, view = call("get", f"/v1/games/{gid}")
    seat = view["to_move"][0]
    status, mine = call("get", f"/v1/games/{gid}", token=tokens[seat])
    assert status == 200 and mine["legal_moves"]
    assert call("get", f"/v1/games/{gid}", token=tokens[seat], query={"seat": 9})[0] == 403
    assert call("get", f"/v1/games/{gid}", query={"seat": "x"})[0] == 400
    assert call("get", f"/v1/games/{gid}", token="x.y")[0] == 401
    assert call("get", "/v1/games/nope")[0] == 404
    assert call("get", "/v1/me/turns", token=tokens[seat], query={"wait": 0})[0] == 200
    assert call("get", "/v1/me/turns", token=tokens[seat], query={"wait": -1})[0] == 400
    assert call("get", "/v1/me/turns")[0] == 401
    assert call("get", "/v1/me/turns", token=ADMIN_TOKEN)[0] == 403
    # the turn stream's refusals (its 200 is a stream: tests/api/test_turn_stream.py)
    assert call("get", "/v1/me/turns/stream")[0] == 401
    assert call("get", "/v1/me/turns/stream", query={"token": "x.y"})[0] == 400  # header only
    assert call("get", "/v1/me/turns/stream", query={"token": ""})[0] == 400
    assert call("get", "/v1/me/turns/stream", token=ADMIN_TOKEN)[0] == 403

    moves = f"/v1/games/{gid}/moves"
    assert call("post", moves, {"move": {"type": "pass"}}, tokens[seat])[0] == 422
    assert call("post", moves, {"move": {"type": "pass"}}, tokens[(seat + 1) % 4])[0] == 409
    assert call("post", moves, {"move": {"type": "pass"}, "version": 4}, tokens[seat])[0] == 409
    assert call("post", moves, {"move": {"type": "hop"}}, tokens[seat])[0] == 400
    assert call("post", moves, {"move": {"type": "pass"}}, ADMIN_TOKEN)[0] == 403
    assert call("post", moves, {"move": {"type": "pass"}})[0] == 401
    assert call("post", "/v1/games/nope/moves", {"move": {"type": "pass"}}, tokens[0])[0] == 404
    assert (
        call("post", moves, {"move": mine["legal_moves"][0], "version": 0}, tokens[seat])[0] == 200
    )

    events = f"/v1/games/{gid}/events"
    assert call("get", events, token=tokens[0], query={"after": 0, "wait": 0})[0] == 200
    assert call("get", events)[0] == 200
    assert call("get", events, query={"after": -1})[0] == 400
    assert call("get", events, token=tokens[0], query={"seat": 3})[0] == 403
    assert call("get", events, token="x.y")[0] == 401
    assert call("get", "/v1/games/nope/events")[0] == 404
    assert call("get", f"/v1/games/{gid}/replay")[0] == 200
    assert call("get", f"/v1/games/{gid}/replay", token="x.y")[0] == 401
    assert call("get", "/v1/games/nope/replay")[0] == 404
    assert call("get", f"/v1/games/{gid}/replay/0")[0] == 409  # not finished: no frames yet
    status, live = call("get", "/v1/games", query={"status": "live"})
    assert status == 200 and [g["id"] for g in live["games"]] == [gid]
    assert call("get", "/v1/games", query={"status": "lost"})[0] == 400

    from tests.api.helpers import Api
    from tests.conftest import Player

    people = [Player(p["id"], p["name"], p["token"]) for p in four]
    # the turn stream open while the game is played to its end and an invitation comes
    with call.open_stream(
        "/v1/me/turns/stream", "TurnStreamMessage", tokens[0], {"heartbeat": HEARTBEAT}
    ) as watching:
        watching.read(until=lambda got: bool(got))
        play_random_moves(Api(client=client), gid, people, random.Random(9))
        seats = [four[1]["id"], four[0]["id"], None, None]
        assert call("post", "/v1/games", {"game": "concerto", "seats": seats}, tokens[1])[0] == 201
        pushed = watching.read(until=lambda got: {"over", "invitation"} <= events_of(got))
    assert {"turns", "over", "invitation"} <= events_of(pushed)
    over = [m["data"] for m in pushed if m.get("event") == "over"]
    assert over == [{"game_id": gid, "status": "finished"}]
    sent = call.stream(f"/v1/games/{gid}/stream", "GameStreamMessage", tokens[0])
    assert sent[-1] == {"event": "end", "data": {"status": "finished"}}  # and the stream ends
    # a token revoked while its stream is open: an `error` message ends it
    gone = players.register("gone")
    with call.open_stream(
        "/v1/me/turns/stream", "TurnStreamMessage", gone.token, {"heartbeat": HEARTBEAT}
    ) as stream:
        assert stream.read(until=lambda got: bool(got)) == [{"comment": "heartbeat"}]
        assert call("delete", "/v1/players/me/token", token=gone.token)[0] == 204
        ended = stream.read()
    assert ended[-1]["event"] == "error"
    status, replay = call("get", f"/v1/games/{gid}/replay")
    assert status == 200 and replay["revealed"]
    status, frame = call("get", f"/v1/games/{gid}/replay/{replay['version']}")
    assert status == 200 and frame["public"]["result"] == replay["result"]
    assert call("get", f"/v1/games/{gid}/replay/{replay['version'] + 1}")[0] == 404
    filed = {"replay": replay, "first": replay["version"], "count": 1}  # a replay file's
    status, again = call("post", "/v1/replays/frames", filed)
    assert status == 200 and again["frames"][0]["public"] == frame["public"]
    assert call("post", "/v1/replays/frames", {"replay": {}})[0] == 400
    assert call("get", f"/v1/games/{gid}/replay/0", token="x.y")[0] == 401
    assert call("get", "/v1/archive", query={"since": "2000-01-01T00:00:00Z"})[0] == 200
    assert call("get", "/v1/archive", query={"ladder": "nope"})[0] == 404
    assert call("get", "/v1/archive", query={"limit": 1})[0] == 400
    status, ended = call("get", "/v1/games", query={"status": "finished", "limit": 5})
    assert status == 200 and [g["id"] for g in ended["games"]] == [gid]
    status, final = call("get", f"/v1/games/{gid}", token=tokens[0])
    assert final["status"] == "finished" and final["result"]
    assert call("post", moves, {"move": {"type": "pass"}}, tokens[0])[0] == 409
    status, events_body = call("get", events, token=tokens[0])
    assert {e["kind"] for e in events_body["events"]} >= {"game_end", "game_over", "deal_end"}

    exercise_tournaments(call, four, people, client, app)
    exercise_events(call, client, app)  # an organiser's event (docs/organisers.md)
    exercise_embedding(call, gid, tokens[0])  # apps, bots, webhooks, SSE
    exercise_tokens(call)  # rotate and revoke
    exercise_callbacks(call)  # /v1/me/callback: a bot that is a URL
    exercise_player_bots(call, app)  # /v1/me/bots: a player's own bots
    exercise_ladders(call, four)  # /v1/ladders (docs/ladder.md)
    exercise_visitors(call)  # the web lobby's Play against bots
    exercise_matches(call)  # /v1/matches: is NEW better than OLD

    documented = {
        (m, p)
        for p, item in document["paths"].items()
        for m in item
        if m in ("get", "post", "put", "delete")
    }
    routes = {
        (m.lower(), template(r.rule))
        for r in app.url_map.iter_rules()
        if r.endpoint != "static" and not r.endpoint.startswith("web.")  # HTML pages
        for m in r.methods - {"HEAD", "OPTIONS"}
    }
    assert routes == documented
    assert {(m, p) for m, p, _ in call.seen} >= documented


def exercise_tournaments(call: Checked, four: list[dict], people, client, app) -> None:
    """Tournaments and ratings: a two-entry Concerto round robin played to the end,
    with the scheduler's passes run in this thread, and the errors on the way."""
    from server.processes.scheduler import Runner
    from tests.api.helpers import Api

    tokens = [p["token"] for p in four]
    body = {
        "game": "concerto",
        "format": "round_robin",
        "options": {"deals": 1},
        "clock": {"move_seconds": 30},
        "timeout_policy": {"kind": "forfeit", "after": 3},
    }
    status, made = call("post", "/v1/tournaments", body, tokens[0])
    assert status == 201 and made["status"] == "open"
    tid = made["id"]
    status, listed = call("get", "/v1/tournaments")
    assert status == 200 and [t["id"] for t in listed["tournaments"]] == [tid]
    assert call("get", "/v1/tournaments", query={"limit": 0})[0] == 400
    assert call("post", "/v1/tournaments", {**body, "format": "ladder"}, tokens[0])[0] == 400
    assert call("post", "/v1/tournaments", body)[0] == 401
    entries = f"/v1/tournaments/{tid}/entries"
    assert call("post", entries, {"players": [four[0]["id"], four[2]["id"]]}, tokens[0])[0] == 201
    assert call("post", entries, {"players": [four[1]["id"], four[3]["id"]]}, tokens[3])[0] == 201
    # the partners named are invited: each accepts (docs/api.md#consent-and-invitations)
    for i in (2, 1):
        status, page = call("get", "/v1/me/invitations", None, tokens[i])
        assert status == 200 and len(page["invitations"]) == 1
        inv = page["invitations"][0]["id"]
        assert call("post", f"/v1/invitations/{inv}/accept", {}, tokens[i])[0] == 200
        assert call("post", f"/v1/invitations/{inv}/decline", {}, tokens[i])[0] == 404
    assert call("get", "/v1/me/invitations")[0] == 401
    assert call("get", "/v1/me/invitations", None, tokens[1], {"cursor": "x"})[0] == 400
    # blocks (docs/api.md#limits-on-invitations)
    blocks = f"/v1/me/blocks/{four[0]['id']}"
    assert call("put", blocks, {}, tokens[1])[0] == 200
    status, page = call("get", "/v1/me/blocks", None, tokens[1], {"limit": 1})
    assert status == 200 and [b["player_id"] for b in page["blocks"]] == [four[0]["id"]]
    assert call("put", f"/v1/me/blocks/{four[1]['id']}", {}, tokens[1])[0] == 400
    assert call("put", "/v1/me/blocks/nobody", {}, tokens[1])[0] == 404
    assert call("delete", blocks, None, tokens[1])[0] == 204
    assert call("get", "/v1/me/blocks")[0] == 401
    assert call("post", entries, {"players": [four[1]["id"], four[3]["id"]]}, ADMIN_TOKEN)[0] == 409
    assert call("post", entries, {"players": []}, tokens[0])[0] == 400
    assert call("post", entries, {"players": [four[0]["id"]]})[0] == 401
    assert call("post", "/v1/tournaments/nope/entries", {"players": ["x"]}, tokens[0])[0] == 404
    start = f"/v1/tournaments/{tid}/start"
    assert call("post", start, {}, tokens[1])[0] == 403
    assert call("post", start, {"now": True}, tokens[0])[0] == 400
    assert call("post", start, {})[0] == 401
    assert call("post", "/v1/tournaments/nope/start", {}, tokens[0])[0] == 404
    assert call("post", start, {}, tokens[0])[0] == 200
    assert call("post", start, {}, tokens[0])[0] == 409
    assert call("post", entries, {"players": [four[1]["id"]]}, ADMIN_TOKEN)[0] == 409

    runner = Runner(app.extensions["parlour"])
    runner.tick()
    status, shown = call("get", f"/v1/tournaments/{tid}")
    (table,) = shown["rounds"][0]["tables"]
    assert status == 200 and table["status"] == "playing"
    status, view = call("get", f"/v1/games/{table['game_id']}", token=tokens[0])
    assert status == 200 and view["deadline"] is not None
    play_random_moves(Api(client=client), table["game_id"], people, random.Random(5))
    runner.tick()
    status, shown = call("get", f"/v1/tournaments/{tid}")
    assert shown["status"] == "finished" and shown["rounds"][0]["tables"][0]["result"]
    assert call("get", "/v1/tournaments/nope")[0] == 404
    status, table = call("get", f"/v1/tournaments/{tid}/standings")
    assert status == 200 and [s["rank"] for s in table["standings"]] == [1, 2]
    assert call("get", "/v1/tournaments/nope/standings")[0] == 404
    status, board = call("get", "/v1/ratings/concerto")
    assert status == 200 and len(board["leaderboard"]) == 4
    assert call("get", "/v1/ratings/chess")[0] == 404
    status, me = call("get", "/v1/players/me", token=tokens[0])
    assert me["ratings"]["concerto"]["games"] == 1
    assert me["ratings"]["concerto"]["provisional"] is True  # one game: sigma near 25/3
    status, history = call("get", f"/v1/ratings/concerto/{me['id']}/history")
    game_id = shown["rounds"][0]["tables"][0]["game_id"]
    assert status == 200 and [row["game_ids"] for row in history["history"]] == [[game_id]]
    assert call("get", f"/v1/ratings/concerto/{me['id']}x/history")[0] == 404


# Every game in every option set of tests/train/option_sets.py (each rule edition, variant
# and table size, one deal where the game has a choice) played to its end, its answers
# checked against the spec (each game's `View`, `<Game>State` and `<Game>Move`, each event
# kind's `data`). A registered game without an option set fails
# `test_every_game_and_option_set_is_checked`; a game that does not end fails at
# `longest_game`'s bound (its Game record's).


def test_every_game_and_option_set_is_checked() -> None:
    check_every_game_is_set_up()
    # each option set of the registry as it is now is a case below (a game registered after
    # the cases were collected is not: its own tests play it, as tests/testgame/ does)
    assert option_sets() == OPTION_SETS


@pytest.mark.parametrize(("game", "options"), OPTION_SETS, ids=option_set_ids())
def test_every_games_answers_match_the_spec(client, spec, players, app, document, game, options):
    check_a_game_s_answers(Checked(client, spec, app, document), players, app, game, options)


def checked_turn(n: int) -> bool:
    """Whether the ``n``-th move's view and answer are checked (besides a new phase's): the
    first four, then each power of two (4, 8, 16, ...: ever further apart)."""
    return n < 4 or n & (n - 1) == 0


def check_a_game_s_answers(call: Checked, players, app, game: str, options: dict) -> None:
    """A game of ``game`` played to its end, its answers checked through ``call`` against
    its spec: the creation and the joins; the view of the seat to move and the move's
    answer at the :func:`checked_turn` turns and wherever the kinds of legal moves change
    (a new phase: an auction, an exchange, the tricks, a round); after the first move, the
    game under way (:func:`check_a_game_under_way`); at the end, the finished game
    (:func:`check_a_finished_game`). The moves between are made through the services.
    tests/testgame/ calls it with a spec built with its game registered."""
    me = players.register(f"{game}-bot")
    body = {"game": game, "options": options, "allow_multiple_seats": True}
    status, view = call("post", "/v1/games", body, me.token)
    assert status == 201, view
    gid = view["id"]
    while view["status"] == "waiting":
        status, view = call("post", f"/v1/games/{gid}/join", {}, me.token)
        assert status == 200, view
    games = app.extensions["parlour"].games
    bound = find_game(game).longest_game(view["options"])
    rng = random.Random(f"{game}{options}")
    n, before, under_way, sent = 0, None, False, set()
    while view["status"] == "active":
        assert n <= bound, f"more than the {bound} moves of its longest game"
        seat = view["to_move"][0]
        legal = games.view(me.token, gid, seat)["legal_moves"]
        move, kinds = rng.choice(legal), {m["type"] for m in legal}
        if checked_turn(n) or kinds != before:
            query = {"seat": seat}
            status, mine = call("get", f"/v1/games/{gid}", token=me.token, query=query)
            assert status == 200 and mine["game"] == game and mine["legal_moves"] == legal
            answer = call("post", f"/v1/games/{gid}/moves", {"move": move, "seat": seat}, me.token)
            status, view = answer
            assert status == 200, view
        else:
            view = games.move(me.token, gid, move, seat=seat)
        n, before = n + 1, kinds
        sent.add(move["type"])
        if not under_way and view["status"] == "active":
            check_a_game_under_way(call, me, gid, view, (seat, move))
            under_way = True
    assert under_way, "the game ended at its first move: nothing was checked under way"
    assert view["status"] == "finished" and view["version"] == n, view["status"]
    assert sent  # the moves sent were the spec's (requests are checked too)
    check_a_finished_game(call, me, gid, len(view["seats"]))


def check_a_game_under_way(call: Checked, me, gid: str, view: dict, last: tuple) -> None:
    """A game under way (``view``: the answer to its last move, ``last``: who made which):
    every seat's view and a spectator's, the turns, the events, the replay, the refusals
    (each in its code's schema, the spec's `<Code>Error`) and both streams."""
    seats = len(view["seats"])
    for seat in range(seats):
        status, mine = call("get", f"/v1/games/{gid}", token=me.token, query={"seat": seat})
        assert status == 200 and mine["you"] == seat
    assert call("get", f"/v1/games/{gid}")[0] == 200  # the spectator's view
    assert call("get", "/v1/me/turns", token=me.token)[0] == 200
    status, events = call("get", f"/v1/games/{gid}/events", token=me.token, query={"seat": 0})
    assert status == 200 and events["events"]
    assert call("get", f"/v1/games/{gid}/replay")[0] == 200
    assert call("get", f"/v1/games/{gid}/replay/0")[0] == 409  # game_not_finished

    moves = f"/v1/games/{gid}/moves"
    assert call("post", moves, {"move": {"type": "pass"}}, "x.y")[0] == 401
    assert call("get", "/v1/games/nope", token=me.token)[0] == 404
    assert call("post", moves, {"move": "pass"}, me.token)[0] == 400
    seat = view["to_move"][0]
    status, mine = call("get", f"/v1/games/{gid}", token=me.token, query={"seat": seat})
    legal = mine["legal_moves"]
    # not the move this seat just made, if it moves again: sent again at the version it
    # was accepted at, that is a safe retry (answered 200), not a stale move
    fresh = [m for m in legal if (seat, m) != last]
    stale = {"move": fresh[0], "seat": seat, "version": view["version"] - 1}
    status, error = call("post", moves, stale, me.token)
    assert status == 409 and error["error"]["details"] == {"version": view["version"]}
    # a well-formed move the rules refuse now (illegal_move): the first of the game's
    # action space the seat may not make
    game = find_game(view["game"])
    wrong = next(m for m in map(game.move_of, game.actions) if m not in legal)
    status, error = call("post", moves, {"move": wrong, "seat": seat}, me.token)
    assert status == 422 and error["error"]["details"]["legal_moves"] == legal, error
    status, again = call("get", f"/v1/games/{gid}", token=me.token, query={"seat": seat})
    assert again["version"] == view["version"], "a refused move changed the game"
    assert call.codes >= {"unauthorized", "not_found", "invalid_request"}
    assert call.codes >= {"stale_version", "illegal_move", "game_not_finished"}

    # both streams, every message in the spec's message schemas
    turns = call.stream(
        "/v1/me/turns/stream",
        "TurnStreamMessage",
        token=me.token,
        query={"heartbeat": HEARTBEAT},
        until=lambda got: "turns" in events_of(got),  # (its heartbeat: the test above)
    )
    (pushed,) = [m for m in turns if m.get("event") == "turns"]
    assert {t["view"]["game"] for t in pushed["data"]} == {view["game"]}
    assert sorted(t["seat"] for t in pushed["data"]) == sorted(view["to_move"])
    sent = call.stream(
        f"/v1/games/{gid}/stream",
        "GameStreamMessage",
        token=me.token,
        query={"seat": 0},
        until=lambda got: sum("id" in m for m in got) == len(events["events"]),
    )
    assert [m["data"] for m in sent if "id" in m] == events["events"]
    check_kinds(call.document, events["events"])


def check_a_finished_game(call: Checked, me, gid: str, seats: int) -> None:
    """A finished game: every seat's view and events and a spectator's, the replay, its
    first and last frames, a move refused (game_over) and the game stream's ``end``."""
    for seat in [*range(seats), None]:
        token, query = (None, None) if seat is None else (me.token, {"seat": seat})
        status, final = call("get", f"/v1/games/{gid}", token=token, query=query)
        assert status == 200 and final["status"] == "finished" and final["result"]
        assert final["you"] == seat and not final["legal_moves"]
        status, events = call("get", f"/v1/games/{gid}/events", token=token, query=query)
        assert status == 200 and events["events"][-1]["kind"] == "game_over"
        check_kinds(call.document, events["events"])
        query = {**(query or {}), "after": events["last"], "wait": 0}
        status, page = call("get", f"/v1/games/{gid}/events", token=token, query=query)
        assert status == 200 and page["events"] == []  # the next page: none after the last
    status, replay = call("get", f"/v1/games/{gid}/replay")
    assert status == 200 and replay["revealed"] and replay["result"] == final["result"]
    status, first = call("get", f"/v1/games/{gid}/replay/0")
    assert status == 200 and first["public"]["version"] == 0
    status, frame = call("get", f"/v1/games/{gid}/replay/{replay['version']}")
    assert status == 200 and frame["public"]["result"] == replay["result"]
    assert len(frame["views"]) == seats
    move = {"move": {"type": "pass"}, "seat": 0}
    assert call("post", f"/v1/games/{gid}/moves", move, me.token)[0] == 409
    assert "game_over" in call.codes
    sent = call.stream(f"/v1/games/{gid}/stream", "GameStreamMessage", me.token)
    assert sent[-1] == {"event": "end", "data": {"status": "finished"}}
    check_kinds(call.document, [m["data"] for m in sent if "id" in m])


def check_kinds(document: dict, events: list[dict]) -> None:
    """Every event is one of its kind's (the spec's `<Kind>Event`, data typed per kind)."""
    mapping = document["components"]["schemas"]["Event"]["discriminator"]["mapping"]
    assert {e["kind"] for e in events} <= mapping.keys()


def test_every_error_code_and_event_kind_has_its_schema(document):
    """Each code the server answers with has a `<Code>Error` (its `details` typed), and
    each event kind an engine or a service emits a `<Kind>Event` (its `data` typed)."""
    from server.api import errors

    schemas = document["components"]["schemas"]
    codes = {code for _, code, _ in errors.ERRORS.values()} | set(errors._HTTP_CODES.values())
    codes -= {"method_not_allowed"}  # 405 (and 500): statuses the spec does not document
    camel = {code: "".join(w.capitalize() for w in code.split("_")) for code in codes}
    missing = sorted(c for c in codes if f"{camel[c]}ErrorBody" not in schemas)
    assert not missing, f"error codes without a schema: {missing}"
    for code in codes:
        body = schemas[f"{camel[code]}ErrorBody"]["properties"]
        assert body["code"]["const"] == code
        assert "type" in body["details"] or "$ref" in body["details"]
    answered = set()  # the codes the error responses may carry
    for response in document["components"]["responses"].values():
        schema = response.get("content", {}).get("application/json", {}).get("schema", {})
        if schema.get("$ref") == "#/components/schemas/Error":  # several codes: it says which
            answered |= set(response["x-error-codes"])
        elif "$ref" in schema:
            error = schemas[schema["$ref"].rsplit("/", 1)[1]]["properties"]["error"]
            answered.add(schemas[error["$ref"].rsplit("/", 1)[1]]["properties"]["code"]["const"])
    assert answered == codes
    assert schemas["Error"]["properties"]["error"]["discriminator"]["mapping"] == {
        c: f"#/components/schemas/{camel[c]}ErrorBody" for c in codes
    }
    root = Path(__file__).resolve().parents[2] / "server"
    emitted = set()
    for source in root.rglob("*.py"):
        found = re.findall(r'\bEvent\(\s*("\w+"|[A-Z_]+\b)', source.read_text(encoding="utf-8"))
        if found:  # a kind named by a constant is looked up in its module: `BID`
            name = ".".join(source.relative_to(root.parent).with_suffix("").parts)
            module = vars(importlib.import_module(name))
            emitted |= {module[k] if k in module else k.strip('"') for k in found}
    assert emitted >= {"deal", "play", "timeout", "game_over", "melds", "showdown"}
    mapping = schemas["Event"]["discriminator"]["mapping"]
    assert emitted == mapping.keys(), f"kinds without a schema: {emitted - mapping.keys()}"


def unchecked(client):
    def get(method, path, token=None, query=None):
        response = client.open(
            path,
            method=method.upper(),
            query_string=query,
            headers={"Authorization": f"Bearer {token}"},
        )
        return response.status_code, response.get_json()

    return get


MAIN_OPERATIONS = {"createGame", "joinGame", "getGame", "makeMove", "getTurns"}


def test_the_examples_are_answers_the_spec_accepts(document):
    """Each example (request or response) validates against its media type's schema, and
    the main operations show one for their request body and their success."""
    named = document["components"]["examples"]
    shown: dict[str, set[str]] = {}

    def check(operation: str, where: str, media: dict) -> None:
        for example in media.get("examples", {}).values():
            name = example["$ref"].rsplit("/", 1)[1] if "$ref" in example else None
            value = named[name]["value"] if name else example["value"]
            OAS31Validator({**document, **media["schema"]}).validate(value)
            shown.setdefault(operation, set()).add(where)

    for item in document["paths"].values():
        for method, op in item.items():
            if method not in ("get", "post", "put", "delete"):
                continue
            body = op.get("requestBody", {}).get("content", {}).get("application/json")
            if body:
                check(op["operationId"], "request", body)
            for status, response in op["responses"].items():
                if "$ref" in response:
                    response = document["components"]["responses"][response["$ref"].rsplit("/")[-1]]
                media = response.get("content", {}).get("application/json")
                if media:
                    check(op["operationId"], status, media)
    for operation in MAIN_OPERATIONS:
        assert {"200", "201"} & shown.get(operation, set()), f"{operation} shows no answer"
    assert "request" in shown["createGame"] and "request" in shown["makeMove"]
    assert {"409", "422"} <= shown["makeMove"]

"""The spec says what is sent, and a sealed table shows only that it exists.

Found by the probe: a finished game's replay frame ``move`` carried
``"timeout": true``, which ``Frame.move`` did not allow; a ladder table's
``GameSummary.tournament.id`` was null where the spec asked for a string, with
nothing saying it was a ladder's. While a duplicate board's other table played,
the lobby showed a sealed table's ``version`` growing and its end time, and the
public ladder entry page showed each table's ``over``, the timeouts of a table
already over and its callback failures (game, version, seat). Now the frames
and summaries validate against the spec (``tournament.ladder`` names the
ladder) and a sealed table is listed as existing only, to a spectator and to a
player of the other table alike (both pages are public).
"""

from __future__ import annotations

import random
import time

from openapi_schema_validator import OAS31Validator

from server.processes.scheduler import Runner
from server.store import callbacks as callback_store
from tests import spec
from tests.api.test_time_bank import clocked_game
from tests.security.support import play_out, seated, start_ladder_board, step


def check(name: str, value: object) -> None:
    """``value`` against the spec's schema ``name`` (every error at once)."""
    document = spec.document()
    validator = OAS31Validator({**document, "$ref": f"#/components/schemas/{name}"})
    errors = [e.message for e in validator.iter_errors(value)]
    assert not errors, errors


def test_a_timed_out_move_s_frame_is_what_the_spec_says(app, api, players):
    people = players.many(4)
    service = app.extensions["parlour"]
    gid = clocked_game(app, "frame-timeout", people, move_seconds=0.3)
    assert service.clocks.timeout(gid, now=time.time() + 60) == "default_move"
    rng = random.Random(4)
    while (view := api.view(gid, "admin"))["status"] == "active":
        seat = view["to_move"][0]
        who = next(p for p in people if p.id == view["seats"][seat]["player_id"])
        mine = api.view(gid, who)
        assert api.move(gid, who, rng.choice(mine["legal_moves"]), mine["version"]).status == 200
    frame = api.get(f"/v1/games/{gid}/replay/1").body
    assert frame["move"]["timeout"] is True
    check("Frame", frame)
    check("Frame", api.get(f"/v1/games/{gid}/replay/{view['version']}").body)


def test_a_ladder_table_says_whose_it_is_and_a_sealed_table_only_that_it_exists(
    app, api, players, redis_client
):
    people = players.many(8)
    x, y = start_ladder_board(api, app, people)
    lid = _ladder_of(api)
    at_x, at_y = seated(api, x, people), seated(api, y, people)
    rng = random.Random(5)
    service = app.extensions["parlour"]
    assert service.clocks.timeout(x, now=time.time() + 3600) == "default_move"
    last = play_out(api, x, people, rng)
    Runner(service).tick()  # the ladder records the table's result (and its timeout)
    # a callback (never called: no dispatcher runs here) whose books name a failure at x
    service.callbacks.put(at_x[1].token, "https://93.184.216.34/bot")
    failure = {"at": time.time(), "game_id": x, "version": 3, "seat": 1, "kind": "timeout"}
    callback_store.record(redis_client, at_x[1].id, {"calls": 1}, None, failure | {"detail": ""})

    def lobby(status: str, gid: str) -> dict:
        listed = api.get("/v1/games", status=status).body
        check("GameList", listed)
        return next(g for g in listed["games"] if g["id"] == gid)

    shown = []
    for _ in range(2):  # the other table plays on: nothing changes but its existence
        step(api, y, people, rng)
        ended, live = lobby("finished", x), lobby("live", y)
        for row in (ended, live):
            assert row["tournament"]["ladder"] == lid and row["tournament"]["id"] is None
            assert row["version"] is None and row["created"] is None and row["ended"] is None
            assert row["to_move"] == [] and row["scores"] is None and row["result"] is None
        page = api.get(f"/v1/ladders/{lid}/entries/{at_x[1].id}", at_y[0]).body
        assert [g["over"] for g in _board(page, x)["games"]] == [None, None]
        health = page["health"]
        assert (health["games"], health["timeouts"], page["last_played"]) == (0, 0, None)
        assert health["callback"]["last_failures"] == []
        shown.append((ended, live, page))
    assert shown[0] == shown[1]
    assert last["status"] == "finished"
    # once the board is over, everything is public again
    play_out(api, y, people, rng)
    Runner(service).tick()
    ended = lobby("finished", x)
    assert ended["version"] is not None and ended["ended"] is not None
    page = api.get(f"/v1/ladders/{lid}/entries/{at_x[1].id}").body
    assert [g["over"] for g in _board(page, x)["games"]] == [True, True]
    assert page["health"]["games"] == 1
    assert [f["game_id"] for f in page["health"]["callback"]["last_failures"]] == [x]


def _ladder_of(api) -> str:
    (listed,) = api.get("/v1/ladders").body["ladders"]
    return listed["id"]


def _board(page: dict, gid: str) -> dict:
    """The entry's history row of the match whose tables include ``gid``."""
    return next(row for row in page["history"] if gid in [g["game_id"] for g in row["games"]])

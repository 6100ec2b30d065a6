"""Tournaments and ratings over HTTP: a whole tournament through a real socket, the
validation and permission errors, the clock's ``deadline_passed``, and no hidden
information on tournament pages."""

from __future__ import annotations

import doctest
import random
import threading
import time

import pytest
from openapi_schema_validator import OAS31Validator

from client_sdk import CannotStart, Client, organise
from server.processes import scheduler as runner_module
from server.processes.scheduler import Runner
from server.services.bundle import Services
from server.store import connect
from server.tournaments import clock
from tests import spec
from tests.api.helpers import Api, assert_error, cards_in
from tests.conftest import ADMIN_TOKEN as ADMIN
from tests.conftest import Player

SHORT = {"deals": 1}


def _tournament(api: Api, who, **extra) -> dict:
    body = {"game": "concerto", "format": "round_robin", "options": SHORT, **extra}
    reply = api.post("/v1/tournaments", body, who)
    assert reply.status == 201, reply.body
    return reply.body


def _enter(api: Api, tid: str, who, *entrants: Player) -> dict:
    reply = api.post(f"/v1/tournaments/{tid}/entries", {"players": [p.id for p in entrants]}, who)
    assert reply.status == 201, reply.body
    return reply.body


def _accept_invitations(api: Api, who: Player) -> int:
    """``who`` accepts every open invitation (docs/api.md#consent-and-invitations)."""
    page = api.get("/v1/me/invitations", who).body["invitations"]
    for inv in page:
        assert api.post(f"/v1/invitations/{inv['id']}/accept", {}, who).status == 200
    return len(page)


def _move_randomly(api: Api, people: list[Player], rng: random.Random) -> int:
    """One pass of bots: each player asks ``/me/turns`` and plays a random legal move."""
    made = 0
    for p in people:
        for turn in api.get("/v1/me/turns", p, wait=0).body["turns"]:
            move = rng.choice(turn["view"]["legal_moves"])
            reply = api.move(turn["game_id"], p, move, turn["version"])
            assert reply.status in (200, 409), reply.body
            made += reply.status == 200
    return made


def test_a_whole_tournament_over_a_socket(live_api, live_players, redis_server):
    people = live_players.many(6)
    # a player creates it; each entry is entered by one of its own players
    created = _tournament(live_api, people[0], clock={"move_seconds": 20})
    tid = created["id"]
    assert created["status"] == "open" and created["created_by"] == people[0].id
    for i in range(0, 6, 2):
        entry = _enter(live_api, tid, people[i + 1], people[i], people[i + 1])
        assert entry["seed"] == i // 2 + 1
        assert entry["pending"] == [people[i].id]  # the partner named is invited
        assert _accept_invitations(live_api, people[i]) == 1
    started = live_api.post(f"/v1/tournaments/{tid}/start", {}, people[0])
    assert started.status == 200 and started.body["status"] == "running"
    assert started.body["progress"]["games_planned"] == 3  # three entries: 3 matches, byes

    runner = Runner(Services(connect(redis_server.url), admin_token=None), interval=0.02)
    stop = threading.Event()
    thread = threading.Thread(target=runner.run, args=(stop,), daemon=True)
    thread.start()
    rng = random.Random(3)
    checked_hidden = False
    try:
        deadline = time.monotonic() + 60
        while True:
            page = live_api.get(f"/v1/tournaments/{tid}")
            if page.body["status"] == "finished":
                break
            if not checked_hidden and page.body["progress"]["games_started"]:
                assert cards_in(page.text) == set()  # no card on a tournament page
                checked_hidden = True
            assert time.monotonic() < deadline
            if not _move_randomly(live_api, people, rng):
                time.sleep(0.01)
    finally:
        stop.set()
        thread.join(10)

    shown = page.body
    assert cards_in(page.text) == set()
    assert shown["progress"] == {
        "rounds": 3,
        "games_planned": 3,
        "games_started": 3,
        "games_finished": 3,
    }
    # standings worked from the games' own results, read over HTTP
    points = {e["id"]: 0.0 for e in shown["entries"]}
    for rd in shown["rounds"]:
        (bye,) = rd["byes"]
        points[bye] += 0.5
        (table,) = rd["tables"]
        result = live_api.view(table["game_id"])["result"]
        winners = {table["seats"][s] for s in result["winners"]}
        for e in table["entries"]:
            points[e] += 1.0 if e in winners else 0.5 if not winners else 0.0
    standings = live_api.get(f"/v1/tournaments/{tid}/standings").body
    assert standings["status"] == "finished"
    assert {s["entry"]: s["points"] for s in standings["standings"]} == points
    assert standings["standings"] == shown["standings"]
    # every player is rated, twice (two games each), and the profile agrees
    board = live_api.get("/v1/ratings/concerto").body["leaderboard"]
    assert sorted(row["player_id"] for row in board) == sorted(p.id for p in people)
    assert all(row["games"] == 2 for row in board)
    mine = live_api.get("/v1/players/me", people[0]).body["ratings"]["concerto"]
    assert mine == {
        k: v
        for row in board
        if row["player_id"] == people[0].id
        for k, v in row.items()
        if k in ("mu", "sigma", "ordinal", "games", "low", "high", "provisional")
    }
    # two games leave sigma near a newcomer's 8.33, above 25/6: provisional, a wide interval
    assert mine["provisional"] is True
    assert mine["low"] == pytest.approx(mine["mu"] - 1.96 * mine["sigma"])
    assert mine["high"] - mine["low"] > 16


@pytest.mark.parametrize(
    "body, field",
    [
        ({"game": "chess", "format": "swiss"}, "game"),
        ({"game": "concerto", "format": "ladder"}, "format"),
        ({"game": "concerto", "format": "swiss", "options": {"deals": 0}}, "options"),
        ({"game": "concerto", "format": "knockout", "rounds": 2}, "rounds"),
        ({"game": "concerto", "format": "swiss", "boards_per_match": 2}, "boards_per_match"),
        ({"game": "concerto", "format": "swiss", "seats_per_entry": 3}, "seats_per_entry"),
        ({"game": "concerto", "format": "duplicate", "seats_per_entry": 1}, "seats_per_entry"),
        ({"game": "concerto", "format": "swiss", "min_table_size": 2}, "min_table_size"),
        ({"game": "cowpoke", "format": "knockout", "min_table_size": 2}, "min_table_size"),
        ({"game": "concerto", "format": "swiss", "clock": {"move_seconds": 0}}, "clock"),
        (
            {"game": "concerto", "format": "swiss", "timeout_policy": {"kind": "forfeit"}},
            "timeout_policy",
        ),
        (
            {
                "game": "concerto",
                "format": "swiss",
                "timeout_policy": {"kind": "default_move", "after": 2},
            },
            "timeout_policy",
        ),
        (
            {"game": "concerto", "format": "swiss", "timeout_policy": {"kind": "shrug"}},
            "timeout_policy",
        ),
        ({"game": "concerto", "format": "swiss", "seats": 4}, "seats"),
    ],
)
def test_a_bad_tournament_is_refused_with_the_field_named(api, players, body, field):
    someone = players.register()
    details = assert_error(api.post("/v1/tournaments", body, someone), 400, "invalid_request")
    assert field in details


SWISS = {"game": "concerto", "format": "swiss"}


@pytest.mark.parametrize(
    "body, accepted",
    [
        ({"game": "concerto", "format": "knockout", "rounds": 2}, False),
        ({"game": "concerto", "format": "knockout", "rounds": None}, True),
        ({**SWISS, "rounds": 2}, True),
        ({**SWISS, "boards_per_match": 2}, False),
        ({"game": "concerto", "format": "duplicate", "boards_per_match": 2}, True),
        ({**SWISS, "timeout_policy": {"kind": "forfeit", "after": 3}}, True),
        ({**SWISS, "timeout_policy": {"kind": "forfeit", "after": 1001}}, False),
        ({**SWISS, "timeout_policy": {"kind": "forfeit"}}, False),
        ({**SWISS, "timeout_policy": {"kind": "default_move", "after": 2}}, False),
    ],
)
def test_the_spec_of_a_tournament_refuses_what_the_server_refuses(api, players, body, accepted):
    """The rules between fields (and the timeout policy's kinds and bounds) are in the
    spec's ``TournamentCreate``, as the server applies them."""
    document = spec.document()
    said = OAS31Validator({**document, "$ref": "#/components/schemas/TournamentCreate"})
    reply = api.post("/v1/tournaments", body, players.register())
    assert (said.is_valid(body), reply.status) == (accepted, 201 if accepted else 400)


def test_entries_and_start_errors(api, players):
    owner, a, b, c, d, outsider = players.many(6)
    tid = _tournament(api, owner)["id"]
    entries, start = f"/v1/tournaments/{tid}/entries", f"/v1/tournaments/{tid}/start"
    assert_error(
        api.post("/v1/tournaments", {"game": "concerto", "format": "swiss"}), 401, "unauthorized"
    )
    # only the creator (or the admin) enters others; a player may enter itself
    assert_error(api.post(entries, {"players": [a.id, b.id]}, outsider), 403, "forbidden")
    _enter(api, tid, a, a, b)
    assert _accept_invitations(api, b) == 1
    assert_error(api.post(entries, {"players": [a.id, c.id]}, owner), 409, "already_entered")
    assert_error(api.post(entries, {"players": [c.id, c.id]}, owner), 400, "invalid_request")
    assert_error(
        api.post(entries, {"players": [c.id, d.id, outsider.id]}, owner), 400, "invalid_request"
    )  # Concerto's four seats cannot seat entries of three
    assert_error(api.post(entries, {"players": [c.id, "ghost"]}, owner), 404, "not_found")
    assert_error(api.post(entries, {"players": "c"}, owner), 400, "invalid_request")
    assert_error(
        api.post("/v1/tournaments/nope/entries", {"players": [c.id]}, owner), 404, "not_found"
    )
    # start: the creator only, with at least two entries, once
    assert_error(api.post(start, {}, a), 403, "forbidden")
    details = assert_error(api.post(start, {}, owner), 409, "cannot_start")
    assert details == {"entries": 1}
    _enter(api, tid, "admin", c, d)
    assert_error(api.post(start, {"go": 1}, owner), 400, "invalid_request")
    assert api.post(start, None, owner).status == 200  # no body at all is fine too
    assert_error(api.post(start, {}, owner), 409, "entries_closed")
    assert_error(
        api.post(entries, {"players": [outsider.id, owner.id]}, owner), 409, "entries_closed"
    )
    assert_error(api.get("/v1/tournaments/nope"), 404, "not_found")
    assert_error(api.get("/v1/tournaments/nope/standings"), 404, "not_found")
    assert_error(api.get("/v1/ratings/chess"), 404, "not_found")
    assert api.get("/v1/ratings/concerto").body == {"game": "concerto", "leaderboard": []}


def test_the_first_entry_fixes_the_entry_size(api, players):
    owner, a, b, c = players.many(4)
    tid = _tournament(api, owner, game="cowpoke", options={"players": 4, "hands": 1})["id"]
    _enter(api, tid, owner, a)
    details = assert_error(
        api.post(f"/v1/tournaments/{tid}/entries", {"players": [b.id, c.id]}, owner),
        409,
        "wrong_entry_size",
    )
    assert details == {"players": 1}


def test_a_late_move_is_409_deadline_passed_and_changes_nothing(api, players, app):
    people = players.many(4)
    tid = _tournament(api, "admin", clock={"move_seconds": 0.1})["id"]
    _enter(api, tid, "admin", people[0], people[2])
    _enter(api, tid, "admin", people[1], people[3])
    api.post(f"/v1/tournaments/{tid}/start", {}, "admin")
    runner = Runner(app.extensions["parlour"])
    runner.tick()  # the game is created; nobody enforces the clock from here on
    (table,) = api.get(f"/v1/tournaments/{tid}").body["rounds"][0]["tables"]
    gid = table["game_id"]
    by_id = {p.id: p for p in people}
    seat = api.view(gid)["to_move"][0]
    mover = by_id[api.view(gid)["seats"][seat]["player_id"]]
    view = api.view(gid, mover)
    assert view["deadline"] is not None
    time.sleep(0.15)
    reply = api.move(gid, mover, view["legal_moves"][0], view["version"])
    details = assert_error(reply, 409, "deadline_passed")
    assert details == {"deadline": view["deadline"]}
    assert api.view(gid, mover)["version"] == view["version"]
    # the scheduler applies the timeout policy; the late player's retry is then stale
    runner.enforce_clocks()
    assert api.view(gid)["version"] == view["version"] + 1
    assert_error(
        api.move(gid, mover, view["legal_moves"][0], view["version"]), 409, "stale_version"
    )


def test_games_of_a_running_tournament_show_each_seat_only_its_own_cards(api, players, app):
    people = players.many(4)
    tid = _tournament(api, "admin")["id"]
    _enter(api, tid, "admin", people[0], people[2])
    _enter(api, tid, "admin", people[1], people[3])
    api.post(f"/v1/tournaments/{tid}/start", {}, "admin")
    Runner(app.extensions["parlour"]).tick()
    page = api.get(f"/v1/tournaments/{tid}")
    assert cards_in(page.text) == set()
    (table,) = page.body["rounds"][0]["tables"]
    spectator = api.get(f"/v1/games/{table['game_id']}")
    assert "hand" not in spectator.body and spectator.body["deadline"] is not None
    hands = [set(api.view(table["game_id"], p)["hand"]) for p in people]
    assert all(hands[i].isdisjoint(hands[j]) for i in range(4) for j in range(i + 1, 4))
    assert all(
        cards_in(api.get(f"/v1/games/{table['game_id']}", p).text) & hands[j] == set()
        for i, p in enumerate(people)
        for j in range(4)
        if j != i
    )
    assert page.body["created_by"] == "admin"


def test_organise_and_wait_over_http(live_server, live_players, redis_server):
    """What ``make demo`` uses: organise, then wait with a progress callback."""
    people = live_players.many(8)
    admin = Client(live_server.url, token=ADMIN)
    runner = Runner(Services(connect(redis_server.url), admin_token=None), interval=0.02)
    stop = threading.Event()
    threads = [threading.Thread(target=runner.run, args=(stop,), daemon=True)]

    def bots() -> None:  # eight random bots on their own tokens, over HTTP
        api, rng = Api(base_url=live_server.url), random.Random(9)
        while not stop.is_set():
            if not _move_randomly(api, people, rng):
                time.sleep(0.01)

    threads.append(threading.Thread(target=bots, daemon=True))
    for t in threads:
        t.start()
    seen: list[tuple[int, int | None]] = []
    try:
        started = organise.organise(
            admin,
            game="concerto",
            format="duplicate",
            options=SHORT,
            entries=[[people[i].id, people[i + 4].id] for i in range(4)],
            boards_per_match=2,
            rounds=1,
            clock={"move_seconds": 20},
            name="demo",
        )
        assert started["status"] == "running" and started["name"] == "demo"
        page = organise.wait_finished(
            admin,
            started["id"],
            timeout=60,
            poll=0.05,
            on_progress=lambda p: seen.append(
                (p["progress"]["games_finished"], p["progress"]["games_planned"])
            ),
        )
    finally:
        stop.set()
        for t in threads:
            t.join(10)
    assert page["status"] == "finished" and seen[-1] == (4, 4)  # 2 boards x 2 tables
    assert [a for a, _ in seen] == sorted(a for a, _ in seen)
    table = organise.standings_table(page)
    assert table.splitlines()[1].split()[1] == page["standings"][0]["entry"]
    board = admin.ratings.leaderboard("concerto")
    lines = organise.leaderboard_table(board).splitlines()  # a header, 8 players, a legend:
    assert len(lines) == 10 and lines[-1].startswith("? provisional")  # 2 games: all new
    with pytest.raises(CannotStart):
        organise.organise(
            admin, game="concerto", format="swiss", entries=[[people[0].id, people[2].id]]
        )


def test_doctests() -> None:
    for module in (organise, clock, runner_module):  # organise: client_sdk's
        assert doctest.testmod(module).failed == 0, module.__name__

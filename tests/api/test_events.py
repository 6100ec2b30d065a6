"""A class event end to end through a real socket: a teacher (an organiser the operator
allows) makes the students from a CSV roster, the students accept, the teacher invites
the house bots as a reference entry, closes registration and starts; a game is voided
and replayed, a team withdraws, and the cross-table, the standings and the CSV sheets
are checked against the games' own results, computed here from each game."""

from __future__ import annotations

import csv
import io
import random
import statistics
from fractions import Fraction

import pytest
import requests

from server.api.schemas.fields import EXAMPLE_GAME
from server.processes.scheduler import Runner
from tests.api.helpers import Api, assert_error
from tests.api.play import play_random_moves
from tests.conftest import Player
from tests.security.test_invitation_spam import everything

SHORT = {"deals": 1}
ROSTER = "name,team\nAda,Owls\nBo,Owls\nCy,Cats\nDi,Cats\nEd,Hens\nFay,Hens\n"


def _play_round(api: Api, runner: Runner, tid: str, people: list[Player], rng) -> dict:
    """Play every game being played until the scheduler has nothing left in the round."""
    runner.tick()
    page = api.get(f"/v1/tournaments/{tid}").body
    for rnd in page["rounds"]:
        for table in rnd["tables"]:
            if table["status"] == "playing":
                play_random_moves(api, table["game_id"], people, rng)
    runner.tick()
    return api.get(f"/v1/tournaments/{tid}").body


def _csv(api: Api, tid: str, part: str) -> requests.Response:
    url = f"{api.base_url}/v1/tournaments/{tid}/sheets.csv"
    return requests.get(url, params={"part": part}, timeout=10)


def _expected_points(api: Api, table: dict, withdrawn: set[str]) -> dict[tuple[str, str], Fraction]:
    """Each ordered pair of the table's entries -> the first's points against the second,
    from the game's own result (winners first, then score), or from the withdrawal."""
    a, b = table["entries"]
    if table["game_id"] is None:  # forfeited by a withdrawal: the one who left loses
        lost = a if a in withdrawn else b
        won = b if lost == a else a
        return {(won, lost): Fraction(1), (lost, won): Fraction(0)}
    game = api.get(f"/v1/games/{table['game_id']}").body
    result = game["result"]
    by_entry = {e: table["seats"].index(e) for e in (a, b)}  # an entry's first seat
    key = {e: (by_entry[e] in result["winners"], result["scores"][by_entry[e]]) for e in (a, b)}
    if key[a] == key[b]:
        return {(a, b): Fraction(1, 2), (b, a): Fraction(1, 2)}
    first = a if key[a] > key[b] else b
    second = b if first == a else a
    return {(first, second): Fraction(1), (second, first): Fraction(0)}


def test_a_class_event_from_a_roster_to_its_sheets(live_api, live_players, app):
    api, rng = live_api, random.Random(7)
    teacher = live_players.register("Ms Teacher")
    stranger = live_players.register("stranger")
    app.extensions["parlour"].core.organisers = frozenset({teacher.id})  # PARLOUR_ORGANISERS
    body = {"game": EXAMPLE_GAME, "format": "round_robin", "options": SHORT, "name": "7B"}
    body |= {"seats_per_entry": 2, "clock": {"move_seconds": 60}}
    tid = api.post("/v1/tournaments", body, teacher).body["id"]

    # the roster: a stranger may not; the teacher makes six students in three teams
    assert_error(
        api.post(f"/v1/tournaments/{tid}/roster", {"csv": ROSTER}, stranger), 403, "forbidden"
    )
    bad = api.post(f"/v1/tournaments/{tid}/roster", {"csv": "name,team\nA,X\n"}, teacher)
    assert_error(bad, 400, "invalid_request")  # a team of one: nobody is made
    made = api.post(f"/v1/tournaments/{tid}/roster", {"csv": ROSTER}, teacher)
    assert made.status == 201, made.body
    students = [
        Player(p["id"], p["name"], p["token"]) for e in made.body["entries"] for p in e["players"]
    ]
    assert [s.name for s in students] == ["Ada", "Bo", "Cy", "Di", "Ed", "Fay"]
    assert [e["entry"]["name"] for e in made.body["entries"]] == ["Owls", "Cats", "Hens"]
    # consent: each entry waits for its students to accept, with their own tokens
    assert all(e["entry"]["pending"] for e in made.body["entries"])
    assert_error(api.post(f"/v1/tournaments/{tid}/start", {}, teacher), 409, "invitations_pending")
    for student in students:
        (invitation,) = api.get("/v1/me/invitations", student).body["invitations"]
        assert api.post(f"/v1/invitations/{invitation['id']}/accept", {}, student).status == 200
    assert api.get("/v1/players/me", students[0]).status == 200  # the token works

    # the house bots as a reference entry (PARLOUR_HOUSE_BOTS has `reference` by default)
    pool = api.post("/v1/bots", {"bots": [{"name": "random", "count": 2}]}, "admin").body
    bots = [Player(p["id"], p["name"], p["token"]) for p in pool["bots"][0]["players"]]
    entry = {"players": ["bot:random", "bot:random"], "name": "House bots"}  # by name
    assert_error(api.post(f"/v1/tournaments/{tid}/entries", entry, stranger), 403, "forbidden")
    house = api.post(f"/v1/tournaments/{tid}/entries", entry, teacher)
    assert house.status == 201 and house.body["reference"] and not house.body["pending"]
    assert sorted(p["id"] for p in house.body["players"]) == sorted(b.id for b in bots)
    assert all(p["house"] for p in house.body["players"])

    closed = api.post(f"/v1/tournaments/{tid}/close", {}, teacher)
    assert closed.status == 200 and closed.body["registration"] == "closed"
    late = api.post(
        f"/v1/tournaments/{tid}/entries", {"players": [stranger.id, teacher.id]}, teacher
    )
    assert_error(late, 409, "entries_closed")
    assert api.post(f"/v1/tournaments/{tid}/start", {}, teacher).status == 200

    people = [*students, *bots]
    runner = Runner(app.extensions["parlour"])
    first = _play_round(api, runner, tid, people, rng)
    assert first["progress"]["rounds"] == 2  # round 0 over, round 1 paired
    table = first["rounds"][0]["tables"][0]
    voided = api.post(f"/v1/tournaments/{tid}/rounds/0/void", {"tables": [0]}, teacher)
    assert voided.status == 200 and voided.body["voided"] == [table["game_id"]]
    assert_error(api.post(f"/v1/tournaments/{tid}/rounds/0/void", {}, stranger), 403, "forbidden")

    cats = next(e["id"] for e in first["entries"] if e["name"] == "Cats")
    left = api.post(f"/v1/tournaments/{tid}/entries/{cats}/withdraw", {}, students[2])  # Cy
    assert left.status == 200
    assert next(e for e in left.body["entries"] if e["id"] == cats)["withdrawn"]
    page = first
    for _ in range(4):
        page = _play_round(api, runner, tid, people, rng)
        if page["status"] == "finished":
            break
    assert page["status"] == "finished", page["progress"]
    replay = page["rounds"][0]["tables"][0]
    assert replay["game_id"] not in (None, table["game_id"]) and replay["result"]
    # Cats' table of the last round had no game yet: forfeited
    (gone,) = [t for t in page["rounds"][2]["tables"] if cats in t["entries"]]
    assert gone["status"] == "forfeited" and gone["game_id"] is None

    # the sheets, against the games' own results
    sheets = api.get(f"/v1/tournaments/{tid}/sheets").body
    assert sheets["tiebreaks"] == ["points", "head_to_head", "score_difference", "seed"]
    expected: dict[tuple[str, str], Fraction] = {}
    for rnd in page["rounds"]:
        for t in rnd["tables"]:
            expected |= _expected_points(api, t, {cats})
    cells = {(row["entry"], c["opponent"]): c for row in sheets["crosstable"] for c in row["cells"]}
    assert {k: Fraction(c["points"]) for k, c in cells.items()} == expected
    points = {
        e: sum(v for (a, _), v in expected.items() if a == e) for e in {a for a, _ in expected}
    }
    standings = {row["entry"]: row for row in sheets["standings"]}
    assert {e: Fraction(row["points"]) for e, row in standings.items()} == points
    assert [row["points"] for row in sheets["standings"]] == sorted(points.values(), reverse=True)
    assert standings[cats]["withdrawn"] and standings[house.body["id"]]["reference"]
    for entry, row in standings.items():  # points per game: mean ± 1.96·s/√n
        games = [float(v) for (a, _), v in expected.items() if a == entry]
        mean, half = statistics.fmean(games), 1.96 * statistics.stdev(games) / len(games) ** 0.5
        assert row["interval"] == {
            "low": pytest.approx(mean - half, abs=1e-3),
            "high": pytest.approx(mean + half, abs=1e-3),
        }, entry
    *upper, last = sheets["standings"]
    assert last["next"] is None and all(0 <= r["next"]["p_order_right"] <= 1 for r in upper)
    assert sheets["games"][0]["voided"] == [table["game_id"]]

    names = {row["entry"]: row["name"] for row in sheets["standings"]}
    reply = _csv(api, tid, "crosstable")
    assert reply.status_code == 200 and reply.headers["content-type"].startswith("text/csv")
    grid = list(csv.reader(io.StringIO(reply.text)))
    order = [names[e] for e in standings]
    assert grid[0] == ["entry", "name", *order, "byes", "total"]
    for line in grid[1:]:
        entry = line[0]
        for opponent, mark in zip(standings, line[2:-2], strict=True):
            want = "x" if opponent == entry else f"{float(expected[entry, opponent]):g}"
            assert mark == want, (entry, opponent)
        assert line[-2] == "0" and Fraction(line[-1]) == points[entry]  # four entries: no bye
    rows = list(csv.DictReader(io.StringIO(_csv(api, tid, "standings").text)))
    assert [r["name"] for r in rows] == [names[e] for e in standings]
    assert {r["entry"]: Fraction(r["points"]) for r in rows} == points
    games = list(csv.DictReader(io.StringIO(_csv(api, tid, "games").text)))
    assert len(games) == sum(len(r["tables"]) for r in page["rounds"])
    tables = {(t["game_id"] or ""): t for r in page["rounds"] for t in r["tables"]}
    for row in games:  # each game's scores, by entry, as the game itself says them
        if not row["game_id"]:
            assert row["forfeit"] == cats and row["status"] == "forfeited"
            continue
        seats = tables[row["game_id"]]["seats"]
        result = api.get(f"/v1/games/{row['game_id']}").body["result"]
        want = [result["scores"][seats.index(e)] for e in row["entries"].split()]
        assert [float(x) for x in row["scores"].split()] == want, row
        assert row["names"].split(" | ") == [names[e] for e in row["entries"].split()]
    # a reference entry's games are not rated: the bots have no rating
    bot_me = api.get("/v1/players/me", bots[0]).body
    assert EXAMPLE_GAME not in bot_me["ratings"]
    assert EXAMPLE_GAME in api.get("/v1/players/me", students[0]).body["ratings"]


def test_the_crosstable_counts_the_byes_the_standings_count(live_api, live_players, app):
    """Three teams in a round robin: each sits out one round, and the cross-table's total
    is its games' points (from the games' own results) plus ½ a bye, the standings' points."""
    api, rng = live_api, random.Random(3)
    teacher = live_players.register("Mr Teacher")
    app.extensions["parlour"].core.organisers = frozenset({teacher.id})
    body = {"game": EXAMPLE_GAME, "format": "round_robin", "options": SHORT, "name": "7C"}
    body |= {"seats_per_entry": 2, "clock": {"move_seconds": 60}}
    tid = api.post("/v1/tournaments", body, teacher).body["id"]
    made = api.post(f"/v1/tournaments/{tid}/roster", {"csv": ROSTER}, teacher)
    students = [
        Player(p["id"], p["name"], p["token"]) for e in made.body["entries"] for p in e["players"]
    ]
    for student in students:
        (invitation,) = api.get("/v1/me/invitations", student).body["invitations"]
        assert api.post(f"/v1/invitations/{invitation['id']}/accept", {}, student).status == 200
    assert api.post(f"/v1/tournaments/{tid}/start", {}, teacher).status == 200
    runner, page = Runner(app.extensions["parlour"]), {}
    for _ in range(4):
        page = _play_round(api, runner, tid, students, rng)
        if page["status"] == "finished":
            break
    assert page["status"] == "finished", page["progress"]
    games: dict[str, Fraction] = {}
    for rnd in page["rounds"]:
        for t in rnd["tables"]:
            for (a, _), v in _expected_points(api, t, set()).items():
                games[a] = games.get(a, Fraction(0)) + v
    byes = {e: sum(r["byes"].count(e) for r in page["rounds"]) for e in games}
    assert set(byes.values()) == {1}  # three entries, three rounds: one bye each
    total = {e: games[e] + Fraction(1, 2) * byes[e] for e in games}
    sheets = api.get(f"/v1/tournaments/{tid}/sheets").body
    assert {r["entry"]: Fraction(r["points"]) for r in sheets["standings"]} == total
    rows = {r["entry"]: r for r in sheets["crosstable"]}
    assert {e: Fraction(r["byes"]) for e, r in rows.items()} == {e: Fraction(1, 2) for e in games}
    assert {e: Fraction(r["total"]) for e, r in rows.items()} == total
    for e, r in rows.items():
        assert sum(Fraction(c["points"]) for c in r["cells"]) + Fraction(r["byes"]) == total[e]
    grid = list(csv.DictReader(io.StringIO(_csv(api, tid, "crosstable").text)))
    assert {g["entry"]: (g["byes"], Fraction(g["total"])) for g in grid} == {
        e: ("0.5", total[e]) for e in games
    }


def test_a_refused_roster_makes_nothing(api, players, redis_client, app):
    teacher = players.register("teacher")
    app.extensions["parlour"].core.organisers = frozenset({teacher.id})
    body = {"game": EXAMPLE_GAME, "format": "round_robin", "options": SHORT}
    tid = api.post("/v1/tournaments", body, teacher).body["id"]
    roster = f"/v1/tournaments/{tid}/roster"
    before = everything(redis_client)
    for bad, field in (
        ({"players": [{"name": f"s{i}"} for i in range(201)]}, "players"),  # over 200 rows
        ({"csv": "name\n" + "".join(f"s{i}\n" for i in range(201))}, "csv"),
        ({"players": [{"name": "Ada"}, {"name": "Bo"}, {"name": "\u202eevil"}]}, "players"),
        ({"csv": "student\nAda\n"}, "csv"),  # no name column
        (
            {
                "players": [
                    {"name": "Ada", "team": "Owls"},
                    {"name": "Bo", "team": "Cats"},
                    {"name": "Cy", "team": "Cats"},
                ]
            },
            "players",
        ),  # fmt: skip
        ({}, "players"),
    ):
        details = assert_error(api.post(roster, bad, teacher), 400, "invalid_request")
        assert any(key.startswith(field) for key in details), (bad, details)
    assert everything(redis_client) == before
    other = players.register("other teacher")
    their = api.post("/v1/tournaments", body, other).body["id"]  # not on the operator's list
    before = everything(redis_client)
    denied = api.post(f"/v1/tournaments/{their}/roster", {"csv": "name\nAda\n"}, other)
    assert_error(denied, 403, "forbidden")
    assert everything(redis_client) == before


def test_withdrawing_before_the_start_frees_the_players(api, players):
    ann, bob, cy = players.register("ann"), players.register("bob"), players.register("cy")
    body = {"game": EXAMPLE_GAME, "format": "round_robin", "options": SHORT}
    tid = api.post("/v1/tournaments", body, ann).body["id"]
    entries = f"/v1/tournaments/{tid}/entries"
    entry = api.post(entries, {"players": [bob.id, cy.id], "name": "Owls"}, bob).body
    assert entry["name"] == "Owls" and entry["pending"] == [cy.id]
    withdraw = f"{entries}/{entry['id']}/withdraw"
    stranger = players.register("stranger")
    assert_error(api.post(withdraw, {}, stranger), 403, "forbidden")
    left = api.post(withdraw, {}, bob)
    assert left.status == 200 and left.body["entries"] == []
    assert_error(api.post(withdraw, {}, bob), 404, "not_found")
    (invitation,) = api.get("/v1/me/invitations", cy).body["invitations"]
    gone = api.post(f"/v1/invitations/{invitation['id']}/accept", {}, cy)
    assert_error(gone, 404, "not_found")  # the entry it asked about is gone
    again = api.post(entries, {"players": [bob.id, ann.id]}, bob)
    assert again.status == 201  # bob may enter again
    assert_error(api.post(f"/v1/tournaments/{tid}/rounds/0/void", {}, ann), 409, "entries_closed")


def test_a_duplicate_board_is_never_voided(api, players):
    from server.games import REGISTRY

    game = next(g.id for g in REGISTRY.values() if g.two_sides)
    ann = players.register("ann")
    body = {"game": game, "format": "duplicate"}
    tid = api.post("/v1/tournaments", body, ann).body["id"]
    voided = api.post(f"/v1/tournaments/{tid}/rounds/0/void", {}, ann)
    assert_error(voided, 422, "unplayable_format")


def test_a_partnership_game_is_duplicate_by_default(api, players):
    from server.games import REGISTRY

    ann = players.register("ann")
    for engine in REGISTRY.values():  # no format: two fixed sides -> duplicate
        made = api.post("/v1/tournaments", {"game": engine.id}, ann)
        assert made.status == 201, made.body
        want = "duplicate" if engine.two_sides else "round_robin"
        assert made.body["format"] == want, engine.id
    chosen = api.post("/v1/tournaments", {"game": EXAMPLE_GAME, "format": "swiss"}, ann)
    assert chosen.body["format"] == "swiss"  # a format given is kept


def test_the_event_commands_over_a_socket(live_server, live_players, app, capsys):
    """``parlour-bot event``: a join code instead of a roster, entries, the start, a
    voided table and a withdrawal, the export; each command's output as documented."""
    from client_sdk.cli import main
    from server.games import REGISTRY

    teacher = live_players.register("teacher")
    kids = live_players.many(4, "kid")

    def event(who: Player, *argv: str) -> str:
        capsys.readouterr()
        status = main(["event", argv[0], "--server", live_server.url, "--token", who.token,
                       *argv[1:]])  # fmt: skip
        out = capsys.readouterr()
        assert status == 0, out
        return out.out

    tid = event(teacher, "create", EXAMPLE_GAME, "--format", "round_robin", "--option",
                "deals=1", "--name", "Club night").strip()  # fmt: skip
    pairs = next(g.id for g in REGISTRY.values() if g.two_sides)
    capsys.readouterr()
    assert main(["event", "create", pairs, "--server", live_server.url, "--token",
                 teacher.token]) == 0  # fmt: skip
    made = capsys.readouterr()
    assert made.err == "format: duplicate (a partnership game)\n"
    dup = Api(base_url=live_server.url).get(f"/v1/tournaments/{made.out.strip()}").body
    assert dup["format"] == "duplicate"
    code = event(teacher, "code", tid).strip()
    capsys.readouterr()
    assert main(["event", "join", tid, "--server", live_server.url, "--token", kids[0].token,
                 "--code", "wrong"]) == 1  # fmt: skip
    assert "join code" in capsys.readouterr().err
    held = event(kids[0], "join", tid, "--code", code, "--name", "Owls", "--partner", kids[1].id)
    assert held.startswith("e1; waiting for")
    (invitation,) = (
        Api(base_url=live_server.url).get("/v1/me/invitations", kids[1]).body["invitations"]
    )
    api = Api(base_url=live_server.url)
    assert api.post(f"/v1/invitations/{invitation['id']}/accept", {}, kids[1]).status == 200
    assert event(teacher, "enter", tid, kids[2].id, kids[3].id, "--name", "Cats").startswith(
        "e2; waiting for"
    )
    for kid in kids[2:]:
        (inv,) = api.get("/v1/me/invitations", kid).body["invitations"]
        assert api.post(f"/v1/invitations/{inv['id']}/accept", {}, kid).status == 200
    assert event(teacher, "start", tid).startswith("running: round")
    runner = Runner(app.extensions["parlour"])
    runner.tick()
    game = api.get(f"/v1/tournaments/{tid}").body["rounds"][0]["tables"][0]["game_id"]
    play_random_moves(api, game, kids, random.Random(1))
    runner.tick()
    assert api.get(f"/v1/tournaments/{tid}").body["status"] == "finished"  # one game: over
    capsys.readouterr()
    assert main(["event", "void", tid, "0", "--server", live_server.url, "--token",
                 teacher.token]) == 1  # fmt: skip
    assert "void failed" in capsys.readouterr().err  # finished: nothing to replay
    sheet = event(teacher, "export", tid, "--part", "crosstable")
    assert sheet.splitlines()[0].split(",")[:2] == ["entry", "name"]
    assert {line.split(",")[1] for line in sheet.splitlines()[1:]} == {"Owls", "Cats"}

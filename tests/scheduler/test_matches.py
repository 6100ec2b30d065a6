"""Matches (``/v1/matches``): duplicate boards of NEW against OLD, a sequential test after
each, on the session's Redis, the scheduler's pass and the bots moving in-process."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from bots import concerto_signals, uniform
from server.games import REGISTRY
from server.games.analysis import PAR
from server.processes.scheduler import Runner
from server.services.bundle import Services
from server.services.matches import table_game_id

from .support import register

GAME = "concerto"  # the bots below are Concerto's
ONE_DEAL = {"deals": 1, "target": 10000}


def auth(player: dict[str, str]) -> dict[str, str]:
    return {"Authorization": f"Bearer {player['token']}"}


def play_out(service: Services, bots: dict[str, Any], match_id: str, passes: int = 4000) -> dict:
    """Scheduler passes and every player's moves until the match is decided."""
    runner = Runner(service)
    for _ in range(passes):
        runner.tick()
        shown = service.matches.get(match_id)
        if shown["status"] not in ("running", "waiting"):
            return shown
        for token, bot in bots.values():
            for turn in service.feeds.turns(token)["turns"]:
                move = bot.choose_move(turn["view"])
                service.games.move(token, turn["game_id"], move, turn["version"], turn["seat"])
    raise AssertionError(f"undecided after {passes} passes: {service.matches.get(match_id)}")


def test_the_game_is_registered() -> None:
    assert GAME in REGISTRY


def test_a_strong_bot_passes_against_a_weak_one_and_stops(client, service: Services) -> None:
    people = register(service, 8)
    strong = {p["id"]: (p["token"], concerto_signals.make_bot(random.Random(i)))
              for i, p in enumerate(people[:4])}  # fmt: skip
    weak = {p["id"]: (p["token"], uniform.make_bot(random.Random(9 + i)))
            for i, p in enumerate(people[4:])}  # fmt: skip
    body = {"game": GAME, "options": ONE_DEAL, "new": [p["id"] for p in people[:4]],
            "old": [p["id"] for p in people[4:]], "max_boards": 30,
            "bounds": [0.0, 0.5]}  # fmt: skip
    made = client.post("/v1/matches", json=body, headers=auth(people[0]))
    assert made.status_code == 201, made.get_json()
    match = made.get_json()
    # the caller agreed by asking; the three others have not yet: no board is dealt
    assert match["status"] == "waiting"
    assert match["waiting_for"] == sorted(p["id"] for p in people[1:])
    Runner(service).tick()
    assert service.core.game(table_game_id(match["id"], 0, 0)) is None
    for p in people[1:]:
        agreed = client.post(f"/v1/matches/{match['id']}/agree", headers=auth(p))
        assert agreed.status_code == 200, agreed.get_json()
    assert agreed.get_json()["status"] == "running"

    shown = play_out(service, strong | weak, match["id"])
    assert shown["status"] == "pass"
    assert shown["llr"] >= shown["llr_bounds"][1]
    # it stopped at the decision: 8 boards at least (the test's minimum), fewer than the cap
    assert 8 <= shown["boards_scored"] < 30
    assert shown["estimate"]["low"] > 0
    # each board: two tables dealt the same cards, NEW holding the even seats at the first
    # and the odd ones at the second, nobody at both
    first = [service.core.game(g) for g in shown["boards"][0]["games"]]
    seats = [[g.seats[s]["player_id"] for s in sorted(g.seats)] for g in first]
    n, o = [p["id"] for p in people[:4]], [p["id"] for p in people[4:]]
    assert seats[0] == [n[0], o[0], n[1], o[1]]
    assert seats[1] == [o[2], n[2], o[3], n[3]]
    assert not set(seats[0]) & set(seats[1])
    assert first[0].meta["deal_commitment"] == first[1].meta["deal_commitment"]  # one deal
    page = client.get(f"/v1/matches/{match['id']}").get_json()
    assert page["boards_scored"] == shown["boards_scored"]
    # each side's points on a board, read from its two games (one deal: points per deal)
    for board in page["boards"]:
        sides = {"new": 0.0, "old": 0.0}
        for t, game_id in enumerate(board["games"]):
            scores = client.get(f"/v1/games/{game_id}").get_json()["result"]["scores"]
            new_seats = (0, 2) if t == 0 else (1, 3)
            sides["new"] += sum(scores[s] for s in new_seats) / 2 / 2
            sides["old"] += sum(scores[s] for s in range(4) if s not in new_seats) / 2 / 2
        assert board["new_points"] == pytest.approx(sides["new"])
        assert board["old_points"] == pytest.approx(sides["old"])
        assert board["difference"] == pytest.approx(sides["new"] - sides["old"])
    lost = client.get(f"/v1/matches/{match['id']}/regression").get_json()
    assert all(b["difference"] < 0 for b in lost["boards"])


def test_nobody_is_matched_twice_or_without_a_valid_request(client, service: Services) -> None:
    people = register(service, 8)
    ids = [p["id"] for p in people]
    cases = [
        ({"new": ids[:4], "old": [ids[0], *ids[5:]]}, 400),  # a player at both tables
        ({"new": ids[:2], "old": ids[4:6]}, 400),  # a side short of a seat a table
        ({"new": ids[:4], "old": [*ids[4:7], "nobody"]}, 404),
        ({"new": ids[:4], "old": ids[4:], "bounds": [0.5, 0.1]}, 400),
        ({"new": ids[:4], "old": ids[4:], "game": "no-such-game"}, 400),
        # par adjustment only where the game has a par (refused before any seat is read)
        *[
            ({"new": ids[:4], "old": ids[4:], "game": g, "options": {}, "par_adjusted": True}, 400)
            for g in sorted(set(REGISTRY) - set(PAR))
        ],
    ]
    for extra, status in cases:
        body = {"game": GAME, "options": ONE_DEAL} | extra
        answer = client.post("/v1/matches", json=body, headers=auth(people[0]))
        assert answer.status_code == status, (extra, answer.get_json())
        assert "error" in answer.get_json()
    assert client.get("/v1/matches/0123456789abcdef").status_code == 404
    # only a named player may agree
    made = client.post("/v1/matches", json={"game": GAME, "new": ids[:4], "old": ids[4:]},
                       headers=auth(people[0])).get_json()  # fmt: skip
    stranger = register(service, 1, prefix="s")[0]
    assert client.post(f"/v1/matches/{made['id']}/agree", headers=auth(stranger)).status_code == 404


@pytest.mark.parametrize("bounds", [[0.0, 0.5]])
def test_a_bot_against_itself_fails_or_reaches_the_cap(client, service, bounds) -> None:
    people = register(service, 8)
    bots = {p["id"]: (p["token"], concerto_signals.make_bot(random.Random(i)))
            for i, p in enumerate(people)}  # fmt: skip
    body = {"game": GAME, "options": ONE_DEAL, "new": [p["id"] for p in people[:4]],
            "old": [p["id"] for p in people[4:]], "max_boards": 10, "bounds": bounds}  # fmt: skip
    match = client.post("/v1/matches", json=body, headers=auth(people[0])).get_json()
    for p in people[1:]:
        client.post(f"/v1/matches/{match['id']}/agree", headers=auth(p))
    shown = play_out(service, bots, match["id"])
    assert shown["status"] in ("fail", "inconclusive")
    assert shown["boards_scored"] <= 10


def test_a_player_has_few_matches_undecided_and_house_bots_must_exist(client, service) -> None:
    people = register(service, 8)
    ids = [p["id"] for p in people]
    body = {"game": GAME, "new": ids[:4], "old": ids[4:]}
    for _ in range(3):  # MAX_LIVE: waiting ones count, nobody has agreed yet
        assert client.post("/v1/matches", json=body, headers=auth(people[0])).status_code == 201
    refused = client.post("/v1/matches", json=body, headers=auth(people[0]))
    assert refused.status_code == 403
    assert refused.get_json()["error"]["details"] == {"limit": 3, "live": 3}
    # another player may; a house bot the pool does not have is refused
    housed = body | {"old": [*ids[4:7], "bot:nobody-here"]}
    answer = client.post("/v1/matches", json=housed, headers=auth(people[1]))
    assert answer.status_code == 400, answer.get_json()


def test_par_cancels_in_a_duplicate_board(client, service: Services) -> None:
    """Each bot holds each side's cards once, so each side's par comes off both alike: the
    par-adjusted difference of a board is its raw one (scores read from its games)."""
    people = register(service, 8)
    bots = {p["id"]: (p["token"], (concerto_signals if i < 4 else uniform).make_bot(
        random.Random(i))) for i, p in enumerate(people)}  # fmt: skip
    body = {"game": GAME, "options": ONE_DEAL, "new": [p["id"] for p in people[:4]],
            "old": [p["id"] for p in people[4:]], "max_boards": 8,
            "par_adjusted": True}  # fmt: skip
    match = client.post("/v1/matches", json=body, headers=auth(people[0])).get_json()
    for p in people[1:]:
        client.post(f"/v1/matches/{match['id']}/agree", headers=auth(p))
    shown = play_out(service, bots, match["id"])
    assert shown["par_adjusted"] is True and shown["boards"]
    for board in shown["boards"]:
        raw = []
        for t, game_id in enumerate(board["games"]):
            scores = client.get(f"/v1/games/{game_id}").get_json()["result"]["scores"]
            new_seats = (0, 2) if t == 0 else (1, 3)
            new = sum(scores[s] for s in new_seats) / 2
            old = sum(scores[s] for s in range(4) if s not in new_seats) / 2
            raw.append(new - old)
        assert board["difference"] == pytest.approx(sum(raw) / 2)


def test_the_servers_regression_set_replays_locally_to_the_same_scores(
    client, service: Services, tmp_path, capsys
) -> None:
    """Greedy against signals (both play by the cards alone, no randomness): the boards
    greedy lost, dealt again locally from their seeds, score as they did on the server."""
    from bots import concerto_greedy
    from client_sdk.cli import main

    people = register(service, 8)
    makers = [concerto_greedy] * 4 + [concerto_signals] * 4
    bots = {p["id"]: (p["token"], m.make_bot(random.Random(i)))
            for i, (p, m) in enumerate(zip(people, makers, strict=True))}  # fmt: skip
    body = {"game": GAME, "options": ONE_DEAL, "new": [p["id"] for p in people[:4]],
            "old": [p["id"] for p in people[4:]], "max_boards": 8}  # fmt: skip
    match = client.post("/v1/matches", json=body, headers=auth(people[0])).get_json()
    for p in people[1:]:
        client.post(f"/v1/matches/{match['id']}/agree", headers=auth(p))
    play_out(service, bots, match["id"])
    kept = client.get(f"/v1/matches/{match['id']}/regression").get_json()
    assert kept["boards"], "greedy lost no board to signals"
    path = tmp_path / "server.json"
    path.write_text(json.dumps(kept))
    capsys.readouterr()
    assert main(["play", "--deals", str(path)]) == 2  # the set names no bots
    assert main(["play", "--deals", str(path), "concerto_greedy", "concerto_signals"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-1] == f"{len(kept['boards'])} of {len(kept['boards'])} boards scored as kept"

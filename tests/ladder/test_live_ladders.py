"""``parlour serve`` alone, as ``make serve`` runs it, has a live ladder per game.

Nothing but the server is started (embedded Redis, scheduler, bot pool, two
workers): its bot pool defines one ladder per game's main edition and enters
house bots on it, so a newcomer's bot that only joins a ladder with the SDK runner
gets a rated contest against house bots within seconds; the runner says so (a line
on joining, one per game with its rating change, one on leaving) and exits within a
second of its last game. A restart defines no second set of ladders, and
``--no-ladders`` defines none (docs/ladder.md, docs/operations.md).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest

from client_sdk import Bot, Client
from client_sdk.runner import Runner
from server.games import REGISTRY
from server.processes.botpool import ladder_name, lineup
from server.processes.served import Served, free_port

FIRST_CONTEST = 30.0
"""Seconds from joining to a rated contest (the issue's bound)."""


class FirstLegal(Bot):
    name = "first"

    def choose_move(self, view):
        return view["legal_moves"][0]


class Live:
    """The module's ``parlour serve``, which a test may restart in place: the same data
    directory, port and admin token (a boot costs seconds of CPU: one is shared)."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir, self.port = data_dir, free_port()
        self.server = Served(data_dir, self.port, workers=2)

    @property
    def url(self) -> str:
        return self.server.url

    def restart(self) -> None:
        assert self.server.stop() == 0
        token = self.server.admin_token
        self.server = Served(self.data_dir, self.port, admin_token=token, workers=2)


@pytest.fixture(scope="module")
def served(tmp_path_factory) -> Iterator[Live]:
    live = Live(tmp_path_factory.mktemp("live") / "var")
    try:
        yield live
    finally:
        assert live.server.stop() == 0


def _ladders(url: str, timeout: float = 30.0, entries: int = 3) -> dict[str, dict]:
    """The server's ladders by game once each has ``entries`` entries (the house bots)."""
    deadline = time.monotonic() + timeout
    with Client(url) as anyone:
        while True:
            found = {lad["game"]: lad for lad in anyone.ladders.list()["ladders"]}
            if (
                set(found) == set(REGISTRY)
                and all(lad["entries_count"] >= entries for lad in found.values())
            ) or time.monotonic() > deadline:
                return found
            time.sleep(0.2)


def _when(text: str) -> float:
    return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


def test_each_ladder_has_the_best_house_bot_and_the_weakest():
    for game in REGISTRY.values():
        three = lineup(game, 3)
        assert three[0] == game.bots()[0] and three[-1] == "random", three
    assert lineup(REGISTRY["concerto"], 3) == ["concerto_signals", "concerto_greedy", "random"]
    assert lineup(REGISTRY["seconds"], 1) == ["seconds"]


def test_serve_defines_one_ladder_per_game_with_house_bots(served):
    ladders = _ladders(served.url)
    assert sorted(ladders) == sorted(REGISTRY)
    with Client(served.url) as anyone:
        for game, ladder in ladders.items():
            assert ladder["name"] == ladder_name(REGISTRY[game])
            deadline = time.monotonic() + 10  # the pool's runners connect: seen waiting
            while True:
                entries = anyone.ladders.get(ladder["id"])["entries"]
                if all(e["status"] == "available" for e in entries):
                    break
                assert time.monotonic() < deadline, entries
                time.sleep(0.2)
            # a table less one: they never fill a table alone, a newcomer completes it
            assert len(entries) == ladder["table_size"] - 1 == 3
            assert all(e.get("house") is True for e in entries), entries


@pytest.mark.parametrize("game", sorted(REGISTRY))
def test_a_new_bot_gets_a_rated_contest_against_house_bots(served, game, caplog):
    ladder = _ladders(served.url)[game]
    with Client(served.url) as anyone:
        me = anyone.players.register(f"newcomer-{game}")
    client = Client(served.url, me["token"])
    runner = Runner(
        FirstLegal(), client, ladder=ladder["id"], max_games=1, wait=20.0, handle_signals=False
    )
    ended: list[float] = []

    def run() -> None:
        runner.run()
        ended.append(time.time())

    caplog.set_level(logging.INFO, logger="client_sdk.progress")
    joined = time.monotonic()
    joined_at = time.time()
    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(FIRST_CONTEST)
    took = time.monotonic() - joined
    assert not thread.is_alive(), f"no game finished within {FIRST_CONTEST} s of joining"
    client.close()

    with Client(served.url) as anyone:
        entry = anyone.ladders.entry(ladder["id"], me["id"])
        board = anyone.ladders.leaderboard(ladder["id"])["leaderboard"]
    # it played its validation game first: unrated, and not the one game it was asked for
    said = [r.getMessage() for r in caplog.records]
    (validation,) = [m.split()[2] for m in said if m.startswith("validation game ")]
    (game_id,) = runner.stats.finished_games
    assert game_id != validation
    (first,) = [r for r in entry["history"] if game_id in {g["game_id"] for g in r["games"]}]
    assert first["outcome"] in ("won", "drawn", "lost"), first
    assert first["rating"] is not None, "the contest was not rated"
    others = first["opponents"] + first["partners"] + first["teammates"]
    assert others and all(p.startswith("bot") for p in others), others
    house = {row["player_id"] for row in board if row.get("house")}
    assert set(others) <= house  # the leaderboard marks the anchors
    assert me["id"] in {row["player_id"] for row in board}
    print(
        f"{game}: first rated contest {took:.1f} s after joining "
        f"(matched after {_when(first['created']) - joined_at:.1f} s)"
    )

    lines = [r.getMessage() for r in caplog.records if r.name == "client_sdk.progress"]
    assert lines[0].startswith(f"joined ladder {ladder['id']}"), lines
    assert any(" finished: " in line and "rating " in line for line in lines), lines
    assert lines[-1].startswith(f"left ladder {ladder['id']}"), lines
    # out within a second (or so: the rating is read first) of its last game's end
    assert ended[0] - _when(entry["last_played"]) < 1.5


def test_a_restart_defines_no_second_set_and_no_ladders_defines_none(served):
    """The module's server, restarted on its data directory (after the newcomers above
    have come and gone: the house bots' entries are what is left)."""
    first = {g: lad["id"] for g, lad in _ladders(served.url).items()}
    served.restart()
    time.sleep(2.0)  # the pool registers and looks for its ladders
    again = _ladders(served.url)
    with Client(served.url) as anyone:
        listed = anyone.ladders.list()["ladders"]
    assert {g: lad["id"] for g, lad in again.items()} == first
    assert len(listed) == len(REGISTRY)
    assert all(lad["entries_count"] == 3 for lad in listed)


def test_the_operator_turns_them_off(tmp_path, monkeypatch):
    monkeypatch.setenv("PARLOUR_HOUSE_LADDERS", "off")
    server = Served(tmp_path / "var", free_port())
    try:
        with Client(server.url) as anyone:
            deadline = time.monotonic() + 20
            while not anyone.requestor.request("GET", "/v1/bots")["bots"]:
                assert time.monotonic() < deadline, "the bot pool never registered"
                time.sleep(0.2)
            time.sleep(1.0)  # when it would have defined them
            assert anyone.ladders.list()["ladders"] == []
    finally:
        assert server.stop() == 0

"""End to end over real sockets: bots served by ``parlour-bot serve --register`` (the SDK's
callback endpoint, each in its own process) play a tournament and a ladder to the end
against a real ``parlour serve`` (its own dispatcher), and one passes a validation game
against the house bots; none of them holds a turn stream or polls.

The server may call loopback addresses only because the operator allows them here
(``PARLOUR_WEBHOOK_ALLOW``); nothing else in the test reaches into the server.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from client_sdk import Client
from server.processes.served import Served, free_port
from tests.conftest import ADMIN_TOKEN

BOTS = 4
CLOCK = {"move_seconds": 5}


def wait_for(predicate: Callable[[], Any], timeout: float, what: str) -> Any:
    deadline = time.monotonic() + timeout
    while not (got := predicate()):
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.2)
    return got


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    before = os.environ.get("PARLOUR_WEBHOOK_ALLOW")
    os.environ["PARLOUR_WEBHOOK_ALLOW"] = "127.0.0.0/8"  # the bots listen on loopback
    try:
        server = Served(
            tmp_path_factory.mktemp("cb-e2e") / "data", free_port(), ADMIN_TOKEN, ready_timeout=60
        )
    finally:
        if before is None:
            del os.environ["PARLOUR_WEBHOOK_ALLOW"]
        else:
            os.environ["PARLOUR_WEBHOOK_ALLOW"] = before
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def bots(served: Served, tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[dict]]:
    """Four players, each played by ``parlour-bot serve bots.uniform:RandomBot --register``."""
    anyone = Client(served.url)
    players, processes = [], []
    root = Path(__file__).resolve().parents[2]
    logs = tmp_path_factory.mktemp("cb-bots")
    try:
        for i in range(BOTS):
            player = anyone.players.register(f"callback-{i}")
            port = free_port()
            log = logs / f"bot-{i}.log"
            with open(log, "w") as out:  # the child keeps its own copy of the descriptor
                processes.append(
                    subprocess.Popen(
                        [
                            sys.executable,
                            "-m",
                            "client_sdk.cli",
                            "serve",
                            "bots.uniform:RandomBot",
                            "--port",
                            str(port),
                            "--register",
                            f"http://127.0.0.1:{port}/",
                        ],
                        cwd=root,
                        stderr=out,
                        env={
                            **os.environ,
                            "PARLOUR_SERVER": served.url,
                            "PARLOUR_TOKEN": player["token"],
                        },
                    )  # fmt: skip
                )
            wait_for(lambda log=log: "serving calls on" in log.read_text(), 20, f"bot {i}")
            assert "callback set to" in log.read_text() and "cbs_" not in log.read_text()
            players.append(player)
        yield players
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            process.wait(10)


def health(served: Served, player: dict) -> dict:
    return Client(served.url, player["token"]).players.callback()["health"]


def test_a_tournament_is_played_to_the_end_by_callback_bots(served: Served, bots) -> None:
    organiser = Client(served.url, bots[0]["token"])
    tournament = organiser.tournaments.create("seconds", "round_robin", clock=CLOCK)
    for player in bots:
        Client(served.url, player["token"]).tournaments.enter(tournament["id"], [player["id"]])
    organiser.tournaments.start(tournament["id"])
    done = wait_for(
        lambda: (t := organiser.tournaments.get(tournament["id"]))["status"] == "finished" and t,
        90,
        "the tournament's end",
    )
    tables = [t for r in done["rounds"] for t in r["tables"]]
    assert tables and all(t["status"] == "finished" and t["result"] for t in tables)
    for table in tables:
        replay = organiser.games.replay(table["game_id"])
        assert replay["version"] > 0  # every move made by a bot: no clock's default move
        assert not [e for e in replay["events"] if e["kind"] == "timeout"], replay["events"]
    for player in bots:  # every move came through its URL: called, answered, nothing refused
        books = health(served, player)
        assert books["moves"] > 0 and books["timeouts"] == books["errors"] == 0, books
        assert books["refused_moves"] == 0, books


def test_a_ladder_is_played_by_callback_bots(served: Served, bots) -> None:
    admin = Client(served.url, ADMIN_TOKEN)
    ladder = admin.ladders.create(
        "concerto", options={"deals": 1}, clock=CLOCK, rematch_seconds=0.0, max_games=1
    )
    for player in bots:
        Client(served.url, player["token"]).ladders.join(ladder["id"])

    def rated() -> bool:
        entries = [admin.ladders.entry(ladder["id"], p["id"]) for p in bots]
        return all(sum(e["results"].values()) >= 1 for e in entries)

    wait_for(rated, 90, "a rated ladder game of every callback bot")
    for player in bots:
        assert health(served, player)["refused_moves"] == 0


def test_a_callback_bot_passes_its_validation_game_on_a_house_ladder(served: Served, bots) -> None:
    """The server's own Concerto ladder (house bots, validation on): the callback bot's
    validation game is played through its URL, and the entry becomes active."""
    anyone = Client(served.url)
    ladder = wait_for(
        lambda: next(
            (
                lad for lad in anyone.ladders.list()["ladders"]
                if lad["game"] == "concerto" and lad["entries_count"] >= 3 and lad["validation"]
            ),
            None,
        ),
        30,
        "a Concerto ladder with house bots",
    )  # fmt: skip
    me = bots[3]
    Client(served.url, me["token"]).ladders.join(ladder["id"])
    entry = wait_for(
        lambda: (
            (e := anyone.ladders.entry(ladder["id"], me["id"]))["validation"]["status"]
            in ("passed", "failed")
            and e
        ),
        90,
        "the validation game's end",
    )
    assert entry["validation"]["status"] == "passed", entry
    assert entry["status"] != "failed_validation"

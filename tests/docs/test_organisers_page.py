"""docs/organisers.md runs as written: its marked blocks in one bash script, in a fresh
folder, with this environment's ``parlour-bot`` first on PATH, against a live server
(``PARLOUR_SERVER``) with the admin's token as the organiser's (``PARLOUR_TOKEN``).

What the page leaves to others is done here: a scheduler drives the event (a thread),
and the house bots' two identities are played by ``parlour-bot run random`` for their
two games (as the bot pool would play them). The event's sheets are then read back:
the page's roster, its reference entry and its three games are all in them.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import requests

from server.processes.scheduler import Runner
from tests.conftest import ADMIN_TOKEN
from tests.docs.test_tutorials import run_page

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "organisers.md"


def test_the_organisers_page_runs_as_written(live_server, app, tmp_path: Path) -> None:
    url = live_server.url
    admin = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
    pool = requests.post(
        f"{url}/v1/bots", json={"bots": [{"name": "random", "count": 2}]}, headers=admin, timeout=10
    ).json()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    env |= {"PARLOUR_SERVER": url, "PARLOUR_TOKEN": ADMIN_TOKEN}
    house = [
        subprocess.Popen(
            [
                str(Path(sys.executable).with_name("parlour-bot")),
                "run",
                "random",
                "--token",
                p["token"],
            ],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        for p in pool["bots"][0]["players"]
    ]
    runner = Runner(app.extensions["parlour"], interval=0.05)
    stop = threading.Event()
    thread = threading.Thread(target=runner.run, args=(stop,), daemon=True)
    thread.start()
    try:
        done, said = run_page(PAGE, tmp_path, env, timeout=120)
    finally:
        for proc in house:  # the reference entry's two games are over: they stop
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.terminate()
                proc.wait(10)
        stop.set()
        thread.join(10)
    sheets = (tmp_path / "event.json").read_text(encoding="utf-8")
    for name in ("Owls", "Cats", "House: random", "Ada Lovelace"):
        assert name in sheets, said
    assert '"status": "finished"' in sheets
    assert len((tmp_path / "games.csv").read_text().splitlines()) == 1 + 3  # the header, 3 games

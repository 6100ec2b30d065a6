"""The SDK installed on its own: ``pip install ./client_sdk`` in a clean virtualenv.

A bot author needs only ``parlour-client`` (the SDK and ``requests``): these tests
use the virtualenv the Python tutorial's setup block makes from a copy of
``client_sdk/`` (``python3 -m venv bot-venv``, ``bot-venv/bin/pip install ./client_sdk``:
tests/docs/test_tutorials.py runs it once per session, as written, and checks that it
holds the SDK and its dependencies only), check that nothing of the server came with
it, and play a whole game with its ``parlour-bot`` against a server run by this (full)
environment.
"""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

import pytest
import requests

from client_sdk import Client
from server.processes.served import free_port
from server.services.notifications import signature
from tests.docs.test_tutorials import sdk_venv  # noqa: F401 (the fixture)

SHORT = {"deals": 1, "target": 10000}  # one deal of Concerto: about 50 moves

MY_BOT = '''
from client_sdk import Bot


class LastLegal(Bot):
    """A bot written against the installed SDK only."""

    name = "last_legal"

    def choose_move(self, view):
        return view["legal_moves"][-1]
'''


def _clean_env() -> dict[str, str]:
    """This environment less what would let the venv see the repo or our venv."""
    drop = {"PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME", "PARLOUR_TOKEN", "PARLOUR_SERVER"}
    return {k: v for k, v in os.environ.items() if k not in drop}


@pytest.fixture(scope="module")
def sdk_bin(sdk_venv: Path) -> Path:  # noqa: F811 (the imported fixture)
    """The bin/ folder of a virtualenv with only ./client_sdk (and requests) installed."""
    return sdk_venv / "bin"


def _python(bin_dir: Path, code: str, cwd: Path) -> str:
    done = subprocess.run(
        [str(bin_dir / "python"), "-c", code],
        cwd=cwd, env=_clean_env(), capture_output=True, text=True, timeout=30,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_the_venv_has_the_sdk_and_nothing_of_the_server(sdk_bin: Path, tmp_path: Path) -> None:
    missing = _python(
        sdk_bin,
        "import importlib.util as u\n"
        "print(','.join(m for m in ('server', 'flask', 'gunicorn', 'redis', 'bots')"
        " if u.find_spec(m) is None))",
        tmp_path,
    )
    assert missing.split(",") == ["server", "flask", "gunicorn", "redis", "bots"]
    where = _python(
        sdk_bin,
        "import client_sdk, requests, pathlib\n"
        "p = pathlib.Path(client_sdk.__file__).parent\n"
        "print(p, (p / 'py.typed').is_file())",
        tmp_path,
    )
    folder, typed = where.rsplit(" ", 1)
    assert Path(folder).is_relative_to(sdk_bin.parent), folder  # installed, not the repo's
    assert typed == "True"  # PEP 561: type checkers read the SDK's hints


def test_parlour_bot_plays_a_game_from_the_standalone_venv(
    sdk_bin: Path, tmp_path: Path, live_server
) -> None:
    (tmp_path / "mybot.py").write_text(MY_BOT)
    me = Client(live_server.url).players.register("standalone")
    client = Client(live_server.url, me["token"])
    game = client.games.create("concerto", SHORT, [me["id"]] * 4, allow_multiple_seats=True)

    done = subprocess.run(
        [str(sdk_bin / "parlour-bot"), "run", "mybot:LastLegal", "--server", live_server.url,
         "--token", me["token"], "--games", "1", "--wait", "1"],
        cwd=tmp_path, env=_clean_env(), capture_output=True, text=True, timeout=60,
    )  # fmt: skip

    assert done.returncode == 0, done.stderr
    assert "last_legal:" in done.stdout and "1 games finished" in done.stdout, done.stdout
    assert "0 illegal" in done.stdout
    assert client.games.view(game["id"])["status"] == "finished"


def test_installed_bot_names_are_not_there_without_the_bots(sdk_bin: Path, tmp_path: Path) -> None:
    done = subprocess.run(
        [str(sdk_bin / "parlour-bot"), "run", "concerto_signals", "--token", "t"],
        cwd=tmp_path, env=_clean_env(), capture_output=True, text=True, timeout=30,
    )  # fmt: skip
    assert done.returncode == 2
    assert "no bot 'concerto_signals'" in done.stderr


def test_parlour_bot_serve_answers_a_signed_call_from_the_standalone_venv(
    sdk_bin: Path, tmp_path: Path
) -> None:
    """The callback endpoint needs nothing beyond the SDK (the standard library's wsgiref)."""
    (tmp_path / "mybot.py").write_text(MY_BOT)
    port = free_port()
    process = subprocess.Popen(
        [str(sdk_bin / "parlour-bot"), "serve", "mybot:LastLegal", "--port", str(port)],
        cwd=tmp_path, env={**_clean_env(), "PARLOUR_CALLBACK_SECRET": "cbs_standalone"},
        stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert process.stderr is not None
        line = process.stderr.readline()
        assert "serving calls on" in line, line
        body = json.dumps({"id": "c1", "game_id": "g", "view": {"legal_moves": [1, 2]}}).encode()
        answer = requests.post(
            f"http://127.0.0.1:{port}/",
            data=body,
            headers={"Parlour-Signature": signature("cbs_standalone", body, int(time.time()))},
            timeout=10,
        )
        assert (answer.status_code, answer.json()) == (200, {"move": 2})
    finally:
        process.terminate()
        process.wait(10)


def test_play_without_the_engines_says_how_to_install_them(sdk_bin: Path, tmp_path: Path) -> None:
    """The SDK alone installs and runs; ``parlour-bot play`` needs the engines and says so."""
    (tmp_path / "mybot.py").write_text(MY_BOT)
    done = subprocess.run(
        [str(sdk_bin / "parlour-bot"), "play", "concerto", "mybot:LastLegal", "--seed", "1"],
        cwd=tmp_path, env=_clean_env(), capture_output=True, text=True, timeout=30,
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert "pip install ./server/games" in done.stderr and "Traceback" not in done.stderr

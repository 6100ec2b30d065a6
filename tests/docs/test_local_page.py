"""docs/local.md, run as written in a virtualenv holding the SDK and the engines alone.

The page's setup block (``pip install ./client_sdk ./server/games``) runs once per
session in a folder holding copies of ``client_sdk/`` and ``server/games/`` and
nothing else of the repository, offline: the build backend and ``requests`` come
from the wheels ``tests/docs/test_tutorials.py`` keeps in the pytest cache. The
environment it makes must have no Flask, Redis, gunicorn nor any of the server
but the engines, and the page's steps (local matches, the replay file, a search
bot with ``from_view``/``determinize``) must print what the page shows.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.docs.test_tutorials import (
    _clean_env,
    blocks,
    run_page,
    run_setup,
    script,
    tutorial_wheels,
)

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "local.md"
COPIED = shutil.ignore_patterns("__pycache__", "build", "*.egg-info", "node_modules", "dist")


@pytest.fixture(scope="session")
def local_venv(tmp_path_factory: pytest.TempPathFactory, pytestconfig: pytest.Config) -> Path:
    """The page's setup block, run as written where only the SDK's and the engines' folders are."""
    wheels = tutorial_wheels(pytestconfig)
    folder = tmp_path_factory.mktemp("sdk-and-engines")
    shutil.copytree(ROOT / "client_sdk", folder / "client_sdk", ignore=COPIED)
    shutil.copytree(ROOT / "server" / "games", folder / "server" / "games", ignore=COPIED)
    run_setup(PAGE, folder, wheels)
    return folder / "local-venv"


def test_the_page_installs_the_sdk_and_the_engines_only() -> None:
    (setup,) = [b for k, _, b in blocks(PAGE) if k == "setup"]
    assert setup == (
        "python3 -m venv local-venv\nlocal-venv/bin/pip install ./client_sdk ./server/games"
    )
    steps = script(PAGE)
    assert ".venv/" not in steps and "PYTHONPATH" not in steps and " random " not in steps


def test_the_environment_holds_the_sdk_and_the_engines_alone(local_venv: Path, tmp_path) -> None:
    python = str(local_venv / "bin" / "python")
    listed = subprocess.run(
        [python, "-m", "pip", "list", "--format=freeze"], capture_output=True, text=True, check=True
    ).stdout
    names = {line.split("==")[0].lower() for line in listed.split()}
    assert {"parlour-client", "parlour-games"} <= names and "parlour" not in names, names
    extra = names - {"parlour-client", "parlour-games", "requests", "urllib3", "idna", "certifi"}
    extra -= {"charset-normalizer", "charset_normalizer", "pip", "setuptools"}
    assert not extra, f"more than the SDK, the engines and requests: {sorted(extra)}"
    probe = (
        "import importlib, json, pathlib, server.games, server.games.record\n"
        "def absent(name):\n"
        "    try:\n"
        "        importlib.import_module(name)\n"
        "    except ImportError:\n"
        "        return True\n"
        "    return False\n"
        "games = pathlib.Path(server.games.__file__).parent\n"
        "print(json.dumps({'games': str(games), 'typed': (games / 'py.typed').is_file(),\n"
        "  'namespace': not (games.parent / '__init__.py').exists(),\n"
        "  'registry': sorted(server.games.REGISTRY),\n"
        "  'absent': [m for m in ('flask', 'redis', 'gunicorn', 'server.api', 'server.services',\n"
        "             'server.store', 'server.tournaments', 'bots') if absent(m)]}))\n"
    )
    done = subprocess.run(
        [python, "-c", probe], cwd=tmp_path, env=_clean_env(), capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert Path(found["games"]).is_relative_to(local_venv), found  # installed, not the repo's
    assert found["typed"] and found["namespace"], found
    assert found["registry"] == ["concerto", "cowpoke", "pinochle", "seconds"]
    assert found["absent"] == [
        "flask", "redis", "gunicorn", "server.api", "server.services", "server.store",
        "server.tournaments", "bots",
    ]  # fmt: skip


def test_the_page_runs_as_written(local_venv: Path, tmp_path: Path) -> None:
    (tmp_path / "local-venv").symlink_to(local_venv, target_is_directory=True)
    run_page(PAGE, tmp_path, _clean_env(), timeout=120, stderr_shows=False)
    replay = json.loads((tmp_path / "replay.json").read_text())
    assert replay["status"] == "finished" and replay["par"]  # Concerto's par, from the engines
    plays = (tmp_path / "plays.jsonl").read_text().splitlines()
    assert len(plays) == 6  # three deals, each twice

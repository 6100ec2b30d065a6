"""The tutorials' marked blocks, run exactly as written, with only the SDK installed.

In a tutorial page a fenced block preceded by

* ``<!-- setup -->`` makes the bot's environment (``python3 -m venv bot-venv`` and
  ``bot-venv/bin/pip install ./client_sdk``): it runs once per test session, as
  written, in a folder holding a copy of ``client_sdk/`` and nothing else of the
  repository, so the environment it makes has the SDK and its dependencies only
  (the xdist workers share it: tests/sdk/test_standalone.py runs its bots from it);
* ``<!-- run -->`` is a shell step; ``<!-- file: NAME -->`` is written to NAME
  before the steps after it run;
* ``<!-- output -->`` shows what a step prints: its lines must be lines the page's
  steps printed, in order and one after the other, exactly (numbers too), but for
  ``...``: a line ``...`` alone stands for any lines, and ``...`` within a line for
  any text on it. The page marks so only what varies between runs (ids, times, and
  what a live server's other players make of a game: results, ratings).

docs/train.md runs the same way (its steps, no setup block) with this environment's
``python`` and ``parlour-bot`` (the SDK's ``openspiel`` extra and the engines) first on
PATH, against the same server.

A page's setup-less blocks go, in order, into one bash script (so a step may start
bots in the background and a later one ``wait`` for them), run in a fresh folder
where ``bot-venv`` is the session's SDK environment, with ``PARLOUR_SERVER``
pointing at a bare ``parlour serve`` (as ``make serve`` runs it) started for the
test on a free port, and no repository on ``PYTHONPATH``.

Building ``./client_sdk`` needs its build backend (setuptools >= 77), which pip
would download into an isolated build environment. So that the command stays as
written and the run needs no network but once, the session puts the backend's and
the SDK's dependencies' wheels in a folder (``pip download``, kept in the pytest
cache: later sessions are offline) and runs the setup block with
``PIP_FIND_LINKS`` at that folder and ``PIP_NO_INDEX=1``: pip finds nothing there
but setuptools and ``requests`` with its dependencies.

The TypeScript page (javascript-bot.md) works the same way with npm: its setup
block runs once per session, as written, in a folder holding a copy of
``client_sdk/typescript/`` (without its ``node_modules``/``dist``) and nothing else of
the repository; it installs the client's dependencies from its lock file, compiles
it, and installs a copy of it (``--install-links``: not a link to the folder, whose
development tools would come along) with TypeScript 5 into ``node_modules``. The page's steps then
run in a fresh folder where ``node_modules`` is that one. The setup block runs with
``npm_config_prefer_offline=true`` (npm's own setting, as ``PIP_FIND_LINKS`` is pip's:
the commands stay as written): npm takes what its cache holds without asking the
registry whether it is stale, and asks the registry only for what the cache lacks
(the first session on a machine), as pip is asked for the wheels above. Without node
and npm the test fails (it does not skip), saying that they are needed.
"""

from __future__ import annotations

import fcntl
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from client_sdk import Client
from server.processes.served import Served, free_port
from tests.once import built_once

ROOT = Path(__file__).resolve().parents[2]
TUTORIALS = ROOT / "docs" / "tutorials"
MARKED = re.compile(
    r"<!--\s*(?P<kind>run|setup|output|file:\s*(?P<name>\S+))\s*-->\s*\n"
    r"```[^\n]*\n(?P<body>.*?)\n```",
    re.DOTALL,
)
FROM_THE_ROOT = ["local.md", "train.md", "organisers.md"]
"""The pages besides the tutorials whose steps a reader may run at the repository's root."""
WHEELS = ["setuptools>=77", "requests>=2.31"]
"""What ``pip install ./client_sdk`` needs: its build backend and its one dependency
(pip downloads requests' own dependencies with it)."""


def blocks(page: Path) -> list[tuple[str, str | None, str]]:
    """The marked blocks of ``page``: (kind, file name or None, text)."""
    text = page.read_text(encoding="utf-8")
    return [
        ("file" if m["name"] else m["kind"], m["name"], m["body"]) for m in MARKED.finditer(text)
    ]


def script(page: Path) -> str:
    lines = ["set -euo pipefail"]
    for kind, name, body in blocks(page):
        if kind == "run":
            lines.append(body)
        elif kind == "file":
            lines += [f"cat > {name} <<'PARLOUR_TUTORIAL_EOF'", body, "PARLOUR_TUTORIAL_EOF"]
    return "\n".join(lines) + "\n"


ANY = "..."
"""In an output block, a line ``...`` alone stands for any lines (none or more), and
``...`` within a line for any text on that line: the page marks so what varies from
one run to the next (an id, a log line's time, a result or a rating from a live
server). Everything else is compared exactly, numbers too."""


def shown_pattern(block: str) -> re.Pattern[str]:
    """An output block as a pattern of whole, consecutive lines: exact but for ``...``.

    >>> bool(shown_pattern("... INFO game ... finished: won (+2.50)\\n...\\ndone")
    ...      .search("x\\n10:00:00 INFO game ab12 finished: won (+2.50)\\n1\\n2\\ndone\\n"))
    True
    >>> bool(shown_pattern("finished 42 63 events").search("finished 42 60 events\\n"))
    False
    >>> bool(shown_pattern("seat 0: 67\\n44 moves").search("seat 0: 67\\nseat 1: 1\\n44 moves\\n"))
    False
    """
    out = []
    for line in block.splitlines():
        if line.strip() == ANY:
            out.append(r"(?:[^\n]*\n)*?")
        else:
            out.append(r"[^\n]*".join(re.escape(part) for part in line.split(ANY)) + r"\n")
    return re.compile("^" + "".join(out), re.MULTILINE)


def run_page(
    page: Path, cwd: Path, env: dict[str, str], timeout: float, *, stderr_shows: bool = True
) -> tuple[subprocess.CompletedProcess[str], str]:
    """``page``'s steps (:func:`script`) run in ``cwd``: asserts that they succeed and print
    each of the page's output blocks (:func:`shown_pattern`) on stdout or, with
    ``stderr_shows``, on stdout and stderr as one stream (as a terminal shows them, in
    the order printed: ``done.stdout`` then holds both). Returns the run and its output,
    for more assertions."""
    done = subprocess.run(
        ["bash", "-c", script(page)],
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT if stderr_shows else subprocess.PIPE,
        text=True,
        timeout=timeout,
    )
    said = f"stdout:\n{done.stdout}\nstderr:\n{done.stderr}"
    assert done.returncode == 0, said
    for kind, _, body in blocks(page):
        if kind == "output":
            assert shown_pattern(body).search(done.stdout + "\n"), (body, said)
    return done, said


def test_every_tutorial_has_steps() -> None:
    for page in TUTORIALS.glob("*.md"):
        kinds = [kind for kind, _, _ in blocks(page)]
        assert "run" in kinds and "file" in kinds, f"{page.name}: needs run and file blocks"


FOLLOWED = [*sorted(TUTORIALS.glob("*.md")), *(ROOT / "docs" / n for n in FROM_THE_ROOT)]
MADE = re.compile(r"""(?:python3 -m venv|>|--out)\s+"?([\w.${}/-]+)|open\('([\w.-]+)', 'w'\)""")
"""What a step writes: a venv, a redirection, an ``--out`` file, a file Python opens to write."""


def made(page: Path) -> set[str]:
    """The names ``page``'s blocks write in the folder they run in (a shell variable
    in a name, ``$name.json``, stands for each of its values: ``x.json`` here)."""
    names = set()
    for kind, name, body in blocks(page):
        if kind == "file" and name:
            names.add(name)
        elif kind in ("run", "setup"):
            names |= {a or b for a, b in MADE.findall(body)}
    return {re.sub(r"\$\{?\w+\}?", "x", name) for name in names}


def test_what_the_pages_make_at_the_root_is_ignored_by_git() -> None:
    """Followed from a clone, at its root, the pages leave nothing untracked:
    .gitignore names every file and environment their steps make there."""
    names = sorted(set().union(*(made(page) for page in FOLLOWED)))
    assert {"bot-venv", "local-venv", "mybot.py", "ann.token", "bot.id", "tokens.csv"} <= set(
        names
    ), names
    probe = [n.replace("x.json", "ann.json") for n in names] + ["bot-venv/bin/python"]
    listed = subprocess.run(
        ["git", "check-ignore", "--no-index", "--stdin"],
        cwd=ROOT,
        input="\n".join(probe),
        capture_output=True,
        text=True,
    ).stdout.split()
    assert set(listed) == set(probe), sorted(set(probe) - set(listed))


def test_the_pages_pass_tokens_in_the_environment() -> None:
    """No step puts a token on a command line (``ps`` shows it to anyone on the machine):
    ``parlour-bot`` reads ``PARLOUR_TOKEN``."""
    for page in FOLLOWED:
        assert "--token" not in script(page), page.name


def test_the_python_tutorial_needs_only_the_sdk() -> None:
    """No step uses the repository's .venv, the full install or a bot the SDK lacks."""
    page = TUTORIALS / "python-bot.md"
    setup = [body for kind, _, body in blocks(page) if kind == "setup"]
    assert setup == ["python3 -m venv bot-venv\nbot-venv/bin/pip install ./client_sdk"]
    steps = script(page)
    assert ".venv/" not in steps and "parlour bot" not in steps and " random " not in steps
    assert "os.environ[" not in steps  # PARLOUR_SERVER may be left unset


def test_the_typescript_tutorial_needs_only_the_client() -> None:
    """The steps use the client package from ``node_modules``, nothing else of the repository."""
    page = TUTORIALS / "javascript-bot.md"
    setup = [body for kind, _, body in blocks(page) if kind == "setup"]
    assert setup == [
        "npm ci --prefix client_sdk/typescript --no-audit --no-fund\n"
        "npm run build --prefix client_sdk/typescript\n"
        "npm install --no-save --no-audit --no-fund --install-links ./client_sdk/typescript"
        " typescript@5 @types/node@20"
    ]
    steps = script(page)
    assert "client_sdk" not in steps and "bots/examples" not in steps and ".venv/" not in steps
    assert 'from "parlour-client"' in steps and "npx tsc" in steps


@pytest.fixture(scope="session")
def ts_modules(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The TypeScript page's setup block, run as written where only the client's folder is."""
    assert shutil.which("node") and shutil.which("npm"), "node and npm are needed"
    folder = tmp_path_factory.mktemp("client-only")
    shutil.copytree(
        ROOT / "client_sdk" / "typescript",
        folder / "client_sdk" / "typescript",
        ignore=shutil.ignore_patterns("node_modules", "dist"),
    )
    (setup,) = [b for k, _, b in blocks(TUTORIALS / "javascript-bot.md") if k == "setup"]
    done = subprocess.run(
        ["bash", "-c", "set -euo pipefail\n" + setup],
        cwd=folder,
        env=_clean_env() | {"npm_config_prefer_offline": "true"},  # see the module's doc
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, f"stdout:\n{done.stdout}\nstderr:\n{done.stderr}"
    assert (folder / "node_modules" / "parlour-client" / "dist" / "index.js").exists()
    return folder / "node_modules"


def tutorial_wheels(pytestconfig: pytest.Config) -> Path:
    """The folder of the wheels ``pip install ./client_sdk`` needs offline (see above),
    downloaded once into the pytest cache (the xdist workers take turns under a lock)."""
    wheels = pytestconfig.cache.mkdir("tutorial-wheels")
    with open(wheels / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not any(wheels.glob("setuptools-*.whl")) or not any(wheels.glob("requests-*.whl")):
            subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "pip",
                    "download",
                    "--quiet",
                    "--dest",
                    str(wheels),
                    *WHEELS,
                ],
                check=True,
                timeout=120,
            )
    return wheels


@pytest.fixture(scope="session")
def sdk_venv(tmp_path_factory: pytest.TempPathFactory, pytestconfig: pytest.Config) -> Path:
    """The Python tutorial's setup block, run as written where only ``client_sdk/`` is:
    once per session, for every xdist worker (tests/sdk/test_standalone.py uses it too)."""
    wheels = tutorial_wheels(pytestconfig)

    def build(folder: Path) -> None:
        shutil.copytree(
            ROOT / "client_sdk",
            folder / "client_sdk",
            ignore=shutil.ignore_patterns(
                "__pycache__", "build", "*.egg-info", "node_modules", "dist"
            ),  # the TypeScript client's install and build: not the Python SDK
        )
        run_setup(TUTORIALS / "python-bot.md", folder, wheels)

    return built_once(tmp_path_factory, "sdk-only", build) / "bot-venv"


def run_setup(page: Path, folder: Path, wheels: Path, timeout: float = 240) -> None:
    """``page``'s setup block, run as written in ``folder``, offline: pip finds nothing
    but the wheels in ``wheels``."""
    (setup,) = [b for k, _, b in blocks(page) if k == "setup"]
    env = _clean_env() | {"PIP_FIND_LINKS": str(wheels), "PIP_NO_INDEX": "1"}
    done = subprocess.run(
        ["bash", "-c", "set -euo pipefail\n" + setup],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert done.returncode == 0, f"stdout:\n{done.stdout}\nstderr:\n{done.stderr}"


def _clean_env() -> dict[str, str]:
    drop = ("PARLOUR_TOKEN", "PARLOUR_ADMIN_TOKEN", "PYTHONPATH", "VIRTUAL_ENV", "PIP_")
    env = {k: v for k, v in os.environ.items() if not k.startswith(drop)}
    # the test's own .venv off PATH: the steps name bot-venv/bin/... themselves
    env["PATH"] = os.pathsep.join(
        p for p in env.get("PATH", "").split(os.pathsep) if not p.startswith(sys.prefix)
    )
    return env


def test_the_sdk_environment_holds_the_sdk_alone(sdk_venv: Path) -> None:
    listed = subprocess.run(
        [str(sdk_venv / "bin" / "python"), "-m", "pip", "list", "--format=freeze"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    names = {line.split("==")[0].lower() for line in listed.split()}
    assert "parlour-client" in names and "parlour" not in names, names
    extra = names - {"parlour-client", "requests", "urllib3", "idna", "certifi"}
    extra -= {"charset-normalizer", "charset_normalizer", "pip", "setuptools"}
    assert not extra, f"more than the SDK and its dependencies: {sorted(extra)}"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    served = Served(
        tmp_path_factory.mktemp("tutorial-server") / "data", free_port(), ready_timeout=60
    )
    try:
        deadline = time.monotonic() + 30  # the bot pool defines its ladders and enters them
        with Client(served.url) as anyone:
            while not any(
                lad["game"] == "concerto" and lad["entries_count"] >= 3
                for lad in anyone.ladders.list()["ladders"]
            ):
                assert time.monotonic() < deadline, "no Concerto ladder with house bots"
                time.sleep(0.2)
        yield served
    finally:
        served.stop()


@pytest.mark.parametrize("page", ["javascript-bot.md", "python-bot.md", "hosted-bot.md"])
def test_tutorial_runs_as_written(
    page: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    """The page's setup first, then the module's server: the TypeScript page runs first,
    so that the server (its bot pool and scheduler awake) is not started before npm and
    tsc have done, and does not idle through them."""
    if page.startswith("javascript"):  # the client package, as its setup installed it
        modules = request.getfixturevalue("ts_modules")
        (tmp_path / "node_modules").symlink_to(modules, target_is_directory=True)
    else:
        venv = request.getfixturevalue("sdk_venv")
        (tmp_path / "bot-venv").symlink_to(venv, target_is_directory=True)
    server: Served = request.getfixturevalue("server")
    env = _clean_env() | {"PARLOUR_SERVER": server.url}
    done, said = run_page(TUTORIALS / page, tmp_path, env, timeout=120)
    if page.startswith("hosted"):  # the server ran the bot: validated, then rated
        assert "validation passed" in done.stdout, said
    elif page.startswith("python"):
        # the ladder game was rated: ann is on the leaderboard with the house bots
        assert re.search(r"^\s*\d+ ann\b", done.stdout, re.MULTILINE), said
    else:  # the tournament game was played and rated: all four are on the leaderboard
        for name in ("ann", "bob", "cy", "di"):
            assert re.search(rf"^\s*\d+ {name}\b", done.stdout, re.MULTILINE), said
            assert f"{name}: 1 game(s) finished" in done.stdout, said  # by runBot


TRAIN = ROOT / "docs" / "train.md"


def test_the_train_page_runs_as_written(server: Served, tmp_path: Path) -> None:
    """docs/train.md ("Train with OpenSpiel and PettingZoo") runs as written: its marked
    blocks in one bash script, in a fresh folder, with this environment's ``python`` and
    ``parlour-bot`` first on PATH (it has the SDK's ``openspiel`` extra and the engines) and
    ``PARLOUR_SERVER`` at the tutorials' bare ``parlour serve`` (the page creates its own
    game and seats its bot in all four seats: nothing else on the server reaches it)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    env["PARLOUR_SERVER"] = server.url
    done, said = run_page(TRAIN, tmp_path, env, timeout=240)
    assert len([kind for kind, _, _ in blocks(TRAIN) if kind == "output"]) == 3
    assert "ismcts: " in done.stdout and ", 0 illegal" in done.stdout, said


def test_make_demo_ends_with_the_next_step() -> None:
    """``make demo``'s last lines: a server that stays up, the lobby, a tutorial that exists."""
    from server.processes.demo import NEXT_STEPS

    assert "make serve" in NEXT_STEPS and "http://127.0.0.1:8000/" in NEXT_STEPS
    assert "lobby" in NEXT_STEPS
    for page in re.findall(r"\b[\w-]+-bot\.md\b", NEXT_STEPS):
        assert (TUTORIALS / page).exists(), page
    assert "python-bot.md" in NEXT_STEPS


def test_the_home_page_starts_from_make_serve_and_the_lobby() -> None:
    home = (ROOT / "docs" / "index.md").read_text(encoding="utf-8")
    assert "make serve" in home and "http://127.0.0.1:8000/" in home and "lobby" in home
    assert "pip install ./client_sdk" in home  # a bot needs the SDK alone

"""The tutorials' marked blocks, run exactly as written against a real server.

A fenced block preceded by ``<!-- run -->`` is a shell step; one preceded by
``<!-- file: NAME -->`` is written to NAME before the steps after it run. All of
a page's blocks go, in order, into one bash script (so a step may start bots in
the background and a later one ``wait`` for them), run in a fresh folder whose
``.venv`` is this interpreter's environment, with ``PARLOUR_SERVER`` pointing at
a ``parlour serve`` started for the test.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from server.processes.served import Served, free_port

ROOT = Path(__file__).resolve().parents[2]
TUTORIALS = ROOT / "docs" / "tutorials"
MARKED = re.compile(
    r"<!--\s*(run|file:\s*(?P<name>\S+))\s*-->\s*\n```[^\n]*\n(?P<body>.*?)\n```", re.DOTALL
)


def steps(page: Path) -> list[tuple[str | None, str]]:
    """The marked blocks of ``page``: (file name or None for a shell step, text)."""
    return [(m["name"], m["body"]) for m in MARKED.finditer(page.read_text(encoding="utf-8"))]


def script(page: Path) -> str:
    lines = ["set -euo pipefail"]
    for name, body in steps(page):
        if name is None:
            lines.append(body)
        else:
            lines += [f"cat > {name} <<'PARLOUR_TUTORIAL_EOF'", body, "PARLOUR_TUTORIAL_EOF"]
    return "\n".join(lines) + "\n"


def test_every_tutorial_has_steps() -> None:
    for page in TUTORIALS.glob("*.md"):
        kinds = [name is None for name, _ in steps(page)]
        assert any(kinds) and not all(kinds), f"{page.name}: needs run and file blocks"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory):
    served = Served(tmp_path_factory.mktemp("tutorial-server") / "data", free_port())
    yield served
    served.stop()


@pytest.mark.parametrize("page", ["python-bot.md", "javascript-bot.md"])
def test_tutorial_runs_as_written(page: str, server: Served, tmp_path: Path) -> None:
    if page.startswith("javascript") and shutil.which("node") is None:
        pytest.skip("node is not installed")
    (tmp_path / ".venv").symlink_to(sys.prefix, target_is_directory=True)
    env = {k: v for k, v in os.environ.items() if k not in ("PARLOUR_TOKEN", "PARLOUR_ADMIN_TOKEN")}
    env |= {"PARLOUR_SERVER": server.url, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        ["bash", "-c", script(TUTORIALS / page)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, f"stdout:\n{done.stdout}\nstderr:\n{done.stderr}"
    # the tournament game was played and rated: all four players are on the leaderboard
    for name in ("ann", "bob", "cy", "di"):
        assert re.search(rf"^\s*\d+ {name}\b", done.stdout, re.MULTILINE), done.stdout

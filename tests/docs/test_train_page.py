"""docs/train.md ("Train with OpenSpiel and PettingZoo") runs as written: its marked
blocks (as in the tutorials: ``<!-- run -->``, ``<!-- file: NAME -->``, ``<!-- output -->``)
in one bash script, in a fresh folder, with this environment's ``python`` and
``parlour-bot`` first on PATH (it has the SDK's ``openspiel`` extra and the engines) and
``PARLOUR_SERVER`` at a bare ``parlour serve``."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from server.processes.served import Served, free_port
from tests.docs.test_tutorials import blocks, script, shown_pattern

PAGE = Path(__file__).resolve().parents[2] / "docs" / "train.md"


@pytest.fixture
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """A bare ``parlour serve`` (the page creates its own game: no ladder to wait for)."""
    served = Served(tmp_path_factory.mktemp("train-server") / "data", free_port(), ready_timeout=60)
    try:
        yield served
    finally:
        served.stop()


def test_the_train_page_runs_as_written(server: Served, tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    env["PARLOUR_SERVER"] = server.url
    done = subprocess.run(
        ["bash", "-c", script(PAGE)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
    )
    said = f"stdout:\n{done.stdout}\nstderr:\n{done.stderr}"
    assert done.returncode == 0, said
    outputs = [body for kind, _, body in blocks(PAGE) if kind == "output"]
    assert len(outputs) == 3
    for body in outputs:
        for line in body.splitlines():
            assert shown_pattern(line).search(done.stdout + done.stderr), (line, said)
    assert "ismcts: " in done.stdout and ", 0 illegal" in done.stdout, said

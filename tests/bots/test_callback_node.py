"""The Node callback example (bots/examples/callback_bot.mjs), run with node over a real
socket: a call signed as the server signs it gets a legal move; the bad calls the SDK's
endpoint refuses (tests/sdk/test_endpoint.py) it refuses too, with the same statuses.

The example uses node's standard library only: it runs from a folder holding nothing
but the file (no ``node_modules``). Without node the test fails, saying so.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from server.processes.served import free_port
from tests.sdk.test_endpoint import REFUSALS, call_body, post, signed

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "bots" / "examples" / "callback_bot.mjs"
SECRET = "cbs_node_example_secret"
MAX_BODY = 8192  # its --max-body (1 MiB by default)


@pytest.fixture(scope="module")
def node_bot(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The example served by node on a free port, from a folder with nothing else; its URL."""
    node = shutil.which("node")
    assert node, "node is needed to run the JavaScript callback example"
    folder = tmp_path_factory.mktemp("node_callback")
    shutil.copy(EXAMPLE, folder / EXAMPLE.name)
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "NODE_PATH"}
    process = subprocess.Popen(
        [node, EXAMPLE.name, "--port", str(port), "--max-body", str(MAX_BODY)],
        cwd=folder,
        env={**env, "PARLOUR_CALLBACK_SECRET": SECRET},
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stderr is not None
    line = process.stderr.readline()  # it says so once it listens
    assert "serving calls on" in line, line + process.stderr.read()
    yield f"http://127.0.0.1:{port}/"
    process.terminate()
    process.wait(10)


def test_a_signed_call_gets_a_legal_move(node_bot: str) -> None:
    for skew in (0, 0, 0, -290, 290):  # within the 300 s tolerance either side
        body = call_body()
        answer = post(node_bot, body, signed(body, secret=SECRET, at=time.time() + skew))
        assert answer.status_code == 200
        assert answer.json()["move"] in json.loads(body)["view"]["legal_moves"]


@pytest.mark.parametrize(("make", "status"), REFUSALS)
def test_a_bad_call_is_refused(node_bot: str, make, status: int) -> None:
    body, sig = make(call_body(), MAX_BODY, SECRET)
    answer = post(node_bot, body, sig)
    assert answer.status_code == status
    assert answer.json()["error"]["code"]


def test_a_replayed_call_is_refused(node_bot: str) -> None:
    body = call_body()
    sig = signed(body, secret=SECRET)
    assert post(node_bot, body, sig).status_code == 200
    replay = post(node_bot, body, sig)
    assert (replay.status_code, replay.json()["error"]["code"]) == (409, "replayed")
    fresh = call_body()
    assert post(node_bot, fresh, signed(fresh, secret=SECRET)).status_code == 200

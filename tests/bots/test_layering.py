"""House rules (DESIGN.md): the SDK uses only the HTTP API; bots never import server internals."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from client_sdk.cli import bot_names

ROOT = Path(__file__).resolve().parents[2]
BOT_MODULES = [f"bots.{name}" for name in bot_names()] + ["bots.tools.arena"]


def modules_after_import(*names: str) -> set[str]:
    code = "import importlib, json, sys\n"
    code += "".join(f"importlib.import_module({n!r})\n" for n in names)
    code += "print(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout  # fmt: skip
    return set(json.loads(out))


def test_the_sdk_imports_only_requests_and_the_standard_library() -> None:
    loaded = modules_after_import("client_sdk", "client_sdk.cli")
    assert not {m for m in loaded if m.split(".")[0] in ("server", "bots", "flask", "redis")}


def test_bots_use_only_the_sdk_and_the_pure_engines() -> None:
    loaded = modules_after_import(*BOT_MODULES)
    forbidden = ("server.api", "server.store", "server.services.games", "flask", "redis")
    assert not {m for m in loaded if m.startswith(forbidden)}
    assert "server.games.concerto" in loaded  # local simulation is allowed

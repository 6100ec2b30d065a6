"""House rules (DESIGN.md): the SDK uses only the HTTP API; bots never import server internals."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib.metadata import entry_points
from pathlib import Path

from client_sdk.cli import BOT_GROUP

ROOT = Path(__file__).resolve().parents[2]
DECLARED = {ep.name: ep.module for ep in entry_points(group=BOT_GROUP)}
BOT_MODULES = sorted(set(DECLARED.values())) + ["bots.tools.arena", "bots.tools.par_arena"]


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


def test_every_bot_module_is_declared_as_an_entry_point() -> None:
    """A bot module (one with ``make_bot``) that pyproject.toml forgets cannot be run by name."""
    with_make_bot = {
        f"bots.{path.stem}"
        for path in (ROOT / "bots").glob("*.py")
        if not path.stem.startswith("_") and "\ndef make_bot(" in path.read_text()
    }
    assert with_make_bot == set(DECLARED.values())
    assert DECLARED["random"] == "bots.uniform"  # the module was renamed, the name stays

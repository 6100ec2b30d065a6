"""The layers point one way (docs/architecture.md): import-linter's contracts hold.

The contracts live in ``pyproject.toml`` and ``lint-imports`` checks them
statically, imports inside functions included. This test runs it and also
checks that the contract list still says what the architecture needs, so a
contract cannot quietly be dropped or narrowed.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import grimp
import pytest

ROOT = Path(__file__).resolve().parents[1]
SERVER_PARTS = sorted(f"server.{p.parent.name}" for p in (ROOT / "server").glob("*/__init__.py"))


def contracts() -> list[dict[str, Any]]:
    with open(ROOT / "pyproject.toml", "rb") as f:
        return tomllib.load(f)["tool"]["importlinter"]["contracts"]


def forbids(source: str, forbidden: set[str], directly_only: bool = False) -> bool:
    """Whether some forbidden contract keeps ``source`` (or a package holding it) from
    importing every module of ``forbidden``; indirect imports too unless ``directly_only``."""
    covered: set[str] = set()
    for contract in contracts():
        if contract["type"] != "forbidden":
            continue
        if not any(source == s or source.startswith(s + ".") for s in contract["source_modules"]):
            continue
        if contract.get("allow_indirect_imports", False) and not directly_only:
            continue
        covered |= set(contract["forbidden_modules"])
    return forbidden <= covered


def test_every_import_contract_is_kept() -> None:
    lint_imports = Path(sys.executable).parent / "lint-imports"
    run = subprocess.run(
        [str(lint_imports), "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    verdicts = dict(re.findall(r"^(.+?) (KEPT|BROKEN)(?: \(.*\))?$", run.stdout, re.MULTILINE))
    assert set(verdicts) == {c["name"] for c in contracts()}, run.stdout + run.stderr
    broken = [name for name, verdict in verdicts.items() if verdict == "BROKEN"]
    assert not broken and run.returncode == 0, run.stdout


def test_the_engines_import_nothing_of_the_project() -> None:
    others = {p for p in SERVER_PARTS if p != "server.games"} | {"client_sdk", "bots"}
    assert forbids("server.games", others | {"flask", "redis"})


def test_the_api_reaches_redis_and_the_engines_only_through_the_services() -> None:
    """The error table maps engine errors too, re-exported by ``server.services.errors``."""
    pure = {"server.games", "server.tournaments"}
    assert forbids("server.api", {"server.store", "redis"} | pure, directly_only=True)


PROCESSES = sorted(
    f"server.processes.{p.stem}"
    for p in (ROOT / "server" / "processes").glob("*.py")
    if p.stem != "__init__"
)


def test_the_processes_are_loops_over_the_services() -> None:
    """No process module reaches the store or Redis itself (docs/architecture.md): the
    scheduler and the webhook deliverer call service methods, like every other process.
    The contract names the whole package, so a new process module is covered too."""
    assert forbids("server.processes", {"server.store", "redis"}, directly_only=True)
    graph = grimp.build_graph("server", include_external_packages=True)
    for module in PROCESSES:
        reached = {
            m
            for m in graph.find_modules_directly_imported_by(module)
            if m in ("server.store", "redis") or m.startswith(("server.store.", "redis."))
        }
        assert not reached, (module, reached)


def test_only_the_processes_reach_the_sandbox() -> None:
    """Submitted code runs from the processes alone (docs/sandbox.md); the sandbox, run
    by them, knows nothing of the server but the engines' default move."""
    for part in SERVER_PARTS:
        if part not in ("server.processes", "server.sandbox"):
            assert forbids(part, {"server.sandbox"}), part
    assert forbids("client_sdk", {"server.sandbox"}) and forbids("bots", {"server.sandbox"})
    others = {p for p in SERVER_PARTS if p not in ("server.games", "server.sandbox")}
    assert forbids("server.sandbox", others | {"bots", "flask", "redis"})


PLAY_CODE = ("games", "new_games", "moves", "feeds", "turnstream")
"""The services of play: creating, moving, the feeds and the turn streams."""


@pytest.mark.parametrize("name", PLAY_CODE)
def test_play_code_names_no_ladder(name: str) -> None:
    """Ladders keep their books through the play hook (``Core.subscribe``, which
    ``services.ladder_play`` subscribes to): play code neither imports nor mentions them."""
    source = (ROOT / "server" / "services" / f"{name}.py").read_text()
    lines = [n for n, line in enumerate(source.splitlines(), 1) if "ladder" in line.lower()]
    assert not lines, f"server/services/{name}.py mentions ladders at lines {lines}"


@pytest.mark.parametrize("domain", ["server.games", "server.tournaments"])
def test_the_pure_domains_know_no_services_or_processes(domain: str) -> None:
    assert forbids(domain, {"server.services", "server.processes", "server.store", "server.api"})


def test_the_sdk_stands_alone_and_bots_use_no_server_internals() -> None:
    assert forbids("client_sdk", {"server", "bots", "flask", "redis"})
    assert forbids(
        "bots",
        {
            "server.api",
            "server.services",
            "server.store",
            "server.processes",
            "server.tournaments",
            "flask",
            "redis",
        },
    )


ENGINE_USERS = {"client_sdk.local.match", "client_sdk.local.replays",
                "client_sdk.local.sequential", "client_sdk.spiel", "client_sdk.spiel_core",
                "client_sdk.zoo", "client_sdk.features", "client_sdk.policy"}  # fmt: skip
"""The SDK's modules that reach the engines: the local runner's (``parlour-bot play``,
``client_sdk.local``) and the learning adapters (docs/train.md), each imported only when
used."""


def test_only_the_local_runner_and_the_learning_adapters_reach_the_engines() -> None:
    """The SDK's ways into ``server``: ``client_sdk.local`` (``parlour-bot play``) imports
    the engines inside its functions; the OpenSpiel and PettingZoo adapters are built on
    them. Nothing else of the server, and none of the SDK's core imports them."""
    (contract,) = [c for c in contracts() if c["name"] == "The SDK stands alone"]
    ignored = {rule.split(" -> ")[0] for rule in contract.get("ignore_imports", [])}
    assert ignored <= ENGINE_USERS
    graph = grimp.build_graph("server", "client_sdk", include_external_packages=True)
    reached = {
        (importer, imported)
        for importer in graph.find_descendants("client_sdk") | {"client_sdk"}
        for imported in graph.find_modules_directly_imported_by(importer)
        if imported == "server" or imported.startswith("server.")
    }
    assert reached and {i for i, _ in reached} <= ENGINE_USERS, reached
    assert "client_sdk.local.match" in {i for i, _ in reached}
    assert all(m == "server.games" or m.startswith("server.games.") for _, m in reached)
    assert forbids("client_sdk.runner", {"client_sdk.spiel", "pyspiel", "pettingzoo", "numpy"})


def test_the_bot_pool_is_a_client_of_the_sdk() -> None:
    """The bot pool ships with the server but plays over HTTP, like any bot.

    No contract in ``pyproject.toml`` names it, so its graph is checked here.
    """
    graph = grimp.build_graph("server", "client_sdk", "bots", include_external_packages=True)
    pool = "server.processes.botpool"
    for internal in ("server.api", "server.store", "server.services", "flask", "redis"):
        assert not graph.chain_exists(pool, internal, as_packages=True), internal
    assert graph.chain_exists(pool, "client_sdk.runner")

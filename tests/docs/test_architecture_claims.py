"""What docs/architecture.md names exists: its paths, modules, classes and contracts.

The document describes the code by name (``ladder_stats.py``, ``Dispatch``,
``Core.after_commit``, ``server.services.rounds``, the import contracts); a module
split or renamed leaves a name that points at nothing. These checks read every such
name and look it up, each in the layer whose paragraph names it: a paragraph that
opens ``**services** (`server/services/`)`` and the asides after it, up to the next
layer or heading, name modules of that folder. They also hold the lists that must
be whole (every feature of the services' bundle, every process module, every
contract) to the code, both in this document and in ``server/services/__init__.py``.
"""

from __future__ import annotations

import ast
import functools
import re
import tomllib
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "architecture.md"
PACKAGES = ("server", "client_sdk", "bots")

LAYER = re.compile(r"^\*\*(\w+)\*\* \(`([\w/]+/)`\)")
TOKEN = re.compile(r"`([^`\n]+)`")
REPO_PATH = re.compile(r"\b(?:server|client_sdk|bots|tests|docs)/(?:[\w./-]*[\w/])?")
FILE = re.compile(r"^[\w/]+\.(?:py|lua)$|^\w+/$")
ROOT_FILE = re.compile(r"^\w+\.(?:toml|yaml)$")
CLASS_NAME = re.compile(r"^[A-Z][A-Za-z0-9]+$")
MEMBER = re.compile(r"^([A-Z]\w*)\.(\w+)$")
DOTTED = re.compile(r"^[a-z_]\w*(?:\.\w+)+$")

NOT_CODE = {"meta.tournament.ladder", "parlour.bots"}
"""Dotted names the document uses that are not modules: a game record's field path and
the entry-point group of the bots."""
FOREIGN = {"GameInfo"}
"""Names of other projects' code the document mentions (OpenSpiel's ``GameInfo``)."""


def paragraphs(text: str) -> Iterator[tuple[Path | None, str]]:
    """Each paragraph outside code blocks, with the folder of the layer it is in."""
    text = re.sub(r"^```.*?^```", "", text, flags=re.MULTILINE | re.DOTALL)
    layer: Path | None = None
    for block in re.split(r"\n\s*\n", text):
        block = block.strip()
        if block.startswith("#"):
            layer = None
            continue
        if m := LAYER.match(block):
            layer = ROOT / m.group(2)
        yield layer, block


def tokens(text: str) -> Iterator[tuple[Path | None, str]]:
    for layer, block in paragraphs(text):
        for token in TOKEN.findall(block):
            yield layer, token


def package_files() -> list[Path]:
    return [p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py")]


@functools.cache
def defined(path: Path) -> frozenset[str]:
    """The names a module defines at its top level, and the string constants it holds
    (the kit's wire names its shared shapes as dict keys)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names |= {t.id for t in targets if isinstance(t, ast.Name)}
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names |= {(a.asname or a.name).split(".")[0] for a in node.names}
    names |= {
        n.value
        for n in ast.walk(tree)
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and n.value.isidentifier()
    }
    return frozenset(names)


@functools.cache
def members(path: Path) -> dict[str, frozenset[str]]:
    """Each class of a module, with the names its body defines."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            names = set()
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    names.add(item.name)
                elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                    names.add(item.target.id)
                elif isinstance(item, ast.Assign):
                    names |= {t.id for t in item.targets if isinstance(t, ast.Name)}
            found[node.name] = frozenset(names)
    return found


def module_file(dotted: str) -> Path | None:
    path = ROOT.joinpath(*dotted.split("."))
    if path.with_suffix(".py").is_file():
        return path.with_suffix(".py")
    if (path / "__init__.py").is_file():
        return path / "__init__.py"
    return None


def problem(layer: Path | None, token: str) -> str | None:
    """What is wrong with one backticked name, or None when it names what exists."""
    if "<" in token or token in NOT_CODE or token in FOREIGN:
        return None
    if REPO_PATH.fullmatch(token):
        return None if (ROOT / token).exists() else "no such path"
    if FILE.match(token):
        folders = [layer] if layer is not None else [ROOT / pkg for pkg in PACKAGES]
        pattern = "**/" + token.rstrip("/")
        if any(f.exists() for folder in folders for f in folder.glob(pattern)):
            return None
        return f"no {token} under {', '.join(f.relative_to(ROOT).as_posix() for f in folders)}"
    if ROOT_FILE.match(token):
        return None if (ROOT / token).is_file() else "no such file at the root"
    if CLASS_NAME.match(token):
        return None if any(token in defined(p) for p in package_files()) else "defined nowhere"
    if m := MEMBER.match(token):
        cls, attr = m.groups()
        classes = [members(p)[cls] for p in package_files() if cls in members(p)]
        if not classes:
            return f"no class {cls}"
        return None if any(attr in names for names in classes) else f"{cls} has no {attr}"
    if DOTTED.match(token):
        parts = token.split(".")
        if parts[0] in PACKAGES:  # a module path, then perhaps a name in it
            for cut in range(len(parts), 0, -1):
                if (path := module_file(".".join(parts[:cut]))) is not None:
                    rest = parts[cut:]
                    if not rest or (len(rest) == 1 and rest[0] in defined(path)):
                        return None
                    return f"{'.'.join(parts[:cut])} defines no {'.'.join(rest)}"
            return "no such module"
        # a module by its last parts (``store.games.commit``), then a name in it
        tail = "/".join(parts[:-1]) + ".py"
        hits = [p for p in package_files() if p.as_posix().endswith("/" + tail)]
        if not hits:
            return f"no module {tail}"
        if any(parts[-1] in defined(p) for p in hits):
            return None
        return f"{tail} defines no {parts[-1]}"
    return None


def wrong_names(text: str) -> list[tuple[str, str]]:
    wrong = [
        (token, why) for layer, token in tokens(text) if (why := problem(layer, token)) is not None
    ]
    wrong += [(path, "no such path") for path in REPO_PATH.findall(text) if "<" not in path
              and not (ROOT / path).exists()]  # fmt: skip
    return wrong


def test_every_name_the_document_gives_exists() -> None:
    assert wrong_names(DOC.read_text(encoding="utf-8")) == []


def test_a_wrong_name_is_caught() -> None:
    """Each kind of name, misspelt, in the layer that would hold it."""
    for bad in (
        "**services** (`server/services/`) are the use cases: `ladder_stat.py`.",
        "**services** (`server/services/`) are the use cases: `outbound.py`.",
        "**store** (`server/store/`) is Redis only: `lua/commit_moves.lua`.",
        "The dispatcher takes turns through `Dispatches`.",
        "After each commit `Core.after_comit` queues them.",
        "The scheduler calls `server.services.round`.",
        "It re-exports `server.services.errors.NoSuchError`.",
        "Registration checks `targets.check_url_target`.",
        "See `server/services/ladder.py` and docs/no-such-page.md.",
    ):
        assert wrong_names(bad), bad
    assert not wrong_names("**games** (`server/games/`): `kit/`, `pinochle/wire.py`, `Wire`.")


def layer_text(folder: str) -> str:
    """The paragraphs of one layer, joined."""
    text = DOC.read_text(encoding="utf-8")
    return "\n\n".join(b for layer, b in paragraphs(text) if layer == ROOT / folder)


def bundle() -> dict[str, str]:
    """The services' bundle: each attribute of ``Services`` and the class it holds."""
    tree = ast.parse((ROOT / "server/services/bundle.py").read_text(encoding="utf-8"))
    init = next(
        n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == "__init__"
    )
    held = {}
    for node in ast.walk(init):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            target, func = node.targets[0], node.value.func
            if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name):
                name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
                held[target.attr] = name
    return held


def test_every_feature_of_the_bundle_is_named() -> None:
    """The services paragraph names each feature's class, and the package's docstring
    each attribute of the bundle it is reached by."""
    held = bundle()
    assert {"players", "games", "ladders", "dispatch", "deliveries"} <= set(held)
    services = layer_text("server/services/")
    assert [c for c in held.values() if f"`{c}`" not in services] == []
    package = ast.get_docstring(ast.parse((ROOT / "server/services/__init__.py").read_text()))
    assert package is not None
    assert [a for a in held if a != "core" and f"``{a}``" not in package] == []


def test_every_process_module_is_named() -> None:
    processes = layer_text("server/processes/")
    modules = sorted(
        p.name for p in (ROOT / "server/processes").glob("*.py") if p.name != "__init__.py"
    )
    assert "outbound.py" in modules
    assert [m for m in modules if f"`{m}`" not in processes] == []


WORDS = {
    "api": {"server.api"}, "services": {"server.services"}, "store": {"server.store"},
    "processes": {"server.processes"}, "tournaments": {"server.tournaments"},
    "games": {"server.games"}, "server": {"server"}, "client_sdk": {"client_sdk"},
    "bots": {"bots"}, "Flask": {"flask"}, "Redis": {"redis"}, "gunicorn": {"gunicorn"},
    "pyspiel": {"pyspiel"}, "open_spiel": {"open_spiel"}, "pettingzoo": {"pettingzoo"},
    "numpy": {"numpy"}, "origins": {"server.origins"}, "sandbox": {"server.sandbox"},
    "the adapters": {"client_sdk.spiel", "client_sdk.zoo", "client_sdk.policy",
                     "client_sdk.features"},
}  # fmt: skip
"""The words of the contracts table for the modules a contract forbids."""


def contract_rows(text: str) -> dict[str, tuple[str, set[str]]]:
    """The table under "How the rules are kept": each contract's name, lowercased, with
    its source as written and the modules it forbids."""
    section = text.split("## How the rules are kept", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 2 or cells[0] in ("contract", "") or set(cells[0]) <= {"-"}:
            continue
        source, forbidden = cells[1].split("→", 1)
        words = forbidden.split("(", 1)[0].split(",")
        rows[cells[0].lower()] = (
            source.strip(),
            set().union(*(WORDS[w.strip()] for w in words if w.strip())),
        )
    return rows


def contract_problems(text: str) -> list[str]:
    """How the table differs from pyproject.toml's contracts: a contract missing or
    extra (by name), or forbidding other modules, or from another source."""
    with open(ROOT / "pyproject.toml", "rb") as f:
        contracts = tomllib.load(f)["tool"]["importlinter"]["contracts"]
    rows = contract_rows(text)
    names = {c["name"].lower() for c in contracts}
    problems = [f"no contract {n!r}" for n in sorted(set(rows) - names)]
    problems += [f"no row for {n!r}" for n in sorted(names - set(rows))]
    for contract in contracts:
        if (row := rows.get(contract["name"].lower())) is None:
            continue
        source, forbidden = row
        if forbidden != set(contract["forbidden_modules"]):
            problems.append(f"{contract['name']}: forbids {sorted(forbidden)}")
        if len(contract["source_modules"]) == 1 and source != f"`{contract['source_modules'][0]}`":
            problems.append(f"{contract['name']}: source {source}")
    return problems


def test_the_contracts_table_is_the_contracts() -> None:
    """Each contract of pyproject.toml is a row of the table, by its name, forbidding
    what the contract forbids; and no row names a contract that is not there."""
    text = DOC.read_text(encoding="utf-8")
    assert contract_problems(text) == []
    for old, new in (
        ("Flask, Redis, gunicorn |", "Flask, Redis |"),  # narrowed
        ("| the store is Redis only |", "| the store is Redis alone |"),  # renamed
        ("| `server.services` →", "| `server.api` →"),  # another source
    ):
        assert old in text and contract_problems(text.replace(old, new)), new

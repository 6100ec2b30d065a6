"""One key builder, and Redis only in the store (docs/architecture.md).

Every Redis key name is built in :mod:`server.store.keys`, and only the modules of
``server/store`` send Redis commands. Both are read from the source with :mod:`ast`:

* the key prefixes are taken from the ``keys`` package itself (the text before the first
  placeholder of each builder's f-string, or the whole name of a fixed key), and any
  string literal of another module of ``server/`` that starts with one, or with a
  name and a hash tag (``x:{``, a key whatever its prefix), is listed;
* a call of a Redis command (a method of redis-py's client or pipeline) on a client
  (``r``, ``self.r``, ``core.r``, ``pipe``…) outside ``server/store`` is listed.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

from redis.commands.core import CoreCommands

ROOT = Path(__file__).resolve().parents[2]
SERVER = ROOT / "server"
KEYS = SERVER / "store" / "keys"
"""The key builders' package: every module of it builds keys."""

BARE_KEYS = {"ladders"}
"""Fixed key names with no ``:`` or hash tag: too plain a word to search the code for
(``ladders`` is also a blueprint, a feature, a place for house bots). A new one fails
:func:`test_keys_py_names_its_prefixes` until it is listed here."""

CLIENTS = {"r", "redis", "client", "pipe", "pipeline", "tx"}
"""Names a Redis client or pipeline goes by in this code base (the last part of the
receiver: ``r``, ``self.r``, ``self.core.r``, ``pipe``)."""

HASH_TAGGED = re.compile(r"[\w.-]+:\{")
"""A name with a cluster hash tag (``L:{L<id>}``, ``wh:{q}``): a key, whatever its prefix."""

COMMANDS = {n for n in dir(CoreCommands) if not n.startswith("_")} | {
    "pipeline",
    "transaction",
    "execute",
    "multi",
    "watch",
    "unwatch",
}
"""redis-py's command methods, and the ones of a pipeline or a transaction."""


def _leading_text(node: ast.JoinedStr) -> str:
    out = ""
    for part in node.values:
        if not isinstance(part, ast.Constant):
            break
        out += str(part.value)
    return out


def _docstrings(tree: ast.AST) -> set[int]:
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            for stmt in node.body:
                if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
                    found.add(id(stmt.value))  # documentation, not code
    return found


def key_names() -> tuple[set[str], set[str]]:
    """The prefixes of the built keys and the fixed key names, from the keys' returns."""
    prefixes: set[str] = set()
    fixed: set[str] = set()
    for node in (n for f in sorted(KEYS.glob("*.py")) for n in ast.walk(ast.parse(f.read_text()))):
        if isinstance(node, ast.Return) and isinstance(node.value, ast.JoinedStr):
            prefixes.add(_leading_text(node.value))
        elif isinstance(node, ast.Return) and isinstance(node.value, ast.Constant):
            fixed.add(str(node.value.value))
    return prefixes, fixed


def modules(*, but: Path) -> Iterator[tuple[Path, ast.AST]]:
    for path in sorted(SERVER.rglob("*.py")):
        if path != but and but not in path.parents:
            yield path, ast.parse(path.read_text(), filename=str(path))


def keys_built_outside() -> list[str]:
    prefixes, fixed = key_names()
    searched = fixed - BARE_KEYS
    found = []
    for path, tree in modules(but=KEYS):
        docs = _docstrings(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.JoinedStr):
                text = _leading_text(node)
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                if id(node) in docs:
                    continue
                text = node.value
            else:
                continue
            if (
                any(text.startswith(p) for p in prefixes)
                or any(text == k or text.startswith(k + ":") for k in searched)
                or HASH_TAGGED.match(text)
            ):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {text!r}")
    return sorted(set(found))


def _receiver(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Call):  # r.pipeline().execute()
        return _receiver(node.func)
    return None


def redis_calls_outside_the_store() -> list[str]:
    found = []
    for path, tree in modules(but=SERVER / "store"):
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in COMMANDS
                and _receiver(node.func.value) in CLIENTS
            ):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: .{node.func.attr}(")
    return found


def test_keys_py_names_its_prefixes() -> None:
    prefixes, fixed = key_names()
    assert len(prefixes) >= 6 and all(":" in p or "{" in p for p in prefixes), prefixes
    assert {k for k in fixed if ":" not in k and "{" not in k} == BARE_KEYS


def test_every_redis_key_is_built_in_the_key_builder() -> None:
    found = keys_built_outside()
    assert not found, "Redis keys built outside server/store/keys.py:\n" + "\n".join(found)


def test_only_the_store_sends_redis_commands() -> None:
    found = redis_calls_outside_the_store()
    assert not found, "Redis commands outside server/store:\n" + "\n".join(found)


def test_the_checks_see_what_they_look_for(tmp_path: Path) -> None:
    """The scanners flag a key literal and a client call (they would not pass vacuously)."""
    prefixes, _ = key_names()
    source = 'def f(r, g):\n    r.hset(f"g:{{{g}}}:game", "x", 1)\n    self.core.r.zadd("k", {})\n'
    tree = ast.parse(source)
    calls = [
        n.func.attr
        for n in ast.walk(tree)
        if isinstance(n, ast.Call)
        and isinstance(n.func, ast.Attribute)
        and n.func.attr in COMMANDS
        and _receiver(n.func.value) in CLIENTS
    ]
    assert sorted(calls) == ["hset", "zadd"]
    built = [_leading_text(n) for n in ast.walk(tree) if isinstance(n, ast.JoinedStr)]
    assert any(b.startswith(p) for b in built for p in prefixes)

"""Code outside the engines names no game: what it needs to know is on the Game records.

A game's facts (its seats and sides, the house bots that play it, what the lobby
offers, its OpenSpiel facts) live on its :class:`server.games.Game` record; the
services, the API, the processes, the lobby and the SDK's adapters read them from
``REGISTRY``, so no code outside ``server/games/`` (and, for its table,
``server/web/js/games/``) changes for a fifth game. What else it touches is its own:
its rules page (``docs/rules/<id>.md``, which the docs build requires), its view, moves
and events in the API's contract (its wire, on its Game record, which the spec and from
it the SDK's types are generated from) and an entry in each per-game list of the tests,
each of which fails until it has one (``tests/per_game.py``). This test scans the rest of
``server/`` for a game id written out: a Python string constant that is one, or in
JavaScript a quoted string or an object key that is one. Docs, tests, bots and the SDK
may name games; they are outside the scan.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from server.games import REGISTRY

ROOT = Path(__file__).resolve().parents[1]
SERVER = ROOT / "server"
ALLOWED = (SERVER / "games", SERVER / "web" / "js" / "games")
"""The engines, and the web page's per-game renderers."""


def python_names(source: str, names: set[str]) -> list[int]:
    """The line of each string constant in ``source`` that is exactly one of ``names``.

    >>> python_names("x = 'concerto'\\ny = 'concerto, a game'\\n", {"concerto"})
    [1]
    """
    return sorted(
        node.lineno
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in names
    )


def js_names(source: str, names: set[str]) -> list[int]:
    """The line of each place in ``source`` that quotes one of ``names`` or uses it as an
    object key (comments aside).

    >>> js_names("const a = {concerto: 4};\\nf('concerto');\\nconst seconds = 1; // 'concerto'",
    ...          {"concerto", "seconds"})
    [1, 2]
    """
    alternatives = "|".join(map(re.escape, sorted(names)))
    quoted = re.compile(rf"""(['"`])(?:{alternatives})\1""")
    key = re.compile(rf"(?<![\w.$])(?:{alternatives})\s*:(?!:)")
    found = []
    for number, line in enumerate(source.splitlines(), start=1):
        code = re.sub(r"//.*$", "", line) if not line.lstrip().startswith("*") else ""
        found += [number] * (len(quoted.findall(code)) + len(key.findall(code)))
    return found


def game_names_outside_the_engines(names: set[str]) -> list[str]:
    """``path:line`` of every place outside the allowed folders that names a game."""
    found = []
    for path in sorted(SERVER.rglob("*")):
        if any(path.is_relative_to(a) for a in ALLOWED):
            continue
        if path.suffix == ".py":
            lines = python_names(path.read_text(encoding="utf-8"), names)
        elif path.suffix == ".js":
            lines = js_names(path.read_text(encoding="utf-8"), names)
        else:
            continue
        found += [f"{path.relative_to(ROOT)}:{n}" for n in lines]
    return found


def test_the_scan_finds_a_game_named_in_server_code(tmp_path: Path) -> None:
    """The scan is not vacuous: every registered game id, written in the ways it looks for,
    is found; and the ids it looks for are the registry's."""
    names = set(REGISTRY)
    assert names >= {"concerto", "seconds", "cowpoke", "pinochle"}
    for name in names:
        assert python_names(f"PARTNERS = {{{name!r}: 2}}\n", names) == [1]
        assert js_names(f"const seats = {{{name}: 4}};\nf(`{name}`);\n", names) == [1, 2]


def test_code_outside_the_engines_names_no_game() -> None:
    found = game_names_outside_the_engines(set(REGISTRY))
    assert not found, "game ids outside server/games/ (put the fact on the Game record):\n" + (
        "\n".join(found)
    )

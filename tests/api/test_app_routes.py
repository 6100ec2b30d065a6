"""The app's URL rules: built cheaply (no URL builder compiled until a URL is built), and
every route matches and builds exactly as werkzeug's own rules do."""

from __future__ import annotations

from typing import Any

import pytest
from werkzeug.routing import Map, Rule

from server.api import create_app

CONFIG = {"REDIS_URL": "redis://127.0.0.1:1/0", "TESTING": True}  # never connected


def _values(rule: Rule, n: int) -> dict[str, Any]:
    """Values for each of the rule's arguments (``int:`` ones numbers), and one unknown."""
    values: dict[str, Any] = {
        arg: n if "int" in type(rule._converters[arg]).__name__.lower() else f"v{n}"
        for arg in rule.arguments
    }
    return values | {"extra": "q"}  # an unknown value: the query string of the build


def test_an_app_compiles_no_url_builder_until_a_url_is_built(monkeypatch) -> None:
    compiled: list[str] = []
    compile_builder = Rule._compile_builder

    def counting(self: Rule, append_unknown: bool = True) -> Any:
        compiled.append(self.rule)
        return compile_builder(self, append_unknown)

    monkeypatch.setattr(Rule, "_compile_builder", counting)
    app = create_app(CONFIG)
    rules = list(app.url_map.iter_rules())
    assert len(rules) > 50
    assert compiled == []  # werkzeug compiles two per rule as it is added
    adapter = app.url_map.bind("localhost")
    assert adapter.build("games.view", {"game_id": "g1"}) == "/v1/games/g1"
    assert adapter.build("games.view", {"game_id": "g2"}) == "/v1/games/g2"
    assert compiled == ["/v1/games/<game_id>"]  # once, then reused


@pytest.mark.parametrize("n", [1, 2])
def test_every_route_matches_and_builds_as_werkzeugs_rules_do(n: int) -> None:
    app = create_app(CONFIG)
    plain = Map(
        [
            Rule(r.rule, endpoint=r.endpoint, methods=r.methods, defaults=r.defaults)
            for r in app.url_map.iter_rules()
        ]
    )
    ours, theirs = app.url_map.bind("localhost"), plain.bind("localhost")
    for rule in app.url_map.iter_rules():
        values = _values(rule, n)
        method = sorted(rule.methods - {"HEAD", "OPTIONS"})[0]
        for unknown in (True, False):
            built = ours.build(rule.endpoint, values, method, append_unknown=unknown)
            assert built == theirs.build(rule.endpoint, values, method, append_unknown=unknown)
        path = ours.build(rule.endpoint, values, method, append_unknown=False)
        assert ours.match(path, method) == theirs.match(path, method), rule.rule

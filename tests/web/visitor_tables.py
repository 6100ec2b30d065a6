"""The table a visitor of each game asks for in tests/web/test_visitors.py, keyed by game
id: a registered game without one fails :func:`check_every_game_has_a_visitor_table`."""

from __future__ import annotations

from typing import Any

from tests.per_game import check_covers

VISITOR_TABLES: dict[str, dict[str, Any]] = {
    "concerto": {},
    "seconds": {},
    "cowpoke": {"players": 5},
    "pinochle": {"variant": "double-deck", "players": 8},
}
"""The table a visitor of each game asks for (the largest, where the size is an option)."""


def check_every_game_has_a_visitor_table() -> None:
    check_covers(VISITOR_TABLES, "VISITOR_TABLES")

"""The games and option sets whose answers tests/api/test_openapi.py checks against the
spec, keyed by game id: a registered game without an entry fails
:func:`check_every_game_is_set_up` by name (it is not silently left unchecked)."""

from __future__ import annotations

from typing import Any

from tests.per_game import check_covers

GAME_SETUPS: dict[str, list[dict[str, Any]]] = {
    "concerto": [{"deals": 1}, {"deals": 1, "rules": "penguin"}],
    "seconds": [{}],
    "cowpoke": [{}, {"players": 5}, {"players": 2}],  # two: the dummy's cards
    "pinochle": [
        {"variant": "partnership"},
        {"variant": "firehouse"},
        {"variant": "check"},
        {"variant": "double-deck"},
    ],
}
"""Each game's option sets played MOVES moves into a game (test_every_games_answers_...)."""

FINISHED_SETUPS: dict[str, list[dict[str, Any]]] = {
    "concerto": [{"deals": 1}, {"deals": 1, "rules": "penguin"}],
    "seconds": [{}],
    "cowpoke": [{"hands": 1}, {"players": 5, "hands": 1}, {"players": 2, "hands": 1}],
    "pinochle": [
        {"variant": v, "max_deals": 1} for v in ("partnership", "firehouse", "check", "double-deck")
    ],
}
"""Each game's shortest options, played to the end (test_every_games_finished_answers_...)."""


def check_every_game_is_set_up() -> None:
    check_covers(GAME_SETUPS, "GAME_SETUPS")
    check_covers(FINISHED_SETUPS, "FINISHED_SETUPS")

"""The games whose answers tests/api/test_openapi.py checks against the spec: each option
set of tests/train/option_sets.py (each game's Game record's ``option_sets``) played to its
end. A registered game with no option set fails :func:`check_every_game_is_set_up` by name
(it is not silently left unchecked)."""

from __future__ import annotations

from tests.per_game import check_covers
from tests.train.option_sets import option_sets


def check_every_game_is_set_up() -> None:
    check_covers({game for game, _ in option_sets()}, "the option sets (Game.option_sets)")

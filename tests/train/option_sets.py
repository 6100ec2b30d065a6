"""The option sets the suites judge, from the registry: each game's ``option_sets`` (its
Game record's: every rule edition, variant and seat count, and the options that change how
the game is played, each game short), in the registry's order. A game added to the
registry is judged with its own sets, or with its defaults, its table sizes and its
variants (``server.games.kit.base.default_option_sets``)."""

from __future__ import annotations

from typing import Any

from server.games import REGISTRY

OptionSets = list[tuple[str, dict[str, Any]]]


def option_sets() -> OptionSets:
    """Every registered game's option sets, as the registry has them now (a game the tests
    register later is in the next call's)."""
    return [(game_id, dict(o)) for game_id, game in REGISTRY.items() for o in game.option_sets]


OPTION_SETS: OptionSets = option_sets()
"""The option sets of the registry the test session started with (the tests parametrized
by it are)."""


def ids(sets: OptionSets | None = None) -> list[str]:
    """Each option set's label: ``cowpoke-players=2-hands=1``, ``seconds-defaults``."""
    return [
        f"{g}-{'-'.join(f'{k}={v}' for k, v in o.items()) or 'defaults'}"
        for g, o in (OPTION_SETS if sets is None else sets)
    ]

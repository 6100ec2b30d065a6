"""The table a visitor of each game asks for in tests/web/test_visitors.py, keyed by game
id, from the registry (:func:`visitor_tables`): each game's largest table among its option
sets (its Game record's ``option_sets``), with only the options that set its size and
variant."""

from __future__ import annotations

from typing import Any

from server.games import REGISTRY, Game
from tests.per_game import check_covers


def largest_table(game: Game) -> dict[str, Any]:
    """The options of ``game``'s largest table among its option sets (the first such), its
    seat and variant options only: the rest stay the visitors' defaults."""
    sizes = [len(game.new_state(o, "size").seat_scores()) for o in game.option_sets]
    options = game.option_sets[sizes.index(max(sizes))]
    return {k: v for k, v in options.items() if k in (game.seat_option, game.variant_option)}


def visitor_tables() -> dict[str, dict[str, Any]]:
    """The table a visitor of each registered game asks for (the largest, where the size is
    an option), by game id."""
    return {game_id: largest_table(game) for game_id, game in REGISTRY.items()}


def check_every_game_has_a_visitor_table() -> None:
    """Every registered game's visitor table seats as many as its largest table does."""
    tables = visitor_tables()
    check_covers(tables, "the visitor tables")
    for game_id, options in tables.items():
        game = REGISTRY[game_id]
        seats = len(game.new_state(options, "size").seat_scores())
        assert seats == max(game.seats), (game_id, options, seats)

"""The option sets the suites judge cover every game, rule edition, variant and seat count
of the registry: a game, edition or table size added to the engines fails here until the
suites check it."""

from __future__ import annotations

from server.games import REGISTRY
from tests.per_game import check_covers
from tests.train.option_sets import OPTION_SETS


def test_every_game_edition_and_table_size_is_judged():
    check_covers({g for g, _ in OPTION_SETS}, "OPTION_SETS")
    for game_id, game in REGISTRY.items():
        played = [game.new_state(o, "cover") for g, o in OPTION_SETS if g == game_id]
        assert {len(s.seat_scores()) for s in played} == set(game.seats), game_id
        if game.variant_option is not None:
            choices = set(game.options[game.variant_option]["choices"])
            assert {s.public_options()[game.variant_option] for s in played} == choices

"""The option sets the suites judge (each game's ``option_sets``, on its Game record) play
every game, rule edition, variant and seat count of the registry: a game, edition or table
size added to the engines fails here until its record's sets (or the defaults its record
makes) play it."""

from __future__ import annotations

from server.games import REGISTRY
from tests.train.option_sets import option_sets


def test_every_game_edition_and_table_size_is_judged():
    sets = option_sets()  # the registry as it is now (with a game a test registered)
    for game_id, game in REGISTRY.items():
        played = [game.new_state(o, "cover") for g, o in sets if g == game_id]
        assert played, f"{game_id}: no option set"
        assert {len(s.seat_scores()) for s in played} == set(game.seats), game_id
        if game.variant_option is not None:
            choices = set(game.options[game.variant_option]["choices"])
            assert {s.public_options()[game.variant_option] for s in played} == choices

"""A new game through the generic checks, and the lists that must name it.

Hicard (``tests/testgame/hicard.py``) is registered for these tests only. With its rules
and its Game record alone it passes the engine contract and the hidden-information
checks (tests/games/conformance.py), OpenSpiel's and PettingZoo's own API tests and the
local runner; every per-game list of the suite fails on it by name until it gets an
entry, and so does the docs build until it has a rules page.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pyspiel
import pytest
from mkdocs.exceptions import PluginError
from pettingzoo.test import api_test, seed_test

from bots.uniform import RandomBot
from client_sdk import spiel, zoo
from client_sdk.local import play_match
from server.games import REGISTRY, Game
from server.games.kit.base import game_record
from server.games.kit.cards import sort_hand
from tests.api.game_setups import check_every_game_is_set_up
from tests.games import test_conformance, test_search_door
from tests.games.conformance import Table
from tests.testgame.hicard import PACK, WIRE, State
from tests.train import test_action_ids, test_option_sets
from tests.train.option_sets import option_sets
from tests.web.visitor_tables import check_every_game_has_a_visitor_table, visitor_tables

ROOT = Path(__file__).resolve().parents[2]


class Hicard(Table):
    game_id = "hicard"
    pack = PACK
    configs = [{}, {"rounds": 1}]
    examples = 3
    twin_every = 1.0  # a few moves a game: every state gets its twins

    def probes(self, state: Any) -> list[Any]:
        return [{"type": "play", "card": c} for c in PACK.low_to_high()]

    def unseen(self, state: Any, observer: Any) -> Counter[str]:
        """Every card but the observer's own and the one on the table: each round is
        dealt from the whole pack, and the cards not dealt are unseen too."""
        if state.is_over():
            return Counter()
        mine = state.hands[observer] if observer is not None else []
        return Counter(c for c in PACK.cards() if c not in {*mine, *state.trick})

    def public_in_view(self, state: Any) -> Callable[[tuple[Any, ...]], bool]:
        """The tricks of the rounds before: their cards were dealt again since."""
        return lambda path: path[:2] == ("state", "tricks")

    def public_in_event(self, before: Any, move: Any, event: Any, path: Any) -> bool:
        return event.kind == "trick" and move is not None and path[0] == "cards"

    def redeal(self, state: Any, observer: Any, rng: random.Random, pins: Any, reseed: bool) -> Any:
        """The other hands drawn from every card the observer has not seen (its twin)."""
        d = state.to_dict()
        pool = list(self.unseen(state, observer).elements())
        rng.shuffle(pool)
        for seat in range(2):
            if seat != observer:
                size = len(d["hands"][seat])
                d["hands"][seat], pool = sort_hand(pool[:size], PACK), pool[size:]
        if reseed:
            d["seed"] = f"other-{rng.getrandbits(32)}"
        return self.game.from_dict(d)


def test_a_game_without_its_facts_is_refused_when_its_record_is_made() -> None:
    missing = r"'hicard': no pack .*; no longest_game .*; no move_of .*; no wire \(wire=: the"
    with pytest.raises(ValueError, match=missing):
        game_record(State, title="Hicard", seats=(2,), options={})

    class NoActions(State):
        actions = ()

    facts = {"pack": PACK.low_to_high(), "longest_game": len, "move_of": dict, "wire": WIRE}
    with pytest.raises(ValueError, match=r"'hicard': no actions \(the State class's fixed"):
        game_record(NoActions, title="Hicard", seats=(2,), options={}, **facts)
    wrong = r"move_of\(\('play', 'QC'\)\) is \['play', 'QC'\], not a move"
    with pytest.raises(ValueError, match=wrong):
        game_record(State, title="Hicard", seats=(2,), options={}, **{**facts, "move_of": list})


def test_every_per_game_list_names_the_game_it_lacks(hicard: Game) -> None:
    """Each list's own coverage test fails on Hicard, naming it, as on any new game."""
    coverage_tests = [
        test_conformance.test_every_registered_game_has_a_table_and_every_seat_count_is_played,
        test_search_door.test_every_game_has_its_door_cases,
        test_action_ids.test_the_action_ids_are_those_policies_were_trained_on,
    ]
    for coverage in coverage_tests:
        with pytest.raises(AssertionError, match=r"no entry for hicard \(add one\)"):
            coverage()
    REGISTRY.pop("hicard")
    for coverage in coverage_tests:
        coverage()  # the same tests pass on the registry without it


def test_the_lists_made_from_the_registry_take_the_game_as_it_is(hicard: Game) -> None:
    """The option sets the suites judge (its record's defaults: its one table, no variant),
    the games the spec test plays and the visitors' tables take Hicard with nothing added."""
    assert [o for g, o in option_sets() if g == "hicard"] == [{}]
    test_option_sets.test_every_game_edition_and_table_size_is_judged()
    check_every_game_is_set_up()  # test_openapi.test_every_game_and_option_set_is_checked
    check_every_game_has_a_visitor_table()  # test_visitors.test_every_game_has_its_visitor_table
    assert visitor_tables()["hicard"] == {}


def test_the_docs_build_needs_the_game_s_rules_page(hicard: Game) -> None:
    """The docs nav's Rules section is the registry's (docs/hooks/rules_nav.py)."""
    hook = _load(ROOT / "docs" / "hooks" / "rules_nav.py")
    with pytest.raises(PluginError, match=r"no rules page for the registered game hicard"):
        hook.rules_nav(REGISTRY, ROOT / "docs")
    without = {g: game for g, game in REGISTRY.items() if g != "hicard"}
    nav = hook.rules_nav(without, ROOT / "docs")
    assert nav == [{g.title.partition(" (")[0]: f"rules/{g.id}.md"} for g in without.values()]
    assert {"Pinochle": "rules/pinochle.md"} in nav


@pytest.mark.parametrize("config", Hicard.configs, ids=str)
def test_hicard_keeps_the_engine_contract_and_hides_what_it_should(
    hicard: Game, config: dict[str, Any]
) -> None:
    test_conformance.test_the_engine_contract_along_random_games((Hicard(), config))
    test_conformance.test_no_seat_learns_a_card_it_may_not_know((Hicard(), config))


def test_hicard_passes_openspiel_s_own_checks(hicard: Game) -> None:
    for options in ({}, {"rounds": 5}):
        game = spiel.load("hicard", **options)
        pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    game = spiel.load("hicard", rounds=5)
    assert game.max_game_length() == spiel.SEED_BYTES + 10  # its longest_game: 2 a round
    assert game.num_distinct_actions() == len(PACK.low_to_high())
    assert game.observation_tensor_size() == 2 * 12 + 3 * 2 + 12  # its pack, seats, actions


def test_hicard_passes_pettingzoo_s_api_and_seed_tests(hicard: Game) -> None:
    api_test(zoo.env("hicard"), num_cycles=100)
    seed_test(lambda: zoo.env("hicard", {"rounds": 2}), num_cycles=100)


def test_hicard_plays_to_the_end_in_the_local_runner(hicard: Game) -> None:
    bots = [RandomBot(random.Random(seat)) for seat in range(2)]
    match = play_match("hicard", bots, seed="local", options={"rounds": 4})
    replay = match.replay
    assert replay["status"] == "finished" and len(match.moves) == 8
    assert sum(replay["result"]["scores"]) == 4
    assert [e["kind"] for e in replay["events"]].count("trick") == 4
    assert replay["revealed"]["seed"] == "local" and replay["par"] is None


def _load(path: Path) -> Any:
    import importlib.util

    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module

"""Every game as an OpenSpiel game, judged by OpenSpiel's own consistency check
(``pyspiel.random_sim_test`` with serialisation) for every option set, and the
adapter's promises: the server's shuffle, fixed action ids, hidden cards stay hidden,
worlds keep the seat's information state."""

from __future__ import annotations

import json
import random

import numpy as np
import pyspiel
import pytest

from client_sdk import spiel
from server.games import REGISTRY
from tests.train.option_sets import OPTION_SETS, ids


@pytest.mark.parametrize(("game_id", "options"), OPTION_SETS, ids=ids())
def test_openspiel_consistency_checks(game_id, options):
    game = spiel.load(game_id, **options)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_every_game_is_registered_under_its_name():
    names = set(pyspiel.registered_names())
    assert {spiel.PREFIX + g for g in REGISTRY} <= names
    game = pyspiel.load_game("python_parlour_cowpoke", {"players": 3})
    assert game.num_players() == 3
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION


def test_bad_parameters_are_refused():
    with pytest.raises(Exception, match="players"):
        spiel.load("cowpoke", players=9)


def dealt(game_id, seed_bytes=(1, 2, 3, 4), **options):
    state = spiel.load(game_id, **options).new_initial_state()
    for b in seed_bytes:
        assert state.is_chance_node()
        state.apply_action(b)
    return state


def test_the_chance_nodes_draw_the_seed_the_server_deals_from():
    state = dealt("seconds", (0, 255, 16, 1))
    assert state.core.seed_bytes == [0, 255, 16, 1]
    server = REGISTRY["seconds"].new_state({}, "openspiel-00ff1001")
    assert state.engine.hands == server.hands


def test_an_action_id_is_the_same_move_in_every_state():
    state, rng = dealt("pinochle", variant="check", max_deals=1), random.Random(3)
    seen: dict[int, str] = {}
    while not state.is_terminal():
        seat = state.current_player()
        engine = state.engine
        ids = state.legal_actions()
        moves = engine.legal_moves(seat)
        assert len(ids) == len(moves)
        mask = state.legal_actions_mask(seat)  # through C++: the Python answer agrees
        assert [a for a, legal in enumerate(mask) if legal] == ids
        for action in ids:
            text = state.action_to_string(seat, action)
            assert seen.setdefault(action, text) == text
        state.apply_action(rng.choice(ids))
    assert "bid 250" in seen.values() or any(t.startswith("bid") for t in seen.values())


def test_a_seat_sees_its_own_cards_and_no_one_elses():
    state, rng = dealt("concerto", deals=1), random.Random(5)
    for _ in range(6):
        state.apply_action(rng.choice(state.legal_actions()))
    hands = state.engine.hands
    for seat in range(4):
        info, obs = state.information_state_string(seat), state.observation_string(seat)
        for other in range(4):
            for card in hands[other]:
                quoted = json.dumps(card)
                assert (quoted in info) == (other == seat), (seat, other, card)
                assert (quoted in obs) == (other == seat), (seat, other, card)
    assert state.information_state_string(0) != state.information_state_string(1)


def test_a_resampled_world_keeps_the_seat_s_knowledge_and_draws_the_rest_anew():
    state, rng = dealt("seconds"), random.Random(8)
    for _ in range(9):
        state.apply_action(rng.choice(state.legal_actions()))
    seat = state.current_player()
    worlds = [spiel.resample(state, seat, random.Random(i)) for i in range(4)]
    for world in worlds:
        assert world.information_state_string(seat) == state.information_state_string(seat)
        assert world.observation_string(seat) == state.observation_string(seat)
        assert world.legal_actions() == state.legal_actions()
    others = {tuple(map(tuple, w.engine.hands)) for w in worlds}
    assert len(others) > 1  # the cards the seat cannot see were drawn again


def test_returns_are_the_outcome_and_zero_sum_between_sides():
    state, rng = dealt("concerto", deals=1), random.Random(1)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    outcome = state.engine.outcome()
    returns = state.returns()
    assert sum(returns) == 0
    assert [r == 1.0 for r in returns] == [s in outcome.winners for s in range(4)] or (
        not outcome.winners and returns == [0.0] * 4
    )


def test_a_state_survives_openspiel_s_serialisation():
    state, rng = dealt("cowpoke", players=3, hands=1), random.Random(4)
    for _ in range(7):
        state.apply_action(rng.choice(state.legal_actions()))
    text = pyspiel.serialize_game_and_state(state.get_game(), state)
    game, back = pyspiel.deserialize_game_and_state(text)
    assert back.history() == state.history()
    for seat in range(3):
        assert back.information_state_string(seat) == state.information_state_string(seat)
        assert back.observation_string(seat) == state.observation_string(seat)
    assert back.legal_actions() == state.legal_actions()


def test_openspiel_s_own_ismcts_draws_worlds_through_the_engine():
    from open_spiel.python.algorithms import ismcts, mcts

    state, rng = dealt("concerto", deals=1), random.Random(6)
    for _ in range(3):
        state.apply_action(rng.choice(state.legal_actions()))
    numpy_rng = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=numpy_rng)
    bot = ismcts.ISMCTSBot(state.get_game(), evaluator, 2.0, 10, random_state=numpy_rng)
    assert bot.step(state) in state.legal_actions()  # resample_from_infostate, no callback
    world = state.resample_from_infostate(
        state.current_player(), pyspiel.UniformProbabilitySampler(0.0, 1.0)
    )
    seat = state.current_player()
    assert world.information_state_string(seat) == state.information_state_string(seat)

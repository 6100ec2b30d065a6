"""Every game as a PettingZoo AEC environment, judged by PettingZoo's own ``api_test``
and ``seed_test`` for every option set, and its masks and rewards."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from client_sdk import zoo
from client_sdk.features import ACTIONS
from tests.train.option_sets import OPTION_SETS, ids


@pytest.mark.parametrize(("game_id", "options"), OPTION_SETS, ids=ids())
def test_pettingzoo_api_and_seed_tests(game_id, options):
    api_test(zoo.env(game_id, options), num_cycles=300)
    seed_test(lambda: zoo.env(game_id, options), num_cycles=300)


def test_the_mask_is_the_seat_s_legal_moves_and_rewards_come_at_the_end():
    env = zoo.env("cowpoke", {"players": 3, "hands": 1})
    env.reset(seed=11)
    rng = np.random.default_rng(0)
    final = {}
    for agent in env.agent_iter():
        observation, reward, termination, truncation, _ = env.last()
        if termination or truncation:
            final[agent] = reward
            env.step(None)
            continue
        assert reward == 0
        seat = int(agent.split("_")[1])
        mask = observation["action_mask"]
        legal = env.state_.legal_actions(seat)
        assert sorted(np.flatnonzero(mask)) == sorted(ACTIONS["cowpoke"].index(a) for a in legal)
        for other in env.agents:
            if other != agent:
                assert not env.observe(other)["action_mask"].any()
        env.step(int(rng.choice(np.flatnonzero(mask))))
    outcome = env.state_.outcome()
    assert outcome is not None
    expected = [0.0 if not outcome.winners else 1.0 if s in outcome.winners else -1.0
                for s in range(3)]  # fmt: skip
    assert [final[f"player_{s}"] for s in range(3)] == expected


def test_an_illegal_action_is_refused_and_changes_nothing():
    env = zoo.env("seconds")
    env.reset(seed=2)
    mask = env.observe(env.agent_selection)["action_mask"]
    before = env.state_.to_dict()
    with pytest.raises(ValueError, match="not legal"):
        env.step(int(np.flatnonzero(mask == 0)[0]))
    assert env.state_.to_dict() == before


def test_the_same_seed_deals_the_same_cards():
    a, b, c = (zoo.env("concerto", {"deals": 1}) for _ in range(3))
    a.reset(seed=5), b.reset(seed=5), c.reset(seed=6)
    assert a.state_.hands == b.state_.hands != c.state_.hands

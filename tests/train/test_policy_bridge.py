"""The policy bridge: a policy over OpenSpiel states (an observation policy, any OpenSpiel
bot, IS-MCTS) plays as an SDK bot from the view alone, through ``from_view``."""

from __future__ import annotations

import json
import random

import numpy as np
from open_spiel.python.bots.uniform_random import UniformRandomBot

from bots.tools.arena import arena_view, factory, play_out, rotation_match
from client_sdk import spiel
from client_sdk.features import ACTIONS
from client_sdk.policy import (
    PolicyBot,
    game_for,
    ismcts_bot,
    observation_policy,
    spiel_bot_policy,
)
from server.games import REGISTRY


def mid_game(game_id, options, steps, seed="bridge"):
    state, rng = REGISTRY[game_id].new_state(options, seed), random.Random(seed)
    for _ in range(steps):
        seat = state.to_move()[0]
        state.apply_action(seat, rng.choice(state.legal_actions(seat)))
    return state


def test_an_observation_policy_plays_the_move_of_the_action_id_it_chose():
    state = mid_game("pinochle", {"variant": "firehouse"}, 1)
    seat = state.to_move()[0]
    view = arena_view(state, seat, "pinochle", "g", state.public_options())
    highest = PolicyBot(observation_policy(lambda tensor, mask: int(np.flatnonzero(mask)[-1])))
    lowest = PolicyBot(observation_policy(lambda tensor, mask: int(np.flatnonzero(mask)[0])))
    assert highest.choose_move(view) == {"type": "bid", "amount": 1500}  # the last id: top bid
    assert lowest.choose_move(view) == {"type": "pass"}  # id 0
    assert ACTIONS["pinochle"][0] == ("pass",)


def test_the_policy_holds_a_world_of_the_view_and_not_the_real_hands():
    state = mid_game("seconds", {}, 10)
    seat = state.to_move()[0]
    view = arena_view(state, seat, "seconds", "g", state.public_options())
    worlds = []

    def record(world, rng):
        worlds.append(world)
        return world.legal_actions()[0]

    for i in range(3):
        move = PolicyBot(record, random.Random(i)).choose_move(view)
        assert move in view["legal_moves"]
    for world in worlds:
        assert world.current_player() == seat
        assert json.loads(world.observation_string(seat)) == state.view(seat)
        assert world.engine.hands[seat] == state.hands[seat]
    others = {tuple(map(tuple, w.engine.hands)) for w in worlds}
    assert len(others) == 3  # what the seat cannot see is drawn, never read from the game
    assert tuple(map(tuple, state.hands)) not in others


def test_the_server_s_options_with_nulls_load_the_same_game():
    options = REGISTRY["pinochle"].new_state({"players": 6}, "o").public_options()
    assert options["first_dealer"] is None
    game = game_for({"game": "pinochle", "options": options})
    assert game.num_players() == 6
    assert game.spec.engine.new_state(game.spec.options, "x").public_options() == options


def test_any_openspiel_bot_plays_a_whole_game_on_the_engines():
    def uniform(game, seat, rng):
        return UniformRandomBot(seat, np.random.RandomState(rng.getrandbits(31)))

    bots = [PolicyBot(spiel_bot_policy(uniform), random.Random(s)) for s in range(3)]
    state = play_out("cowpoke", bots, "bridge", {"players": 3, "hands": 1})
    assert state.is_over()  # every move was legal: the arena raises on an illegal one


def test_ismcts_plays_rotated_games_against_a_house_bot():
    bots = {"ismcts": lambda rng: ismcts_bot(rng, simulations=8), "random": factory("random")}
    report = rotation_match("concerto", bots, ["ismcts", "random"], 1, seed="bridge")
    assert len(report.plays) == 2  # the deal played twice, the sides swapped
    assert all(play.deals == 1 for play in report.plays)


def test_resampling_for_ismcts_keeps_its_node():
    state = mid_game("concerto", {"deals": 1}, 5)
    seat = state.to_move()[0]
    view = arena_view(state, seat, "concerto", "g", {"deals": 1})
    game = game_for(view)
    world = spiel.state_from_view(game, view["options"], view, random.Random(1))
    again = spiel.resample(world, seat, random.Random(2))
    assert again.information_state_string(seat) == world.information_state_string(seat)
    child = again.child(again.legal_actions()[0])
    assert child.information_state_string(seat).startswith(world.information_state_string(seat))

"""From a policy trained or searched locally to a Parlour bot that plays on the server.

A bot on the server holds only its view (``choose_move(view)``). :class:`PolicyBot`
turns the view into an OpenSpiel state of the same game (``from_view``: a world in
which what the seat cannot see is drawn at random, consistently with what it has
seen; :func:`client_sdk.spiel.state_from_view`), asks the policy for an action id,
and answers with the matching legal move of the view. So the same policy plays in
OpenSpiel, in PettingZoo (the same action ids and observation tensor) and on the
server, unchanged::

    from client_sdk.policy import PolicyBot, observation_policy
    bot = PolicyBot(observation_policy(lambda tensor, mask: int(mask.argmax())))

* :func:`observation_policy`: a policy over the observation tensor and the action
  mask (what a PettingZoo or OpenSpiel learner sees);
* :func:`spiel_bot_policy`: any OpenSpiel ``Bot`` (its ``step(state)``);
* :func:`ismcts_bot`: OpenSpiel's IS-MCTS as a Parlour bot, its worlds drawn by the
  engine's ``determinize`` (``--bots client_sdk.policy:ismcts_bot`` in the arena).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from server.games import REGISTRY

from . import spiel
from .bot import Bot
from .types import Move, View

Policy = Callable[[spiel.ParlourState, random.Random], int]
"""A policy over OpenSpiel states: the state (its current player is the bot's seat)
and the bot's random source → a legal action id."""


def game_for(view: Mapping[str, Any]) -> spiel.ParlourGame:
    """The OpenSpiel game of ``view``'s game and options (as the server sends them:
    every option with its value, nulls standing for "the engine decides")."""
    game_id = view["game"]
    defaults = spiel.parameters(REGISTRY[game_id])
    params = {
        k: defaults[k] if v is None else v for k, v in view["options"].items() if k in defaults
    }
    return spiel.load(game_id, **params)


class PolicyBot(Bot):
    """A :data:`Policy` as an SDK bot: view → world (``from_view``) → action id → move."""

    name = "policy"

    def __init__(self, policy: Policy, rng: random.Random | None = None) -> None:
        super().__init__(rng)
        self.policy = policy

    def choose_move(self, view: View) -> Move:
        if len(view["legal_moves"]) == 1:
            return view["legal_moves"][0]
        game = game_for(view)
        state = spiel.state_from_view(game, view["options"], view, self.rng)
        action = self.policy(state, self.rng)
        return move_of(state, action)


def move_of(state: spiel.ParlourState, action: int) -> Move:
    """The move (as the API takes it) of the legal action id ``action`` in ``state``."""
    engine, seat = state.engine, state.current_player()
    assert engine is not None
    compact = state.core.game.actions[action]
    moves: list[Move] = engine.legal_moves(seat)
    return moves[engine.legal_actions(seat).index(compact)]


def observation_policy(
    choose: Callable[[npt.NDArray[np.float32], npt.NDArray[np.int8]], int],
) -> Policy:
    """A policy over the observation tensor and the action mask (PettingZoo's
    ``observation["observation"]`` and ``observation["action_mask"]``)."""

    def policy(state: spiel.ParlourState, rng: random.Random) -> int:
        seat = state.current_player()
        tensor = np.asarray(state.observation_tensor(seat), np.float32)
        mask = np.asarray(state.legal_actions_mask(seat), np.int8)
        return int(choose(tensor, mask))

    return policy


def spiel_bot_policy(make: Callable[[spiel.ParlourGame, int, random.Random], Any]) -> Policy:
    """A policy that asks an OpenSpiel bot (Python's ``pyspiel.Bot`` subclasses: the
    bots of ``open_spiel.python``), built by ``make(game, seat, rng)`` per decision."""

    def policy(state: spiel.ParlourState, rng: random.Random) -> int:
        bot = make(state.get_game(), state.current_player(), rng)
        return int(bot.step(state))

    return policy


ISMCTS_SIMULATIONS = 200
"""IS-MCTS simulations per decision, by default."""


def ismcts_policy(simulations: int = ISMCTS_SIMULATIONS, uct_c: float = 2.0) -> Policy:
    """OpenSpiel's IS-MCTS (one random rollout per leaf), its worlds drawn by the engine
    (:func:`client_sdk.spiel.resample`) with the bot's random source."""
    from open_spiel.python.algorithms import ismcts, mcts  # type: ignore[import-not-found,unused-ignore]

    def make(game: spiel.ParlourGame, seat: int, rng: random.Random) -> Any:
        numpy_rng = np.random.RandomState(rng.getrandbits(32))
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=numpy_rng)
        bot = ismcts.ISMCTSBot(game, evaluator, uct_c, simulations, random_state=numpy_rng)
        bot.set_resampler(lambda state, seat: spiel.resample(state, seat, rng))
        return bot

    return spiel_bot_policy(make)


class ISMCTSBot(PolicyBot):
    """OpenSpiel's IS-MCTS as a Parlour bot (:func:`ismcts_policy`)."""

    name = "ismcts"

    def __init__(
        self, rng: random.Random | None = None, simulations: int = ISMCTS_SIMULATIONS
    ) -> None:
        super().__init__(ismcts_policy(simulations), rng)


def ismcts_bot(rng: random.Random | None = None, simulations: int = ISMCTS_SIMULATIONS) -> Bot:
    """OpenSpiel's IS-MCTS as a Parlour bot (a ``module:factory`` for the arena and
    ``parlour-bot run``)."""
    return ISMCTSBot(rng, simulations)

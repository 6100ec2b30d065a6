"""Every game of the engines as a PettingZoo AEC environment (``pip install
'parlour-client[openspiel]'``), on the engines directly (no OpenSpiel needed)::

    from client_sdk.zoo import env
    game = env("cowpoke", {"players": 3, "hands": 1})
    game.reset(seed=7)
    for agent in game.agent_iter():
        observation, reward, termination, truncation, info = game.last()
        mask = observation["action_mask"]
        action = None if termination or truncation else game.action_space(agent).sample(mask)
        game.step(action)

* agents ``player_0``...: the seats;
* observations: ``{"observation": tensor, "action_mask": mask}``, the tensor of
  :mod:`client_sdk.features` and the seat's legal action ids (the mask is all
  zeros when the agent is not the one selected: where several seats are to move
  together, Cowpoke's put-outs, they move one at a time here, as on the server);
* actions: the game's fixed action ids (the engine's ``Game.actions``, also
  :data:`client_sdk.features.ACTIONS`; the same as OpenSpiel's);
* rewards: when the game is over, +1 for each winner, -1 for every other seat, 0 for
  everybody in a draw;
* ``reset(seed=S)``: the game's deals are shuffled from a seed drawn from ``S``, so
  the same ``S`` plays the same cards.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-not-found,unused-ignore]

from server.games import REGISTRY
from server.games.kit.base import BaseState

from .features import ACTIONS, fill, parts, size

SCORE_BOUND = 10_000.0
"""Bound of the observation tensor's values (scores are in hundreds)."""


class ParlourEnv(AECEnv):  # type: ignore[misc]
    """One game of the engines with fixed options, as an AEC environment."""

    metadata = {"render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(
        self, game_id: str, options: Mapping[str, Any] | None = None, render_mode: str | None = None
    ) -> None:
        super().__init__()
        self.game_id = game_id
        if game_id not in REGISTRY:
            raise ValueError(f"no game {game_id!r} (one of {', '.join(REGISTRY)})")
        self.game = REGISTRY[game_id]
        self.options = dict(options or {})
        self.metadata = {**self.metadata, "name": f"parlour_{game_id}_v0"}
        self.render_mode = render_mode
        seats = len(self.game.new_state(self.options, "probe").seat_scores())
        self.possible_agents = [f"player_{s}" for s in range(seats)]
        self._seats = {agent: s for s, agent in enumerate(self.possible_agents)}
        length, actions = size(game_id, seats), len(ACTIONS[game_id])
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(-SCORE_BOUND, SCORE_BOUND, (length,), np.float32),
                    "action_mask": spaces.Box(0, 1, (actions,), np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(actions) for agent in self.possible_agents}
        self.state_: BaseState | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        rng = random.Random(seed)
        self.state_ = self.game.new_state(self.options, f"zoo-{rng.getrandbits(64):016x}")
        self.agents = self.possible_agents[:]
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self.state_.to_move()[0]]

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        assert self.state_ is not None
        seat, seats = self._seats[agent], len(self.possible_agents)
        tensor = np.zeros(size(self.game_id, seats), np.float32)
        views = parts(tensor, self.game_id, seats)
        fill(views, self.game_id, self.state_, seat)
        mask = views["legal"].astype(np.int8)
        if agent != self.agent_selection:
            mask[:] = 0  # several seats may be to move (Cowpoke's put-outs): one at a time here
        return {"observation": tensor, "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.state_
        assert state is not None and action is not None
        seat = self._seats[agent]
        if action not in state.legal_action_ids(seat):
            raise ValueError(f"action {action} is not legal for {agent} now")
        self._cumulative_rewards[agent] = 0.0
        state.apply_action(seat, self.game.actions[int(action)])
        outcome = state.outcome()
        if outcome is None:
            self.agent_selection = self.possible_agents[state.to_move()[0]]
        else:
            self.rewards = {
                a: 0.0 if not outcome.winners else 1.0 if s in outcome.winners else -1.0
                for a, s in self._seats.items()
            }
            self.terminations = {a: True for a in self.agents}
            self.agent_selection = self.possible_agents[(seat + 1) % len(self.possible_agents)]
        self._accumulate_rewards()

    def render(self) -> str | None:
        """``ansi``: the public view as JSON."""
        if self.render_mode != "ansi" or self.state_ is None:
            return None
        return json.dumps(self.state_.view(None), sort_keys=True)

    def close(self) -> None:
        """Nothing to release."""


def env(game_id: str, options: Mapping[str, Any] | None = None, **kwargs: Any) -> ParlourEnv:
    """The AEC environment of the engine game ``game_id`` with ``options``."""
    return ParlourEnv(game_id, options, **kwargs)

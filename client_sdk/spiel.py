"""Every game of the engines as an OpenSpiel game (the engines and the SDK's ``openspiel`` extra).

Importing this module registers one Python game per game of ``server.games.REGISTRY``
with ``pyspiel``: ``python_parlour_concerto``, ``python_parlour_seconds``,
``python_parlour_cowpoke`` and ``python_parlour_pinochle``. Every engine option is a
game parameter of the same name (rule editions, seat counts, Pinochle variants...);
an option whose engine default is null takes ``-1`` (a number) or ``""`` (a text)
for "the engine decides"::

    import pyspiel
    import client_sdk.spiel
    game = pyspiel.load_game("python_parlour_pinochle", {"variant": "check", "max_deals": 1})

What OpenSpiel sees:

* **the deal is chance**: four chance nodes of 256 equally likely bytes draw the
  game's 32-bit seed before the first move; every deal is then shuffled from that
  seed exactly as the server shuffles it (the same seed replays the same cards),
  and no player observes the seed;
* **a fixed action space** per game, the engine's own (``Game.actions``, also
  :data:`client_sdk.features.ACTIONS`): every action the engine's compact form
  (``legal_actions``) can take, so an action id means the same move in every state
  (a card, a bid of 250, ``pass``); the engine gives a seat's legal ids directly
  (``legal_action_ids``, ascending);
* **returns** when the game is over: +1 for each winner, -1 for every other seat,
  0 for everybody in a draw (zero-sum in the partnership games);
* ``observation_string(p)``: seat ``p``'s view as JSON, exactly what the server
  sends it (``GET /v1/games/{id}``, the API's own fields aside);
  ``information_state_string(p)``: the events seat ``p`` has seen, in order, as
  JSON lines (its own hand, every public move), the server's event feed for it;
* serialisation through OpenSpiel's own (the history of action ids);
* ``resample_from_infostate(p, sampler)``: a world drawn by the engine's
  ``determinize`` (OpenSpiel's IS-MCTS uses it).

A state built from a view (:func:`state_from_view`: what a bot on the server holds)
or drawn again for a search (:func:`resample`) is a *world*: its information states
start at the view it was built from.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found,unused-ignore]

from server.games import REGISTRY, Game
from server.games.kit.base import BaseState, Event, visible

from .features import fill, parts, size
from .spiel_core import CHANCE as CHANCE
from .spiel_core import SEED_BYTES as SEED_BYTES
from .spiel_core import TERMINAL as TERMINAL
from .spiel_core import Core as Core
from .spiel_core import Spec as Spec
from .spiel_core import _game
from .spiel_core import engine_options as engine_options
from .spiel_core import engine_params as engine_params
from .spiel_core import parameters as parameters
from .spiel_core import spec as spec

PREFIX = "python_parlour_"
"""Each game's OpenSpiel name is this prefix and the engine's id."""


class ParlourGame(pyspiel.Game):  # type: ignore[misc]
    """One engine game with one set of options, as OpenSpiel sees it."""

    game_id: str

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        known = spec(self.game_id, tuple(sorted(engine_params(self.game_id, params or {}).items())))
        info = pyspiel.GameInfo(
            num_distinct_actions=len(known.actions),
            max_chance_outcomes=256,
            num_players=known.num_seats,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0 if known.engine.two_sides else None,
            max_game_length=known.max_game_length,
        )
        super().__init__(_GAME_TYPES[self.game_id], info, dict(params or {}))
        self.known = known

    @property
    def spec(self) -> Spec:
        """This game's :class:`Spec`: the one built with it, or (a game OpenSpiel
        unpickled has no other attribute) the one its parameters name."""
        known: Spec | None = self.__dict__.get("known")
        if known is None:
            params = self.get_parameters()
            known = spec(self.game_id, tuple(sorted(engine_params(self.game_id, params).items())))
            self.known = known
        return known

    def new_initial_state(self) -> ParlourState:
        return ParlourState(self, self.spec)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> Observer:
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return Observer(self.spec, perfect_recall)


class ParlourState(pyspiel.State):  # type: ignore[misc]
    """A game in progress: the seed's chance nodes, then the engine's state
    (:class:`Core`: ``state.core.engine``)."""

    def __init__(self, game: Any, known: Spec) -> None:
        super().__init__(game)
        self.core = Core(known)

    @property
    def engine(self) -> BaseState | None:
        """The engine's state (None while the seed is drawn)."""
        return self.core.engine

    # -- OpenSpiel's API ---------------------------------------------------------
    def current_player(self) -> int:
        return self.core.player

    def legal_actions(self, player: int | None = None) -> list[int]:
        """OpenSpiel's ``legal_actions``, answered in Python for Python callers (a
        rollout, IS-MCTS): the same list the C++ side builds from :meth:`_legal_actions`,
        without crossing into C++ and back at every step."""
        core = self.core
        current = core.player
        if current >= 0 and (player is None or player == current):
            return core.engine.legal_action_ids(current)  # type: ignore[union-attr]
        if current == CHANCE and (player is None or player == CHANCE):
            return list(range(256))
        return []

    def is_chance_node(self) -> bool:
        return self.core.player == CHANCE

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> ParlourState:
        """OpenSpiel's world sampling (IS-MCTS asks for it): :func:`resample`, the engine's
        ``determinize`` seeded from one draw of ``probability_sampler``."""
        rng = random.Random(int(probability_sampler() * 2**53))
        return resample(self, player_id, rng)

    def _legal_actions(self, player: int) -> list[int]:
        engine = self.core.engine
        assert engine is not None
        return engine.legal_action_ids(player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(b, 1 / 256) for b in range(256)]

    def _apply_action(self, action: int) -> None:
        core = self.core
        engine = core.engine
        if engine is None:
            core.seed_bytes.append(action)
            if len(core.seed_bytes) == SEED_BYTES:
                # the root (for the information states) is this deal: dealt again from
                # the seed when asked for, not copied at every deal of a rollout
                core.engine = core.game.engine.new_state(core.game.options, self.seed())
                core.update_player()
            return
        engine.apply_action(core.player, core.actions[action])
        seats = engine.to_move()  # core.update_player(), inline: once every step
        core.player = seats[0] if seats else TERMINAL

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"seed byte {action}"
        move = self.core.game.actions[action]
        return move if isinstance(move, str) else " ".join(map(str, move))

    def is_terminal(self) -> bool:
        return self.core.player == TERMINAL

    def returns(self) -> list[float]:
        engine, n = self.core.engine, self.core.game.num_seats
        outcome = None if engine is None else engine.outcome()
        if outcome is None or not outcome.winners:
            return [0.0] * n
        return [1.0 if s in outcome.winners else -1.0 for s in range(n)]

    def __str__(self) -> str:
        if self.core.engine is None:
            return f"seed bytes {self.core.seed_bytes}"
        return json.dumps(self.core.engine.view(None), sort_keys=True)

    # -- what the seats know -----------------------------------------------------
    def seed(self) -> str:
        """The engine's seed the chance nodes drew."""
        return "openspiel-" + bytes(self.core.seed_bytes).hex()

    def observation(self, seat: int) -> str:
        """``seat``'s view as JSON (sorted keys); empty while the seed is drawn."""
        if self.core.engine is None:
            return ""
        return json.dumps(self.core.engine.view(seat), sort_keys=True, separators=(",", ":"))

    def information(self, seat: int) -> str:
        """The events ``seat`` has seen since the root, after what it knew there."""
        if self.core.engine is None:
            return ""
        prefix = self.core.prefix
        return "\n".join((prefix[seat] if prefix else []) + self._events()[seat])

    def _events(self) -> list[list[str]]:
        """Each seat's events since the root as JSON, brought up to date by replaying the
        moves not yet seen (OpenSpiel's history, from the root's place) on a copy of the
        root: only when an information state is asked for (a random rollout keeps no
        log and builds no events)."""
        core = self.core
        if core.root is None:
            core.root = core.game.engine.new_state(core.game.options, self.seed())
        if core.seen is None or core.tracker is None:
            core.seen = [[] for _ in range(core.game.num_seats)]
            core.seen_moves = 0
            core.tracker = core.root.clone()
            if not core.prefix:
                _note(core.seen, core.game.engine.opening_events(core.root))
        replay, actions, move_of = core.tracker, core.actions, core.game.engine.move_of
        history = self.history()
        for action in history[core.start + core.seen_moves :]:
            seat = replay.to_move()[0]  # the seat that moved: the adapter's current player
            _note(core.seen, replay.apply(seat, move_of(actions[action])))
        core.seen_moves = len(history) - core.start
        return core.seen


def _note(seen: list[list[str]], events: Sequence[Event]) -> None:
    """Each event as a JSON line, for every seat that may see it."""
    for event in events:
        line = json.dumps([event.kind, event.data], sort_keys=True, separators=(",", ":"))
        for seat, lines in enumerate(seen):
            if visible(event, seat):
                lines.append(line)


class Observer:
    """OpenSpiel's observer. The strings carry everything the seat knows; the tensor
    (without perfect recall) is :mod:`client_sdk.features`' summary of its view."""

    def __init__(self, game: Spec, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(size(game.game_id, game.num_seats), np.float32)
        self.dict = parts(self.tensor, game.game_id, game.num_seats)

    def set_from(self, state: ParlourState, player: int) -> None:
        self.tensor.fill(0)
        engine = state.core.engine
        if engine is not None:
            fill(self.dict, state.core.game.game_id, engine, player)

    def string_from(self, state: ParlourState, player: int) -> str:
        return state.information(player) if self.perfect_recall else state.observation(player)


def world(game: Any, engine: BaseState, seat: int) -> ParlourState:
    """An OpenSpiel state around the engine state ``engine`` (a world ``seat`` cannot
    tell from the real game): ``seat``'s information starts at its view there, every
    other seat's at its own."""
    known: Spec = game.spec if isinstance(game, ParlourGame) else game.core.game
    state = ParlourState(game if isinstance(game, ParlourGame) else game.get_game(), known)
    core = state.core
    core.seed_bytes = [0] * SEED_BYTES
    core.start = 0  # no chance nodes: the world's history is its moves
    core.engine = engine
    core.root = engine.clone()
    core.update_player()
    core.prefix = [[state.observation(s)] for s in range(known.num_seats)]
    return state


def state_from_view(
    game: ParlourGame, options: Mapping[str, Any], view: Mapping[str, Any], rng: random.Random
) -> ParlourState:
    """The world a bot on the server holds: ``view`` (the seat's view, as the server
    sends it, with the game's public ``options``) through the engine's ``from_view``."""
    seat = view["you"]
    return world(game, game.spec.engine.from_view(options, view, seat, rng), seat)


def resample(state: ParlourState, seat: int, rng: random.Random) -> ParlourState:
    """``state`` with what ``seat`` cannot see drawn again (the engine's ``determinize``):
    ``seat``'s information state is unchanged, so a search (IS-MCTS) finds its node."""
    assert state.engine is not None
    drawn = world(state, state.engine.determinize(seat, rng), seat)
    assert drawn.core.prefix is not None  # a world's: each seat's view there
    drawn.core.prefix[seat] = [state.information(seat)]
    return drawn


def load(game_id: str, **params: Any) -> ParlourGame:
    """``pyspiel.load_game`` of the engine game ``game_id`` with these parameters (a game
    added to the registry since this module was imported is registered first)."""
    if game_id not in _GAME_TYPES:
        register(_game(game_id))
    game: ParlourGame = pyspiel.load_game(PREFIX + game_id, params)
    return game


def _game_type(game: Game) -> Any:
    return pyspiel.GameType(
        short_name=PREFIX + game.id,
        long_name=f"Parlour {game.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM
        if game.two_sides
        else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(game.seats),
        min_num_players=min(game.seats),
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters(game),
    )


_GAME_TYPES: dict[str, Any] = {}
"""Each registered game's OpenSpiel ``GameType``, by engine id."""


def register(game: Game) -> None:
    """Register ``game`` with ``pyspiel`` as ``python_parlour_<id>`` (once: pyspiel keeps
    a name for good). Every game of the registry is registered on import."""
    game_type = _GAME_TYPES.setdefault(game.id, _game_type(game))
    if game_type.short_name in pyspiel.registered_names():
        return
    name = f"{game.id.capitalize()}Game"
    # a class of this module by its name, as pickle (OpenSpiel's serialisation) finds it
    cls = type(name, (ParlourGame,), {"game_id": game.id})
    cls.__qualname__ = name
    globals()[name] = cls
    pyspiel.register_game(game_type, cls)


for _registered in REGISTRY.values():
    register(_registered)

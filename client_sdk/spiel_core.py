"""What the OpenSpiel adapter (:mod:`client_sdk.spiel`) keeps of a game and of a state:
each engine option as a game parameter, the :class:`Spec` of one option set (what a game
and its states read), and the :class:`Core` a state holds (the engine's state and what
its information states start from, copied with the engine's own ``clone``)."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

import pyspiel  # type: ignore[import-not-found,unused-ignore]

from server.games import REGISTRY, Game
from server.games.kit.base import BaseState

SEED_BYTES = 4
"""Chance nodes before the first move: each draws one byte of the game's seed."""

CHANCE, TERMINAL = int(pyspiel.PlayerId.CHANCE), int(pyspiel.PlayerId.TERMINAL)


def _sentinel(spec: Mapping[str, Any]) -> Any:
    """The parameter value that stands for a null default: -1 for numbers, "" for texts."""
    values = spec.get("choices") or [spec.get("min", 0)]
    return "" if isinstance(values[0], str) else -1


def parameters(game: Game) -> dict[str, Any]:
    """The OpenSpiel parameters of ``game``: each option with its default (a null
    default as its :func:`_sentinel`)."""
    return {
        name: spec["default"] if spec["default"] is not None else _sentinel(spec)
        for name, spec in game.options.items()
    }


def engine_options(game: Game, params: Mapping[str, Any]) -> dict[str, Any]:
    """The engine options that OpenSpiel ``params`` set (defaults and sentinels left out)."""
    defaults = parameters(game)
    return {k: v for k, v in params.items() if k in defaults and v != defaults[k]}


class Spec:
    """One engine game with one set of options: what a :class:`ParlourGame` and its
    states read (it pickles as its name and parameters, as OpenSpiel's games do)."""

    def __init__(self, game_id: str, params: Mapping[str, Any]) -> None:
        self.game_id = game_id
        self.params = dict(params)
        self.engine: Game = _game(game_id)
        self.options = engine_options(self.engine, params)
        probe = self.engine.new_state(self.options, "probe")  # InvalidOptions: bad params
        self.num_seats = len(probe.seat_scores())
        self.actions = self.engine.actions
        self.max_game_length = SEED_BYTES + self.engine.longest_game(probe.public_options())

    def __reduce__(self) -> tuple[Any, ...]:
        return (spec, (self.game_id, tuple(sorted(self.params.items()))))


@functools.lru_cache(maxsize=256)
def spec(game_id: str, params: tuple[tuple[str, Any], ...]) -> Spec:
    """The :class:`Spec` of ``game_id`` with ``params`` (one per option set)."""
    return Spec(game_id, dict(params))


def engine_params(game_id: str, params: Mapping[str, Any]) -> dict[str, Any]:
    """The parameters OpenSpiel holds for a game, without those at their default."""
    defaults = parameters(_game(game_id))
    return {k: v for k, v in params.items() if k in defaults and v != defaults[k]}


class Core:
    """What a :class:`ParlourState` holds, in one object: OpenSpiel clones a Python
    state by deep-copying its attributes, and this copies itself with the engine's
    own ``clone`` (the root shared: it never changes).

    ``engine`` is the engine's state (None while the seed is drawn); ``root`` the
    engine state the information states start from (None until they are asked for,
    in a game dealt by the chance nodes: the seed deals it again), ``prefix[seat]``
    what each seat knew at the root (None: nothing before its events). The moves played
    since the root are not kept here: they are OpenSpiel's own history from ``start``
    (after the seed's chance nodes; from the first entry in a world), read only when an
    information state is asked for, so that a step of a rollout keeps no log.
    """

    __slots__ = ("game", "actions", "seed_bytes", "engine", "root", "start", "prefix", "seen",
                 "seen_moves", "tracker", "player")  # fmt: skip

    def __init__(self, game: Spec) -> None:
        self.game = game
        self.actions = game.actions
        """The game's action space (``game.actions``, one attribute read closer)."""
        self.seed_bytes: list[int] = []
        self.engine: BaseState | None = None
        self.root: BaseState | None = None
        self.start = SEED_BYTES
        """The place of the root's first move in OpenSpiel's history."""
        self.prefix: list[list[str]] | None = None
        self.seen: list[list[str]] | None = None
        """Each seat's events as JSON, for the moves since the root up to ``seen_moves``."""
        self.seen_moves = 0
        self.tracker: BaseState | None = None
        """The root with the ``seen_moves`` first moves applied (once events are asked for)."""
        self.player = CHANCE
        """OpenSpiel's current player, kept up to date by every action (asked for often)."""

    def update_player(self) -> None:
        """The seat to move (the first, where several are), or terminal."""
        assert self.engine is not None
        seats = self.engine.to_move()
        self.player = seats[0] if seats else TERMINAL

    def __deepcopy__(self, memo: dict[int, Any]) -> Core:
        copy = Core.__new__(Core)
        copy.game, copy.actions, copy.root, copy.prefix = (
            self.game, self.actions, self.root, self.prefix
        )  # fmt: skip
        copy.seed_bytes = list(self.seed_bytes)
        copy.engine = None if self.engine is None else self.engine.clone()
        copy.start = self.start
        copy.seen = None if self.seen is None else [list(lines) for lines in self.seen]
        copy.seen_moves = self.seen_moves
        copy.tracker = None if self.tracker is None else self.tracker.clone()
        copy.player = self.player
        return copy

    def __getstate__(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in self.__slots__}

    def __setstate__(self, state: dict[str, Any]) -> None:
        for k, v in state.items():
            setattr(self, k, v)


def _game(game_id: str) -> Game:
    """The registry's game ``game_id``; ValueError (naming the games) if there is none."""
    game = REGISTRY.get(game_id)
    if game is None:
        raise ValueError(f"no game {game_id!r} (one of {', '.join(REGISTRY)})")
    return game

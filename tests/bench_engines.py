"""Engine speed for any game of the registry: random games per second, µs per move.

``python -m tests.bench_engines GAME [GAME ...]`` (or :func:`bench_game` from
``tests.bench``) prints, per game and option set, one ``name: value unit``
line per figure:

* ``kind-uniform``: at each step one *kind* of move (its ``type``) is drawn
  uniformly among the kinds that are legal, then one move of that kind. This
  is the policy of a naive simulator, so figures compare across engines.
* ``uniform``: one move drawn uniformly over the legal moves.
* each with and without ``clone()`` at every step, the cost a searching bot
  pays for copying the state it explores;
* each through the two forms of the engine API: the moves as the API serves
  them (``legal_moves``, a dict per move, and ``apply`` with ``events=False``
  as a simulation does), and the compact form a searching bot would use
  (``legal_actions`` and ``apply_action``; suffix ``compact``). A game without
  its own compact form gets the kit's default, its moves themselves;
* for ``kind-uniform``, also the compact form listed by kind
  (``legal_actions_by_kind``; suffix ``by kind``): the same draws and so the same
  games, without classifying every action at every step.

``python -m tests.bench_engines --against REV [--against REV ...] GAME`` measures
the engines of the git revisions named (extracted to a temporary folder) and
this tree's, alternating them in short rounds in one process, and prints the
median of each figure and, per round, its ratio to the first revision's
figure on the moves' form: on a noisy shared host, the ratio measured in one
run is the figure to trust.

``python -m tests.bench_engines --floor GAME`` prints what a simulated move
costs without the rules (:func:`floor`): the policy alone, the API's calls
doing nothing, and the engine, per step of the same games.

The driver only uses the public engine API (``new_state``, ``to_move``,
``legal_moves``/``apply`` or ``legal_actions``/``apply_action``, ``clone``,
``is_over``, the class's ``action_kinds``), so it is the same for every game;
the option sets per game are in :data:`OPTION_SETS`. Time is this process's
CPU time, not the wall clock, so that other work on a shared host weighs less
on the figures.
"""

from __future__ import annotations

import importlib
import inspect
import io
import operator
import random
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable, Sequence
from itertools import compress
from pathlib import Path
from typing import Any, TypeVar

from server.games import REGISTRY
from server.games.kit.base import BaseState

T = TypeVar("T")
Kind = Callable[[Any], Any]
Policy = Callable[[random.Random, list[Any], Kind], Any]
NewState = Callable[[dict[str, Any], str], Any]

OPTION_SETS: dict[str, list[tuple[str, dict[str, Any]]]] = {
    "concerto": [("parlett-2013", {"rules": "parlett-2013"}), ("penguin", {"rules": "penguin"})],
}
"""Option sets measured per game (a label for the output, the options); others: defaults."""


def pick(rng: random.Random, items: Sequence[T]) -> T:
    """One item uniformly (``rng.choice`` without its Python-level rejection loop)."""
    return items[int(rng.random() * len(items))]


def uniform(rng: random.Random, moves: list[Any], kind: Kind) -> Any:
    return moves[int(rng.random() * len(moves))]  # pick(), inlined


def kind_uniform(rng: random.Random, moves: list[Any], kind: Kind) -> Any:
    """A kind of move uniformly among the legal kinds, then one of its moves uniformly.

    ``kind`` gives a move's kind: its ``type`` for a dict, the game's
    ``action_kinds`` for an action of its compact form. Written with C-level
    steps (``map``, ``count``, ``dict.fromkeys``, ``compress``) and ``pick`` inlined: the
    policy is part of every simulated move, so its own cost counts too.
    """
    kinds = list(map(kind, moves))
    if kinds.count(kinds[0]) == len(kinds):  # one kind only
        return moves[int(rng.random() * len(moves))]
    distinct = list(dict.fromkeys(kinds))
    chosen = distinct[int(rng.random() * len(distinct))]
    count = kinds.count(chosen)
    if count == 1:
        return moves[kinds.index(chosen)]
    same = list(compress(moves, map(chosen.__eq__, kinds)))
    return same[int(rng.random() * count)]


def kind_uniform_by_kind(rng: random.Random, groups: list[list[Any]]) -> Any:
    """:func:`kind_uniform` over the legal actions listed by kind: the same draws from
    ``rng`` (kinds in the order they first appear), so the same choices."""
    if len(groups) == 1:
        group = groups[0]
        return group[int(rng.random() * len(group))]
    group = groups[int(rng.random() * len(groups))]
    if len(group) == 1:
        return group[0]
    return group[int(rng.random() * len(group))]


POLICIES: dict[str, Policy] = {"kind-uniform": kind_uniform, "uniform": uniform}
TYPE: Kind = operator.itemgetter("type")
FIRST: Kind = operator.itemgetter(0)


def play(
    new_state: NewState,
    options: dict[str, Any],
    seconds: float,
    policy: Policy,
    *,
    clone: bool = False,
    compact: bool = False,
    by_kind: bool = False,
) -> tuple[float, float]:
    """(games per second, µs per move) of seeded random games on one core.

    ``new_state`` is a game's ``new_state``: the registry's, or an older
    engine's when comparing versions in one run. ``by_kind``: the compact form
    listed by kind, with :func:`kind_uniform_by_kind` in place of ``policy``.
    """
    rng = random.Random(1)
    probe = new_state(options, "probe")
    kinds = getattr(type(probe), "action_kinds", None)  # older engines: none
    # a compact action's kind: the game's table, else the first item of a tuple action
    kind: Kind = TYPE if not compact else kinds.__getitem__ if kinds is not None else FIRST
    # A simulation does not read events: skip building them where the engine can.
    quiet = {"events": False} if "events" in inspect.signature(probe.apply).parameters else {}

    def one_game(seed: str) -> int:
        """Play one game; return its number of moves."""
        state = new_state(options, seed)
        moves = 0
        # to_move() is empty once the game is over (the engine contract).
        if by_kind:
            while to_move := state.to_move():
                if clone:
                    state.clone()
                seat = to_move[0]
                state.apply_action(
                    seat, kind_uniform_by_kind(rng, state.legal_actions_by_kind(seat))
                )
                moves += 1
        elif compact:
            while to_move := state.to_move():
                if clone:
                    state.clone()
                seat = to_move[0]
                state.apply_action(seat, policy(rng, state.legal_actions(seat), kind))
                moves += 1
        else:
            while to_move := state.to_move():
                if clone:
                    state.clone()
                seat = to_move[0]
                state.apply(seat, policy(rng, state.legal_moves(seat), kind), **quiet)
                moves += 1
        return moves

    one_game("warm-up")  # tables an engine builds on first use are not part of a move
    games = moves = 0
    start = time.process_time()
    while time.process_time() - start < seconds or games == 0:
        moves += one_game(f"bench-{games}")
        games += 1
    elapsed = time.process_time() - start
    return games / elapsed, 1e6 * elapsed / moves


def random_games(
    game_id: str,
    options: dict[str, Any],
    seconds: float,
    policy: Policy,
    clone: bool,
    compact: bool = False,
    by_kind: bool = False,
) -> tuple[float, float]:
    """:func:`play` for a game of the registry."""
    new_state = REGISTRY[game_id].new_state
    return play(new_state, options, seconds, policy, clone=clone, compact=compact, by_kind=by_kind)


def has_compact_form(new_state: NewState) -> bool:
    """Whether the game's states have a compact form of their own (not the kit's default)."""
    own = getattr(type(new_state({}, "probe")), "legal_actions", None)
    return own is not None and own is not BaseState.legal_actions


def bench_game(game_id: str, seconds: float = 3.0) -> None:
    """Print every figure of one game, for each of its option sets.

    The compact form is measured for games that have one of their own (for
    the others it is their moves, already measured).
    """
    forms = ["", "compact"] if has_compact_form(REGISTRY[game_id].new_state) else [""]
    for label, options in OPTION_SETS.get(game_id, [("default", {})]):
        name = game_id if label == "default" else f"{game_id} {label}"
        for form in [*forms, "by kind"]:
            for policy_name, policy in POLICIES.items():
                if form == "by kind" and policy is not kind_uniform:
                    continue
                for clone in (False, True):
                    per_s, us = random_games(
                        game_id, options, seconds, policy, clone, form != "", form == "by kind"
                    )
                    what = f"{name} {policy_name}{' with clone' if clone else ''}"
                    what += f" {form}" if form else ""
                    print(f"{what}: {per_s:.1f} games/s", flush=True)
                    print(f"{what}: {us:.2f} µs/move", flush=True)


def engines_at(rev: str) -> dict[str, Any]:
    """The registry of ``server/games`` as of git revision ``rev``, imported from a copy."""
    archive = subprocess.run(
        ["git", "archive", rev, "server/games"], capture_output=True, check=True
    ).stdout
    folder = tempfile.mkdtemp(prefix="bench-engines-")
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    package = f"games_{rev.replace('-', '_').replace('~', '_').replace('^', '_')}"
    Path(folder, "server", "games").rename(Path(folder, package))
    sys.path.insert(0, folder)
    registry: dict[str, Any] = importlib.import_module(package).REGISTRY
    return registry


def compare(game_id: str, revs: Sequence[str], seconds: float = 0.5, rounds: int = 8) -> None:
    """Each figure of ``game_id`` for the engines at ``revs`` and this tree's, alternating.

    Prints the median games/s and µs/move of each engine (and form), and the
    median over the rounds of its ratio to the first revision on the moves' form.
    """
    # (label, new_state, compact, by kind)
    engines: list[tuple[str, NewState, bool, bool]] = []
    for rev in revs:
        new_state = engines_at(rev)[game_id].new_state
        engines.append((f"at {rev}", new_state, False, False))
    here = REGISTRY[game_id].new_state
    engines.append(("here", here, False, False))
    if has_compact_form(here):
        engines.append(("here compact", here, True, False))
    engines.append(("here by kind", here, True, True))
    for label, options in OPTION_SETS.get(game_id, [("default", {})]):
        name = game_id if label == "default" else f"{game_id} {label}"
        for policy_name, policy in POLICIES.items():
            measured = [e for e in engines if policy is kind_uniform or not e[3]]
            for clone in (False, True):
                figures: dict[str, list[tuple[float, float]]] = {e[0]: [] for e in measured}
                for _ in range(rounds):
                    for what, new_state, compact, by_kind in measured:
                        result = play(
                            new_state,
                            options,
                            seconds,
                            policy,
                            clone=clone,
                            compact=compact,
                            by_kind=by_kind,
                        )
                        figures[what].append(result)
                base = figures[engines[0][0]]
                for what, results in figures.items():
                    line = f"{name} {policy_name}{' with clone' if clone else ''} {what}"
                    ratios = [r[0] / b[0] for r, b in zip(results, base, strict=True)]
                    ratio = statistics.median(ratios)
                    print(f"{line}: {statistics.median(r[0] for r in results):.1f} games/s")
                    print(f"{line}: {statistics.median(r[1] for r in results):.2f} µs/move")
                    print(f"{line}: {ratio:.2f} × {revs[0]}", flush=True)


class Replay:
    """The engine API's shape without its rules: each call returns what the engine
    returned at that step of recorded games (``to_move``, ``legal_actions``,
    ``legal_actions_by_kind``), or nothing."""

    def __init__(self, steps: list[tuple[list[Any], list[Any], list[list[Any]]]]) -> None:
        self.steps = steps
        self.i = -1

    def to_move(self) -> list[Any]:
        self.i += 1
        return self.steps[self.i][0] if self.i < len(self.steps) else []

    def legal_actions(self, seat: Any) -> list[Any]:
        return self.steps[self.i][1]

    def legal_actions_by_kind(self, seat: Any) -> list[list[Any]]:
        return self.steps[self.i][2]

    def apply_action(self, seat: Any, action: Any) -> None:
        return None


def floor(game_id: str, games: int = 300, repeats: int = 5) -> None:
    """Print the cost of a simulated move without the rules (µs per step, best of ``repeats``).

    The same steps as ``games`` kind-uniform games of the compact form: the
    policy alone over the recorded lists of legal actions (uniform, kind-uniform,
    and kind-uniform over the actions listed by kind); the API's three calls
    returning the recorded values and doing nothing (:class:`Replay`), with each
    policy; then the engine itself.
    """
    new_state = REGISTRY[game_id].new_state
    options = OPTION_SETS.get(game_id, [("default", {})])[0][1]
    kinds = type(new_state(options, "probe")).action_kinds
    kind: Kind = kinds.__getitem__ if kinds is not None else FIRST
    steps: list[tuple[list[Any], list[Any], list[list[Any]]]] = []
    rng = random.Random(1)
    for g in range(games):
        state = new_state(options, f"bench-{g}")
        while to_move := state.to_move():
            legal = state.legal_actions(to_move[0])
            steps.append((to_move, legal, state.legal_actions_by_kind(to_move[0])))
            state.apply_action(to_move[0], kind_uniform(rng, legal, kind))
    by_kind = "kind-uniform by kind"
    policies = [*POLICIES, by_kind]

    def policy_only(policy_name: str) -> None:
        if policy_name == by_kind:
            for _, _, groups in steps:
                kind_uniform_by_kind(rng, groups)
            return
        policy = POLICIES[policy_name]
        for _, legal, _ in steps:
            policy(rng, legal, kind)

    def moves(state: Any, policy_name: str) -> None:
        """Play ``state`` to its end with the policy named."""
        if policy_name == by_kind:
            while to_move := state.to_move():
                seat = to_move[0]
                state.apply_action(
                    seat, kind_uniform_by_kind(rng, state.legal_actions_by_kind(seat))
                )
            return
        policy = POLICIES[policy_name]
        while to_move := state.to_move():
            seat = to_move[0]
            state.apply_action(seat, policy(rng, state.legal_actions(seat), kind))

    def shape(policy_name: str) -> None:
        moves(Replay(steps), policy_name)

    def engine(policy_name: str) -> None:
        for g in range(games):
            moves(new_state(options, f"bench-{g}"), policy_name)

    for what, run in (("policy alone", policy_only), ("API shape, no rules", shape),
                      ("engine, compact form", engine)):  # fmt: skip
        for policy_name in policies:
            best = min(_cpu(run, policy_name) for _ in range(repeats))
            print(f"{game_id} floor {what} {policy_name}: {1e6 * best / len(steps):.2f} µs/step")
    print(f"{game_id} floor steps: {len(steps) / games:.1f} per game", flush=True)


def _cpu(run: Callable[[str], None], policy_name: str) -> float:
    start = time.process_time()
    run(policy_name)
    return time.process_time() - start


def main(argv: Sequence[str] | None = None, seconds: float = 3.0) -> int:
    """``GAME ...``, ``--against REV GAME ...`` (see the module) or ``--floor GAME ...``."""
    args = list(argv or [])
    revs = [args[i + 1] for i, a in enumerate(args) if a == "--against"]
    floors = "--floor" in args
    args = [a for a in args if a != "--floor"]
    games = [a for i, a in enumerate(args) if a != "--against" and args[i - 1 : i] != ["--against"]]
    for game_id in games or sorted(REGISTRY):
        if floors:
            floor(game_id)
        elif revs:
            compare(game_id, revs)
        else:
            bench_game(game_id, seconds)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

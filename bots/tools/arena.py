"""The arena: bots play each other locally, on many seeded deals, in every seat.

No server is involved: the pure engine (``server.games.REGISTRY[...]``) holds
the game and each bot gets ``state.view(seat)`` — the same view dict the
server sends, with ``id``, ``game``, ``status``, ``options`` and ``you`` added
and the other service fields (version, seats, deadline, commitment) left out.
So a bot never sees more here than it would through the API.

**Seat rotation.** Luck of the deal dominates a card game, so every seeded
game is played once per rotation of the seats: the bots named by ``--bots``
fill the table in turn (``a,b`` at four seats is ``a b a b``; at three,
``a b a``), then every bot moves one seat to the left, until each bot has
held each seat's cards. A bot's score for a seeded game is its mean over all
the seats it held in all the rotations, and the difference of two bots is
taken game by game, so the cards cancel and the play is left. Reported per
deal with a 95% confidence interval (normal approximation, fine for the
hundreds of games an arena run uses). The same name twice is the same bot
(``seconds,random,random,random``: one ``seconds`` among three ``random``).

The seatings and the report are the SDK's local runner's
(:mod:`client_sdk.local`, ``parlour-bot play --rotate``), which plays through the
server's own views and writes replays; the arena plays on the bare engine, faster:

>>> rotations(lineup(["a", "b"], 4))
[('a', 'b', 'a', 'b'), ('b', 'a', 'b', 'a')]

**Duplicate** is the special case of a partnership game: in Concerto ``a b a
b`` has two distinct rotations, bot A on North–South and then on East–West,
so each deal is played twice with the sides swapped and the per-deal
difference ``((A − B) in play 1 + (A − B) in play 2) / 2`` is exactly the
duplicate score (:func:`duplicate_match`).

Run: ``python -m bots.tools.arena concerto --bots signals,greedy --deals 200``,
``python -m bots.tools.arena seconds --bots seconds,random --games 40`` or
``python -m bots.tools.arena cowpoke --bots cowpoke,random --players 3 --games 200``.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from client_sdk import Bot
from client_sdk.cli import bot_factory
from client_sdk.local import (
    Interval,
    MatchReport,
    Play,
    deals_played,
    lineup,
    parse_option,
    rotations,
)
from server.games import REGISTRY, GameError, IllegalMove
from server.games.kit.base import BaseState

ALIASES = {"greedy": "concerto_greedy", "signals": "concerto_signals"}
"""Short names accepted by ``--bots``."""

DEFAULT_OPTIONS: dict[str, dict[str, Any]] = {
    # One deal per game and a target nobody reaches: a play's score is exactly
    # the deal's hand points plus its left-over bonus (docs/rules/concerto.md), with no
    # game bonus to swamp the comparison.
    "concerto": {"deals": 1, "target": 10000},
    # One deal per game: a play's score is 1 for winning the showdown, else 0.
    "cowpoke": {"hands": 1},
}

BotFactory = Callable[[random.Random], Bot]
Progress = Callable[[int, int], None]
"""Told (done, total) as a long run goes."""


def progress_printer(label: str, out: TextIO | None = None) -> Progress:
    """A :data:`Progress` printing ``label: done/total`` at each tenth of a run.

    To ``out``, or standard error at the time of printing, so results on
    standard output stay clean to pipe.
    """

    def report(done: int, total: int) -> None:
        if done == total or done % max(1, total // 10) == 0:
            print(f"{label}: {done}/{total}", file=out or sys.stderr, flush=True)

    return report


class BotMadeIllegalMove(AssertionError):
    """A bot chose a move that is not in its view's ``legal_moves``."""


def arena_view(state: BaseState, seat: int, game_id: str, play_id: str,
               options: Mapping[str, Any]) -> dict[str, Any]:  # fmt: skip
    """The view a seat gets: the engine's ``view(seat)`` plus the fields bots rely on."""
    return {
        "id": play_id,
        "game": game_id,
        "options": dict(options),
        "status": "finished" if state.is_over() else "active",
        "you": seat,
        **state.view(seat),
    }


def play_game(
    game_id: str,
    bots: Sequence[Bot],
    seed: str,
    options: Mapping[str, Any],
    play_id: str = "arena",
) -> list[int]:
    """Play one game with ``bots[seat]`` in each seat; return the final score per seat.

    Raises:
        BotMadeIllegalMove: with the seat, the move and the engine's reason.
    """
    outcome = play_out(game_id, bots, seed, options, play_id).outcome()
    assert outcome is not None
    return list(outcome.scores)


def play_out(
    game_id: str,
    bots: Sequence[Bot],
    seed: str,
    options: Mapping[str, Any],
    play_id: str = "arena",
) -> BaseState:
    """Play one game to the end (see :func:`play_game`) and return its final state."""
    state = REGISTRY[game_id].new_state(dict(options), seed)
    started: set[int] = set()
    while not state.is_over():
        seat = state.to_move()[0]
        view = arena_view(state, seat, game_id, play_id, options)
        bot = bots[seat]
        if seat not in started:
            started.add(seat)
            bot.on_game_start(view)  # type: ignore[arg-type]
        move = bot.choose_move(view)  # type: ignore[arg-type]
        try:
            state.apply(seat, move)
        except IllegalMove as exc:
            raise BotMadeIllegalMove(
                f"{bot.name} at seat {seat} played {move!r} in {play_id}: {exc}"
            ) from exc
    for seat in sorted(started):
        bots[seat].on_game_over(arena_view(state, seat, game_id, play_id, options))  # type: ignore[arg-type]
    return state


# ------------------------------------------------------------------- seat rotation


def rotation_match(
    game_id: str,
    bots: Mapping[str, BotFactory],
    names: Sequence[str],
    games: int,
    *,
    seed: str = "arena",
    options: Mapping[str, Any] | None = None,
    progress: Progress | None = None,
) -> MatchReport:
    """Play ``games`` seeded games, each once per rotation of ``lineup(names, seats)``.

    Each seat gets its own bot instance (bots of one name share no memory:
    they talk only through the table), seeded from the game, the seating and
    the seat. The number of seats is the game's for ``options``.

    Args:
        game_id: a game of ``server.games.REGISTRY``.
        bots: a factory per bot name.
        names: bot names in turn around the table (a name may repeat).
        games: seeded games, each played in every distinct seating.
        seed: seed of the deals and the bots.
        options: the game's options (default: :data:`DEFAULT_OPTIONS`).
        progress: called with (games done, games) after each game's seatings.

    Raises:
        ValueError: no game, more names than seats, or a name with no factory.
        GameError: options the game refuses.
        BotMadeIllegalMove: a bot chose a move that was not legal.
    """
    if games < 1:
        raise ValueError("play at least one game")
    opts = dict(DEFAULT_OPTIONS.get(game_id, {}) if options is None else options)
    missing = set(names) - set(bots)
    if missing:
        raise ValueError(f"no factory for {sorted(missing)}")
    seats = REGISTRY[game_id].new_state(dict(opts), f"{seed}/probe").num_seats
    seatings = rotations(lineup(names, seats))
    report = MatchReport(game_id, opts, tuple(dict.fromkeys(names)))
    for game in range(games):
        game_seed = f"{seed}/{game}"
        for r, seating in enumerate(seatings):
            table = [bots[name](random.Random(f"{game_seed}/{r}/{seat}"))
                     for seat, name in enumerate(seating)]  # fmt: skip
            state = play_out(game_id, table, game_seed, opts, f"{game_seed}/{r}")
            outcome = state.outcome()
            assert outcome is not None
            report.plays.append(Play(game, r, seating, tuple(outcome.scores), deals_played(state)))
        if progress is not None:
            progress(game + 1, games)
    return report


# ------------------------------------------------------------------- duplicate


@dataclass
class DuplicateReport:
    """Scores of a duplicate match: per play for each bot, and per-deal differences."""

    names: tuple[str, str]
    scores_a: list[int] = field(default_factory=list)
    scores_b: list[int] = field(default_factory=list)
    differences: list[float] = field(default_factory=list)
    """Per deal: ((A − B) with A North–South + (A − B) with A East–West) / 2."""

    @property
    def deals(self) -> int:
        return len(self.differences)

    @property
    def difference(self) -> Interval:
        return Interval.of(self.differences)

    def summary(self) -> str:
        a, b = self.names
        diff = self.difference
        wins = sum(d > 0 for d in self.differences)
        losses = sum(d < 0 for d in self.differences)
        width = max(len(a), len(b))
        sa, sb = Interval.of(self.scores_a), Interval.of(self.scores_b)
        return "\n".join([
            f"{self.deals} deals, each played twice with the sides swapped",
            f"  {a:<{width}}  {sa.mean:6.2f} ± {sa.half_width:.2f} points per deal (95% CI)",
            f"  {b:<{width}}  {sb.mean:6.2f} ± {sb.half_width:.2f} points per deal (95% CI)",
            f"  {a} − {b} per deal: {diff} (95% CI); "
            f"ahead on {wins}, behind on {losses}, level on {self.deals - wins - losses}",
        ])  # fmt: skip


def duplicate_match(
    game_id: str,
    make_a: BotFactory,
    make_b: BotFactory,
    deals: int,
    *,
    seed: str = "arena",
    options: Mapping[str, Any] | None = None,
    names: tuple[str, str] = ("A", "B"),
    progress: Progress | None = None,
) -> DuplicateReport:
    """Play ``deals`` seeded deals twice each, bot A on North–South then on East–West.

    A :func:`rotation_match` of ``A B A B`` in a partnership game (seats 0 & 2
    against 1 & 3), reported per play and per deal as duplicate bridge does.
    """
    a, b = names
    match = rotation_match(game_id, {a: make_a, b: make_b}, [a, b], deals, seed=seed,
                           options=options, progress=progress)  # fmt: skip
    report = DuplicateReport(names)
    for play in match.plays:
        report.scores_a.append(play.scores[play.seats.index(a)])
        report.scores_b.append(play.scores[play.seats.index(b)])
    report.differences = match.differences(a, b)
    return report


# ------------------------------------------------------------------- the command


def factory(name: str) -> BotFactory:
    """A bot factory from a ``--bots`` name (``random``, ``greedy``, ``signals``, mod:Class)."""
    spec = ALIASES.get(name, name)
    make = bot_factory(spec)  # the name resolved once, not per game
    make(None)  # fail early on a bad name
    return make


def _option(text: str) -> tuple[str, Any]:
    """``name=value`` with a JSON value (``hands=3``, ``winner="highest"``) or a bare string."""
    try:
        return parse_option(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", choices=sorted(REGISTRY), help="the game")
    parser.add_argument("--bots", default=None,
                        help="bots in turn around the table, comma-separated (default: "
                             "signals,greedy for concerto, else GAME,random)")  # fmt: skip
    parser.add_argument("--deals", "--games", type=int, default=200, dest="deals",
                        help="seeded games, each played in every seating")  # fmt: skip
    parser.add_argument("--seed", default="arena", help="seed of the deals and the bots")
    parser.add_argument(
        "--players",
        type=int,
        default=None,
        help="seats at the table, for games with a choice (cowpoke: 2-5)",
    )
    parser.add_argument(
        "--option",
        type=_option,
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a game option (repeatable), e.g. hands=3",
    )
    parser.add_argument("--rules", default=None, help="Concerto edition (parlett-2013, penguin)")


def _options(args: argparse.Namespace) -> dict[str, Any]:
    """The game's options from the arena defaults and the command line.

    Raises:
        ValueError: ``--players`` for a game whose number of seats is fixed.
    """
    options = dict(DEFAULT_OPTIONS.get(args.game, {}))
    options.update(dict(args.option))
    if args.rules:
        options["rules"] = args.rules
    if args.players is not None:
        engine = REGISTRY[args.game]
        if engine.seat_option is None:
            raise ValueError(f"{args.game} always seats {engine.seats[0]}: --players is not "
                             f"an option")  # fmt: skip
        options[engine.seat_option] = args.players
    return options


def cmd_arena(args: argparse.Namespace) -> int:
    """Run a seat-rotation match and print the report; 2 on a bad bot name or option."""
    default = "signals,greedy" if args.game == "concerto" else f"{args.game},random"
    names = (args.bots or default).split(",")
    try:
        options = _options(args)
        bots = {name: factory(name) for name in dict.fromkeys(names)}
        report = rotation_match(args.game, bots, names, args.deals, seed=args.seed,
                                options=options, progress=progress_printer("games"))  # fmt: skip
    except (ValueError, GameError) as exc:
        print(exc, file=sys.stderr)
        return 2
    print(f"{args.game} {options}")
    print(report.summary())
    return 0


def add_arena_command(subparsers: Any) -> argparse.ArgumentParser:
    """Add ``arena`` to an ``add_subparsers()`` object (for ``parlour arena ...``)."""
    parser = subparsers.add_parser("arena", help="bots against bots locally, seats rotated")
    _arguments(parser)
    parser.set_defaults(func=cmd_arena)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bots.tools.arena", description="bots against bots, seats rotated"
    )
    _arguments(parser)
    return cmd_arena(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())

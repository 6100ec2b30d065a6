"""Rotation matches: the arena's seat rotation, played locally through
:func:`~.match.play_match` (``parlour-bot play --rotate``, ``--games N``).

The bots take their seats (:func:`lineup`, :func:`seating`), move round the table
(:func:`rotations`), and play each seeded game once per seating
(:func:`rotation_match`); the report (:class:`MatchReport`) gives each bot's score
per deal and the differences between them, with 95% confidence intervals.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..bot import Bot
from .match import LocalMatch, _engines, play_match


def lineup(names: Sequence[str], seats: int) -> tuple[str, ...]:
    """The bot in each seat of the first rotation: the names in turn around the table.

    >>> lineup(["a", "b"], 4), lineup(["a", "b"], 3), lineup(["a", "b", "b", "b"], 4)
    (('a', 'b', 'a', 'b'), ('a', 'b', 'a'), ('a', 'b', 'b', 'b'))

    Raises:
        ValueError: no names, or more names than seats.
    """
    if not 1 <= len(names) <= seats:
        raise ValueError(f"give 1 to {seats} names of bots for {seats} seats")
    return tuple(names[s % len(names)] for s in range(seats))


def rotations(first: Sequence[str]) -> list[tuple[str, ...]]:
    """Every distinct seating when the bots of ``first`` move one seat left at a time.

    >>> rotations(("a", "b", "a", "b"))      # duplicate: the sides swap once
    [('a', 'b', 'a', 'b'), ('b', 'a', 'b', 'a')]
    >>> rotations(("a", "b", "a"))
    [('a', 'b', 'a'), ('a', 'a', 'b'), ('b', 'a', 'a')]
    """
    n = len(first)
    out: list[tuple[str, ...]] = []
    for r in range(n):
        seating = tuple(first[(s - r) % n] for s in range(n))
        if seating not in out:
            out.append(seating)
    return out


@dataclass(frozen=True)
class Play:
    """One game of a match: which seeded game, which seating, and the result."""

    game: int
    rotation: int
    seats: tuple[str, ...]
    scores: tuple[int, ...]
    deals: int

    def score_of(self, name: str) -> float:
        """The bot's mean score per deal over the seats it held."""
        mine = [self.scores[s] for s, n in enumerate(self.seats) if n == name]
        return statistics.fmean(mine) / self.deals


@dataclass
class MatchReport:
    """A seat-rotation match: every play, and per seeded game each bot's score per deal."""

    game: str
    options: dict[str, Any]
    names: tuple[str, ...]
    """The distinct bots, in ``--bots`` order."""
    plays: list[Play] = field(default_factory=list)

    @property
    def games(self) -> int:
        return len({p.game for p in self.plays})

    @property
    def seatings(self) -> int:
        return len({p.rotation for p in self.plays})

    def per_game(self, name: str) -> list[float]:
        """The bot's score per deal in each seeded game: its mean over every seat it held."""
        by_game: dict[int, list[float]] = {}
        for p in self.plays:
            if name in p.seats:
                by_game.setdefault(p.game, []).append(p.score_of(name))
        return [statistics.fmean(v) for _, v in sorted(by_game.items())]

    def score(self, name: str) -> Interval:
        return Interval.of(self.per_game(name))

    def differences(self, a: str, b: str) -> list[float]:
        """Per seeded game, bot ``a``'s score per deal minus ``b``'s (same cards, all seats)."""
        return [x - y for x, y in zip(self.per_game(a), self.per_game(b), strict=True)]

    def difference(self, a: str, b: str) -> Interval:
        return Interval.of(self.differences(a, b))

    def summary(self) -> str:
        plays = self.plays
        deals = plays[0].deals if plays and all(p.deals == plays[0].deals for p in plays) else None
        plural = "" if self.games == 1 else "s"
        unit = (
            f"{self.games} deal{plural}"
            if deals == 1
            else (f"{self.games} game{plural}" + (f" of {deals} deals" if deals else ""))
        )
        times = {1: "once", 2: "twice"}.get(self.seatings, f"{self.seatings} times")
        seats = " ".join(plays[0].seats) if plays else ""
        width = max(map(len, self.names))
        lines = [f"{unit}, each played {times} with the seats rotated (first seating: {seats})"]
        for name in self.names:
            sc = self.score(name)
            lines.append(f"  {name:<{width}}  {sc.mean:7.3f} ± {sc.half_width:.3f} "
                         f"points per deal (95% CI)")  # fmt: skip
        first = self.names[0]
        for other in self.names[1:]:
            diffs = self.differences(first, other)
            ahead, behind = sum(d > 0 for d in diffs), sum(d < 0 for d in diffs)
            lines.append(
                f"  {first} − {other} per deal: {Interval.of(diffs)} (95% CI); ahead in "
                f"{ahead}, behind in {behind}, level in {len(diffs) - ahead - behind}"
            )
        return "\n".join(lines)


@dataclass
class Interval:
    """A mean with the half-width of its 95% confidence interval."""

    mean: float
    half_width: float

    @classmethod
    def of(cls, values: Sequence[float]) -> Interval:
        mean = statistics.fmean(values)
        if len(values) < 2:
            return cls(mean, math.inf)
        return cls(mean, 1.96 * statistics.stdev(values) / math.sqrt(len(values)))

    @property
    def low(self) -> float:
        return self.mean - self.half_width

    @property
    def high(self) -> float:
        return self.mean + self.half_width

    def __str__(self) -> str:
        return f"{self.mean:+.2f} ± {self.half_width:.2f}"


def seating(
    game: str, names: Sequence[str], options: Mapping[str, Any] | None = None
) -> tuple[tuple[str, ...], dict[str, Any]]:
    """The bot in each seat (:func:`lineup`) and the options that seat that many.

    A game whose table size is an option (Cowpoke's ``players``) gets one seat
    per name unless ``options`` say otherwise, as the server counts the seats
    given to ``POST /v1/games``; any other game's names go round its table.

    Raises:
        EnginesMissing, ValueError (no such game, more names than seats),
        server.games.GameError (options the game refuses).
    """
    games = _engines()
    engine = games.REGISTRY.get(game)
    if engine is None:
        raise ValueError(f"no game {game!r} (one of {', '.join(sorted(games.REGISTRY))})")
    opts = dict(options or {})
    if engine.seat_option and engine.seat_option not in opts:
        opts[engine.seat_option] = len(names)
    seats: int = engine.new_state(dict(opts), "seats").num_seats
    return lineup(names, seats), opts


BotFactory = Callable[[random.Random], Bot]
"""What builds a bot for a seat, from the seat's own random source."""


def rotation_match(
    game: str,
    bots: Mapping[str, BotFactory],
    names: Sequence[str],
    games: int,
    *,
    seed: str,
    options: Mapping[str, Any] | None = None,
    move_time: float | None = None,
    rotate: bool = True,
    on_play: Callable[[LocalMatch], None] | None = None,
) -> MatchReport:
    """The arena's seat rotation, played through :func:`play_match`.

    ``games`` seeded games (seeds ``SEED/0``, ``SEED/1``...; just ``SEED`` for
    one game), each played once per distinct rotation of ``lineup(names,
    seats)``, each seat's bot built afresh and seeded from the game, the seating
    and the seat (``rotate=False``: the first seating only). In a partnership
    game two bots make the duplicate: each deal played twice, the sides
    swapped. ``on_play`` gets every finished play.

    Raises:
        EnginesMissing: the engines are not installed beside the SDK.
        ValueError: no game, more names than seats, or a name with no factory.
        server.games.GameError: options the game refuses.
    """
    if games < 1:
        raise ValueError("play at least one game")
    missing = set(names) - set(bots)
    if missing:
        raise ValueError(f"no factory for {sorted(missing)}")
    first, opts = seating(game, names, options)
    seatings = rotations(first) if rotate else [first]
    report = MatchReport(game, opts, tuple(dict.fromkeys(names)))
    for number in range(games):
        game_seed = seed if games == 1 else f"{seed}/{number}"
        for r, seated in enumerate(seatings):
            table = [bots[name](random.Random(f"{game_seed}/{r}/{seat}"))
                     for seat, name in enumerate(seated)]  # fmt: skip
            played = play_match(game, table, seed=game_seed, options=opts, move_time=move_time,
                                names=seated, game_id=f"local-{game_seed}-{r}")  # fmt: skip
            report.plays.append(Play(number, r, seated, tuple(played.scores), played.deals))
            if on_play is not None:
                on_play(played)
    return report

"""Group-sequential matches (duplicate or rotation): stop as soon as the evidence is in.

A fixed-n test ("the 95% interval of A − B over 200 deals lies above 10") plays
every deal even when the first fifty already settle it. Here the same claim is
checked at a few looks (by default after 25, 50, 100 and 200 deals), and the match stops at
the first look where it holds. To keep the chance of a false pass no larger than
the fixed-n test's one-sided 2.5 %, each of the K looks uses a one-sided level of
2.5 % / K (Bonferroni: the union of K events of probability 2.5 %/K each has
probability at most 2.5 %), with Student's t for the mean and an exact
Clopper–Pearson bound for a proportion. The last look is therefore stricter than
the fixed-n test it replaces, never looser.

Deals are played in blocks with their own seeds (``SEED/block``): each block is a
fresh set of seeded deals, independent of the others, so a block's deals are
played once and never replayed at a later look.
"""

from __future__ import annotations

import dataclasses
import math
import statistics
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bots.tools.arena import (
    BotFactory,
    DuplicateReport,
    MatchReport,
    duplicate_match,
    rotation_match,
)

LOOKS = (25, 50, 100, 200)
ALPHA = 0.025  # one-sided, as the lower end of a two-sided 95% interval


def t_quantile(p: float, df: int) -> float:
    """Student's t quantile (``p`` >= 0.5), by bisection on its distribution function,
    integrated with Simpson's rule: exact to 1e-6, which is all a test needs.

    >>> [round(t_quantile(p, df), 3) for p, df in [(0.975, 199), (0.995, 24), (0.975, 5)]]
    [1.972, 2.797, 2.571]
    """
    scale = math.exp(math.lgamma((df + 1) / 2) - math.lgamma(df / 2)) / math.sqrt(df * math.pi)

    def cdf(x: float, steps: int = 2000) -> float:
        h = x / steps
        f = [scale * (1 + (i * h) ** 2 / df) ** (-(df + 1) / 2) for i in range(steps + 1)]
        return 0.5 + h / 3 * (f[0] + f[-1] + 4 * sum(f[1:-1:2]) + 2 * sum(f[2:-1:2]))

    low, high = 0.0, 1.0
    while cdf(high) < p:
        low, high = high, 2 * high
    for _ in range(40):
        mid = (low + high) / 2
        low, high = (mid, high) if cdf(mid) < p else (low, mid)
    return (low + high) / 2


def mean_lower_bound(values: Sequence[float], alpha: float) -> float:
    """The one-sided (1 − alpha) lower confidence bound of the mean (Student's t)."""
    n = len(values)
    return statistics.fmean(values) - t_quantile(1 - alpha, n - 1) * statistics.stdev(
        values
    ) / math.sqrt(n)


def proportion_lower_bound(successes: int, n: int, alpha: float) -> float:
    """The exact one-sided (1 − alpha) Clopper–Pearson lower bound of a proportion.

    The p at which ``successes`` or more of ``n`` has probability exactly alpha.

    >>> round(proportion_lower_bound(25, 25, 0.005), 4)  # 0.005 ** (1 / 25)
    0.809
    """
    if successes == 0:
        return 0.0

    def at_least(p: float) -> float:
        return sum(math.comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(successes, n + 1))

    low, high = 0.0, 1.0
    for _ in range(60):  # P(X >= successes) grows with p: bisect
        mid = (low + high) / 2
        low, high = (mid, high) if at_least(mid) < alpha else (low, mid)
    return low


@dataclass
class Sequential:
    """The deals played, the look the match stopped at, and why."""

    report: DuplicateReport
    looks: list[str] = field(default_factory=list)


def sequential_duplicate(
    game_id: str,
    make_a: BotFactory,
    make_b: BotFactory,
    holds: Callable[[DuplicateReport, float], bool],
    *,
    seed: str,
    names: tuple[str, str],
    looks: Sequence[int] = LOOKS,
) -> Sequential:
    """Play blocks of deals up to each look; stop at the first where ``holds``.

    ``holds(report, alpha)`` is the claim checked at one look with the level
    ``alpha`` of that look (:data:`ALPHA` / ``len(looks)``). The caller asserts
    ``holds`` on the returned report: it is true when the match stopped early,
    and at the last look it is the final verdict.
    """
    alpha = ALPHA / len(looks)
    report = DuplicateReport(names)
    result = Sequential(report)
    played = 0
    for block, look in enumerate(looks):
        part = duplicate_match(game_id, make_a, make_b, look - played,
                               seed=f"{seed}/{block}", names=names)  # fmt: skip
        report.scores_a += part.scores_a
        report.scores_b += part.scores_b
        report.differences += part.differences
        played = look
        result.looks.append(f"{look} deals: {report.difference}")
        if holds(report, alpha):
            break
    return result


@dataclass
class SequentialRotation:
    """The games played (numbered on across blocks) and the looks taken."""

    report: MatchReport
    looks: list[str] = field(default_factory=list)


def sequential_rotation(
    game_id: str,
    bots: Mapping[str, BotFactory],
    names: Sequence[str],
    holds: Callable[[MatchReport, float], bool],
    *,
    seed: str,
    looks: Sequence[int],
    options: Mapping[str, Any] | None = None,
) -> SequentialRotation:
    """:func:`sequential_duplicate` for a :func:`rotation_match`: blocks of seeded games,
    each played in every seating, up to each look; stop at the first where ``holds``."""
    alpha = ALPHA / len(looks)
    report: MatchReport | None = None
    result_looks: list[str] = []
    played = 0
    for block, look in enumerate(looks):
        part = rotation_match(game_id, bots, names, look - played, seed=f"{seed}/{block}",
                              options=options)  # fmt: skip
        if report is None:
            report = part
        else:
            report.plays += [dataclasses.replace(p, game=p.game + played) for p in part.plays]
        played = look
        result_looks.append(f"{look} games: {report.difference(names[0], names[1])}")
        if holds(report, alpha):
            break
    assert report is not None
    return SequentialRotation(report, result_looks)

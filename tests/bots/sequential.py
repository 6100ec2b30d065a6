"""A group-sequential duplicate match: stop as soon as the evidence is in.

A fixed-n test ("the 95% interval of A − B over 200 deals lies above 10") plays
every deal even when the first fifty already settle it. Here the same claim is
checked at a few looks (after 25, 50, 100 and 200 deals), and the match stops at
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

import math
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from bots.tools.arena import BotFactory, DuplicateReport, duplicate_match

LOOKS = (25, 50, 100, 200)
ALPHA = 0.025  # one-sided, as the lower end of a two-sided 95% interval


def t_quantile(p: float, df: int) -> float:
    """Student's t quantile, by the Cornish–Fisher expansion around the normal's.

    Within 0.005 of the exact value for ``df >= 20`` at the levels used here
    (e.g. 2.797 for p = 0.995, df = 24; exact 2.797), and always larger than the
    normal quantile, which alone would make the bound too narrow.

    >>> round(t_quantile(0.975, 199), 3), round(t_quantile(0.995, 24), 3)
    (1.972, 2.797)
    """
    z = statistics.NormalDist().inv_cdf(p)
    g1 = (z**3 + z) / 4
    g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
    g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
    return z + g1 / df + g2 / df**2 + g3 / df**3


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

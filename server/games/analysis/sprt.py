"""Is one bot better than another? A sequential test on paired boards, and standings' doubt.

Pure arithmetic (the standard library only), shared by the server's matches
(``POST /v1/matches``) and the SDK's local ``parlour-bot test``: both feed it
one number per *board*, the new bot's paired difference (its score over the
board's two tables, cards swapped, minus the old bot's).

**The test.** A Gaussian sequential probability ratio test (Wald's SPRT, as
fishtest, OpenBench and fastchess run it) with its bounds in effect-size units:
the effect is the mean per-board difference divided by the spread ``σ`` of the
differences (estimated from the boards so far). H0: effect ≤ ``e0``; H1:
effect ≥ ``e1``. After ``n`` boards of mean ``x̄`` and spread ``s``, the log
likelihood ratio of H1 against H0 (normal differences, ``σ`` plugged in) is::

    LLR = n · (e1 − e0) · (x̄/s − (e0 + e1)/2)

The test passes (H1) once LLR ≥ ln((1−β)/α), fails (H0) once LLR ≤
ln(β/(1−α)); α = β = 0.05 gives ±2.944. Under H1 it needs about
``2·((1−β)·B + β·A)/(e1−e0)²`` boards (5.3/Δ² at α = β = 0.05); a fixed-length
test at the same error rates needs ``((z₁₋α + z₁₋β)/(e1−e0))²`` (10.8/Δ²).

**Standings** (for events): each entry's mean score with its 95% interval
(:func:`standing_intervals`), and for neighbours in that order the probability
the order is right and about how many more boards each would settle it at 95%
(:func:`neighbour_odds`).

>>> round(llr([1.0, 2.0, 3.0], e0=0.0, e1=0.5), 4)   # 3·0.5·(2/1 − 0.25)
2.625
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from statistics import NormalDist

PASS, FAIL, CONTINUE = "pass", "fail", "continue"
Z95 = NormalDist().inv_cdf(0.975)  # 1.95996...: a two-sided 95% interval
Z_SETTLED = NormalDist().inv_cdf(0.95)  # 1.64485...: an order right with probability 95%


def mean_and_spread(xs: Sequence[float]) -> tuple[float, float]:
    """The mean and the sample standard deviation (n − 1) of ``xs`` (spread 0 below 2).

    >>> mean_and_spread([1.0, 2.0, 3.0])
    (2.0, 1.0)
    """
    n = len(xs)
    if n == 0:
        return 0.0, 0.0
    mean = math.fsum(xs) / n
    if n < 2:
        return mean, 0.0
    return mean, math.sqrt(math.fsum((x - mean) ** 2 for x in xs) / (n - 1))


def llr_bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's bounds (lower, upper) = (ln(β/(1−α)), ln((1−β)/α)).

    >>> [round(b, 4) for b in llr_bounds(0.05, 0.05)]
    [-2.9444, 2.9444]
    """
    check_rates(alpha, beta)
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def check_rates(alpha: float, beta: float) -> None:
    """Raise ValueError unless 0 < α, β < 0.5."""
    for name, rate in (("alpha", alpha), ("beta", beta)):
        if not 0 < rate < 0.5:
            raise ValueError(f"{name} must be between 0 and 0.5, not {rate}")


@dataclass(frozen=True)
class Estimate:
    """The mean per-board difference and its 95% interval, in score units and in σ units."""

    boards: int
    mean: float
    spread: float
    low: float
    high: float
    effect: float  # mean / spread (0 when both are 0)
    effect_low: float
    effect_high: float


def estimate(xs: Sequence[float]) -> Estimate:
    """The mean of ``xs`` with its normal 95% interval ``x̄ ± 1.96·s/√n``; the effect
    ``x̄/s`` with ``± 1.96/√n`` (a single board has no spread: an infinite interval).

    >>> e = estimate([1.0, 2.0, 3.0])
    >>> round(e.low, 4), round(e.effect_high, 4)   # 2 − 1.96/√3, 2 + 1.96/√3
    (0.8684, 3.1316)
    """
    n = len(xs)
    mean, spread = mean_and_spread(xs)
    effect = _effect(mean, spread)
    if n < 2:
        return Estimate(n, mean, spread, -math.inf, math.inf, effect, -math.inf, math.inf)
    half = Z95 * spread / math.sqrt(n)
    ehalf = Z95 / math.sqrt(n)
    low, high = mean - half, mean + half
    return Estimate(n, mean, spread, low, high, effect, effect - ehalf, effect + ehalf)


def _effect(mean: float, spread: float) -> float:
    if spread > 0:
        return mean / spread
    return 0.0 if mean == 0 else math.copysign(math.inf, mean)


@dataclass(frozen=True)
class Sprt:
    """Where a sequential test stands: its LLR, bounds, decision and estimate."""

    llr: float
    lower: float
    upper: float
    decision: str  # PASS (H1: better by ≥ e1), FAIL (H0: ≤ e0) or CONTINUE
    estimate: Estimate


def llr(xs: Sequence[float], e0: float, e1: float) -> float:
    """``n·(e1 − e0)·(x̄/s − (e0 + e1)/2)``; 0 before two boards (no spread yet).

    Identical differences (spread 0) have an effect of 0 when they are all 0, else an
    infinite one: the LLR is then finite, or ±inf.

    >>> llr([0.0, 0.0, 0.0, 0.0], e0=0.0, e1=0.2)   # 4·0.2·(0 − 0.1)
    -0.08000000000000002
    """
    if e1 <= e0:
        raise ValueError(f"the bounds need e0 < e1, not e0={e0}, e1={e1}")
    n = len(xs)
    if n < 2:
        return 0.0
    mean, spread = mean_and_spread(xs)
    effect = _effect(mean, spread)
    if math.isinf(effect):
        return effect
    return n * (e1 - e0) * (effect - (e0 + e1) / 2)


MIN_BOARDS = 8
"""No decision before this many boards: the spread, estimated from fewer, is too unsteady
(two boards that happen to agree would make any gap look enormous)."""


def sprt(
    xs: Sequence[float],
    e0: float,
    e1: float,
    alpha: float = 0.05,
    beta: float = 0.05,
    min_boards: int = MIN_BOARDS,
) -> Sprt:
    """The test after the boards ``xs``: PASS once LLR ≥ upper, FAIL once LLR ≤ lower,
    either only from ``min_boards`` boards on."""
    lower, upper = llr_bounds(alpha, beta)
    value = llr(xs, e0, e1)
    decision = CONTINUE
    if len(xs) >= max(2, min_boards):
        decision = PASS if value >= upper else FAIL if value <= lower else CONTINUE
    return Sprt(value, lower, upper, decision, estimate(xs))


def fixed_boards(e0: float, e1: float, alpha: float = 0.05, beta: float = 0.05) -> int:
    """Boards a fixed-length test needs to tell effect ``e0`` from ``e1`` at the same
    error rates: ``⌈((z₁₋α + z₁₋β)/(e1 − e0))²⌉`` (one-sided).

    >>> fixed_boards(0.0, 1.0)   # (1.645 + 1.645)² = 10.82
    11
    """
    check_rates(alpha, beta)
    z = NormalDist().inv_cdf(1 - alpha) + NormalDist().inv_cdf(1 - beta)
    return math.ceil((z / (e1 - e0)) ** 2)


def expected_sprt_boards(
    e0: float, e1: float, alpha: float = 0.05, beta: float = 0.05, true_effect: float | None = None
) -> float:
    """Wald's approximation of the SPRT's mean length when the effect is ``true_effect``
    (default ``e1``: the gap is real): ``E[LLR at the end] / E[LLR per board]``.

    >>> round(expected_sprt_boards(0.0, 1.0), 3)   # 2·(0.95·2.944 − 0.05·2.944)
    5.3
    """
    lower, upper = llr_bounds(alpha, beta)
    effect = e1 if true_effect is None else true_effect
    step = (e1 - e0) * (effect - (e0 + e1) / 2)
    if step == 0:
        return -lower * upper  # Wald's formula at the midpoint (unit-variance steps)
    if effect >= e1:
        p_upper = 1 - beta
    elif effect <= e0:
        p_upper = alpha
    else:  # between the bounds: interpolate the operating characteristic
        p_upper = alpha + (1 - beta - alpha) * (effect - e0) / (e1 - e0)
    return (p_upper * upper + (1 - p_upper) * lower) / step


@dataclass(frozen=True)
class Standing:
    """An entry's mean score per board with its 95% interval (``±inf`` below 2 boards)."""

    entry: str
    boards: int
    mean: float
    spread: float
    low: float
    high: float

    @property
    def stderr(self) -> float:
        """The standard error of the mean (inf below 2 boards)."""
        return self.spread / math.sqrt(self.boards) if self.boards >= 2 else math.inf


def standing_intervals(scores: Mapping[str, Sequence[float]]) -> list[Standing]:
    """Each entry's mean score with its 95% interval, best mean first (ties: by entry).

    >>> [(s.entry, s.mean) for s in standing_intervals({"a": [1.0, 3.0], "b": [4.0, 6.0]})]
    [('b', 5.0), ('a', 2.0)]
    """
    out = []
    for entry, xs in scores.items():
        e = estimate(xs)
        out.append(Standing(entry, e.boards, e.mean, e.spread, e.low, e.high))
    return sorted(out, key=lambda s: (-s.mean, s.entry))


@dataclass(frozen=True)
class NeighbourOdds:
    """Two neighbours in the standings: the chance the upper one's true mean is higher,
    and about how many more boards each would make that chance 95% (None: the means are
    equal, no number of boards settles it; 0: settled already)."""

    upper: str
    lower: str
    p_order_right: float
    more_boards: int | None


def neighbour_odds(standings: Sequence[Standing]) -> list[NeighbourOdds]:
    """For each neighbouring pair of ``standings`` (in their order): ``Φ(gap/se)`` with
    ``se = √(se_a² + se_b²)``, and the more boards each that bring ``se`` down to
    ``gap/1.645`` (each side's spread kept, both given the same boards from the fewer's
    count).

    >>> a, b = standing_intervals({"a": [4.0, 6.0], "b": [1.0, 3.0]})
    >>> odds = neighbour_odds([a, b])[0]   # gap 3, se = √(2·(√2/√2)²) = √2
    >>> round(odds.p_order_right, 4), odds.more_boards   # Φ(3/√2); N = 1.645²·4/9 = 1.2
    (0.9831, 0)
    """
    out = []
    for a, b in zip(standings, standings[1:], strict=False):
        gap = a.mean - b.mean
        se = math.sqrt(a.stderr**2 + b.stderr**2)
        if math.isinf(se):
            out.append(NeighbourOdds(a.entry, b.entry, 0.5, max(1, 2 - min(a.boards, b.boards))))
            continue
        if se == 0:
            out.append(NeighbourOdds(a.entry, b.entry, 1.0 if gap > 0 else 0.5,
                                     0 if gap > 0 else None))  # fmt: skip
            continue
        p = NormalDist().cdf(gap / se)
        if gap <= 0:
            out.append(NeighbourOdds(a.entry, b.entry, p, None))
            continue
        needed = Z_SETTLED**2 * (a.spread**2 + b.spread**2) / gap**2
        more = max(0, math.ceil(needed) - min(a.boards, b.boards))
        out.append(NeighbourOdds(a.entry, b.entry, p, 0 if p >= 0.95 else max(more, 1)))
    return out

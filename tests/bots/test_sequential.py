"""The group-sequential match of tests/bots/sequential.py stops only when its claim holds."""

from __future__ import annotations

import math

from bots.tools.arena import factory
from tests.bots.sequential import (
    ALPHA,
    mean_lower_bound,
    proportion_lower_bound,
    sequential_duplicate,
    t_quantile,
)


def test_a_claim_that_never_holds_plays_every_look_and_fails() -> None:
    """Two copies of one deterministic bot tie every deal: no look shows A ahead."""

    def ahead(report, alpha):
        return mean_lower_bound(report.differences, alpha) > 0

    run = sequential_duplicate("concerto", factory("greedy"), factory("greedy"), ahead,
                               seed="seq-tie", names=("a", "b"), looks=(2, 4))  # fmt: skip
    assert run.report.deals == 4 and len(run.looks) == 2
    assert run.report.differences == [0.0] * 4


def test_a_claim_that_holds_at_once_stops_at_the_first_look() -> None:
    calls: list[tuple[int, float]] = []

    def holds(report, alpha):
        calls.append((report.deals, alpha))
        return True

    run = sequential_duplicate("concerto", factory("greedy"), factory("random"), holds,
                               seed="seq-first", names=("g", "r"), looks=(2, 4, 8))  # fmt: skip
    assert run.report.deals == 2 and calls == [(2, ALPHA / 3)]


def test_the_bounds_are_the_textbook_values() -> None:
    # Student's t from the tables: 0.975 at 9 df, 0.995 at 3 df, 0.99 at 2 df
    assert abs(t_quantile(0.975, 9) - 2.2622) < 1e-4
    assert abs(t_quantile(0.995, 3) - 5.8409) < 1e-4
    assert abs(t_quantile(0.99, 2) - 6.9646) < 1e-4
    # Clopper-Pearson, all successes: alpha ** (1 / n); none: 0
    assert math.isclose(proportion_lower_bound(50, 50, 0.01), 0.01 ** (1 / 50), abs_tol=1e-9)
    assert proportion_lower_bound(0, 10, 0.01) == 0.0
    # 8 of 10 at one-sided 2.5 %: 0.4439 (the two-sided 95% exact interval's lower end)
    assert abs(proportion_lower_bound(8, 10, 0.025) - 0.4439) < 1e-4

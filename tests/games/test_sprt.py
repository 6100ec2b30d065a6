"""The match statistics (server.games.analysis.sprt), against arithmetic done by hand."""

from __future__ import annotations

import math

import pytest

from server.games.analysis import sprt

Z95 = 1.959964  # Φ⁻¹(0.975), from a table
Z90 = 1.644854  # Φ⁻¹(0.95)


def test_bounds_are_walds() -> None:
    # ln(0.95/0.05) = ln 19 = 2.944439; the lower bound is its negative when α = β
    lower, upper = sprt.llr_bounds(0.05, 0.05)
    assert upper == pytest.approx(2.944439, abs=1e-6)
    assert lower == pytest.approx(-2.944439, abs=1e-6)
    # α = 0.01, β = 0.1: upper ln(0.9/0.01) = ln 90 = 4.49981, lower ln(0.1/0.99) = −2.29253
    lower, upper = sprt.llr_bounds(0.01, 0.1)
    assert upper == pytest.approx(4.49981, abs=1e-5)
    assert lower == pytest.approx(-2.29253, abs=1e-5)


@pytest.mark.parametrize("alpha", [0.0, 0.5, -0.1, 1.0])
def test_rates_out_of_range_are_refused(alpha: float) -> None:
    with pytest.raises(ValueError, match="alpha"):
        sprt.llr_bounds(alpha, 0.05)


def test_llr_by_hand() -> None:
    # xs = 2, 4, 6, 8: mean 5, deviations −3 −1 1 3, squares sum 20, s² = 20/3, s = 2.581989
    # effect 5/2.581989 = 1.936492; LLR = 4 · (0.5 − 0) · (1.936492 − 0.25) = 3.372983
    xs = [2.0, 4.0, 6.0, 8.0]
    assert sprt.llr(xs, 0.0, 0.5) == pytest.approx(3.372983, abs=1e-5)
    result = sprt.sprt(xs, 0.0, 0.5, min_boards=4)
    assert result.decision == sprt.PASS  # 3.37 ≥ 2.944
    # the same boards against H1 = 0.1: 4 · 0.1 · (1.936492 − 0.05) = 0.754597: go on
    assert sprt.sprt(xs, 0.0, 0.1, min_boards=4).decision == sprt.CONTINUE
    # the default waits for 8 boards whatever the LLR
    assert sprt.sprt(xs, 0.0, 0.5).decision == sprt.CONTINUE
    assert sprt.llr(xs, 0.0, 0.1) == pytest.approx(0.754597, abs=1e-5)


def test_a_losing_run_fails() -> None:
    # xs = −1, 0, −1, 0, … (20 boards): mean −0.5, s² = 20·0.25/19 = 0.263158, s = 0.512989
    # effect −0.974679; LLR = 20 · 0.2 · (−0.974679 − 0.1) = −4.298716 ≤ −2.944: fail
    xs = [-1.0, 0.0] * 10
    result = sprt.sprt(xs, 0.0, 0.2)
    assert result.llr == pytest.approx(-4.298716, abs=1e-5)
    assert result.decision == sprt.FAIL


def test_no_decision_before_two_boards_and_zeros_lean_to_h0() -> None:
    assert sprt.sprt([5.0], 0.0, 0.5).decision == sprt.CONTINUE
    assert sprt.llr([], 0.0, 0.5) == 0.0
    # every board even (spread 0, mean 0: effect 0): LLR = n · 0.5 · (0 − 0.25) = −n/8
    assert sprt.llr([0.0] * 24, 0.0, 0.5) == pytest.approx(-3.0)
    assert sprt.sprt([0.0] * 24, 0.0, 0.5).decision == sprt.FAIL
    # every board the same win: an infinite effect
    assert sprt.llr([2.0, 2.0], 0.0, 0.5) == math.inf


def test_bounds_must_be_ordered() -> None:
    with pytest.raises(ValueError, match="e0 < e1"):
        sprt.llr([1.0, 2.0], 0.5, 0.5)


def test_estimate_interval_by_hand() -> None:
    # 2, 4, 6, 8: mean 5, s = 2.581989, se = s/2 = 1.290994, half-width 1.96·se = 2.530302
    e = sprt.estimate([2.0, 4.0, 6.0, 8.0])
    assert e.mean == 5.0
    assert e.low == pytest.approx(5 - Z95 * 1.290994, abs=1e-5)
    assert e.high == pytest.approx(7.530302, abs=1e-5)
    # effect interval: 1.936492 ± 1.96/2
    assert e.effect_low == pytest.approx(1.936492 - 0.979982, abs=1e-5)
    one = sprt.estimate([3.0])
    assert (one.low, one.high) == (-math.inf, math.inf)


def test_fixed_length_and_sprt_length() -> None:
    # (1.644854 + 1.644854)² = 10.8222: a gap of 0.25σ needs 10.8222/0.0625 = 173.2 → 174
    assert sprt.fixed_boards(0.0, 0.25) == 174
    assert pytest.approx(10.8222, abs=1e-4) == (2 * Z90) ** 2
    # Wald under H1: (0.95·2.944439 + 0.05·(−2.944439)) / (0.25²/2) = 2.649995/0.03125 = 84.80
    assert sprt.expected_sprt_boards(0.0, 0.25) == pytest.approx(84.80, abs=0.01)
    # under H0 (effect 0): (0.05·2.944439 − 0.95·2.944439)/(0.25·(0 − 0.125)) = 84.80 too
    assert sprt.expected_sprt_boards(0.0, 0.25, true_effect=0.0) == pytest.approx(84.80, abs=0.01)


def test_standings_and_neighbours_by_hand() -> None:
    scores = {
        "north": [10.0, 12.0, 14.0],  # mean 12, s = 2, se = 2/√3 = 1.154701
        "south": [9.0, 11.0, 13.0],  # mean 11, s = 2, se = 1.154701
        "east": [0.0, 0.0, 0.0],  # mean 0, s = 0
    }
    rows = sprt.standing_intervals(scores)
    assert [r.entry for r in rows] == ["north", "south", "east"]
    north = rows[0]
    assert north.low == pytest.approx(12 - Z95 * 1.154701, abs=1e-5)  # 9.736824
    assert north.high == pytest.approx(14.263176, abs=1e-5)
    top, bottom = sprt.neighbour_odds(rows)
    # gap 1, se = √(2·1.333333) = 1.632993: Φ(0.612372) = 0.729847
    assert top.p_order_right == pytest.approx(0.729847, abs=1e-5)
    # settled at 95%: N = 1.644854²·(4 + 4)/1² = 21.644 → 22 boards each, 3 played: 19 more
    assert top.more_boards == 19
    # south vs east: gap 11, se = 1.154701: Φ(9.53) ≈ 1: settled
    assert bottom.p_order_right > 0.999999
    assert bottom.more_boards == 0


def test_equal_neighbours_are_never_settled() -> None:
    rows = sprt.standing_intervals({"a": [1.0, 3.0], "b": [3.0, 1.0]})
    (odds,) = sprt.neighbour_odds(rows)
    assert odds.p_order_right == 0.5  # Φ(0)
    assert odds.more_boards is None

"""How sure the standings are (server/services/brackets.py): each entry's 95% interval of
its points per game, and for each row how sure its place above the next is.

Worked by hand for a round robin of three in which the earlier letter always wins:
A beats B and C, B beats C. Points per game (1 a win, 0 a loss):

* A: [1, 1] -> mean 1, spread 0: the interval [1, 1];
* B: [0, 1] -> mean 0.5, spread s = sqrt(((0-.5)^2 + (1-.5)^2) / 1) = 0.7071, so
  1.96 * s / sqrt(2) = 0.98: the interval [-0.48, 1.48];
* C: [0, 0] -> [0, 0].

A over B: gap 0.5, standard error sqrt(0 + (0.7071/sqrt 2)^2) = 0.5, so
P = Phi(0.5/0.5) = Phi(1) = 0.8413; settling it to 95% needs a standard error of
gap/1.645, i.e. n = 1.645^2 * (0 + 0.5) / 0.25 = 5.41 games each: 6 - 2 = 4 more.
B over C: the same numbers.
"""

from __future__ import annotations

import pytest

from server.services import brackets
from server.tournaments.formats import Format, TableResult
from tests.scheduler.test_formats import play, play_out, snapshot


def _earlier_letter_wins(table) -> TableResult:
    first, second = table.entries
    return TableResult((1, 0) if first < second else (0, 1))


def test_each_entry_has_its_interval_and_each_row_how_sure_its_place_is() -> None:
    snap = play_out(snapshot(Format.ROUND_ROBIN, "ABC"), _earlier_letter_wins)
    rows = brackets.standings_out(snap, {})
    assert [r["entry"] for r in rows] == ["A", "B", "C"]
    intervals = {r["entry"]: r["interval"] for r in rows}
    assert intervals["A"] == {"low": 1.0, "high": 1.0}
    assert intervals["B"]["low"] == pytest.approx(-0.48, abs=0.005)
    assert intervals["B"]["high"] == pytest.approx(1.48, abs=0.005)
    assert intervals["C"] == {"low": 0.0, "high": 0.0}
    assert rows[0]["next"] == {"p_order_right": 0.8413, "more_games": 4}
    assert rows[1]["next"] == {"p_order_right": 0.8413, "more_games": 4}
    assert rows[2]["next"] is None


def test_before_two_games_there_is_no_interval() -> None:
    snap = play(snapshot(Format.ROUND_ROBIN, "ABC"), TableResult((1, 0)))  # a table, a bye
    rows = {r["entry"]: r for r in brackets.standings_out(snap, {})}
    assert all(r["interval"] is None for r in rows.values())

"""The bots' own fast scoring agrees with docs/rules/concerto.md and with the engine."""

from __future__ import annotations

import random

import pytest

from bots._concerto import best_completion as complete
from bots._concerto import category, fast, fast_category, hand_points, pip
from server.games.concerto import EDITIONS
from server.games.kit.cards import STANDARD
from server.games.kit.poker import Combination, evaluate


def played(spec: str) -> list:
    """``"N:5H S:6H ..."`` → pips, seats N=0 E=1 S=2 W=3."""
    return [pip(t[2:], "NESW".index(t[0])) for t in spec.split()]


# Worked from docs/rules/concerto.md "Scoring a hand" (leader = who played the first card, C3).
@pytest.mark.parametrize(("spec", "parlett", "penguin"), [
    ("N:2S N:7H S:9D S:JC N:KC", 0, 0),            # nothing
    ("N:7S S:7H N:2D S:9C N:KC", 1, 1),            # one pair
    ("N:7S S:7H N:9D S:9C N:KC", 2, 2),            # two pairs
    ("N:7S S:7H N:7D S:9C N:KC", 3, 3),            # threes
    ("N:AS S:2H N:3D S:4C N:5C", 5, 5),            # the wheel is a straight (C5)
    ("N:QS S:KH N:AD S:2C N:3C", 0, 0),            # no wrap-around (C5)
    ("N:2H S:7H N:9H S:JH N:KH", 6, 6),            # flush
    ("N:7S S:7H N:7D S:9C N:9D", 8, 8),            # full house
    ("N:7S N:7H N:7D N:7C S:2C", 8, 8),            # fours 4+0
    ("N:7S S:7H N:7D N:7C S:2C", 12, 12),          # fours 3+1
    ("N:7S S:7H N:7D S:7C S:2C", 16, 16),          # fours 2+2
    ("N:2C S:7S N:7H S:7D S:7C", 12, 12),          # the fifth card never counts (C4)
    ("N:5H N:6H N:7H N:8H N:9H", 10, 10),          # straight flush 5+0
    ("N:5H S:6H N:7H N:8H N:9H", 15, 15),          # 4+1
    ("N:5H S:6H S:7H S:8H S:9H", 15, 15),          # 1+4, either way (C2)
    ("N:5H S:6H N:7H S:8H N:9H", 20, 20),          # leader 3 + partner 2
    ("N:5H S:6H S:7H N:8H S:9H", 20, 25),          # leader 2 + partner 3 (C2)
    ("S:TS N:JS S:QS N:KS N:AS", 20, 25),          # the leader is who played first (C3)
])  # fmt: skip
def test_hand_points_worked_examples(spec: str, parlett: int, penguin: int) -> None:
    pips = played(spec)
    assert hand_points(pips, "parlett-2013") == parlett
    assert hand_points(pips, "penguin") == penguin


def test_fast_category_and_points_agree_with_the_engine() -> None:
    rng = random.Random(4)
    deck = STANDARD.cards()
    special = [["7S", "7H", "7D", "7C", "2C"], ["9H", "TH", "JH", "QH", "KH"],
               ["AD", "2D", "3D", "4D", "5D"], ["TC", "JC", "QC", "KC", "AC"]]  # fmt: skip
    for five in special + [rng.sample(deck, 5) for _ in range(3000)]:
        expected = evaluate(five)[0]
        assert category([pip(c, 0) for c in five]) == expected, five
        assert fast_category([fast(c) for c in five]) == expected, five
        owners = [rng.choice((0, 2)) for _ in five]
        seated = list(zip(owners, five, strict=True))
        for rules, edition in EDITIONS.items():
            points = edition.hand_points(Combination(expected), seated)
            assert hand_points([pip(c, s) for s, c in seated], rules) == points


def test_best_completion_finds_the_best_hand_worked_by_hand() -> None:
    own = ["2H", "7H", "9H", "JH", "KH", "7S", "7D", "3C"]
    points, cards = complete([], own, 0, "parlett-2013", 5)
    assert points == 6 and sorted(cards) == sorted(["2H", "7H", "9H", "JH", "KH"])
    # Partner (seat 2) played two sevens: our other two make fours 2+2 = 16.
    points, cards = complete([(2, "7C"), (2, "7H")], ["7S", "7D", "KD", "2S"], 0,
                             "parlett-2013", 3)  # fmt: skip
    assert points == 16 and {"7S", "7D"} <= set(cards)


def test_best_completion_spends_singletons_and_keeps_pairs() -> None:
    # One pair is the best (of fours or of nines): spend the 2 as kicker, keep the nines.
    points, cards = complete([(0, "4S"), (2, "7C"), (2, "8D")], ["4D", "9S", "9H", "2C"], 0,
                             "parlett-2013", 2)  # fmt: skip
    assert points == 1 and set(cards) == {"4D", "2C"}

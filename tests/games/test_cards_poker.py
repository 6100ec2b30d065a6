"""Cards (server/games/kit/cards.py) and Poker categories (server/games/kit/poker.py).

Expected categories are ordinary Poker, with docs/rules/concerto.md's two fixed points:
A-2-3-4-5 and T-J-Q-K-A are straights, nothing wraps round (C5).
"""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from server.games.kit import cards, poker
from server.games.kit.poker import Combination

from .helpers import PACK


def test_standard_pack_is_the_52_wire_cards() -> None:
    assert sorted(cards.STANDARD.cards()) == sorted(PACK)
    assert len(set(cards.STANDARD.cards())) == 52


def test_pinochle_packs_repeat_cards() -> None:
    pack = cards.PINOCHLE.cards()
    assert len(pack) == 48 and len(set(pack)) == 24
    assert all(pack.count(c) == 2 for c in pack)
    assert {c[0] for c in pack} == set("ATKQJ9")
    assert len(cards.DOUBLE_PINOCHLE.cards()) == 96


@pytest.mark.parametrize("text", ["TS", "AS", "2C", "9H", "QD"])
def test_is_card(text: str) -> None:
    assert cards.STANDARD.is_card(text)


@pytest.mark.parametrize("text", ["1S", "10S", "ts", "T", "TX", "", None, 10, ["T", "S"], "TS "])
def test_is_not_a_card(text: object) -> None:
    assert not cards.STANDARD.is_card(text)


def test_rank_order_high_to_low() -> None:
    order = [cards.STANDARD.rank_order(r + "S") for r in "AKQJT98765432"]
    assert order == sorted(order, reverse=True) and len(set(order)) == 13
    assert cards.STANDARD.rank_order("2S") == 0
    # Pinochle ranks A T K Q J 9.
    assert [cards.PINOCHLE.rank_order(r + "H") for r in "ATKQJ9"] == [5, 4, 3, 2, 1, 0]


def test_pack_problems_lists_every_problem() -> None:
    problems = cards.STANDARD.problems(["AS", "AS", "1X", "KD", "KD", "KD", 7])
    text = " | ".join(problems)
    assert "'1X'" in text and "7" in text
    assert "AS appears 2 times" in text and "KD appears 3 times" in text
    assert len(problems) == 4
    assert cards.STANDARD.problems(PACK) == []
    assert cards.PINOCHLE.problems(["AS", "AS"]) == []
    assert cards.PINOCHLE.problems(["AS"] * 3) != []


def test_shuffle_is_seeded_and_a_permutation() -> None:
    a = cards.shuffled(cards.STANDARD, cards.derived_rng("seed", "deal", 0))
    b = cards.shuffled(cards.STANDARD, cards.derived_rng("seed", "deal", 0))
    c = cards.shuffled(cards.STANDARD, cards.derived_rng("seed", "deal", 1))
    assert a == b and a != c
    assert sorted(a) == sorted(PACK)


def test_shuffle_does_not_touch_the_global_rng() -> None:
    random.seed(1234)
    expected = random.random()
    random.seed(1234)
    cards.shuffled(cards.STANDARD, cards.derived_rng("x"))
    assert random.random() == expected


def test_deal_singly_from_the_dealers_left() -> None:
    hands = cards.deal_singly(list("abcdefgh"), 4, first=1)
    assert hands == [list("dh"), list("ae"), list("bf"), list("cg")]


def test_sort_hand_groups_suits_high_to_low() -> None:
    assert cards.sort_hand(["2C", "AS", "TH", "KS", "3H", "QD"]) == [
        "AS", "KS", "TH", "3H", "QD", "2C",
    ]  # fmt: skip


# ---------------------------------------------------------------------------
# Poker categories
# ---------------------------------------------------------------------------

CATEGORIES = [
    ("2S 5H 9D JC KS", Combination.NOTHING),
    ("7S 7H 2D 9C KS", Combination.ONE_PAIR),
    ("7S 7H KD KC 2S", Combination.TWO_PAIRS),
    ("7S 7H 7D KC 2S", Combination.THREES),
    ("5S 6H 7D 8C 9S", Combination.STRAIGHT),
    ("AS 2H 3D 4C 5S", Combination.STRAIGHT),
    ("TS JH QD KC AS", Combination.STRAIGHT),
    ("QS KH AD 2C 3S", Combination.NOTHING),  # C5: no wrap-around
    ("JS QH KD AC 2S", Combination.NOTHING),
    ("KS AH 2D 3C 4S", Combination.NOTHING),
    ("2H 5H 9H JH KH", Combination.FLUSH),
    ("QH KH AH 2H 3H", Combination.FLUSH),
    ("7S 7H 7D KC KS", Combination.FULL_HOUSE),
    ("9S 9H 9D 9C 2H", Combination.FOURS),
    ("5H 6H 7H 8H 9H", Combination.STRAIGHT_FLUSH),
    ("AD 2D 3D 4D 5D", Combination.STRAIGHT_FLUSH),
    ("TS JS QS KS AS", Combination.STRAIGHT_FLUSH),
]


@pytest.mark.parametrize(("hand", "category"), CATEGORIES, ids=[h for h, _ in CATEGORIES])
def test_classify(hand: str, category: Combination) -> None:
    five = hand.split()
    assert poker.classify(five) is category
    assert poker.classify(list(reversed(five))) is category  # order never matters


def test_categories_are_ordered_and_named_for_the_wire() -> None:
    assert list(Combination) == sorted(Combination)
    assert [c.wire_name for c in Combination] == [
        "nothing", "one_pair", "two_pairs", "threes", "straight", "flush",
        "full_house", "fours", "straight_flush",
    ]  # fmt: skip


def test_every_five_card_hand_count_by_category() -> None:
    """Category counts over every five-card hand of a two-suit pack, worked by hand.

    Classifying all 2,598,960 hands of the full pack is too slow for the
    suite; the 65,780 hands of the 26 spades and hearts still exercise every
    straight window, every flush and every pair shape.
    """
    counts: dict[Combination, int] = dict.fromkeys(Combination, 0)
    deck = [r + s for s in "SH" for r in "AKQJT98765432"]
    for five in combinations(deck, 5):
        counts[poker.classify(five)] += 1
    # With two suits: a rank appears at most twice, so no threes/fours/full house.
    # straight flush: 10 windows × 2 suits = 20.
    # flush: 2 × C(13,5) − 20 = 2 × 1287 − 20 = 2554.
    # straight: 10 windows × 2^5 suit choices − 20 = 300.
    # two pairs: C(13,2) pairs × 11 kicker ranks × 2 suits = 78 × 22 = 1716.
    # one pair: 13 × C(12,3) × 2^3 = 13 × 220 × 8 = 22880.
    # nothing: C(26,5) − the rest = 65780 − 20 − 2554 − 300 − 1716 − 22880 = 38310.
    assert counts == {
        Combination.NOTHING: 38310,
        Combination.ONE_PAIR: 22880,
        Combination.TWO_PAIRS: 1716,
        Combination.THREES: 0,
        Combination.STRAIGHT: 300,
        Combination.FLUSH: 2554,
        Combination.FULL_HOUSE: 0,
        Combination.FOURS: 0,
        Combination.STRAIGHT_FLUSH: 20,
    }


def test_evaluate_tie_break_keys() -> None:
    """Higher key, higher hand within a category; the wheel is the lowest straight."""

    def key(hand: str) -> tuple[Combination, tuple[int, ...]]:
        return poker.evaluate(hand.split())

    assert key("AS 2H 3D 4C 5S") < key("2S 3H 4D 5C 6S") < key("TS JH QD KC AS")
    assert key("KS KH 2D 3C 4S") > key("QS QH AD KC JS")  # the pair before the kickers
    assert key("3S 3H 3D 2C 2S") > key("2S 2H 2D AC AS")  # full house: the threes first
    assert key("9S 9H 9D 9C 2H") == key("9S 9H 9D 9C 2S")


def test_best_five() -> None:
    def best(text: str) -> tuple[Combination, str]:
        category, _, five = poker.best_five(text.split())
        return category, " ".join(sorted(five))

    assert best("JS 6H 7D 5C 9S 8H") == (Combination.STRAIGHT, "5C 6H 7D 8H 9S")
    assert best("9S 9H 9D 9C 3S 3H")[0] is Combination.FOURS
    assert best("7S 7H 7D 4S 4H 4D")[0] is Combination.FULL_HOUSE
    assert best("KS KH 8D 8C 3S 3H") == (Combination.TWO_PAIRS, "3S 8C 8D KH KS")


@pytest.mark.parametrize(
    ("six", "expected"),
    [
        ("KS KH 8D 8C 3S 3H", True),
        ("KS KH 8D 8C 3S 4H", False),
        ("9S 9H 9D 9C 3S 3H", False),  # fours and a pair is not three pairs
        ("7S 7H 7D 4S 4H 4D", False),
        ("KS KH 8D 8C 3S", False),  # five cards
    ],
)
def test_is_three_pairs(six: str, expected: bool) -> None:
    assert poker.is_three_pairs(six.split()) is expected

"""Pinochle melds, worked by hand from docs/rules/pinochle.md (P3, P4, P20) and Appendix B.

Each expected value below is the sum of the melds named beside it, read off
the table in docs/rules/pinochle.md: class A (flush 150, royal marriage 40, marriage 20,
double flush 1500; double deck: triple flush 3000, double / triple /
quadruple marriage 300 / 900 / 1200), class B (100 aces, 80 kings, 60 queens,
40 jacks; 8 of a rank 1000 / 800 / 600 / 400; double deck: 12 of a rank
2000 / 1600 / 1200 / 800, 16 of a rank 3000), class C (pinochle 40, double
300; double deck: triple 900, quadruple 1200) and the dix (10 each).
"""

from __future__ import annotations

from collections import Counter

import pytest

from server.games.pinochle.melds import (
    VALUE_DEFAULTS,
    MeldTable,
    find_melds,
    has_marriage,
    shown_cards,
)
from server.games.pinochle.rules import CHECK_TABLES

SINGLE = MeldTable.single_deck()
DOUBLE = MeldTable.double_deck()


def cards(text: str) -> list[str]:
    return text.split()


def times(n: int, text: str) -> str:
    return " ".join([text] * n)


def total(hand: str, trump: str, table: MeldTable = SINGLE) -> int:
    return sum(m.points for m in find_melds(cards(hand), trump, table))


def names(hand: str, trump: str, table: MeldTable = SINGLE) -> list[str]:
    return sorted(m.name for m in find_melds(cards(hand), trump, table))


# -- Appendix B ----------------------------------------------------------------


def test_royal_marriage_with_the_other_three_kings() -> None:
    """K-Q of trumps + the other three kings → royal marriage 40 + 80 kings (KH serves twice)."""
    assert names("KH QH KS KD KC", "H") == ["kings", "royal_marriage"]
    assert total("KH QH KS KD KC", "H") == 40 + 80


def test_pinochle_and_a_spade_marriage() -> None:
    """Q♠ J♦ with K♠, spades not trumps → pinochle 40 + marriage 20 (QS in classes A and C)."""
    assert names("QS JD KS", "H") == ["marriage", "pinochle"]
    assert total("QS JD KS", "H") == 40 + 20


def test_flush_with_an_extra_king_is_the_flush_only() -> None:
    """The flush's K-Q may not also be a royal marriage, and the extra K has no Q."""
    assert names("AH TH KH QH JH KH", "H") == ["flush"]
    assert total("AH TH KH QH JH KH", "H") == 150


def test_flush_with_an_extra_king_and_queen() -> None:
    assert names("AH TH KH QH JH KH QH", "H") == ["flush", "royal_marriage"]
    assert total("AH TH KH QH JH KH QH", "H") == 150 + 40


# -- a table of cases, by hand -------------------------------------------------

SINGLE_CASES = [
    # (hand, trump, expected, the melds by hand)
    ("AS AS AH AH AD AD AC AC", "H", 1000, "8 aces replace the 100s: 1000, not 1200"),
    ("QS QS QH QH QD QD QC QC", "H", 600, "8 queens: 600, not 120; no jack, no pinochle"),
    ("JS JS JH JH JD JD JC JC", "H", 400, "8 jacks: 400, not 80; no queen, no pinochle"),
    ("KS QS KH QH KD QD KC QC", "H", 240, "round house: 40 + 20*3 + 80 + 60"),
    ("KS QS KH QH KD QD KC QC", "C", 240, "round house, other trumps: same parts"),
    ("AH AH TH TH KH KH QH QH JH JH", "H", 1500, "double flush"),
    ("AH AH TH TH KH KH QH QH JH JH 9H 9H", "H", 1520, "double flush + 2 dix"),
    ("QS QS JD JD", "H", 300, "double pinochle"),
    ("QS QS JD JD KS", "H", 320, "double pinochle + spade marriage"),
    ("KH KH QH QH", "H", 80, "two royal marriages (no double marriage in one pack)"),
    ("KS KS QS QS", "H", 40, "two marriages"),
    ("JS JH JD JC QS", "H", 80, "40 jacks + pinochle (JD in B and C)"),
    ("AH TH KH QH JH AS AD AC", "H", 250, "flush + 100 aces (AH in A and B)"),
    ("AH TH KH QH JH KS KD KC", "H", 230, "flush + 80 kings (KH in A and B)"),
    ("9H 9H", "H", 20, "two dixes"),
    ("9S 9D AC", "H", 0, "9s of other suits are no dix"),
    ("QS QH QD QC JD KS", "H", 120, "60 queens + pinochle + spade marriage"),
    ("AS TS 9D JC KH", "H", 0, "nothing"),
    ("KS KS KH KH KD KD KC KC QS QH", "D", 840, "8 kings + spade and heart marriages"),
    ("AS AH AD AC KS KH KD KC QS QH QD QC", "S", 340, "aces + kings + queens + 40 + 20*3"),
    ("AS AH AD AC AS AH AD", "H", 100, "seven aces: one set of 100"),
    ("AH TH KH QH JH QS JD JS JC", "D", 100, "no flush outside trumps: 20 + pinochle + jacks"),
]

DOUBLE_CASES = [
    (times(3, "AS AH AD AC"), "H", 2000, "12 aces: 2000, not 1000 + 100"),
    (times(4, "AS AH AD AC"), "H", 3000, "16 aces: 3000, not 2000 + 100"),
    ("AS AS AS AH AH AH AD AD AC AC", "H", 1000, "10 aces (3-3-2-2): 8 aces"),
    (times(3, "AH TH KH QH JH"), "H", 3000, "triple flush"),
    (times(3, "AH TH KH QH JH") + " 9H", "H", 3010, "triple flush + dix"),
    ("KS KS QS QS", "H", 300, "double marriage (P4)"),
    (times(3, "KS QS"), "H", 900, "triple marriage"),
    (times(4, "KS QS"), "H", 1200, "quadruple marriage"),
    ("AH TH KH KH QH QH JH", "H", 300, "trumps: double marriage 300 beats flush + royal 190"),
    (times(2, "AH TH KH QH JH") + " KH KH QH QH", "H", 1800,
     "double flush 1500 + double marriage 300 (beats quadruple marriage 1200)"),
    (times(4, "QS JD"), "H", 1200, "quadruple pinochle"),
    (times(3, "QS JD"), "C", 900, "triple pinochle"),
    (times(3, "KS KH KD KC"), "D", 1600, "12 kings"),
    (times(3, "QS QH QD QC"), "H", 1200, "12 queens: 1200, not 600 + 60"),
    (times(3, "JS JH JD JC"), "C", 800, "12 jacks: 800, not 400 + 40; no QS, no pinochle"),
    ("JS JS JH JH JD JD JC JC QS", "H", 440, "8 jacks 400 + pinochle 40"),
    ("KS QS KH QH KD QD KC QC", "H", 240, "round house = its parts, double deck too"),
    ("KS KS QS QS KH QH", "H", 340, "double marriage 300 + royal marriage 40"),
]  # fmt: skip


@pytest.mark.parametrize(("hand", "trump", "expected", "why"), SINGLE_CASES)
def test_single_deck_meld_table(hand: str, trump: str, expected: int, why: str) -> None:
    assert total(hand, trump) == expected, why


@pytest.mark.parametrize(("hand", "trump", "expected", "why"), DOUBLE_CASES)
def test_double_deck_meld_table(hand: str, trump: str, expected: int, why: str) -> None:
    assert total(hand, trump, DOUBLE) == expected, why


# Every meld of the rules' table (the module docstring), by the names melds are shown with.
SINGLE_PACK_MELDS = {
    "flush", "double_flush", "royal_marriage", "marriage",
    "aces", "kings", "queens", "jacks",
    "eight_aces", "eight_kings", "eight_queens", "eight_jacks",
    "pinochle", "double_pinochle", "dix",
}  # fmt: skip
DOUBLE_PACK_MELDS = {
    "triple_flush", "double_marriage", "triple_marriage", "quadruple_marriage",
    "twelve_aces", "twelve_kings", "twelve_queens", "twelve_jacks", "sixteen_aces",
    "triple_pinochle", "quadruple_pinochle",
}  # fmt: skip


def test_the_tables_work_every_meld_of_the_rules() -> None:
    """Each meld of the single pack is scored in some single-deck case, and each meld
    only the double pack has in some double-deck case."""
    single = {n for hand, trump, _, _ in SINGLE_CASES for n in names(hand, trump)}
    double = {n for hand, trump, _, _ in DOUBLE_CASES for n in names(hand, trump, DOUBLE)}
    assert SINGLE_PACK_MELDS - single == set()
    assert DOUBLE_PACK_MELDS - double == set()


def test_eight_aces_names_one_meld() -> None:
    assert names("AS AS AH AH AD AD AC AC", "H") == ["eight_aces"]
    assert names(times(3, "AS AH AD AC"), "H", DOUBLE) == ["twelve_aces"]


def test_round_house_is_its_parts() -> None:
    assert names("KS QS KH QH KD QD KC QC", "H") == [
        "kings", "marriage", "marriage", "marriage", "queens", "royal_marriage",
    ]  # fmt: skip


def test_meld_values_are_options() -> None:
    """A double-deck value set to 0 switches the double off; its units score as singles."""
    house = MeldTable.double_deck({**VALUE_DEFAULTS, "double_marriage": 0, "twelve_aces": 2500})
    assert total("KS KS QS QS", "H", house) == 40  # two single marriages
    assert total(times(3, "AS AH AD AC"), "H", house) == 2500


def test_a_dix_count_can_be_given() -> None:
    """Partnership scores the original dixes (P5): an exchanged dix still counts."""
    melds = find_melds(cards("AH KD"), "H", SINGLE, dixes=1)
    assert [(m.name, m.points) for m in melds] == [("dix", 10)]


def test_shown_cards_are_the_most_each_class_uses() -> None:
    """A card serving in two classes is one card; the spare K of a flush is not shown."""
    melds = find_melds(cards("AH TH KH QH JH KH AS AD AC"), "H", SINGLE)
    assert shown_cards(melds) == Counter(cards("AH TH KH QH JH AS AD AC"))
    hand = cards("AS AS AH AH AD AD AC AC")
    assert shown_cards(find_melds(hand, "H", SINGLE)) == Counter(hand)


def test_has_marriage_any_suit() -> None:
    assert has_marriage(cards("KD QD 9S"))
    assert not has_marriage(cards("KD QS QH KC"))


# -- Check's meld checks (P11; Bicycle table) ------------------------------------

CHECK_CASES = [
    # (melds of one player, seed checks, bicycle checks), by hand from docs/rules/pinochle.md
    (["flush"], 2, 2),
    (["aces"], 2, 2),
    (["kings"], 1, 1),
    (["queens"], 1, 1),
    (["jacks"], 1, 1),
    (["double_pinochle"], 1, 2),
    (["pinochle", "royal_marriage", "marriage", "dix"], 0, 0),
    (["royal_marriage", "marriage", "marriage", "marriage", "kings", "queens"], 2, 5),
    (["flush", "aces", "kings"], 5, 5),
    # a double earns twice its single's checks: docs/rules/pinochle.md#choices-we-made
    (["double_flush"], 4, 4),
]


@pytest.mark.parametrize(("melds", "seed", "bicycle"), CHECK_CASES)
def test_meld_checks(melds: list[str], seed: int, bicycle: int) -> None:
    assert CHECK_TABLES["seed"].checks_for_melds(melds) == seed
    assert CHECK_TABLES["bicycle"].checks_for_melds(melds) == bicycle


@pytest.mark.parametrize(
    ("amount", "seed", "bicycle"),
    [(200, 2, 2), (240, 2, 2), (250, 4, 4), (290, 4, 4), (300, 7, 7), (350, 10, 10),
     (400, 13, 15), (440, 13, 15), (450, 16, 20), (500, 19, 25)],
)  # fmt: skip
def test_contract_check_bands(amount: int, seed: int, bicycle: int) -> None:
    """P13: 2/4/7/10/13 then +3 per 50 (seed); 2/4/7/10 then +5 per band (Bicycle)."""
    assert CHECK_TABLES["seed"].contract_checks(amount) == seed
    assert CHECK_TABLES["bicycle"].contract_checks(amount) == bicycle


def test_game_checks() -> None:
    """Game: 7 + 1 per 100 or part of the margin, + 4 if the losers are below zero."""
    seed = CHECK_TABLES["seed"]
    assert seed.game_checks(1000, 900) == 7 + 1
    assert seed.game_checks(1000, 899) == 7 + 2
    assert seed.game_checks(1050, -10) == 7 + 11 + 4
    assert CHECK_TABLES["bicycle"].game_checks(1050, -10) == 10 + 11 + 5

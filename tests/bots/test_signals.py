"""Parlett's signals (docs/bots/conventions.md, seed 000): encoding, reading, and whole hands.

Expected signals and readings are taken from the tables and examples of seed
000 ("Concerto signals"); the whole-hand scores are worked by hand from
docs/rules/concerto.md scoring.
"""

from __future__ import annotations

import json
import random
import re

import pytest

from bots.concerto_signals import (
    CHECKLIST,
    SignalsBot,
    _sf_holdings,
    card_at,
    choose_signal,
    convention_card,
    coords,
    holdings,
    read_signal,
    sf3_cards,
    sf4_cards,
    sf_candidates,
)
from bots.tools.arena import arena_view
from server.games import concerto
from server.games.kit.cards import STANDARD

NOTHING_SEEN: frozenset[str] = frozenset()


# -- the straight-flush table (seed 000), positions with A = 1 --------------------


@pytest.mark.parametrize(("window_low", "missing", "shown"), [
    (1, 1, (2, 5)),   # 2-3-4-5 held, four in sequence: L xx H, "2-5"
    (2, 6, (2, 5)),   # the same holding seen from the window 2..6
    (1, 2, (3, 5)),   # A-3-4-5: three in sequence and one lower: L x H, "3-5"
    (3, 6, (3, 5)),   # 3-4-5-7: three in sequence and one higher: L x H, "3-5"
    (1, 3, (5, 2)),   # 5-4-2-A: one missing between: H xx L, "5-2"
])  # fmt: skip
def test_four_to_a_straight_flush_is_shown_as_in_the_table(window_low, missing, shown) -> None:
    assert sf4_cards(range(window_low, window_low + 5), missing) == shown


@pytest.mark.parametrize(("held", "shown"), [
    ((4, 5, 7), (4, 5)),  # LH "4-5": two in sequence, one higher
    ((4, 5, 8), (4, 5)),
    ((2, 4, 5), (5, 4)),  # HL "5-4": two in sequence, one lower
    ((1, 4, 5), (5, 4)),  # 5-4-A
    ((3, 4, 5), (5, 3)),  # H x L "5-3": three in sequence
    ((1, 3, 5), (5, 1)),  # H xxx L "5-A": none consecutive
])  # fmt: skip
def test_three_to_a_straight_flush_is_shown_as_in_the_table(held, shown) -> None:
    assert sf3_cards(held) == shown


def test_reading_a_straight_flush_signal_lists_what_the_leader_lacks() -> None:
    as_sets = lambda pairs: {(tuple(sorted(h)), tuple(sorted(n))) for h, n in pairs}  # noqa: E731
    assert as_sets(sf_candidates(2, 5)) == {((2, 3, 4, 5), (1,)), ((2, 3, 4, 5), (6,))}
    assert as_sets(sf_candidates(5, 2)) == {((1, 2, 4, 5), (3,))}
    assert as_sets(sf_candidates(5, 1)) == {((1, 3, 5), (2, 4))}
    assert as_sets(sf_candidates(1, 5)) == {((1, 2, 3, 4, 5), ())}
    assert as_sets(sf_candidates(5, 3)) == {((3, 4, 5), (1, 2)), ((3, 4, 5), (2, 6)),
                                             ((3, 4, 5), (6, 7))}  # fmt: skip


# -- the leader's checklist ----------------------------------------------------------


@pytest.mark.parametrize(("hand", "holding", "first", "then", "second"), [
    ("AS 2S 3S 4S 5S 9H JD 2C", "straight_flush_5", "AS", "card", "5S"),
    ("7S 7H 7D 7C 2S 9D", "fours", "7H", "card", "7D"),
    ("9H 9D 9S 4C 4D KS", "full_house", "9S", "card", "4D"),   # threes first, two colours
    ("9H 9D 9C 2S 6D JS", "threes", "9H", "pass", None),       # red and pass, the heart
    ("9S 9D 9C 2S 6D JH", "threes", "9D", "pass", None),       # no heart: the diamond
    ("9H 9D 2C 2S 6D JS", "two_pairs", "9D", "card", "9H"),     # red pair: minor-major
    ("9H 9D KC KS 6D 2S", "two_pairs", "KC", "card", "KS"),
    ("9H 9D 4C JS", "pair", "9D", "pass", None),                # both red: the diamond
    ("9H 9S 4C JD", "pair", "9S", "pass", None),                # black and pass
    ("2S 6H TD KC", "nothing", "2S", "force", None),
])  # fmt: skip
def test_the_leader_signals_the_first_holding_of_the_checklist(
    hand, holding, first, then, second
) -> None:
    signal = choose_signal(hand.split(), NOTHING_SEEN)
    assert (signal.holding, signal.first, signal.then, signal.second) == (
        holding,
        first,
        then,
        second,
    )


def test_two_pairs_are_never_shown_heart_then_diamond() -> None:
    # heart then diamond of one rank means fours: the red pair is shown diamond first
    signal = choose_signal(["9H", "9D", "4C", "4S", "2C", "6S"], NOTHING_SEEN)
    assert (signal.holding, signal.first, signal.second) == ("two_pairs", "9D", "9H")


def test_a_dead_straight_flush_is_not_signalled() -> None:
    hand = ["2S", "3S", "4S", "5S", "9H", "JD", "KC"]
    assert choose_signal(hand, NOTHING_SEEN).holding == "straight_flush_4"
    # both cards that would complete it are already among the completed hands
    assert choose_signal(hand, frozenset({"AS", "6S"})).holding != "straight_flush_4"


def live_windows(hand: list[str], seen: frozenset[str], size: int) -> list[tuple[str, range]]:
    """The straight-flush scan spelled out card by card (the reference for the bit masks):
    windows of five positions (the ace at both ends), higher first, holding exactly
    ``size`` of our cards and none of whose missing cards has been played."""
    found = []
    for suit in "SHDC":
        held = {c for card in hand if card[1] == suit for c in coords(card)}
        for lo in range(10, 0, -1):
            window = range(lo, lo + 5)
            missing = [card_at(c, suit) for c in window if c not in held]
            if sum(c in held for c in window) == size and not any(m in seen for m in missing):
                found.append((suit, window))
    return found


def test_the_straight_flush_scan_matches_its_card_by_card_reference() -> None:
    rng = random.Random(5)
    deck = list(STANDARD.cards())
    for _ in range(2000):
        rng.shuffle(deck)
        size = rng.randint(2, 13)
        hand, seen = deck[:size], frozenset(deck[size : size + rng.randint(0, 30)])
        for want in (3, 4, 5):
            assert _sf_holdings(hand, seen, want) == live_windows(hand, seen, want)


def test_the_checklist_lists_every_holding_once_and_ends_with_nothing() -> None:
    rng = random.Random(9)
    deck = list(STANDARD.cards())
    for _ in range(500):
        rng.shuffle(deck)
        hand = deck[: rng.randint(1, 13)]
        listed = list(holdings(hand, NOTHING_SEEN))
        assert listed[0] == choose_signal(hand, NOTHING_SEEN)
        assert listed[-1].holding == "nothing"
        names = [s.holding for s in listed]
        assert len(names) == len(set(names))
        assert names == sorted(names, key=CHECKLIST.index)  # found in the card's order


# -- the partner's reading (seed 000 "Examples") -------------------------------------


@pytest.mark.parametrize(("first", "then", "second", "meaning"), [
    ("4H", "card", "4S", "two_pairs"),         # red 4, black 4: holds another pair
    ("4H", "card", "7S", "full_house"),        # red 4, black 7: full house of 4s over 7s
    ("4H", "card", "JS", "full_house"),        # red 4, black J: full house, 4s over Jacks
    ("4D", "card", "JD", "flush_5"),           # 4 then J of diamonds: five diamonds
    ("JD", "card", "4D", "two_pairs_ranks"),   # J then 4 of diamonds: J-J-4-4
    ("8S", "card", "4S", "straight_flush"),    # same suit in range: 3+ to a SF or a flush
    ("7H", "card", "7D", "fours"),
    ("7H", "pass", None, "threes"),
    ("7S", "pass", None, "pair"),
    ("2C", "force", None, "nothing"),
])  # fmt: skip
def test_the_partner_reads_the_signal(first, then, second, meaning) -> None:
    assert read_signal(first, then, second, NOTHING_SEEN).meaning == meaning


def test_visible_cards_rule_out_a_full_house() -> None:
    # Two more fours are visible: the leader cannot hold threes of fours.
    reading = read_signal("4H", "card", "7S", frozenset({"4C", "4D"}))
    assert reading.meaning == "straight"


# -- whole hands through the engine -----------------------------------------------------


def deal_with(north: str, south: str) -> list[list[str]]:
    """Dealer West (3), so North leads hand 1; East and West share the other cards."""
    n, s = north.split(), south.split()
    rest = [c for c in STANDARD.cards() if c not in n + s]
    assert len(n) == len(s) == 13 and len(rest) == 26
    return [n, rest[:13], s, rest[13:]]


def play_first_hand(hands: list[list[str]], rules: str = "parlett-2013") -> tuple[dict, list]:
    """Four signals bots play hand 1; returns the completed hand and the moves made."""
    state = concerto.new_state({"rules": rules}, "scenario", deals=[{"dealer": 3, "hands": hands}])
    bots = [SignalsBot(random.Random(seat)) for seat in range(4)]
    moves = []
    while not state.completed_hands:
        seat = state.to_move()[0]
        move = bots[seat].choose_move(arena_view(state, seat, "concerto", "s", {}))
        moves.append(("NESW"[seat], move.get("card", move["type"])))
        state.apply(seat, move)
    return state.completed_hands[0], moves


def test_partner_completes_four_to_a_straight_flush() -> None:
    north = "2S 3S 4S 5S 9H JH 6H KD 8D 2D 3C 7C QC"
    south = "6S 8S AH QH TH 4D 5D 9D AC 2C 5C 8C TC"
    hand, moves = play_first_hand(deal_with(north, south))
    assert moves[:4] == [("N", "2S"), ("S", "pass"), ("N", "5S"), ("S", "6S")]
    assert hand["combination"] == "straight_flush"
    assert hand["points"] == 15  # leader 4 + partner 1 (docs/rules/concerto.md)


def test_two_pairs_become_fours_two_and_two() -> None:
    north = "8S 9S KS 3H 7H QH 4D 9D AD 2C 6C 7C JC"
    south = "9H 9C 2S 3S 5H 8H 2D 6D TD 3C 4C TC KC"
    hand, moves = play_first_hand(deal_with(north, south))
    assert moves[:3] == [("N", "9S"), ("S", "pass"), ("N", "9D")]
    assert [c for s, c in moves if s == "S" and c[0] == "9"] == ["9H", "9C"]
    assert (hand["combination"], hand["points"]) == ("fours", 16)  # 2 + 2


def test_red_and_pass_threes_become_fours_three_and_one() -> None:
    north = "7H 7D 7S 2S 9S KS 3H JH 4D TD 5C 8C QC"
    south = "7C 2H 5H 2D 3D 5D 8D AS 3S 6C 9C JC KC"
    hand, moves = play_first_hand(deal_with(north, south))
    assert moves[:4] == [("N", "7H"), ("S", "pass"), ("N", "pass"), ("S", "7C")]
    assert (hand["combination"], hand["points"]) == ("fours", 12)  # 3 + 1


# -- the convention card ---------------------------------------------------------------

_READS_AS = {
    "straight_flush_5": "straight_flush", "straight_flush_4": "straight_flush",
    "straight_flush_3": "straight_flush", "flush_4": "straight_flush",
    "flush_3": "straight_flush", "straight_5": "straight", "straight_4": "straight",
    "straight_3": "straight",
}  # fmt: skip


def test_the_convention_card_is_machine_readable_and_matches_the_bot() -> None:
    card = convention_card()
    assert json.loads(json.dumps(card)) == card
    listed = {entry["holding"] for entry in card["signals"]}
    assert listed == set(card["leader"]["checklist"])
    for entry in card["signals"]:
        first, then = re.match(r"(\w\w) then (pass|'Play'|\w\w)", entry["example"]).groups()
        kind = {"pass": "pass", "'Play'": "force"}.get(then, "card")
        reading = read_signal(first, kind, then if kind == "card" else None, NOTHING_SEEN)
        expected = _READS_AS.get(entry["holding"], entry["holding"])
        assert reading.meaning == expected, entry


def test_every_signal_sent_is_read_as_sent_unless_the_cards_say_otherwise() -> None:
    """Over random hands the partner's reading matches the leader's holding.

    The one ambiguity of Parlett's table left: threes without the heart are
    shown by the diamond, like a red pair, and read as a pair unless the
    partner holds the heart.
    """
    rng = random.Random(11)
    mismatches = []
    for _ in range(3000):
        deck = STANDARD.cards()
        rng.shuffle(deck)
        size = rng.choice((13, 10, 7, 4))
        signal = choose_signal(deck[:size], NOTHING_SEEN)
        reading = read_signal(signal.first, signal.then, signal.second, frozenset(deck[13:26]))
        expected = _READS_AS.get(signal.holding, signal.holding)
        if reading.meaning != expected and (signal.holding, reading.meaning) not in (
            ("flush_5", "straight_flush"),   # five flush shown in range: same answer
            ("straight_5", "straight_flush"),  # straight of one suit at the ends: 'Play'
            ("threes", "pair"),
        ):  # fmt: skip
            mismatches.append((deck[:size], signal, reading))
    assert not mismatches, mismatches[:3]

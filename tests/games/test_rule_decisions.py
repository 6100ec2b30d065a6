"""The choices the rulebooks leave open, pinned by hand-computed cases.

Each test states the decision as docs/rules/ words it; the expected values come
from that text, worked by hand, not from the engine's output.
"""

from __future__ import annotations

import pytest

from server.games.kit.base import IllegalMove
from server.games.pinochle import State
from server.games.pinochle import new_state as pinochle
from server.games.seconds import winning_seats

# A Firehouse deal with dealer W (seat 3): any 48-card split will do for bidding.
HANDS = [
    "AS QS 9S AH KH QH AD JD 9D AC JC 9C",
    "AS TS 9S AH TH 9H KD QD JD AC QC JC",
    "KS TS JS KH TH 9H KD TD 9D KC TC 9C",
    "KS QS JS QH JH JH AD TD QD TC KC QC",
]


def firehouse_all_passed() -> State:
    preset = {"dealer": 3, "hands": [h.split() for h in HANDS]}
    s = pinochle({"variant": "firehouse"}, "decisions", [preset])
    for seat in (0, 1, 2):
        s.apply(seat, {"type": "pass"})
    return s


def test_firehouse_all_pass_the_dealer_must_bid_and_may_bid_more() -> None:
    """docs/rules/pinochle.md#p9: "held to 200" means the dealer may not pass; 200 is the
    least the dealer may bid, and like any bidder the dealer may bid more (up to 1500)."""
    s = firehouse_all_passed()
    moves = s.legal_moves(3)
    assert {"type": "pass"} not in moves
    amounts = [m["amount"] for m in moves]
    assert amounts == list(range(200, 1501, 10))  # 200, 210, …, 1500: 131 bids
    assert len(amounts) == (1500 - 200) // 10 + 1
    with pytest.raises(IllegalMove):
        s.apply(3, {"type": "pass"})


@pytest.mark.parametrize("amount", [200, 250])
def test_firehouse_all_pass_the_dealers_bid_is_the_contract(amount: int) -> None:
    s = firehouse_all_passed()
    s.apply(3, {"type": "bid", "amount": amount})
    assert s.contract == {"bidder": 3, "amount": amount}
    assert s.phase == "trump" and s.to_move() == [3]


@pytest.mark.parametrize(
    ("scores", "winner", "expected"),
    [
        # docs/rules/seconds.md#s6: rank the four scores high to low and read the
        # winning place positionally; every seat with that score shares the win.
        ([50, 50, 40, 30], "second-highest", (0, 1)),  # places 1-2 are both 50
        ([50, 50, 40, 30], "highest", (0, 1)),
        ([50, 40, 40, 30], "second-highest", (1, 2)),  # places 2-3 are both 40
        ([60, 50, 40, 30], "second-highest", (1,)),
        ([30, 60, 60, 60], "second-highest", (1, 2, 3)),  # places 1-3 are 60
        ([20, 20, 20, 20], "second-highest", ()),  # all four share it: a draw
    ],
)
def test_seconds_ties_share_the_place_they_occupy(
    scores: list[int], winner: str, expected: tuple[int, ...]
) -> None:
    assert winning_seats(scores, winner) == expected


def test_double_deck_last_trick_is_worth_20() -> None:
    """docs/rules/pinochle.md#double-deck-last-trick: 10 per pack, so a double-deck deal
    is worth 2 × 240 in the cards + 20 = 500 counters (tests/games/test_double_deck_deal.py
    plays a whole deal to that total)."""
    s = pinochle({"variant": "double-deck", "players": 6}, "decisions")
    per_pack = s.options.counting.last_trick
    assert per_pack * s.rules.packs == 20
    pack = [c for h in s.hands for c in h]
    assert len(pack) == 96
    assert s.options.counting.card_points(pack) + 20 == 500

"""One double-deck deal for eight players, built by hand and played to the end of the game.

Every number below is worked by hand from docs/rules/pinochle.md, never read off
the engine. Seats 0, 2, 4, 6 are side A and 1, 3, 5, 7 side B; seat 1 deals,
so seat 2 (the dealer's left) is eldest. Each player holds half of one suit:
two each of A T K Q J 9.

====  =====  ======================================================
seat  side   hand (before the exchange)
====  =====  ======================================================
0     A      AH AH TH TH KH KH QH QH JH JH 9H 9H
1     B      AH AH TH TH KH KH QH QH JH JH 9H 9H  (dealer; turns up AH)
2/3   A/B    AS AS TS TS KS KS QS QS JS JS 9S 9S
4/5   A/B    the same in diamonds
6/7   A/B    the same in clubs
====  =====  ======================================================

The turned AH makes hearts trumps. Seats 2…7 are asked first and keep; seat 0
exchanges a 9H for the AH (docs/rules/pinochle.md#p5). Hearts, then:
seat 0 AH×3 TH×2 KH×2 QH×2 JH×2 9H, seat 1 AH TH×2 KH×2 QH×2 JH×2 9H×3.

Melds (docs/rules/pinochle.md#p20, #p4):
* seat 0: double flush 1500 (the third AH is spare); its two original dixes 20 → 1520;
* seat 1: flush + royal marriage would be 150 + 40 = 190, the double marriage of
  trumps (both K-Q) 300 is better; its two original dixes 20 (the dix it received
  scores for seat 0) → 320;
* seats 2…7: a double marriage of their suit, 300 each; no other meld.
Side A: 1520 + 3 × 300 = 2420. Side B: 320 + 3 × 300 = 1220.
"""

from __future__ import annotations

from typing import Any

from server.games.pinochle import State, new_state

SUITS = {0: "H", 1: "H", 2: "S", 3: "S", 4: "D", 5: "D", 6: "C", 7: "C"}
DEALER = 1


def half_suit(suit: str) -> list[str]:
    return [rank + suit for rank in "AATTKKQQJJ99"]


def start() -> State:
    hands = [half_suit(SUITS[seat]) for seat in range(8)]
    preset = {"dealer": DEALER, "hands": hands, "turn_up": "AH"}
    return new_state({"variant": "double-deck", "players": 8}, "dd", [preset])


# The twelve tricks: leader, the two hearts (seat 0's, seat 1's), the rank the six
# other players play (all the same), the winner. Counters are traditional:
# A 11, T 10, K 4, Q 3, J 2, 9 0.
#   trick  hearts      others       total  winner
TRICKS = [
    (2, "AH", "9H", "9", 0),  # 11 + 0        = 11   A (seat 1 cannot beat AH)
    (0, "AH", "9H", "9", 0),  # 11 + 0        = 11   A
    (0, "AH", "9H", "J", 0),  # 11 + 6×2      = 23   A
    (0, "9H", "AH", "J", 1),  # 11 + 12       = 23   B (seat 1 must beat 9H)
    (1, "JH", "TH", "Q", 1),  # 12 + 6×3      = 30   B (seat 0 has no A left)
    (1, "JH", "TH", "Q", 1),  # 12 + 18       = 30   B
    (1, "TH", "KH", "K", 0),  # 14 + 6×4      = 38   A (seat 0 must beat KH)
    (0, "TH", "JH", "K", 0),  # 12 + 24       = 36   A
    (0, "KH", "JH", "T", 0),  # 6 + 6×10      = 66   A
    (0, "QH", "KH", "T", 1),  # 7 + 60        = 67   B (seat 1 must beat QH)
    (1, "KH", "QH", "A", 0),  # 7 + 6×11      = 73   A (seat 0 must beat QH)
    (0, "QH", "QH", "A", 0),  # 6 + 66 + 20   = 92   A, the first QH; last trick 20
]
# Side B: 23 + 30 + 30 + 67 = 150. Side A: 11 + 11 + 23 + 38 + 36 + 66 + 73 + 92 = 350.
# Together 500: 480 in the cards of the double pack and 20 for the last trick.


def act(state: State, seat: int, move: dict[str, Any]) -> list[Any]:
    assert state.to_move() == [seat], f"{state.to_move()} to move, expected {seat}"
    return state.apply(seat, move)


def trick_cards(leader: int, heart0: str, heart1: str, rank: str) -> list[tuple[int, str]]:
    """The trick in playing order from ``leader``."""
    card = {0: heart0, 1: heart1}
    order = [(leader + i) % 8 for i in range(8)]
    return [(s, card.get(s, rank + SUITS[s])) for s in order]


def play_deal(state: State) -> list[Any]:
    for seat in (2, 3, 4, 5, 6, 7):
        act(state, seat, {"type": "keep"})
    events = act(state, 0, {"type": "exchange_dix"})
    for leader, heart0, heart1, rank, winner in TRICKS:
        for seat, card in trick_cards(leader, heart0, heart1, rank):
            events += act(state, seat, {"type": "play", "card": card})
        done = [e for e in events if e.kind == "trick"][-1]
        assert done.data["winner"] == winner, done.data
    return events


def test_the_exchange_and_the_melds() -> None:
    s = start()
    assert s.trump == "H" and s.phase == "exchange"
    for seat in (2, 3, 4, 5, 6, 7):  # nobody else holds a dix: each keeps
        act(s, seat, {"type": "keep"})
    act(s, 0, {"type": "exchange_dix"})
    assert sorted(s.hands[0]).count("AH") == 3 and s.hands[0].count("9H") == 1
    assert s.hands[1].count("AH") == 1 and s.hands[1].count("9H") == 3
    assert s.meld_points() == [1520, 320, 300, 300, 300, 300, 300, 300]
    assert s.to_move() == [2]  # eldest leads


def test_the_deal_and_the_game_end() -> None:
    s = start()
    events = play_deal(s)
    deal_end = next(e for e in events if e.kind == "deal_end").data
    assert deal_end["melds"] == [2420, 1220]
    assert deal_end["tricks"] == [8, 4]
    assert deal_end["counters"] == [350, 150]
    assert sum(deal_end["counters"]) == 500  # the last trick is worth 20 with two packs
    assert deal_end["made"] == [2420 + 350, 1220 + 150]
    # Both sides pass 1000 in one deal: the higher wins (docs/rules/pinochle.md#p18).
    assert s.is_over()
    over = events[-1]
    assert over.kind == "game_over"
    assert over.data["winners"] == [0, 2, 4, 6]
    assert over.data["scores"] == [2770, 1370] * 4

"""Pinochle rules move by move: deal, dix exchange, auctions, head rules, scoring, checks.

Every expected number is worked by hand from docs/rules/pinochle.md in the comments
beside it. Deals are preset (``deals=``) so the hands are known exactly.

The main hand-built deal, ``CHECK_DEAL`` (dealer W = seat 3), has three cards
of every suit in every hand, so every trick below is followed by all four
players and the winners can be read off by rank:

====  ========================================================
N 0   AS QS 9S | AH KH QH | AD JD 9D | AC JC 9C
E 1   AS TS 9S | AH TH 9H | KD QD JD | AC QC JC
S 2   KS TS JS | KH TH 9H | KD TD 9D | KC TC 9C
W 3   KS QS JS | QH JH JH | AD TD QD | TC KC QC
====  ========================================================

With hearts trumps the melds are (class rule P20): N royal marriage 40 +
100 aces + pinochle 40 = 180; E diamond marriage 20 + dix 10 = 30; S 80 kings
+ dix 10 = 90; W spade and club marriages 40 + 60 queens = 100. So NS 270,
EW 130.
"""

from __future__ import annotations

from typing import Any

import pytest

from server.games.kit.base import (
    GameOver,
    IllegalMove,
    InvalidDeal,
    InvalidOptions,
    MalformedMove,
    NotYourTurn,
)
from server.games.kit.cards import DOUBLE_PINOCHLE, PINOCHLE, derived_rng, shuffled
from server.games.pinochle import State, new_state

N, E, S, W = 0, 1, 2, 3

CHECK_DEAL = [
    "AS QS 9S AH KH QH AD JD 9D AC JC 9C",
    "AS TS 9S AH TH 9H KD QD JD AC QC JC",
    "KS TS JS KH TH 9H KD TD 9D KC TC 9C",
    "KS QS JS QH JH JH AD TD QD TC KC QC",
]

# The twelve tricks of CHECK_DEAL with hearts trumps, leader first, and the winner.
# Trick 4 (trumps led): S must beat 9H (TH), W cannot beat TH (JH), N must (AH).
CHECK_TRICKS = [
    (N, "AS 9S JS JS", N),  # AS 10 (simple count)               NS 10
    (N, "9S AS KS QS", E),  # 10 + 5 + 5                         EW 20
    (E, "TS TS KS QS", E),  # the first TS wins; 10+10+5+5       EW 30
    (E, "9H TH JH AH", N),  # 10 + 10                            NS 20
    (N, "KH TH 9H JH", E),  # 5 + 10                             EW 15
    (E, "AH KH QH QH", E),  # 10 + 5 + 5 + 5                     EW 25
    (E, "JD 9D AD 9D", W),  # 10                                 EW 10
    (W, "TD AD KD TD", N),  # 10 + 10 + 5 + 10                   NS 35
    (N, "JD QD KD QD", S),  # 5 + 5 + 5                          NS 15
    (S, "9C QC AC AC", N),  # the first AC wins; 5 + 10 + 10     NS 25
    (N, "9C QC KC KC", S),  # the first KC wins; 5 + 5 + 5       NS 15
    (S, "TC TC JC JC", S),  # 10 + 10 + last trick 10            NS 30
]
# Counters: NS 10+20+35+15+25+15+30 = 150, EW 20+30+15+25+10 = 100 (total 250).

# N holds every heart; E all spades, S all diamonds, W all clubs.
ALL_HEARTS_DEAL = [
    "AH AH TH TH KH KH QH QH JH JH 9H 9H",
    "AS AS TS TS KS KS QS QS JS JS 9S 9S",
    "AD AD TD TD KD KD QD QD JD JD 9D 9D",
    "AC AC TC TC KC KC QC QC JC JC 9C 9C",
]


def cards(text: str) -> list[str]:
    return text.split()


def deal(hands: list[str], dealer: int, turn_up: str | None = None) -> dict[str, Any]:
    preset: dict[str, Any] = {"dealer": dealer, "hands": [cards(h) for h in hands]}
    if turn_up is not None:
        preset["turn_up"] = turn_up
    return preset


def game(variant: str, hands: list[str], dealer: int, turn_up: str | None = None,
         **options: Any) -> State:  # fmt: skip
    return new_state({"variant": variant, **options}, "test", [deal(hands, dealer, turn_up)])


def act(state: State, seat: int, move: dict[str, Any]) -> list[Any]:
    assert state.to_move() == [seat], f"{state.to_move()} to move, expected {seat}"
    return state.apply(seat, move)


def bid(state: State, seat: int, amount: int | None) -> list[Any]:
    move = {"type": "pass"} if amount is None else {"type": "bid", "amount": amount}
    return act(state, seat, move)


def play(state: State, seat: int, card: str) -> list[Any]:
    return act(state, seat, {"type": "play", "card": card})


def play_tricks(state: State, tricks: list[tuple[int, str, int]]) -> list[Any]:
    """Play the tricks, checking each one's winner; return all the events."""
    events = []
    for leader, trick, winner in tricks:
        for i, card in enumerate(cards(trick)):
            events += play(state, (leader + i) % 4, card)
        done = [e for e in events if e.kind == "trick"][-1]
        assert done.data["winner"] == winner, (trick, done.data)
    return events


def cards_of(moves: list[dict[str, Any]]) -> set[str]:
    return {m["card"] for m in moves}


def deal_end(events: list[Any]) -> dict[str, Any]:
    return next(e for e in events if e.kind == "deal_end").data


def check_deal_to_play(amount: int = 250, **options: Any) -> State:
    """CHECK_DEAL as Check: N bids, E S W pass, N names hearts."""
    s = game("check", CHECK_DEAL, W, **options)
    bid(s, N, amount)
    bid(s, E, None)
    assert s.legal_moves(S) == [{"type": "pass"}]  # P15: S holds no marriage
    bid(s, S, None)
    bid(s, W, None)
    assert s.contract == {"bidder": N, "amount": amount}
    act(s, N, {"type": "trump", "suit": "H"})
    return s


# ---------------------------------------------------------------------------
# The deal
# ---------------------------------------------------------------------------


def test_four_players_are_dealt_in_threes_from_the_dealers_left() -> None:
    s = new_state({"first_dealer": 1}, "deal-seed")
    pack = shuffled(PINOCHLE, derived_rng("deal-seed", "deal", 0))
    packets = [pack[i : i + 3] for i in range(0, 48, 3)]
    for seat in range(4):
        mine = [c for i, p in enumerate(packets) if (2 + i) % 4 == seat for c in p]
        assert sorted(s.hands[seat]) == sorted(mine)
    assert s.turn_up == pack[-1] and s.turn_up in s.hands[1]  # the dealer's last card
    assert s.trump == pack[-1][1]


@pytest.mark.parametrize(("players", "each"), [(6, 16), (8, 12)])
def test_double_deck_is_dealt_in_fours(players: int, each: int) -> None:
    s = new_state({"variant": "double-deck", "players": players, "first_dealer": 0}, "dd")
    pack = shuffled(DOUBLE_PINOCHLE, derived_rng("dd", "deal", 0))
    packets = [pack[i : i + 4] for i in range(0, 96, 4)]
    for seat in range(players):
        mine = [c for i, p in enumerate(packets) if (1 + i) % players == seat for c in p]
        assert len(s.hands[seat]) == each and sorted(s.hands[seat]) == sorted(mine)
    assert s.turn_up == pack[-1] and s.turn_up in s.hands[0]
    sides = [list(range(0, players, 2)), list(range(1, players, 2))]
    assert s.view(None)["state"]["sides"] == sides


def test_the_deal_passes_to_the_left() -> None:
    s = new_state({"variant": "firehouse", "first_dealer": 2, "target": 100000}, "x")
    dealers = [s.dealer]
    while len(dealers) < 3:
        (seat,) = s.to_move()
        s.apply(seat, s.legal_moves(seat)[0])  # all pass; the dealer is held to 200
        if s.dealer != dealers[-1]:
            dealers.append(s.dealer)
    assert dealers == [2, 3, 0]


# ---------------------------------------------------------------------------
# The turned card and the dix (P5)
# ---------------------------------------------------------------------------


def test_dix_exchange_asks_every_seat_and_the_first_taker_ends_it() -> None:
    """Turn-up QD (W's card): N and S hold the 9D; E holds none and may only keep."""
    s = game("partnership", CHECK_DEAL, W, turn_up="QD")
    assert s.phase == "exchange" and s.trump == "D"
    assert s.view(E)["state"]["exposed"][W] == ["QD"]  # the turned card is the dealer's
    assert s.legal_moves(N) == [{"type": "exchange_dix"}, {"type": "keep"}]
    act(s, N, {"type": "keep"})
    assert s.legal_moves(E) == [{"type": "keep"}]
    with pytest.raises(IllegalMove, match="no dix"):
        s.apply(E, {"type": "exchange_dix"})
    act(s, E, {"type": "keep"})
    events = act(s, S, {"type": "exchange_dix"})
    assert [e.kind for e in events] == ["exchange", "melds"]
    assert events[0].data == {"seat": S, "gave": "9D", "took": "QD"}
    assert "QD" in s.hands[S] and "9D" not in s.hands[S]
    assert "9D" in s.hands[W] and "QD" not in s.hands[W]
    # Diamonds trumps, melds after the exchange:
    # N: heart marriage 20 + 100 aces + pinochle 40 + his own dix 10 = 170.
    # E: royal marriage KD QD 40.
    # S: royal marriage KD QD(taken) 40 + 80 kings + the dix he gave away, still his: 10 = 130.
    # W: spade and club marriages 40; no 60 queens any more (QD gone); the dix he
    #    received is not his original dix: 0. Total 40.
    assert s.meld_points() == [170, 40, 130, 40]
    exposed = s.view(None)["state"]["exposed"]
    assert sorted(exposed[W]) == sorted(cards("9D KS QS KC QC"))
    assert sorted(exposed[S]) == sorted(cards("KS KH KD QD KC"))
    assert s.phase == "play" and s.to_move() == [N]  # eldest leads


def test_nobody_exchanges() -> None:
    s = game("partnership", CHECK_DEAL, W, turn_up="QD")
    for seat in (N, E, S):
        act(s, seat, {"type": "keep"})
    # W keeps QD: queens around 60 + two marriages 40 = 100; N and S each their dix.
    assert s.meld_points() == [170, 40, 90, 100]
    assert s.exchange is None and s.to_move() == [N]


def test_a_turned_dix_scores_for_the_dealer_and_melds_are_shown_at_once() -> None:
    s = game("partnership", CHECK_DEAL, S, turn_up="9H")
    assert s.phase == "play" and s.to_move() == [W]
    kinds = [e.kind for e in s.opening_events()]
    assert kinds == ["deal", "hand", "hand", "hand", "hand", "melds"]
    # Hearts trumps: S 80 kings + the turned dix 10; E's dix 10 + marriage KD QD 20.
    assert s.meld_points() == [180, 30, 90, 100]


# ---------------------------------------------------------------------------
# Auctions
# ---------------------------------------------------------------------------


def test_firehouse_one_bid_each_above_the_last() -> None:
    s = game("firehouse", CHECK_DEAL, W)
    bid(s, N, 200)
    with pytest.raises(IllegalMove, match="above the standing bid of 200"):
        s.apply(E, {"type": "bid", "amount": 200})
    with pytest.raises(IllegalMove, match="multiples of 10"):
        s.apply(E, {"type": "bid", "amount": 215})
    bid(s, E, 250)
    bid(s, S, 260)  # Firehouse needs no marriage
    events = bid(s, W, None)
    assert events[-1].kind == "contract" and events[-1].data == {"bidder": S, "amount": 260}
    assert s.phase == "trump" and s.to_move() == [S]
    assert [b["amount"] for b in s.view(E)["state"]["bids"]] == [200, 250, 260, None]


def test_firehouse_all_pass_holds_the_dealer_to_200() -> None:
    """P9: the dealer has no pass when everyone else passed."""
    s = game("firehouse", CHECK_DEAL, W)
    for seat in (N, E, S):
        bid(s, seat, None)
    moves = s.legal_moves(W)
    assert {"type": "pass"} not in moves and moves[0] == {"type": "bid", "amount": 200}
    with pytest.raises(IllegalMove, match="the dealer must bid"):
        s.apply(W, {"type": "pass"})
    bid(s, W, 200)
    assert s.contract == {"bidder": W, "amount": 200}


def test_check_auction_passed_players_are_out() -> None:
    s = game("check", CHECK_DEAL, W)
    bid(s, N, 200)
    bid(s, E, None)
    bid(s, S, None)
    bid(s, W, 210)
    bid(s, N, 220)  # E and S are out: back to W
    events = bid(s, W, None)  # three have passed N's bid
    assert s.contract == {"bidder": N, "amount": 220} and events[-1].kind == "contract"
    assert s.to_move() == [N] and s.phase == "trump"


def test_check_needs_a_marriage_to_bid() -> None:
    """P15: S holds kings but no queens, so no marriage: pass only."""
    s = game("check", CHECK_DEAL, W)
    bid(s, N, None)
    bid(s, E, None)
    assert s.legal_moves(S) == [{"type": "pass"}]
    with pytest.raises(IllegalMove, match="you need a marriage"):
        s.apply(S, {"type": "bid", "amount": 200})


def test_check_all_three_pass_the_dealer_must_bid_200_without_a_marriage() -> None:
    """P16: with S dealing, W N E pass; S (no marriage) must bid exactly 200."""
    s = game("check", CHECK_DEAL, S)
    for seat in (W, N, E):
        bid(s, seat, None)
    assert s.legal_moves(S) == [{"type": "bid", "amount": 200}]
    with pytest.raises(IllegalMove, match="dealer needs a marriage"):
        s.apply(S, {"type": "bid", "amount": 210})
    events = bid(s, S, 200)
    assert events[-1].data == {"bidder": S, "amount": 200}


def test_check_dealer_with_a_marriage_may_bid_higher_when_all_pass() -> None:
    s = game("check", CHECK_DEAL, W)
    for seat in (N, E, S):
        bid(s, seat, None)
    moves = s.legal_moves(W)
    assert {"type": "pass"} not in moves
    assert {"type": "bid", "amount": 200} in moves and {"type": "bid", "amount": 300} in moves
    bid(s, W, 300)
    assert s.contract == {"bidder": W, "amount": 300}


def test_the_bidder_names_trumps_and_leads() -> None:
    """P8."""
    s = game("firehouse", CHECK_DEAL, W)
    for seat, amount in ((N, None), (E, 200), (S, None), (W, None)):
        bid(s, seat, amount)
    assert s.legal_moves(E) == [{"type": "trump", "suit": x} for x in "SHDC"]
    events = act(s, E, {"type": "trump", "suit": "D"})
    assert [e.kind for e in events] == ["trump", "melds"]
    assert s.to_move() == [E] and s.leader == E


# ---------------------------------------------------------------------------
# Head rules (P6), move by move
# ---------------------------------------------------------------------------


def position(head_rule: str, hands: list[str], trump: str = "H") -> State:
    """A crafted mid-deal position: seat 0 to lead, the given hands, trumps fixed."""
    s = new_state({"variant": "firehouse", "head_rule": head_rule, "first_dealer": 3}, "pos")
    d = s.to_dict()
    d.update(phase="play", trump=trump, hands=[cards(h) for h in hands], trick=[], leader=0,
             turn=0, contract={"bidder": 0, "amount": 200}, melds=[[], [], [], []],
             exposed=[[], [], [], []], bids=[])  # fmt: skip
    return State.from_dict(d)


HANDS = ["KS QD 9C", "AS 9S 9D", "JH AH AD", "9H TH KD"]
# Trick 1: N leads KS; E holds AS 9S; S is void in spades with JH AH; W void with 9H TH.
# Trick 2: W leads 9H (trumps); N and E hold no hearts; S holds AH AD.
EXPECTED = {
    #             E after KS    S after AS    W after JH    N / E / S on the 9H lead
    "seed":       ({"AS", "9S"}, {"JH", "AH"}, {"TH"}, {"QD", "9C"}, {"9S", "9D"}, {"AH"}),
    "strict":     ({"AS"},       {"JH", "AH"}, {"TH"}, {"QD", "9C"}, {"9S", "9D"}, {"AH"}),
    "trump-only": ({"AS", "9S"}, {"JH", "AH"}, {"9H", "TH"}, {"QD", "9C"}, {"9S", "9D"},
                   {"AH"}),
}  # fmt: skip


@pytest.mark.parametrize("head_rule", ["seed", "strict", "trump-only"])
def test_head_rules_move_by_move(head_rule: str) -> None:
    exp = EXPECTED[head_rule]
    s = position(head_rule, HANDS)
    assert cards_of(s.legal_moves(N)) == {"KS", "QD", "9C"}
    play(s, N, "KS")
    assert cards_of(s.legal_moves(E)) == exp[0]  # follow suit; strict: beat the KS
    with pytest.raises(IllegalMove, match="follow suit"):
        s.apply(E, {"type": "play", "card": "9D"})
    if head_rule == "strict":
        with pytest.raises(IllegalMove, match="beat the winning card"):
            s.apply(E, {"type": "play", "card": "9S"})
    play(s, E, "AS")
    assert cards_of(s.legal_moves(S)) == exp[1]  # void: must trump (no trump to beat yet)
    with pytest.raises(IllegalMove, match="must play a trump"):
        s.apply(S, {"type": "play", "card": "AD"})
    play(s, S, "JH")
    assert cards_of(s.legal_moves(W)) == exp[2]  # seed, strict: overtrump the JH
    if head_rule != "trump-only":
        with pytest.raises(IllegalMove, match="beat the best trump"):
            s.apply(W, {"type": "play", "card": "9H"})
    play(s, W, "TH")
    assert s.tricks[-1]["winner"] == W  # TH over JH
    play(s, W, "9H")  # trumps led
    assert cards_of(s.legal_moves(N)) == exp[3]  # void in hearts, no trumps: anything
    play(s, N, "QD")
    assert cards_of(s.legal_moves(E)) == exp[4]
    play(s, E, "9D")
    assert cards_of(s.legal_moves(S)) == exp[5]  # trumps led: beat the 9H
    with pytest.raises(IllegalMove, match="follow suit"):
        s.apply(S, {"type": "play", "card": "AD"})
    play(s, S, "AH")
    assert s.tricks[-1]["winner"] == S


@pytest.mark.parametrize("head_rule", ["seed", "strict", "trump-only"])
def test_trumps_led_must_be_beaten_if_possible(head_rule: str) -> None:
    s = position(head_rule, ["KH 9S", "AH 9H 9D", "QH 9H AS", "AD TD KD"])
    play(s, N, "KH")
    assert cards_of(s.legal_moves(E)) == {"AH"}
    play(s, E, "AH")
    assert cards_of(s.legal_moves(S)) == {"QH", "9H"}  # cannot beat the AH: any trump
    play(s, S, "9H")
    assert cards_of(s.legal_moves(W)) == {"AD", "TD", "KD"}


def test_strict_following_a_trumped_trick_need_not_head() -> None:
    """The winning card is a trump: following suit cannot beat it, so any card of the suit."""
    s = position("strict", ["KS 9D", "9H 9C", "AS 9S", "AD TD"])
    play(s, N, "KS")
    play(s, E, "9H")
    assert cards_of(s.legal_moves(S)) == {"AS", "9S"}


def test_strict_cannot_overtrump_still_trumps() -> None:
    s = position("strict", ["KS 9D", "AH 9C", "9H QH AD", "AD TD"])
    play(s, N, "KS")
    play(s, E, "AH")
    assert cards_of(s.legal_moves(S)) == {"9H", "QH"}


def test_identical_cards_the_first_played_wins_and_is_listed_once() -> None:
    s = position("strict", ["AS KD", "AS AS KS", "9S 9D", "JS TD"])
    play(s, N, "AS")
    # Strict: nothing beats the AS (an identical AS does not), so any spade, each once.
    assert [m["card"] for m in s.legal_moves(E)] == ["AS", "KS"]
    play(s, E, "AS")
    assert s.hands[E] == ["AS", "KS"]  # one AS played, one kept
    play(s, S, "9S")
    play(s, W, "JS")
    assert s.tricks[-1]["winner"] == N


# ---------------------------------------------------------------------------
# A whole Check deal: melds, counters, contract, checks
# ---------------------------------------------------------------------------


def test_check_deal_scored_by_hand() -> None:
    s = check_deal_to_play(250)
    # Melds: N 180, E 30, S 90, W 100 (module docstring).
    assert s.meld_points() == [180, 30, 90, 100]
    # P11 meld checks when shown: N 100 aces 2, S 80 kings 1 → NS; W 60 queens 1 → EW.
    assert s.checks == [2, -2]
    end = deal_end(play_tricks(s, CHECK_TRICKS))
    assert end["tricks"] == [7, 5]
    assert end["counters"] == [150, 100]
    assert end["melds"] == [270, 130]
    # NS made 270 + 150 = 420 >= 250: scores all it made; EW 130 + 100 = 230.
    assert end["made"] == [420, 230] and end["points"] == [420, 230]
    assert end["contract"] == {"bidder": N, "amount": 250, "made": True}
    assert end["scores"] == [420, 230] and s.scores == [420, 230]
    # P13: 250-290 made → 4 checks: NS 2 + 4 = 6 net.
    assert s.checks == [6, -6]
    assert [e["reason"] for e in s.check_log] == ["melds", "melds", "melds", "contract"]
    assert s.outcome() is None and s.deal_number == 2 and s.dealer == N


def test_check_bidding_side_counted_first_ends_the_game() -> None:
    """Target 200: NS reach 420 first; EW's 230 would reach it too but score nothing."""
    s = check_deal_to_play(250, target=200)
    end = deal_end(play_tricks(s, CHECK_TRICKS))
    assert end["points"] == [420, 0] and end["counted"] == [True, False]
    outcome = s.outcome()
    assert outcome is not None and outcome.winners == (N, S)
    assert outcome.scores == (420, 0, 420, 0)
    # Checks: melds 2 net, contract 4, game 7 + 5 (420 over 0, per 100 or part) = 12.
    assert s.checks == [18, -18]
    assert s.to_move() == [] and s.legal_moves(N) == []
    with pytest.raises(GameOver):
        s.apply(N, {"type": "pass"})


@pytest.mark.parametrize(("table", "defeat"), [("seed", 32), ("bicycle", 40)])
def test_check_contract_defeated_pays_double(table: str, defeat: int) -> None:
    """N bids 450 and makes 420: NS lose 450. 450-490 is 16 checks (seed) / 20 (Bicycle),
    paid double to EW; NS kept 2 net from the melds."""
    s = check_deal_to_play(450, check_table=table)
    end = deal_end(play_tricks(s, CHECK_TRICKS))
    assert end["contract"]["made"] is False
    assert end["points"] == [-450, 230] and s.scores == [-450, 230]
    assert s.checks == [2 - defeat, defeat - 2]


def test_firehouse_scores_like_check_without_checks() -> None:
    """Firehouse counts traditionally: CHECK_TRICKS again with A 11 T 10 K 4 Q 3 J 2.

    NS: T1 AS JS JS 15; T4 TH JH AH 23; T8 TD AD KD TD 35; T9 JD QD KD QD 12;
    T10 QC AC AC 25; T11 QC KC KC 11; T12 TC TC JC JC 24 + last 10 = 34: 155.
    EW: T2 AS KS QS 18; T3 TS TS KS QS 27; T5 KH TH JH 16; T6 AH KH QH QH 21;
    T7 JD AD 13: 95. Total 250. NS made 270 + 155, EW 130 + 95.
    """
    s = game("firehouse", CHECK_DEAL, W)
    for seat, amount in ((N, 250), (E, None), (S, None), (W, None)):
        bid(s, seat, amount)
    act(s, N, {"type": "trump", "suit": "H"})
    end = deal_end(play_tricks(s, CHECK_TRICKS))
    assert end["counters"] == [155, 95]
    assert end["points"] == [270 + 155, 130 + 95]
    assert s.checks is None


# ---------------------------------------------------------------------------
# Meld needs a trick (P17); partnership game end (P18); slam
# ---------------------------------------------------------------------------


def all_hearts_partnership(target: int = 1000) -> State:
    """N deals and turns the AH; nobody else holds a dix, so all keep; E leads."""
    s = game("partnership", ALL_HEARTS_DEAL, N, turn_up="AH", target=target)
    for seat in (E, S, W):
        assert s.legal_moves(seat) == [{"type": "keep"}]
        act(s, seat, {"type": "keep"})
    # N: double flush 1500 + two dixes 20; E, S, W: two marriages 40 each.
    assert s.meld_points() == [1520, 40, 40, 40]
    return s


def finish_all_hearts(s: State, stop_before_last: bool = False) -> list[Any]:
    events = play(s, E, "AS")
    for seat in (S, W):  # void in spades and in trumps: anything
        assert cards_of(s.legal_moves(seat)) == set(s.hands[seat])
        events += play(s, seat, s.legal_moves(seat)[-1]["card"])
    assert cards_of(s.legal_moves(N)) == {"AH", "TH", "KH", "QH", "JH", "9H"}  # must trump
    events += play(s, N, "9H")
    for lead in cards("AH AH TH TH KH KH QH QH JH JH 9H"):
        if stop_before_last and len(s.tricks) == 11:
            return events
        events += play(s, N, lead)
        for seat in (E, S, W):
            events += play(s, seat, s.legal_moves(seat)[0]["card"])
    return events


def test_meld_counts_only_with_a_trick() -> None:
    """P17: N wins all twelve tricks; EW's 80 in melds count for nothing."""
    s = all_hearts_partnership(target=5000)
    end = deal_end(finish_all_hearts(s))
    assert end["tricks"] == [12, 0]
    assert end["melds"] == [1560, 80] and end["melds_counted"] == [1560, 0]
    assert end["counters"] == [250, 0]  # every counter and the last trick
    assert end["points"] == [1810, 0] and s.outcome() is None


@pytest.mark.parametrize(
    ("scores", "winner"),
    [((-810, 1000), None),  # both reach 1000 exactly: equal → another deal (P18)
     ((-800, 1000), 0),     # both over: NS 1010 beat EW 1000
     ((-811, 1000), 1)],    # only EW over
)  # fmt: skip
def test_partnership_game_end(scores: tuple[int, int], winner: int | None) -> None:
    """The deal gives NS 1810, EW 0; set the scores before its last trick."""
    s = all_hearts_partnership()
    finish_all_hearts(s, stop_before_last=True)
    d = s.to_dict()
    d["scores"] = list(scores)
    s = State.from_dict(d)
    play(s, N, "9H")
    for seat in (E, S, W):
        play(s, seat, s.hands[seat][0])
    assert s.deal_results[-1]["scores"] == [scores[0] + 1810, scores[1]]
    outcome = s.outcome()
    if winner is None:
        assert outcome is None and s.deal_number == 2
    else:
        assert outcome is not None and outcome.winners == (winner, winner + 2)


def test_check_slam_and_game() -> None:
    """N bids 200 (marriage KH QH), names hearts and takes all twelve tricks.

    Checks: double flush 2 × 2 = 4 (a double earns twice its single); contract
    200 → 2; all tricks → 4; game: NS 1520 + 40 + 250 = 1810 over EW 0 → 7 + 19.
    """
    s = game("check", ALL_HEARTS_DEAL, W)
    for seat, amount in ((N, 200), (E, None), (S, None), (W, None)):
        bid(s, seat, amount)
    act(s, N, {"type": "trump", "suit": "H"})
    assert s.checks == [4, -4]
    for lead in cards("9H 9H AH AH TH TH KH KH QH QH JH JH"):
        play(s, N, lead)
        for seat in (E, S, W):
            play(s, seat, s.hands[seat][0])
    assert s.scores == [1810, 0]
    assert [(e["reason"], e["checks"]) for e in s.check_log] == [
        ("melds", 4), ("contract", 2), ("all_tricks", 4), ("game", 26),
    ]  # fmt: skip
    assert s.checks == [36, -36]


def test_max_deals_ends_the_game_with_the_higher_score() -> None:
    s = check_deal_to_play(250, max_deals=1)
    play_tricks(s, CHECK_TRICKS)
    outcome = s.outcome()
    assert outcome is not None and outcome.termination.value == "deals_exhausted"
    assert outcome.winners == (N, S) and outcome.scores == (420, 230, 420, 230)


# ---------------------------------------------------------------------------
# Options, presets and malformed moves: every problem reported, nothing changed
# ---------------------------------------------------------------------------


def test_options_report_every_problem() -> None:
    with pytest.raises(InvalidOptions) as err:
        new_state({"variant": "firehouse", "players": 6, "check_table": "bicycle",
                   "head_rule": "lax", "double_pinochle": -1, "colour": 1}, "x")  # fmt: skip
    assert set(err.value.problems) == {
        "players", "check_table", "head_rule", "double_pinochle", "colour",
    }  # fmt: skip
    with pytest.raises(InvalidOptions) as err:
        new_state({"variant": "double-deck", "players": 4}, "x")
    assert set(err.value.problems) == {"players"}
    with pytest.raises(InvalidOptions) as err:
        new_state({"first_dealer": 4}, "x")
    assert set(err.value.problems) == {"first_dealer"}


def test_option_defaults_per_variant() -> None:
    assert new_state({"variant": "check"}, "x").options.count == "simple"
    assert new_state({"variant": "firehouse"}, "x").options.count == "traditional"
    dd = new_state({"variant": "double-deck"}, "x")
    assert dd.num_seats == 6 and len(dd.hands[0]) == 16
    eight = new_state({"players": 8}, "x")  # no variant: 6 or 8 players is double-deck
    assert eight.options.variant == "double-deck" and len(eight.hands[7]) == 12
    again = new_state(eight.public_options(), "x")
    assert again.to_dict() == eight.to_dict()


def test_presets_report_every_problem() -> None:
    bad = [cards(h) for h in CHECK_DEAL]
    bad[0][0] = "2S"  # not a pinochle card
    bad[1][0] = "AH"  # a third AH (and one AS missing)
    bad[2] = bad[2][:11]  # eleven cards
    with pytest.raises(InvalidDeal) as err:
        new_state({"variant": "firehouse"}, "x",
                  [{"dealer": 7, "hands": bad, "turn_up": "AS", "x": 1}])  # fmt: skip
    text = " | ".join(err.value.problems)
    for part in ("'2S'", "AH appears 3 times", "hands[2]: must hold 12", "dealer: must be",
                 "turns no trump", "unknown field"):  # fmt: skip
        assert part in text, (part, text)
    with pytest.raises(InvalidDeal, match="must be a card of the dealer's hand"):
        game("partnership", CHECK_DEAL, W, turn_up="AS")


@pytest.mark.parametrize("move", [
    None, "pass", {"type": []}, {"type": "bid"}, {"type": "bid", "amount": True},
    {"type": "bid", "amount": "250"}, {"type": "trump", "suit": "X"},
    {"type": "play", "card": "2S"}, {"type": "pass", "why": 1}, {"type": "meld"},
])  # fmt: skip
def test_malformed_moves(move: Any) -> None:
    s = game("check", CHECK_DEAL, W)
    before = s.to_dict()
    with pytest.raises(MalformedMove):
        s.apply(N, move)
    assert s.to_dict() == before


def test_wrong_phase_and_turn() -> None:
    s = game("check", CHECK_DEAL, W)
    before = s.to_dict()
    with pytest.raises(IllegalMove, match="^no card is played during the auction$"):
        s.apply(N, {"type": "play", "card": "AS"})
    with pytest.raises(NotYourTurn):
        s.apply(E, {"type": "pass"})
    with pytest.raises(NotYourTurn):
        s.apply(None, {"type": "pass"})
    assert s.to_dict() == before


def test_errors_name_only_the_movers_card() -> None:
    s = check_deal_to_play()
    with pytest.raises(IllegalMove) as err:
        s.apply(N, {"type": "play", "card": "KS"})
    assert str(err.value) == "you hold no KS"
    assert err.value.legal_moves == s.legal_moves(N)


def test_views_hand_out_copies() -> None:
    s = check_deal_to_play()
    before = s.to_dict()
    view = s.view(N)
    view["hand"].append("AS")
    view["state"]["melds"][0].append({"name": "x"})
    view["state"]["bids"].clear()
    view["state"]["check_log"].clear()
    assert s.to_dict() == before

"""Seconds (docs/rules/seconds.md): worked examples, every expected value derived by hand.

The deal scripted in :data:`DEAL` was built on paper trick by trick; the
winner of each trick and the tricks per seat are written next to it, worked
from the rule text, never read back from the engine.
"""

from __future__ import annotations

import json
import random

import pytest

from server.games import REGISTRY, seconds
from server.games.kit.base import (
    GameOver,
    IllegalMove,
    InvalidDeal,
    InvalidOptions,
    MalformedMove,
    NotYourTurn,
    Termination,
    visible,
)

RANKS = "AKQJT98765432"
PACK = [r + s for s in "SHDC" for r in RANKS]


# ---------------------------------------------------------------------------
# The trick winner: docs/rules/seconds.md's examples, then more cases
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "winner", "why"),
    [
        # §2 examples
        (["5H", "9H", "2H", "JH"], 1, "four hearts: J, 9, 5, 2 -> the second-highest, 9H"),
        (["KC", "AD", "2S", "7H"], 0, "nobody followed: A first, K second -> KC (S4)"),
        (["AS", "QH", "QD", "3C"], 2, "A,Q,Q,3 -> the later Q (S3)"),
        (["KS", "KH", "KD", "KC"], 1, "K,K,K,K -> the second K played (S3)"),
        # more cases
        (["AS", "2S", "KH", "QD"], 1, "two spades: A and 2 -> 2S; higher discards never count"),
        (["3S", "AS", "KH", "QD"], 0, "two spades: A and 3 -> the leader's 3S"),
        (["4D", "7H", "2D", "6S"], 2, "two diamonds: 4 and 2 -> 2D"),
        (["QS", "AS", "2H", "KS"], 3, "three spades A, K, Q -> KS"),
        (["AS", "AH", "QD", "3C"], 1, "A,A,Q,3: second place is an A, shared -> the second A"),
        (["QS", "AH", "AD", "3C"], 2, "Q,A,A,3: second place A -> the second-played A"),
        (["AS", "KH", "KD", "KC"], 2, "A,K,K,K: second place K -> the second-played K"),
        (["5S", "5D", "8H", "2H"], 1, "5,5,8,2: second place 5 -> the later 5 (5D)"),
        (["2C", "3D", "4H", "5S"], 2, "all different, nobody followed: 5, 4 -> 4H"),
    ],
)
def test_trick_winner(cards: list[str], winner: int, why: str) -> None:
    assert seconds.trick_winner(cards) == winner, why


# ---------------------------------------------------------------------------
# Seven deals: dealers, partnerships, scoring
# ---------------------------------------------------------------------------


def test_dealers_rotate_from_the_first_dealer() -> None:
    # docs/rules/seconds.md: dealers P, P+1, P+2, P+3, P, P+1, P+2.
    assert [seconds.dealer_of_deal(k, 0) for k in range(1, 8)] == [0, 1, 2, 3, 0, 1, 2]
    assert [seconds.dealer_of_deal(k, 3) for k in range(1, 8)] == [3, 0, 1, 2, 3, 0, 1]


@pytest.mark.parametrize(
    ("first", "expected"),
    [
        # P = 0. d1 0-2, 1-3; d2 0-1, 2-3; d3 0-3, 1-2; d4 x->x+1; d5 x->x-1.
        (0, [[2, 3, 0, 1], [1, 0, 3, 2], [3, 2, 1, 0], [1, 2, 3, 0], [3, 0, 1, 2]]),
        # P = 1. d1 1-3, 2-0; d2 1-2, 3-0; d3 1-0, 2-3; half-partners as ever.
        (1, [[2, 3, 0, 1], [3, 2, 1, 0], [1, 0, 3, 2], [1, 2, 3, 0], [3, 0, 1, 2]]),
        # P = 2. d1 2-0, 3-1; d2 2-3, 0-1; d3 2-1, 3-0.
        (2, [[2, 3, 0, 1], [1, 0, 3, 2], [3, 2, 1, 0], [1, 2, 3, 0], [3, 0, 1, 2]]),
    ],
)
def test_partnerships_per_deal(first: int, expected: list[list[int]]) -> None:
    for deal in range(1, 6):
        assert seconds.partners_in_deal(deal, first) == expected[deal - 1], deal
    assert seconds.partners_in_deal(6, first) == [None] * 4
    assert seconds.partners_in_deal(7, first) == [None] * 4


def test_the_book_seating() -> None:
    """Seed 001 names South as the first dealer; play passes to the left (S=P, W=P+1, ...)."""
    south, west, north, east = 0, 1, 2, 3
    assert seconds.partners_in_deal(1, south)[south] == north
    assert seconds.partners_in_deal(2, south)[south] == west
    assert seconds.partners_in_deal(3, south)[south] == east
    assert seconds.partners_in_deal(4, south)[south] == west  # left-hand neighbour
    assert seconds.partners_in_deal(5, south)[south] == east  # right-hand neighbour
    assert seconds.dealer_of_deal(7, south) == north  # "North deals to the seventh"


@pytest.mark.parametrize(
    ("deal", "tricks", "partners", "points"),
    [
        (1, [5, 3, 4, 1], [2, 3, 0, 1], [20, 3, 20, 3]),
        (1, [13, 0, 0, 0], [2, 3, 0, 1], [0, 0, 0, 0]),  # "if either wins none, both score 0"
        (2, [6, 2, 4, 1], [1, 0, 3, 2], [12, 12, 4, 4]),
        (4, [5, 3, 4, 1], [1, 2, 3, 0], [15, 12, 4, 5]),  # S5: each computes their own
        (5, [5, 3, 4, 1], [3, 0, 1, 2], [5, 15, 12, 4]),
        (6, [5, 3, 4, 1], [None] * 4, [25, 9, 16, 1]),
        (6, [13, 0, 0, 0], [None] * 4, [169, 0, 0, 0]),
        (7, [5, 3, 4, 1], [None] * 4, [8, 10, 9, 12]),
        (7, [0, 0, 0, 13], [None] * 4, [13, 13, 13, 0]),
    ],
)
def test_deal_points(deal: int, tricks: list[int], partners: list, points: list[int]) -> None:
    assert seconds.deal_points(deal, tricks, partners) == points


@pytest.mark.parametrize(
    ("scores", "rule", "winners"),
    [
        ([30, 50, 40, 10], "second-highest", (2,)),
        ([30, 50, 40, 10], "highest", (1,)),
        ([50, 40, 40, 30], "second-highest", (1, 2)),  # two share second place
        ([50, 40, 40, 30], "highest", (0,)),
        ([50, 50, 40, 30], "second-highest", (0, 1)),  # tied first: they hold places 1 and 2
        ([50, 50, 40, 30], "highest", (0, 1)),
        ([20, 20, 20, 20], "second-highest", ()),  # everyone shares: a draw
        ([60, 20, 20, 20], "second-highest", (1, 2, 3)),
    ],
)
def test_winning_seats(scores: list[int], rule: str, winners: tuple[int, ...]) -> None:
    assert seconds.winning_seats(scores, rule) == winners


# ---------------------------------------------------------------------------
# One full deal, built and scored by hand
# ---------------------------------------------------------------------------

# Dealer 0, so eldest (seat 1) leads trick 1. Each trick: (leader, cards in
# play order, winner worked by hand).
DEAL: list[tuple[int, list[str], int]] = [
    (1, ["AS", "KS", "2S", "QS"], 2),  # spades A K Q 2 -> KS (seat 2)
    (2, ["AH", "3H", "KH", "4H"], 0),  # hearts A K 4 3 -> KH (seat 0)
    (0, ["AD", "KD", "QD", "JD"], 1),  # A K Q J -> KD (seat 1)
    (1, ["AC", "2C", "KC", "3C"], 3),  # A K 3 2 -> KC (seat 3)
    (3, ["QC", "JC", "TC", "9C"], 0),  # Q J T 9 -> JC (seat 0)
    (0, ["JS", "TS", "9S", "3S"], 1),  # J T 9 3 -> TS (seat 1)
    (1, ["QH", "JH", "TH", "9H"], 2),  # Q J T 9 -> JH (seat 2)
    (2, ["TD", "9D", "8D", "7D"], 3),  # T 9 8 7 -> 9D (seat 3)
    (3, ["8C", "7C", "6C", "5C"], 0),  # 8 7 6 5 -> 7C (seat 0)
    (0, ["4C", "8S", "7S", "6D"], 2),  # last club, nobody follows: 8, 7 -> 7S (S4)
    (2, ["5S", "5D", "8H", "2H"], 3),  # nobody follows: 8, 5, 5 -> the later 5: 5D (S3)
    (3, ["4D", "7H", "2D", "6S"], 1),  # two diamonds 4, 2 -> 2D
    (1, ["5H", "4S", "3D", "6H"], 1),  # two hearts 6, 5 -> the leader's 5H
]
# Tricks: seat 0 T2 T5 T9 = 3; seat 1 T3 T6 T12 T13 = 4; seat 2 T1 T7 T10 = 3; seat 3 = 3.
DEAL_TRICKS = [3, 4, 3, 3]


def deal_hands() -> list[list[str]]:
    hands: list[list[str]] = [[], [], [], []]
    for leader, cards, _ in DEAL:
        for i, card in enumerate(cards):
            hands[(leader + i) % 4].append(card)
    return hands


def play_deal(state: seconds.State) -> list:
    events = []
    for number, (leader, cards, winner) in enumerate(DEAL, start=1):
        assert state.to_move() == [leader], f"trick {number}"
        for i, card in enumerate(cards):
            events += state.apply((leader + i) % 4, {"type": "play", "card": card})
        trick_events = [e for e in events if e.kind == "trick"]
        assert trick_events[-1].data["winner"] == winner, f"trick {number}"
    return events


def random_play_until_deal(state: seconds.State, deal: int, rng: random.Random) -> None:
    while state.deal_number < deal:
        (seat,) = state.to_move()
        state.apply(seat, rng.choice(state.legal_moves(seat)))


def test_the_scripted_deal_is_a_legal_deal() -> None:
    hands = deal_hands()
    assert all(len(h) == 13 for h in hands)
    assert sorted(c for h in hands for c in h) == sorted(PACK)


def test_full_deal_scored_by_hand() -> None:
    state = seconds.new_state({}, "full", deals=[{"dealer": 0, "hands": deal_hands()}])
    assert state.partners == [2, 3, 0, 1]
    events = play_deal(state)
    deal_end = next(e for e in events if e.kind == "deal_end")
    assert deal_end.data["tricks"] == DEAL_TRICKS
    # d1: partners 0-2 and 1-3: seat 0 3×3, seat 1 4×3, seat 2 3×3, seat 3 3×4.
    assert deal_end.data["points"] == [9, 12, 9, 12]
    assert state.scores == [9, 12, 9, 12]
    rules = [e.data["rule"] for e in events if e.kind == "trick"]
    assert rules[9:11] == ["nobody_followed", "nobody_followed"]
    # The next deal is under way: dealer 1, eldest (2) leads, partners d2.
    assert (state.deal_number, state.dealer, state.to_move()) == (2, 1, [2])
    assert state.partners == [1, 0, 3, 2]


# The same thirteen tricks as deal d (dealt by seat 0, so P = 1 - d mod 4),
# scored by hand with tricks [3, 4, 3, 3]:
@pytest.mark.parametrize(
    ("deal", "points"),
    [
        (1, [9, 12, 9, 12]),  # P=0: 0-2, 1-3
        (2, [9, 12, 12, 9]),  # P=3: 3-0, 1-2
        (3, [9, 12, 12, 9]),  # P=2: 2-1, 3-0
        (4, [12, 12, 9, 9]),  # P=1: x with x+1: 3×4, 4×3, 3×3, 3×3
        (5, [9, 12, 12, 9]),  # P=0: x with x-1: 3×3, 4×3, 3×4, 3×3
        (6, [9, 16, 9, 9]),  # squares
        (7, [10, 9, 10, 10]),  # 13 - tricks
    ],
)
def test_each_deal_type_scores_the_scripted_deal(deal: int, points: list[int]) -> None:
    first = (1 - deal) % 4
    filler = [{"hands": [PACK[13 * s : 13 * s + 13] for s in range(4)]}] * (deal - 1)
    presets = [*filler, {"dealer": 0, "hands": deal_hands()}]
    state = seconds.new_state({"first_dealer": first}, "types", deals=presets)
    random_play_until_deal(state, deal, random.Random(deal))
    assert state.dealer == 0
    before = list(state.scores)
    events = play_deal(state)
    deal_end = next(e for e in events if e.kind == "deal_end")
    assert deal_end.data["points"] == points
    assert [a - b for a, b in zip(state.scores, before, strict=True)] == points


def test_game_ends_after_seven_deals_with_the_winner_rule() -> None:
    for rule in ("second-highest", "highest"):
        state = seconds.new_state({"winner": rule}, "end")
        rng = random.Random(7)
        while not state.is_over():
            (seat,) = state.to_move()
            state.apply(seat, rng.choice(state.legal_moves(seat)))
        outcome = state.outcome()
        assert outcome is not None
        assert outcome.termination is Termination.DEALS_EXHAUSTED
        assert len(state.deal_results) == 7
        totals = [sum(r["points"][s] for r in state.deal_results) for s in range(4)]
        assert list(outcome.scores) == totals
        ranked = sorted(totals, reverse=True)
        place_score = ranked[1] if rule == "second-highest" else ranked[0]
        expected = tuple(s for s in range(4) if totals[s] == place_score)
        assert outcome.winners == (expected if len(expected) < 4 else ())
        assert state.to_move() == [] and state.legal_moves(0) == []
        with pytest.raises(GameOver):
            state.apply(0, {"type": "play", "card": "AS"})


# ---------------------------------------------------------------------------
# Illegal and malformed moves
# ---------------------------------------------------------------------------


def test_follow_suit_is_enforced_and_nothing_changes() -> None:
    state = seconds.new_state({}, "rules", deals=[{"hands": deal_hands()}])
    state.apply(1, {"type": "play", "card": "AS"})
    # Seat 2 holds spades (KS, 9S, 7S, ...) and hearts: a heart is refused.
    before = state.to_dict()
    with pytest.raises(IllegalMove) as err:
        state.apply(2, {"type": "play", "card": "AH"})
    assert "follow suit" in str(err.value) and "spades" in str(err.value)
    assert {"type": "play", "card": "KS"} in err.value.legal_moves
    assert all(m["card"][1] == "S" for m in err.value.legal_moves)
    with pytest.raises(IllegalMove, match="not in your hand"):
        state.apply(2, {"type": "play", "card": "QS"})  # seat 0 holds it
    with pytest.raises(NotYourTurn):
        state.apply(3, {"type": "play", "card": "2S"})
    for bad in ({"type": "play", "card": "1S"}, {"type": "pass"}, {"card": "KS"}, "KS",
                {"type": "play", "card": "KS", "extra": 1}):  # fmt: skip
        with pytest.raises(MalformedMove):
            state.apply(2, bad)
    assert state.to_dict() == before


def test_void_player_may_discard_anything() -> None:
    state = seconds.new_state({}, "void", deals=[{"hands": deal_hands()}])
    for leader, cards, _ in DEAL[:9]:
        for i, card in enumerate(cards):
            state.apply((leader + i) % 4, {"type": "play", "card": card})
    state.apply(0, {"type": "play", "card": "4C"})
    # Seat 1 has no clubs left: every card of its hand is legal.
    assert sorted(m["card"] for m in state.legal_moves(1)) == sorted(state.hands[1])
    assert len(state.legal_moves(1)) == 4


# ---------------------------------------------------------------------------
# Options, presets, information
# ---------------------------------------------------------------------------


def test_options_report_every_problem() -> None:
    with pytest.raises(InvalidOptions) as err:
        seconds.new_state({"winner": "lowest", "first_dealer": 4, "deals": 3}, "x")
    assert set(err.value.problems) == {"winner", "first_dealer", "deals"}
    with pytest.raises(InvalidOptions) as err:
        seconds.new_state({"first_dealer": True}, "x")
    assert set(err.value.problems) == {"first_dealer"}
    assert seconds.parse_options(None) == seconds.SecondsOptions(0, "second-highest")
    assert REGISTRY["seconds"] is seconds.GAME


def test_presets_report_every_problem() -> None:
    bad_hands = [PACK[0:13], PACK[13:26], PACK[26:39], [*PACK[39:51], "AS"]]
    with pytest.raises(InvalidDeal) as err:
        seconds.new_state(
            {},
            "x",
            deals=[
                {"dealer": 2, "hands": bad_hands},
                {"hands": [PACK[0:13], PACK[13:26], PACK[26:39]]},
                {"hands": [PACK[0:12], PACK[13:26], PACK[26:39], ["ZZ", *PACK[39:52]]]},
                "nonsense",
            ],
        )
    text = "\n".join(err.value.problems)
    assert "deals[0].dealer: deal 1 is dealt by seat 0" in text
    assert "deals[0]: AS appears 2 times" in text
    assert "deals[0]: missing 2C" in text
    assert "deals[1].hands: must be four hands" in text
    assert "deals[2].hands[0]: must hold 13 cards" in text
    assert "deals[2].hands[3]: must hold 13 cards" in text
    assert "'ZZ' is not a card" in text
    assert "deals[3]" in text
    with pytest.raises(InvalidDeal, match="at most 7"):
        seconds.new_state({}, "x", deals=[{"hands": deal_hands()}] * 8)


def test_hands_are_private_and_plays_public() -> None:
    state = seconds.new_state({}, "info", deals=[{"hands": deal_hands()}])
    opening = seconds.GAME.opening_events(state)
    for seat in range(4):
        mine = [e for e in opening if visible(e, seat) and e.kind == "hand"]
        assert [e.data["seat"] for e in mine] == [seat]
        view = state.view(seat)
        assert view["hand"] == state.hands[seat]
        text = json.dumps(view)
        for other in range(4):
            if other != seat:
                assert not any(f'"{c}"' in text for c in state.hands[other])
    assert "hand" not in state.view(None)
    events = state.apply(1, {"type": "play", "card": "AS"})
    assert all(e.visible_to is None for e in events)
    assert state.view(None)["state"]["current_trick"] == [{"seat": 1, "card": "AS"}]
    assert seconds.State.from_dict(json.loads(json.dumps(state.to_dict()))) == state

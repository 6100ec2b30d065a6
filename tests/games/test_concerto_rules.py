"""Concerto worked examples from docs/rules/concerto.md and Appendix B, with hands built by hand.

Every expected value here is worked from docs/rules/concerto.md (the arithmetic is in the
comments), never read off the engine. Deals are presets
(``new_state(options, seed, deals=[...])``) and every hand is played move by
move through the public ``apply``; see ``helpers.py`` for the hand-spec
notation (``L``/``P`` = the hand's designated leader / partner).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from server.games import concerto
from server.games.kit.base import (
    GameOver,
    IllegalMove,
    InvalidDeal,
    InvalidOptions,
    MalformedMove,
    NotYourTurn,
    Termination,
)

from .helpers import (
    PACK,
    DealPlan,
    fill_preset,
    new_game,
    parse_tokens,
    plan_deal,
    play_hand,
    play_tokens,
    single_hand_preset,
)

EDITIONS = ("parlett-2013", "penguin")
PASS = {"type": "pass"}
FORCE = {"type": "force"}


def play(card: str) -> dict[str, Any]:
    return {"type": "play", "card": card}


def kinds(moves: list[dict[str, Any]]) -> set[str]:
    return {m["type"] for m in moves}


def assert_rejected(state: concerto.State, seat: int | None, move: Any, error: type) -> str:
    """The move raises ``error`` and changes nothing; returns the message."""
    before = state.to_dict()
    with pytest.raises(error) as info:
        state.apply(seat, move)
    assert state.to_dict() == before
    message = str(info.value)
    assert message
    return message


# ===========================================================================
# Scoring a hand: every row of the table, both editions (C2–C5)
# ===========================================================================

# (id, hand spec, combination, parlett-2013 points, penguin points)
SCORING_ROWS = [
    ("nothing", "2S 5H 9D JC KS", "nothing", 0, 0),
    ("one_pair", "7S 7H 2D 9C KS", "one_pair", 1, 1),
    ("two_pairs", "7S 7H KD KC 2S", "two_pairs", 2, 2),
    ("threes", "7S 7H 7D KC 2S", "threes", 3, 3),
    ("straight", "5S 6H 7D 8C 9S", "straight", 5, 5),
    ("straight_played_out_of_order", "9S 5H 7D 6C 8S", "straight", 5, 5),
    ("straight_ace_low_A2345", "AS 2H 3D 4C 5S", "straight", 5, 5),
    ("straight_ace_high_TJQKA", "TS JH QD KC AS", "straight", 5, 5),
    # C5: no wrap-around.
    ("wraparound_QKA23_is_nothing", "QS KH AD 2C 3S", "nothing", 0, 0),
    ("wraparound_JQKA2_is_nothing", "JS QH KD AC 2S", "nothing", 0, 0),
    ("wraparound_KA234_is_nothing", "KS AH 2D 3C 4S", "nothing", 0, 0),
    ("flush", "2H 5H 9H JH KH", "flush", 6, 6),
    ("flush_QKA23_wraparound_is_only_a_flush", "QH KH AH 2H 3H", "flush", 6, 6),
    ("full_house", "7S 7H 7D KC KS", "full_house", 8, 8),
    # C4: fours by how the four were split; the fifth card never counts.
    ("fours_4+0_leader", "L:9S P:2H L:9H L:9D L:9C", "fours", 8, 8),
    ("fours_4+0_partner", "L:2H P:9S P:9H P:9D P:9C", "fours", 8, 8),
    ("fours_3+1", "L:9S P:9H L:9D L:9C P:2H", "fours", 12, 12),
    ("fours_3+1_fifth_by_the_one", "L:9S L:9H L:9D P:9C P:2H", "fours", 12, 12),
    ("fours_1+3", "L:9S P:9H P:9D P:9C L:2H", "fours", 12, 12),
    ("fours_2+2", "L:9S P:9H L:9D P:9C L:2H", "fours", 16, 16),
    ("fours_2+2_fifth_by_partner", "L:9S P:9H L:9D P:9C P:2H", "fours", 16, 16),
    # C2/C3: straight flush by how many of its cards the leader played.
    ("straight_flush_5+0", "L:5H L:6H L:7H L:8H L:9H", "straight_flush", 10, 10),
    ("straight_flush_4+1_leader4", "L:5H P:6H L:7H L:8H L:9H", "straight_flush", 15, 15),
    ("straight_flush_1+4_partner4", "L:5H P:6H P:7H P:8H P:9H", "straight_flush", 15, 15),
    ("straight_flush_3+2_leader3", "L:5H P:6H L:7H P:8H L:9H", "straight_flush", 20, 20),
    # parlett-2013: 20 either way round; penguin: leader 2 + partner 3 = 25.
    ("straight_flush_2+3_leader2", "L:5H P:6H P:7H L:8H P:9H", "straight_flush", 20, 25),
    ("straight_flush_wheel_3+2", "L:AD P:2D L:3D P:4D L:5D", "straight_flush", 20, 20),
    ("straight_flush_royal_2+3", "L:TS P:JS P:QS L:KS P:AS", "straight_flush", 20, 25),
]


@pytest.mark.parametrize("rules", EDITIONS)
@pytest.mark.parametrize("dealer", [3, 0], ids=["NS_leads", "EW_leads"])
@pytest.mark.parametrize(
    ("spec", "combination", "parlett", "penguin"),
    [row[1:] for row in SCORING_ROWS],
    ids=[row[0] for row in SCORING_ROWS],
)
def test_scoring_table(
    rules: str, dealer: int, spec: str, combination: str, parlett: int, penguin: int
) -> None:
    preset, tokens = single_hand_preset(dealer, spec)
    state = concerto.new_state({"rules": rules}, "rows", deals=[preset])
    play_tokens(state, tokens)
    (record,) = state.completed_hands
    assert record["combination"] == combination
    assert record["points"] == (parlett if rules == "parlett-2013" else penguin)
    leader = (dealer + 1) % 4
    assert record["leader"] == leader
    assert record["side"] == sorted([leader, (leader + 2) % 4])
    side = "NS" if leader % 2 == 0 else "EW"
    assert state.view(None)["state"]["deal_hand_points"][side] == record["points"]


def test_completed_hand_keeps_who_played_each_card() -> None:
    """C13: the hand stays face up before its leader with the record of who played each card."""
    preset, tokens = single_hand_preset(3, "L:5H P:6H P:7H L:8H P:9H")
    state = concerto.new_state({"rules": "penguin"}, "record", deals=[preset])
    play_tokens(state, tokens)
    assert state.completed_hands == [
        {
            "deal": 1,
            "number": 1,
            "side": [0, 2],
            "leader": 0,
            "cards": [
                {"seat": 0, "card": "5H"},
                {"seat": 2, "card": "6H"},
                {"seat": 2, "card": "7H"},
                {"seat": 0, "card": "8H"},
                {"seat": 2, "card": "9H"},
            ],
            "combination": "straight_flush",
            "points": 25,  # penguin: leader 2 + partner 3
        }
    ]
    view = state.view(3)["state"]
    assert view["current_hand"] == []
    assert view["hand_number"] == 2 and view["leader"] == 1 and state.to_move() == [1]


def test_hands_are_led_in_rotation_and_sides_alternate() -> None:
    """Hand k is led by (D+k) mod 4: non-dealers play odd hands, dealers even ones."""
    plan = plan_deal(2)
    state = new_game([plan], target=1000)
    seen = []
    for k in range(1, 9):
        seen.append((state.view(None)["state"]["leader"], state.to_move()[0]))
        plan.play(state, [k])
    assert seen == [((2 + k) % 4, (2 + k) % 4) for k in range(1, 9)]
    assert [h["side"] for h in state.completed_hands] == [[1, 3], [0, 2]] * 4


# ===========================================================================
# Playing one hand: passes and 'Play' move by move (C6–C9)
# ===========================================================================

N_CARDS = ["AS", "KS", "QS", "JS", "TS", "2H", "3H"]
S_CARDS = ["AH", "KH", "QH", "JH", "TH", "2D", "3D"]


@pytest.fixture
def hand1() -> concerto.State:
    """Dealer W (3): North leads hand 1, South is the partner."""
    preset = fill_preset(3, {0: N_CARDS, 2: S_CARDS})
    return concerto.new_state({"rules": "parlett-2013"}, "passing", deals=[preset])


def test_leader_must_play_the_first_card(hand1: concerto.State) -> None:
    """Rule 1: no pass and no 'Play' on the first card of a hand."""
    assert hand1.to_move() == [0]
    assert kinds(hand1.legal_moves(0)) == {"play"}
    assert len(hand1.legal_moves(0)) == 13
    for move in (PASS, FORCE):
        reason = assert_rejected(hand1, 0, move, IllegalMove)
        assert "first card" in reason


def test_at_most_two_consecutive_passes(hand1: concerto.State) -> None:
    """C6: after X passes and then Y passes, X must play; a card resets the count."""
    hand1.apply(0, play("AS"))
    assert hand1.to_move() == [2]
    assert {"type": "pass"} in hand1.legal_moves(2) and FORCE in hand1.legal_moves(2)
    hand1.apply(2, PASS)  # X = South passes
    assert hand1.to_move() == [0] and hand1.view(None)["state"]["passes"] == 1
    assert PASS in hand1.legal_moves(0) and FORCE in hand1.legal_moves(0)
    hand1.apply(0, PASS)  # Y = North passes: South must now play
    assert hand1.to_move() == [2] and hand1.view(None)["state"]["passes"] == 2
    assert kinds(hand1.legal_moves(2)) == {"play"}
    for move in (PASS, FORCE):
        reason = assert_rejected(hand1, 2, move, IllegalMove)
        assert "two consecutive passes" in reason
    hand1.apply(2, play("AH"))
    # The count resets with the card: North may pass (and so call 'Play') again.
    assert hand1.to_move() == [0] and hand1.view(None)["state"]["passes"] == 0
    assert PASS in hand1.legal_moves(0) and FORCE in hand1.legal_moves(0)
    hand1.apply(0, PASS)
    hand1.apply(2, PASS)
    assert hand1.to_move() == [0] and kinds(hand1.legal_moves(0)) == {"play"}


def test_a_player_may_pass_all_their_turns(hand1: concerto.State) -> None:
    """The partner passing every turn lets the leader play a ready-made hand alone."""
    hand1.apply(0, play("AS"))
    for card in ("KS", "QS", "JS", "TS"):
        hand1.apply(2, PASS)
        hand1.apply(0, play(card))
    (record,) = hand1.completed_hands
    assert record["combination"] == "straight_flush" and record["points"] == 10  # 5+0


def test_force_right_after_the_lead_makes_the_leader_play_alone(hand1: concerto.State) -> None:
    """C7/C8: 'Play' wherever a pass is allowed; the partner then completes the hand alone."""
    hand1.apply(0, play("AS"))
    events = hand1.apply(2, FORCE)
    assert [(e.kind, e.data, e.visible_to) for e in events] == [
        ("force", {"seat": 2, "partner": 0}, None)
    ]
    assert hand1.view(None)["state"]["forced"] == {"by": 2, "player": 0}
    for card in ("KS", "QS", "JS"):
        assert hand1.to_move() == [0]
        assert kinds(hand1.legal_moves(0)) == {"play"}  # no passing while obeying 'Play'
        assert "called 'Play'" in assert_rejected(hand1, 0, PASS, IllegalMove)
        assert_rejected(hand1, 0, FORCE, IllegalMove)
        assert_rejected(hand1, 2, play("AH"), NotYourTurn)  # the caller does not play
        hand1.apply(0, play(card))
    hand1.apply(0, play("TS"))
    (record,) = hand1.completed_hands
    assert [c["seat"] for c in record["cards"]] == [0, 0, 0, 0, 0]
    assert record["points"] == 10  # straight flush 5+0
    assert hand1.to_move() == [1]  # East leads hand 2
    assert hand1.view(None)["state"]["forced"] is None


def test_force_in_the_slot_of_the_second_pass(hand1: concerto.State) -> None:
    """C8: 'Play' is allowed where the second consecutive pass would be."""
    hand1.apply(0, play("AS"))
    hand1.apply(2, PASS)
    hand1.apply(0, FORCE)  # instead of the second pass
    for card in ("AH", "KH", "QH", "JH"):
        assert hand1.to_move() == [2] and kinds(hand1.legal_moves(2)) == {"play"}
        hand1.apply(2, play(card))
    (record,) = hand1.completed_hands
    assert [c["seat"] for c in record["cards"]] == [0, 2, 2, 2, 2]
    assert record["combination"] == "one_pair"  # AS AH KH QH JH


def test_force_after_cards_from_both(hand1: concerto.State) -> None:
    """'Play' after the partner played: the forced player completes the remaining three."""
    hand1.apply(0, play("TS"))
    hand1.apply(2, play("TH"))
    hand1.apply(0, FORCE)
    for card in ("2D", "3D", "AH"):
        assert hand1.to_move() == [2]
        hand1.apply(2, play(card))
    (record,) = hand1.completed_hands
    assert [c["seat"] for c in record["cards"]] == [0, 2, 2, 2, 2]
    assert record["combination"] == "one_pair" and record["points"] == 1  # TS TH


# ===========================================================================
# Bad moves: typed errors with a reason, never a half-applied move
# ===========================================================================


def test_illegal_card_names_only_the_callers_card(hand1: concerto.State) -> None:
    for card in ("AH", "5C", "9D"):  # AH is South's: the message must not tell
        reason = assert_rejected(hand1, 0, play(card), IllegalMove)
        assert reason == f"{card} is not in your hand"


def test_illegal_move_carries_the_callers_legal_moves(hand1: concerto.State) -> None:
    hand1.apply(0, play("AS"))
    hand1.apply(2, PASS)
    hand1.apply(0, PASS)
    with pytest.raises(IllegalMove) as info:
        hand1.apply(2, PASS)
    assert info.value.reason == str(info.value)
    assert info.value.legal_moves == hand1.legal_moves(2)
    assert {m["card"] for m in info.value.legal_moves} == set(hand1.view(2)["hand"])


def test_not_your_turn(hand1: concerto.State) -> None:
    for seat in (1, 2, 3, None):
        assert_rejected(hand1, seat, play("AH"), NotYourTurn)
        assert hand1.legal_moves(seat) == []
    assert hand1.legal_moves(0) != []


@pytest.mark.parametrize(
    "move",
    [
        None,
        "AS",
        ["play", "AS"],
        {},
        {"type": "discard", "card": "AS"},
        {"type": "play"},
        {"type": "play", "card": "1S"},
        {"type": "play", "card": "as"},
        {"type": "play", "card": "ASS"},
        {"type": "play", "card": 14},
        {"type": "play", "card": "AS", "extra": 1},
        {"type": "pass", "card": "AS"},
        {"type": "force", "by": 2},
    ],
)
def test_malformed_moves(hand1: concerto.State, move: Any) -> None:
    assert_rejected(hand1, 0, move, MalformedMove)


def test_errors_are_value_errors() -> None:
    """Both families subclass ValueError so callers can catch them together."""
    for error in (IllegalMove, MalformedMove, NotYourTurn, GameOver):
        assert issubclass(error, ValueError)


def test_no_move_after_the_game_is_over() -> None:
    plan = _small_win(3)
    state = new_game([plan], deals=1)
    plan.play(state)
    assert state.outcome() is not None and state.to_move() == []
    for seat in (0, 1, 2, 3, None):
        assert state.legal_moves(seat) == []
        assert_rejected(state, seat, play("AS"), GameOver)
        assert_rejected(state, seat, PASS, GameOver)


# ===========================================================================
# Empty hands (C11, C12, C3) and 'Play' with too few cards (C9)
# ===========================================================================


def test_empty_handed_players_are_skipped() -> None:
    """C11/C12/C3, dealer W: South runs out mid-hand 7, West before leading hand 8.

    North–South: S plays 4 + 5 + 3 = 12 cards in hands 1, 3, 5 and leads
    hand 7 with its 13th, so North must play the other four (C11) and may
    never pass or call 'Play' while South is empty (C12).
    East–West: W plays 13 cards in hands 2, 4, 6, so East leads hand 8 in
    W's place and plays all five: a straight flush led by East (C3) is 5+0 = 10.
    """
    plan = plan_deal(
        3,
        hands={
            1: "L:2S P:4H P:6D P:8C P:TD",  # N 1, S 4
            2: "L:2C P:4S P:6H P:8D P:TC",  # E 1, W 4
            3: "L:3S L:5H L:7D L:9C L:JH",  # S 5 (S: 9)
            4: "L:3C L:5S L:7H L:9D L:JC",  # W 5 (W: 9)
            5: "L:4C P:6S P:8H P:QD N:KC",  # N 2, S 3 (S: 12)
            6: "L:4D P:6C P:8S P:QC P:KH",  # E 1, W 4 (W: 13)
            7: "L:KD N:9H N:TH N:JD N:QH",  # S its 13th card, N 4 (N: 7)
            8: "E:9S E:TS E:JS E:QS E:KS",  # W empty: E leads, plays 5 (E: 7)
        },
        leftovers={"NS": "AS AH 7S 3H 2H 5D", "EW": "AD AC 3D 2D 7C 5C"},  # N's, E's
    )
    state = new_game([plan], target=1000)
    plan.play(state, range(1, 7))
    assert state.view(None)["state"]["cards_left"] == [10, 11, 1, 0]
    # Hand 7: South (designated leader) leads with its last card.
    assert state.to_move() == [2]
    state.apply(2, play("KD"))
    for card in ("9H", "TH", "JD", "QH"):
        assert state.to_move() == [0]  # South is skipped (C11)
        assert kinds(state.legal_moves(0)) == {"play"}  # and North may not pass (C12)
        assert "no cards left" in assert_rejected(state, 0, PASS, IllegalMove)
        assert "no cards left" in assert_rejected(state, 0, FORCE, IllegalMove)
        state.apply(0, play(card))
    h7 = state.completed_hands[-1]
    assert h7["leader"] == 2 and h7["combination"] == "straight"  # 9 T J Q K
    # Hand 8: West (designated leader) has no cards: East leads instead (C11) ...
    assert state.to_move() == [1]
    assert kinds(state.legal_moves(1)) == {"play"}
    for card in ("9S", "TS", "JS", "QS", "KS"):
        assert state.to_move() == [1] and kinds(state.legal_moves(1)) == {"play"}
        state.apply(1, play(card))
    h8 = state.completed_hands[-1]
    # ... and East, who actually played the first card, is the leader (C3): 5+0 = 10.
    assert h8["number"] == 8 and h8["side"] == [1, 3] and h8["leader"] == 1
    assert h8["combination"] == "straight_flush" and h8["points"] == 10


def test_force_when_the_partner_has_too_few_cards() -> None:
    """C9: the forced partner plays all they have, then the caller completes the hand.

    Dealer W. South plays 4 + 5 + 2 = 11 cards in hands 1, 3, 5 and leads
    hand 7 holding two; North calls 'Play'; South plays its last card and
    North, the caller, plays the remaining three.
    """
    plan = plan_deal(
        3,
        hands={
            1: "L:2S P:4H P:6D P:8C P:TD",  # N 1, S 4
            3: "L:3S L:5H L:7D L:9C L:JH",  # S 5
            5: "L:4C P:6S P:8H L:QD L:KC",  # N 3, S 2
            7: "L:AH L:AD N:AC N:AS N:KS",  # S 2, N 3
        },
    )
    state = new_game([plan], target=1000)
    plan.play(state, range(1, 7))
    assert state.view(None)["state"]["cards_left"][::2] == [9, 2]
    state.apply(2, play("AH"))
    state.apply(0, FORCE)
    assert state.to_move() == [2] and kinds(state.legal_moves(2)) == {"play"}
    assert state.legal_moves(2) == [play("AD")]
    state.apply(2, play("AD"))  # South's last card
    for card in ("AC", "AS", "KS"):
        assert state.to_move() == [0]  # the caller completes the hand
        assert kinds(state.legal_moves(0)) == {"play"}
        state.apply(0, play(card))
    h7 = state.completed_hands[-1]
    assert [(c["seat"], c["card"]) for c in h7["cards"]] == [
        (2, "AH"), (2, "AD"), (0, "AC"), (0, "AS"), (0, "KS"),
    ]  # fmt: skip
    # Four aces, two from each (the fifth card, KS, never counts): 2+2 = 16 (C4).
    assert h7["combination"] == "fours" and h7["points"] == 16
    assert state.to_move() == [3]  # West leads hand 8


# ===========================================================================
# End of a deal: left-overs (Appendix B; C14, C15, C16, C19)
# ===========================================================================

# North–South's one pair in hand 1 (dealer W): QC 2D AC by North, QD 5H by South.
NS_PAIR = "QC QD 2D 5H AC"

# (id, East–West's six left-overs, value ×10 under parlett-2013, under penguin)
LEFTOVER_EXAMPLES = [
    ("J-6-7-5-9-8_straight", "JS 6H 7D 5C 9S 8H", 50, 50),
    ("7-7-7-4-4-4_full_house", "7S 7H 7D 4S 4H 4D", 80, 80),
    ("9-9-9-9-3-3_fours", "9S 9H 9D 9C 3S 3H", 80, 80),
    ("K-K-8-8-3-3_three_pairs", "KS KH 8D 8C 3S 3H", 60, 20),
    ("straight_flush", "5D 6D 7D 8D 9D 2C", 100, 100),
    ("no_combination", "2S 5S 7H 9C JD KC", 0, 0),
    ("flush", "2H 4H 6H 8H TH KS", 60, 60),
    ("threes", "8S 8H 8C 2C 4C 6D", 30, 30),
    ("one_pair", "TS TH 3C 6C JC KD", 10, 10),
    ("two_pairs_and_two", "TS TH 6S 6C 2C KD", 20, 20),
    ("wheel_A2345", "AS 2H 3C 4D 5S 9C", 50, 50),
    ("wraparound_QKA23_is_nothing", "QS KH AD 2C 3S 7H", 0, 0),
]


@pytest.mark.parametrize("rules", EDITIONS)
@pytest.mark.parametrize(
    ("six", "parlett", "penguin"),
    [row[1:] for row in LEFTOVER_EXAMPLES],
    ids=[row[0] for row in LEFTOVER_EXAMPLES],
)
def test_leftovers_of_the_losers(rules: str, six: str, parlett: int, penguin: int) -> None:
    """Hand scores NS 1 (one pair), EW 0: NS win and score 10 × EW's best left-over."""
    plan = plan_deal(3, hands={1: NS_PAIR}, leftovers={"EW": six})
    state = new_game([plan], rules=rules, target=1000)  # no game end in the way
    plan.play(state)
    bonus = parlett if rules == "parlett-2013" else penguin
    (result,) = state.view(None)["state"]["deal_results"]
    assert result["deal"] == 1 and result["dealer"] == 3
    assert result["hand_points"] == {"NS": 1, "EW": 0}
    assert set(result["leftovers"]) == {"EW"}  # only the losers reveal
    assert sorted(result["leftovers"]["EW"]) == sorted(six.split())
    assert result["leftover_bonus"] == {"NS": bonus, "EW": 0}
    assert result["game_bonus"] == {"NS": 0, "EW": 0}
    assert state.view(None)["state"]["game_scores"] == {"NS": 1 + bonus, "EW": 0}
    assert state.view(2)["scores"] == [1 + bonus, 0, 1 + bonus, 0]
    assert state.outcome() is None and state.view(None)["state"]["deal_number"] == 2


def test_winners_are_never_penalised_and_east_west_can_win() -> None:
    """EW win hand 2 with a pair (1 - 0): NS reveal a straight, +50 to EW.

    EW's own left-overs hold fours: winners are never penalised, nor revealed.
    """
    plan = plan_deal(
        3,
        hands={2: "QC QD 2D 5H AC"},
        leftovers={"NS": "JS 6H 7D 5C 9S 8H", "EW": "KS KH KD KC 3D 4D"},
    )
    state = new_game([plan], target=1000)
    plan.play(state)
    (result,) = state.deal_results
    assert result["hand_points"] == {"NS": 0, "EW": 1}
    assert set(result["leftovers"]) == {"NS"}
    assert result["leftover_bonus"] == {"NS": 0, "EW": 50}
    assert state.view(None)["state"]["game_scores"] == {"NS": 0, "EW": 51}


def _small_win(dealer: int, side: str = "NS", seed: int = 0) -> DealPlan:
    """A deal the given side wins 1 - 0 with a pair, the losers left with a straight: +51."""
    first_ns_hand = 1 if dealer % 2 == 1 else 2  # NS lead when (dealer + k) is even
    hand = first_ns_hand if side == "NS" else 3 - first_ns_hand
    loser = "EW" if side == "NS" else "NS"
    return plan_deal(dealer, {hand: NS_PAIR}, {loser: "JS 6H 7D 5C 9S 8H"}, seed=seed)


def _big_win(dealer: int, seed: int = 0) -> DealPlan:
    """NS win 1 - 0 with a pair and EW are left with a straight flush: 1 + 100 = 101."""
    first_ns_hand = 1 if dealer % 2 == 1 else 2
    return plan_deal(dealer, {first_ns_hand: NS_PAIR}, {"EW": "5D 6D 7D 8D 9D 2C"}, seed=seed)


def _quiet(dealer: int, seed: int = 0) -> DealPlan:
    """Every hand and both left-overs plain nothing: 0 - 0 and no bonus either way (C19)."""
    return plan_deal(dealer, seed=seed)


def test_hand_scores_are_per_deal() -> None:
    """C16: deal 2's winner is decided on deal 2's hands alone.

    Deal 1: NS 1 + 50 = 51. Deal 2 (dealer N): EW 1, NS 0, so EW win deal 2
    and score 1 + 50 (counting cumulative hand scores would make it a 1 - 1 tie).
    """
    state = new_game([_small_win(3), _small_win(0, side="EW")], target=1000)
    _small_win(3).play(state)
    _small_win(0, side="EW").play(state)
    first, second = state.deal_results
    assert first["hand_points"] == {"NS": 1, "EW": 0}
    assert second["dealer"] == 0 and second["hand_points"] == {"NS": 0, "EW": 1}
    assert set(second["leftovers"]) == {"NS"}
    assert second["leftover_bonus"] == {"NS": 0, "EW": 50}
    assert state.view(None)["state"]["game_scores"] == {"NS": 51, "EW": 51}


# ===========================================================================
# Ties in hand score (C17)
# ===========================================================================

NS_TIE_PAIR = "JC JD 9S TH AC"  # J J 9 T A: one pair, no straight (needs K Q)
EW_TIE_PAIR = "TC TD 4S 9H AD"  # T T 4 9 A: one pair


@pytest.mark.parametrize(
    ("dealer", "ns_six", "ew_six", "bonus"),
    [
        # Dealer W: EW deal, so NS score 10 × EW's straight = 50; NS's fours are ignored.
        (3, "KS KH KD KC 3D 4D", "JS 6H 7D 5C 8S 2H", {"NS": 0, "EW": 0}),
        (3, "KS KH KD KC 3D 4D", "JS 6H 7D 5C 9D 8H", {"NS": 50, "EW": 0}),
        # Three pairs in the dealing side's left-overs: 60 (C15).
        (3, "QS QH QD QC 2D 4D", "KS KH 8D 8C 3S 3H", {"NS": 60, "EW": 0}),
        # Dealer N: NS deal, so EW score 10 × NS's full house = 80.
        (0, "7S 7H 7D 4C 4H 4D", "KS KH KD KC 3D 2D", {"NS": 0, "EW": 80}),
    ],
    ids=["nothing", "straight", "three_pairs", "dealer_north"],
)
def test_tie_parlett(dealer: int, ns_six: str, ew_six: str, bonus: dict[str, int]) -> None:
    """parlett-2013 tie: the non-dealing side scores 10 × the dealing side's left-overs."""
    first_ns = 1 if dealer % 2 == 1 else 2
    plan = plan_deal(
        dealer,
        hands={first_ns: NS_TIE_PAIR, 3 - first_ns: EW_TIE_PAIR},
        leftovers={"NS": ns_six, "EW": ew_six},
    )
    state = new_game([plan], rules="parlett-2013", target=1000)
    plan.play(state)
    (result,) = state.deal_results
    assert result["hand_points"] == {"NS": 1, "EW": 1}
    dealing_side = "NS" if dealer % 2 == 0 else "EW"
    assert set(result["leftovers"]) == {dealing_side}  # only the dealing side reveals
    assert result["leftover_bonus"] == bonus
    assert state.view(None)["state"]["game_scores"] == {
        "NS": 1 + bonus["NS"], "EW": 1 + bonus["EW"],
    }  # fmt: skip


@pytest.mark.parametrize(
    ("ns_six", "ew_six", "bonus"),
    [
        # NS straight (5) beats EW threes (3): NS lose, EW score 10 × 5.
        ("2S 3H 4D 5C 6S KH", "QS QH QD 9C 7D 2H", {"NS": 0, "EW": 50}),
        # Both one pair: K K 9 5 3 against Q Q J 8 4, NS higher: EW score 10 × 1.
        ("KS KH 9D 5C 3S 2H", "QS QH JH 8C 4C 2D", {"NS": 0, "EW": 10}),
        # Both one pair, ranks in descending order: A K Q 2 2 against K K 9 8 6:
        # NS's first card is higher, so NS lose (C17 compares the five cards'
        # ranks in descending order, not Poker's pair-first order).
        ("2S 2H AH KC QD 7C", "KS KD 9C 8C 6S 3H", {"NS": 0, "EW": 10}),
        # Complete equality (8 8 6 5 3 each): nobody scores.
        ("8S 8H 6D 5C 3S 2H", "8D 8C 6S 5H 3D 2C", {"NS": 0, "EW": 0}),
        # Three pairs is just two pairs in penguin (C15): EW's threes are higher,
        # EW lose, NS score 10 × 3.
        ("KS KH 8D 8C 3S 3H", "QS QH QD 7C 5D 2D", {"NS": 30, "EW": 0}),
        # EW's full house beats NS's flush: EW lose, NS score 10 × 8.
        ("2H 4H 6H 8H KH 5C", "7S 7H 7D 4D 4C 3D", {"NS": 80, "EW": 0}),
    ],
    ids=[
        "straight_vs_threes", "pair_vs_pair", "descending_ranks", "complete_equality",
        "three_pairs_are_two_pairs", "full_house_vs_flush",
    ],
)  # fmt: skip
def test_tie_penguin(ns_six: str, ew_six: str, bonus: dict[str, int]) -> None:
    """penguin tie (C17): both reveal; the higher combination loses; the other scores 10 × it."""
    plan = plan_deal(
        3, hands={1: NS_TIE_PAIR, 2: EW_TIE_PAIR}, leftovers={"NS": ns_six, "EW": ew_six}
    )
    state = new_game([plan], rules="penguin", target=1000)
    plan.play(state)
    (result,) = state.deal_results
    assert result["hand_points"] == {"NS": 1, "EW": 1}
    assert sorted(result["leftovers"]["NS"]) == sorted(ns_six.split())
    assert sorted(result["leftovers"]["EW"]) == sorted(ew_six.split())
    assert result["leftover_bonus"] == bonus
    assert state.view(None)["state"]["game_scores"] == {
        "NS": 1 + bonus["NS"], "EW": 1 + bonus["EW"],
    }  # fmt: skip


# ===========================================================================
# End of the game (C20–C24)
# ===========================================================================

DEALERS = [3, 0, 1, 2]  # first dealer W, then to the left each deal (C24)


@pytest.mark.parametrize("rules", EDITIONS)
@pytest.mark.parametrize(("deal", "game_bonus"), [(1, 400), (2, 300), (3, 200), (4, 100)])
def test_game_bonus_table(rules: str, deal: int, game_bonus: int) -> None:
    """C22: exactly one side at 100: +100 plus 100 per unplayed deal, and the game ends.

    Quiet deals (0 - 0) until deal ``deal``, where NS score 1 + 100 = 101 and
    reach the target alone: 400 after deal 1 (3 unplayed), … 100 after deal 4.
    """
    plans = [_quiet(d) for d in DEALERS[: deal - 1]] + [_big_win(DEALERS[deal - 1])]
    state = new_game(plans, rules=rules)
    for plan in plans:
        assert state.outcome() is None
        plan.play(state)
    results = state.deal_results
    assert len(results) == deal
    for quiet in results[:-1]:
        assert quiet["hand_points"] == {"NS": 0, "EW": 0}
        assert quiet["leftover_bonus"] == {"NS": 0, "EW": 0}
        assert quiet["game_bonus"] == {"NS": 0, "EW": 0}
    assert results[-1]["leftover_bonus"] == {"NS": 100, "EW": 0}
    assert results[-1]["game_bonus"] == {"NS": game_bonus, "EW": 0}
    total = 101 + game_bonus
    assert state.view(None)["state"]["game_scores"] == {"NS": total, "EW": 0}
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.termination is Termination.TARGET_REACHED
    assert outcome.scores == (total, 0, total, 0)
    assert outcome.winners == (0, 2)
    assert state.to_move() == []
    assert state.view(1)["result"] == {
        "termination": "target_reached", "scores": [total, 0, total, 0], "winners": [0, 2],
    }  # fmt: skip


def _flush_vs(ew_spec: str) -> DealPlan:
    """Dealer W: NS make a flush (6) in hand 1, EW ``ew_spec`` in hand 2; plain left-overs."""
    return plan_deal(3, hands={1: "2H 5H 9H JH KH", 2: ew_spec})


def test_both_sides_at_target_no_bonus_higher_wins() -> None:
    """C20 with target 5: NS flush 6, EW straight 5; NS win the deal (EW left nothing)."""
    plan = _flush_vs("5S 6C 7D 8C 9S")
    state = new_game([plan], target=5)
    plan.play(state)
    (result,) = state.deal_results
    assert result["hand_points"] == {"NS": 6, "EW": 5}
    assert result["game_bonus"] == {"NS": 0, "EW": 0}
    outcome = state.outcome()
    assert outcome is not None and outcome.termination is Termination.TARGET_REACHED
    assert outcome.scores == (6, 5, 6, 5) and outcome.winners == (0, 2)


@pytest.mark.parametrize("rules", EDITIONS)
def test_both_sides_at_target_equal_is_a_draw(rules: str) -> None:
    """C20: NS flush 6, EW flush 6, left-overs plain nothing (0 bonus): 6 - 6 is a draw."""
    plan = _flush_vs("2S 5S 9S JS KS")
    state = new_game([plan], rules=rules, target=5)
    plan.play(state)
    outcome = state.outcome()
    assert outcome is not None and outcome.termination is Termination.TARGET_REACHED
    assert outcome.scores == (6, 6, 6, 6)
    assert outcome.winners == () and outcome.is_draw
    assert state.deal_results[0]["game_bonus"] == {"NS": 0, "EW": 0}


def test_last_deal_nobody_at_target() -> None:
    """C21: after deal 4 with nobody at 100 the higher total wins, no bonus."""
    plans = [_quiet(3), _small_win(0), _quiet(1), _quiet(2)]
    state = new_game(plans)
    for i, plan in enumerate(plans):
        plan.play(state)
        if i < 3:
            assert state.outcome() is None
    assert [r["game_bonus"] for r in state.deal_results] == [{"NS": 0, "EW": 0}] * 4
    outcome = state.outcome()
    assert outcome is not None and outcome.termination is Termination.DEALS_EXHAUSTED
    assert outcome.scores == (51, 0, 51, 0)  # 1 + 50 in deal 2, nothing else
    assert outcome.winners == (0, 2)


def test_last_deal_equal_is_a_draw() -> None:
    """C21 with deals=1: a quiet deal ends 0 - 0, a draw."""
    state = new_game([_quiet(3)], deals=1)
    _quiet(3).play(state)
    outcome = state.outcome()
    assert outcome is not None and outcome.termination is Termination.DEALS_EXHAUSTED
    assert outcome.scores == (0, 0, 0, 0) and outcome.winners == ()


def test_game_bonus_counts_the_deals_option() -> None:
    """C22 with deals=2: reaching 100 after deal 1 leaves one deal unplayed: +200."""
    state = new_game([_big_win(3)], deals=2)
    _big_win(3).play(state)
    assert state.deal_results[0]["game_bonus"] == {"NS": 200, "EW": 0}
    assert state.outcome() is not None and state.outcome().scores[0] == 301


def test_match_target() -> None:
    """C23: scores carry, the 100 test is on the game's own score, the match ends after a deal.

    match_target 550. Game 1, deal 1: NS 101 + 400 = 501, game over.
    Game 2, deal 1 (quiet): NS's game score is 0, so game 2 goes on although
    the carried total is 501 ≥ 100. Deal 2: NS 51 (game score 51 < 100, no
    bonus) make the total 552 ≥ 550: the match is won mid-game.
    """
    plans = [_big_win(3), _quiet(0), _small_win(1)]
    state = new_game(plans, match_target=550)
    plans[0].play(state)
    view = state.view(None)["state"]
    assert state.outcome() is None
    assert view["game_number"] == 2 and view["deal_number"] == 1
    assert view["game_scores"] == {"NS": 0, "EW": 0}
    assert view["match_scores"] == {"NS": 501, "EW": 0}
    assert view["completed_hands"] == [] and view["deal_results"] == []
    assert [g["scores"] for g in view["games"]] == [{"NS": 501, "EW": 0}]
    assert state.view(0)["scores"] == [501, 0, 501, 0]
    plans[1].play(state)
    assert state.outcome() is None
    assert state.view(None)["state"]["game_scores"] == {"NS": 0, "EW": 0}
    plans[2].play(state)
    assert state.deal_results[-1]["game_bonus"] == {"NS": 0, "EW": 0}
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.termination is Termination.MATCH_TARGET_REACHED
    assert outcome.scores == (552, 0, 552, 0) and outcome.winners == (0, 2)
    assert state.view(None)["state"]["match_scores"] == {"NS": 552, "EW": 0}


def test_match_target_both_at_once_higher_wins() -> None:
    """C23: NS 6 and EW 5 both reach a match target of 5 after the same deal: NS win."""
    plan = _flush_vs("5S 6C 7D 8C 9S")
    state = new_game([plan], match_target=5)
    plan.play(state)
    outcome = state.outcome()
    assert outcome is not None and outcome.termination is Termination.MATCH_TARGET_REACHED
    assert outcome.scores == (6, 5, 6, 5) and outcome.winners == (0, 2)


def _random_deal(state: concerto.State, rng_seed: int) -> None:
    """Play the current deal to its end with seeded random legal moves."""
    rng = random.Random(rng_seed)
    deal, game = state.deal_number, state.game_number
    while state.outcome() is None and (state.deal_number, state.game_number) == (deal, game):
        (seat,) = state.to_move()
        state.apply(seat, rng.choice(state.legal_moves(seat)))


def test_dealer_rotates_left_across_games() -> None:
    """C24: each deal is dealt by the previous dealer's left neighbour, across games too.

    target 1 ends most games after a deal or two, so six deals cross games.
    The first lead of each deal is the new dealer's left neighbour.
    """
    state = concerto.new_state({"first_dealer": 2, "target": 1, "match_target": 100000}, "c24")
    dealers, games = [], set()
    for i in range(6):
        view = state.view(None)["state"]
        dealers.append(view["dealer"])
        games.add(view["game_number"])
        assert view["hand_number"] == 1 and state.to_move() == [(view["dealer"] + 1) % 4]
        _random_deal(state, i)
    assert dealers == [2, 3, 0, 1, 2, 3]
    assert len(games) >= 2


def test_first_dealer_from_the_seed_is_deterministic() -> None:
    dealers = {concerto.new_state({}, f"seed-{i}").view(None)["state"]["dealer"] for i in range(20)}
    assert dealers <= {0, 1, 2, 3} and len(dealers) > 1
    a, b = concerto.new_state({}, "same"), concerto.new_state({}, "same")
    assert a == b


# ===========================================================================
# Options and presets are checked, reporting every problem
# ===========================================================================


def test_invalid_options_lists_every_problem() -> None:
    with pytest.raises(InvalidOptions) as info:
        concerto.new_state({"rules": "hoyle", "deals": 0, "target": "x", "colour": 1}, "s")
    assert set(info.value.problems) == {"rules", "deals", "target", "colour"}


def test_invalid_deal_lists_every_problem() -> None:
    preset = fill_preset(3, {})
    bad = [list(h) for h in preset["hands"]]
    bad[0][0] = bad[1][0]  # a duplicate, so one card is missing
    bad[2] = bad[2][:12]  # a short hand
    bad[3][5] = "1X"  # not a card
    with pytest.raises(InvalidDeal) as info:
        concerto.new_state({}, "s", deals=[{"dealer": 7, "hands": bad}])
    text = " | ".join(info.value.problems)
    assert "dealer" in text and "hands[2]" in text and "'1X'" in text and "2 times" in text
    assert len(info.value.problems) >= 4


def test_preset_deals_are_dealt_in_order_then_seeded() -> None:
    plans = [_quiet(3), _quiet(0, seed=1)]
    state = new_game(plans)

    def hands() -> list[list[str]]:
        return [sorted(state.view(s)["hand"]) for s in range(4)]

    assert hands() == [sorted(h) for h in plans[0].preset["hands"]]
    plans[0].play(state)
    assert hands() == [sorted(h) for h in plans[1].preset["hands"]]
    plans[1].play(state)
    assert state.view(None)["state"]["dealer"] == 1  # seeded deal, dealer to the left
    assert all(len(h) == 13 for h in hands())
    assert sorted(c for h in hands() for c in h) == sorted(PACK)


def test_parse_tokens_helper() -> None:
    """The hand-spec helper itself: bare cards alternate, L/P resolve against the leader."""
    assert parse_tokens("AS KS QS", leader=1) == [(1, "AS"), (3, "KS"), (1, "QS")]
    assert parse_tokens("L:AS P:pass N:KS", leader=2) == [(2, "AS"), (0, "pass"), (0, "KS")]
    state = concerto.new_state({}, "h", deals=[fill_preset(3, {0: ["AS"], 2: ["KS"]})])
    play_hand(state, "L:AS P:pass L:force")
    assert state.to_move() == [2]

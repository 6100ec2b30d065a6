"""Cowpoke (docs/rules/cowpoke.md): the exchange for 2-5 players, showdowns, information.

Every deal here is a preset: set-up cards and the top of the stack are named,
the rest of the stack is the pack in a fixed order. With dealer 0 the draws
go to seats 1, 2, …, 0 (the dealer's left first) and, with two players, the
dummy's card comes third. Expected choosers, hands and winners are worked by
hand from the rule text in the comments.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from server.games import REGISTRY, cowpoke
from server.games.kit.base import (
    GameOver,
    IllegalMove,
    InvalidDeal,
    InvalidOptions,
    MalformedMove,
    NotYourTurn,
    visible,
)

RANKS = "AKQJT98765432"
PACK = [r + s for s in "SHDC" for r in RANKS]


def preset(setup: list[str], stack_top: list[str], dummy: str | None = None) -> dict[str, Any]:
    """A preset deal: one set-up card per seat, the stack's top cards, the rest in pack order."""
    used = [*setup, *stack_top, *([dummy] if dummy else [])]
    assert len(used) == len(set(used)), used
    deal: dict[str, Any] = {
        "hands": [[c] for c in setup],
        "stack": stack_top + [c for c in PACK if c not in used],
    }
    if dummy:
        deal["dummy"] = dummy
    return deal


def put_out(state: cowpoke.State, cards: dict[int, str]) -> list:
    """Every seat puts out its named card (in turn order; the order cannot matter)."""
    events = []
    for seat in state.seats_from_left():
        assert seat in state.to_move()
        events += state.apply(seat, {"type": "put_out", "card": cards[seat]})
    return events


def take(state: cowpoke.State, seat: int, card: str) -> list:
    assert state.to_move() == [seat], f"{state.to_move()} to move, expected {seat}"
    return state.apply(seat, {"type": "take", "card": card})


def before_draw(state: cowpoke.State) -> list[list[str]]:
    """Each hand without the card just drawn: an exchange that ends starts the next round."""
    return [[c for c in h if c != state.drawn[s]] for s, h in enumerate(state.hands)]


def takeable(state: cowpoke.State, seat: int) -> list[str]:
    return [m["card"] for m in state.legal_moves(seat)]


# ---------------------------------------------------------------------------
# Put-out strength (W2)
# ---------------------------------------------------------------------------


def test_put_out_strength_is_rank_then_suit_order() -> None:
    chsd = cowpoke.new_state({"players": 3}, "w2")
    order = sorted(["KD", "KS", "KH", "KC", "AD", "2C"], key=chsd.strength, reverse=True)
    assert order == ["AD", "KC", "KH", "KS", "KD", "2C"]  # clubs > hearts > spades > diamonds
    dshc = cowpoke.new_state({"players": 3, "suit_order": "DSHC"}, "w2")
    order = sorted(["KD", "KS", "KH", "KC", "AC", "2D"], key=dshc.strength, reverse=True)
    assert order == ["AC", "KD", "KS", "KH", "KC", "2D"]


@pytest.mark.parametrize(("suit_order", "first"), [("CHSD", 0), ("HCSD", 1)])
def test_equal_ranks_the_suit_order_decides_who_chooses(suit_order: str, first: int) -> None:
    # Two players, dealer 0: seat 1 draws KH, seat 0 draws KC, the dummy gets 2D.
    deal = preset(["2C", "3C"], ["KH", "KC", "2D"], dummy="4C")
    state = cowpoke.new_state({"players": 2, "suit_order": suit_order}, "w2", deals=[deal])
    put_out(state, {0: "KC", 1: "KH"})
    assert state.to_move() == [first]


# ---------------------------------------------------------------------------
# The exchange, W4 (3-5 players) and W5 (2 players)
# ---------------------------------------------------------------------------


def three_players() -> cowpoke.State:
    # Set-up 0: 2C, 1: 3C, 2: 4C; draws 1: AS, 2: KS, 0: QS; each puts out its draw.
    deal = preset(["2C", "3C", "4C"], ["AS", "KS", "QS"])
    state = cowpoke.new_state({"players": 3}, "w4", deals=[deal])
    assert state.to_move() == [1, 2, 0]
    put_out(state, {1: "AS", 2: "KS", 0: "QS"})
    return state


def test_three_players_chain_then_the_last_two() -> None:
    state = three_players()
    # AS is best: seat 1 chooses first, any card but its own.
    assert state.to_move() == [1] and takeable(state, 1) == ["KS", "QS"]
    take(state, 1, "KS")
    # Two players (0, 2) and two cards (AS, QS) remain: the better put-out (KS) picks either.
    assert takeable(state, 2) == ["AS", "QS"]
    events = take(state, 2, "QS")
    # ... and seat 0 gets the last card, AS.
    auto = [e.data for e in events if e.kind == "take"]
    assert auto == [
        {"seat": 2, "card": "QS", "from": 0, "auto": False},
        {"seat": 0, "card": "AS", "from": 1, "auto": True},
    ]
    assert before_draw(state) == [["AS", "2C"], ["KS", "3C"], ["QS", "4C"]]
    assert state.exposed == [["AS"], ["KS"], ["QS"]]
    assert state.rounds[0]["takes"][0] == {"seat": 1, "card": "KS", "from": 2, "auto": False}
    # Round 2 begins: everyone holds 2 cards and draws a third.
    assert state.round == 2 and state.phase == "put_out"
    assert [len(h) for h in state.hands] == [3, 3, 3]


def test_three_players_last_two_override_the_chain_and_may_keep() -> None:
    state = three_players()
    take(state, 1, "QS")
    # The chain would call seat 0 (its QS was taken) but two players and two
    # cards remain: the better put-out, seat 2 (KS), picks, and may keep its own.
    assert state.to_move() == [2]
    assert takeable(state, 2) == ["AS", "KS"]
    take(state, 2, "KS")
    assert before_draw(state)[0] == ["AS", "2C"]  # gets the last
    assert before_draw(state)[2] == ["KS", "4C"]


def four_players() -> cowpoke.State:
    deal = preset(["2C", "3C", "4C", "5C"], ["AS", "KS", "QS", "JS"])
    state = cowpoke.new_state({"players": 4}, "w4", deals=[deal])
    put_out(state, {1: "AS", 2: "KS", 3: "QS", 0: "JS"})
    return state


def test_four_players_chain_and_broken_chain() -> None:
    state = four_players()
    assert takeable(state, 1) == ["KS", "QS", "JS"]
    before = state.to_dict()
    with pytest.raises(IllegalMove, match="own card while three or more"):
        take(state, 1, "AS")
    assert state.to_dict() == before
    take(state, 1, "QS")
    # Chain: QS's owner, seat 3, chooses next.
    assert state.to_move() == [3] and takeable(state, 3) == ["AS", "KS", "JS"]
    with pytest.raises(IllegalMove, match="already been taken"):
        take(state, 3, "QS")
    take(state, 3, "AS")
    # AS's owner (seat 1) is served: the chain is broken. Seats 0 and 2 remain
    # with JS and KS on the table: the better put-out (seat 2, KS) picks either.
    assert state.to_move() == [2] and takeable(state, 2) == ["KS", "JS"]
    take(state, 2, "JS")
    assert before_draw(state) == [["KS", "2C"], ["QS", "3C"], ["JS", "4C"], ["AS", "5C"]]


def test_four_players_chain_into_the_last_two() -> None:
    state = four_players()
    take(state, 1, "KS")  # seat 2 chooses next (chain), three unserved: not its own
    assert state.to_move() == [2] and takeable(state, 2) == ["AS", "QS", "JS"]
    take(state, 2, "JS")
    # JS's owner is seat 0, but only seats 0 and 3 remain: seat 3 (QS) beats JS and picks.
    assert state.to_move() == [3] and takeable(state, 3) == ["AS", "QS"]
    take(state, 3, "AS")
    assert before_draw(state)[0] == ["QS", "2C"]


def test_five_players_broken_chain_with_three_unserved() -> None:
    deal = preset(["2C", "3C", "4C", "5C", "6C"], ["AS", "KS", "QS", "JS", "TS"])
    state = cowpoke.new_state({"players": 5}, "w4", deals=[deal])
    put_out(state, {1: "AS", 2: "KS", 3: "QS", 4: "JS", 0: "TS"})
    take(state, 1, "JS")
    # Chain: seat 4 chooses; four unserved.
    assert state.to_move() == [4] and takeable(state, 4) == ["AS", "KS", "QS", "TS"]
    take(state, 4, "AS")
    # Broken chain (seat 1 already served); unserved 0, 2, 3: the best put-out
    # among them, seat 2 (KS), chooses, and may not take its own card.
    assert state.to_move() == [2]
    assert state.view(None)["state"]["unserved"] == [0, 2, 3]
    assert takeable(state, 2) == ["QS", "TS"]
    before = state.to_dict()
    with pytest.raises(IllegalMove, match="three or more players are unserved") as err:
        take(state, 2, "KS")
    assert err.value.legal_moves == [{"type": "take", "card": c} for c in ("QS", "TS")]
    assert state.to_dict() == before
    take(state, 2, "TS")
    # Seats 0 (TS) and 3 (QS) remain with KS and QS: seat 3 picks either.
    assert state.to_move() == [3] and takeable(state, 3) == ["KS", "QS"]
    take(state, 3, "KS")
    assert before_draw(state) == [
        ["QS", "2C"], ["JS", "3C"], ["TS", "4C"], ["KS", "5C"], ["AS", "6C"],
    ]  # fmt: skip
    record = state.rounds[0]
    assert [(t["seat"], t["card"], t["from"]) for t in record["takes"]] == [
        (1, "JS", 4), (4, "AS", 1), (2, "TS", 0), (3, "KS", 2), (0, "QS", 3),
    ]  # fmt: skip
    assert record["out_of_play"] is None


def two_players(**options: Any) -> cowpoke.State:
    # Set-up 0: 3C, 1: 2C, dummy 4C; draws 1: KH, 0: QH; the dummy's put-out: AH.
    deal = preset(["3C", "2C"], ["KH", "QH", "AH"], dummy="4C")
    return cowpoke.new_state({"players": 2, **options}, "w5", deals=[deal])


def test_two_players_with_the_dummy() -> None:
    state = two_players()
    assert state.to_move() == [1, 0]
    # The dummy's put-out is face down until both live players have put out.
    for seat in (0, 1, None):
        assert '"AH"' not in json.dumps(state.view(seat))
    events = put_out(state, {1: "KH", 0: "3C"})  # W9: any card, not only the draw
    reveal = next(e for e in events if e.kind == "reveal")
    assert reveal.visible_to is None
    assert [(p["owner"], p["card"]) for p in reveal.data["put_outs"]] == [
        ("dummy", "AH"), (1, "KH"), (0, "3C"),
    ]  # fmt: skip
    # W5: the better put-out (KH) takes the opponent's or the dummy's card.
    assert state.to_move() == [1] and takeable(state, 1) == ["AH", "3C"]
    take(state, 1, "AH")
    # The other takes either remaining card, its own included.
    assert takeable(state, 0) == ["KH", "3C"]
    events = take(state, 0, "3C")
    out = next(e for e in events if e.kind == "out_of_play")
    assert out.data == {"card": "KH", "from": 1} and out.visible_to is None
    assert state.rounds[0]["out_of_play"] == "KH"
    assert before_draw(state) == [["QH", "3C"], ["AH", "2C"]]


def test_two_players_second_chooser_may_take_the_first_choosers_card() -> None:
    state = two_players()
    put_out(state, {1: "KH", 0: "QH"})
    take(state, 1, "QH")
    take(state, 0, "KH")
    assert state.rounds[0]["out_of_play"] == "AH"  # the dummy's card goes out
    assert before_draw(state) == [["KH", "3C"], ["QH", "2C"]]


# ---------------------------------------------------------------------------
# Showdowns (W7, W8)
# ---------------------------------------------------------------------------

# Two players, dealer 0. Every round seat 1 puts out its draw (spades A..6),
# seat 0 its draw (ranks 2-5) -> seat 1 chooses first, takes the dummy's card;
# seat 0 takes back its own; seat 1's put-out goes out of play.
D1 = ["AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S", "6S"]
D0 = ["2H", "3H", "4H", "5H", "2D", "3D", "4D", "5D", "2C"]
DUMMY = ["AH", "AD", "AC", "KH", "KD", "KC", "QH", "QD", "QC"]


def scripted_two_player_game(hands: int = 1) -> cowpoke.State:
    stack = [c for triple in zip(D1, D0, DUMMY, strict=True) for c in triple]
    deal = preset(["4C", "JH"], stack, dummy="2S")
    return cowpoke.new_state({"players": 2, "hands": hands}, "w7", deals=[deal])


def play_scripted_round(state: cowpoke.State) -> list:
    r = state.round - 1
    events = put_out(state, {1: D1[r], 0: D0[r]})
    events += take(state, 1, DUMMY[r])
    events += take(state, 0, D0[r])
    return events


def test_no_showdown_before_five_cards() -> None:
    state = scripted_two_player_game()
    for _ in range(3):
        events = play_scripted_round(state)
        assert not any(e.kind == "asking" for e in events)
    assert state.phase == "put_out" and state.round == 4


def test_optional_showdown_passed_then_called() -> None:
    state = scripted_two_player_game()
    for _ in range(4):
        events = play_scripted_round(state)
    # Round 4 leaves five cards each: ask in turn from the dealer's left.
    assert [len(h) for h in state.hands] == [5, 5]
    assert state.phase == "asking" and state.to_move() == [1]
    assert state.legal_moves(1) == [{"type": "call"}, {"type": "pass"}]
    state.apply(1, {"type": "pass"})
    assert state.to_move() == [0]
    state.apply(0, {"type": "pass"})
    # Both declined: round 5.
    assert state.phase == "put_out" and state.round == 5
    play_scripted_round(state)
    assert state.to_move() == [1]
    state.apply(1, {"type": "pass"})
    events = state.apply(0, {"type": "call"})
    showdown = next(e for e in events if e.kind == "showdown").data
    # Seat 1: JH AH AD AC KH KD -> aces full of kings; seat 0: 4C 2H 3H 4H 5H 2D -> two pairs.
    assert showdown["called_by"] == 0 and showdown["round"] == 5
    assert [b["combination"] for b in showdown["best"]] == ["two_pairs", "full_house"]
    assert showdown["winners"] == [1] and showdown["points"] == [0, 1]
    outcome = state.outcome()
    assert outcome is not None and outcome.scores == (0, 1) and outcome.winners == (1,)
    assert state.to_move() == []
    with pytest.raises(GameOver):
        state.apply(0, {"type": "pass"})


def test_compulsory_showdown_at_ten_cards() -> None:
    state = scripted_two_player_game()
    for round_number in range(1, 10):
        events = play_scripted_round(state)
        if round_number < 4:
            continue
        if round_number < 9:
            assert state.phase == "asking"
            state.apply(1, {"type": "pass"})
            state.apply(0, {"type": "pass"})
    assert not any(e.kind == "asking" for e in events)
    showdown = next(e for e in events if e.kind == "showdown").data
    assert showdown["called_by"] is None and showdown["round"] == 9
    assert [len(h) for h in showdown["hands"]] == [10, 10]
    # Seat 1: JH + AH AD AC KH KD KC QH QD QC -> aces full of kings.
    # Seat 0: 4C + 2H 3H 4H 5H 2D 3D 4D 5D 2C -> fours full of fives: both full houses.
    assert [b["combination"] for b in showdown["best"]] == ["full_house", "full_house"]
    assert sorted(c[0] for c in showdown["best"][1]["cards"]) == sorted("AAAKK")
    assert sorted(c[0] for c in showdown["best"][0]["cards"]) == sorted("44455")
    assert showdown["winners"] == [1]
    # The dealt-out spades A..6 went out of play, one per round.
    assert [r["out_of_play"] for r in state.rounds] == D1


def test_equal_hands_share_the_win_and_the_game_goes_on() -> None:
    # Seat 1 collects the dummy's 2C 3C 4C 5C to its 6D; seat 0 keeps 2H..5H to its 6S:
    # two 6-high straights, equal: both win (W7) and score 1 each (W8).
    stack = [c for t in zip(["AS", "AD", "KS", "KD"], D0[:4], ["2C", "3C", "4C", "5C"],
                            strict=True) for c in t]  # fmt: skip
    deal = preset(["6S", "6D"], stack, dummy="9C")
    state = cowpoke.new_state({"players": 2, "hands": 2}, "w7", deals=[deal])
    for r, (d1, dummy) in enumerate(zip(["AS", "AD", "KS", "KD"], ["2C", "3C", "4C", "5C"],
                                        strict=True)):  # fmt: skip
        put_out(state, {1: d1, 0: D0[r]})
        take(state, 1, dummy)
        take(state, 0, D0[r])
    events = state.apply(1, {"type": "call"})
    showdown = next(e for e in events if e.kind == "showdown").data
    assert [b["combination"] for b in showdown["best"]] == ["straight", "straight"]
    assert showdown["winners"] == [0, 1] and showdown["points"] == [1, 1]
    assert state.scores == [1, 1]
    # Deal 2: the deal passes to the left; a new set-up and first draw.
    assert (state.deal_number, state.dealer, state.round) == (2, 1, 1)
    assert state.to_move() == [0, 1] and [len(h) for h in state.hands] == [2, 2]
    assert state.exposed == [[], []] and state.rounds == []
    deal_event = next(e for e in events if e.kind == "deal")
    assert deal_event.data == {"deal": 2, "dealer": 1}


def test_three_player_co_winners_and_house_scoring() -> None:
    """Every showdown winner scores 1; the game's winners are the top totals."""
    state = cowpoke.new_state({"players": 3, "hands": 3}, "house")
    rng = random.Random(3)
    while not state.is_over():
        seat = state.to_move()[0]
        moves = state.legal_moves(seat)
        call = {"type": "call"}
        state.apply(seat, call if call in moves else rng.choice(moves))
    results = state.deal_results
    assert len(results) == 3 and all(r["round"] == 4 for r in results)
    totals = [sum(r["points"][s] for r in results) for s in range(3)]
    outcome = state.outcome()
    assert outcome is not None and list(outcome.scores) == totals
    top = max(totals)
    expected = tuple(s for s in range(3) if totals[s] == top)
    assert outcome.winners == (expected if len(expected) < 3 else ())
    assert [r["dealer"] for r in results] == [0, 1, 2]


# ---------------------------------------------------------------------------
# Information (put-outs, draws, hands)
# ---------------------------------------------------------------------------


def test_put_outs_and_draws_stay_private_until_the_reveal() -> None:
    deal = preset(["2C", "3C", "4C"], ["AS", "KS", "QS"])
    state = cowpoke.new_state({"players": 3}, "info", deals=[deal])
    opening = cowpoke.GAME.opening_events(state)
    draws = [e for e in opening if e.kind == "draw"]
    assert [(e.data, e.visible_to) for e in draws] == [
        ({"seat": 1, "card": "AS"}, frozenset({1})),
        ({"seat": 2, "card": "KS"}, frozenset({2})),
        ({"seat": 0, "card": "QS"}, frozenset({0})),
    ]
    assert [e.data["cards"] for e in opening if e.kind == "hand"] == [["2C"], ["3C"], ["4C"]]
    events = state.apply(1, {"type": "put_out", "card": "AS"})
    assert [(e.kind, e.data, e.visible_to) for e in events] == [
        ("put_out", {"seat": 1, "round": 1}, None),
    ]
    assert state.to_move() == [2, 0]
    assert state.view(1)["state"]["put_out"] == "AS"
    for seat in (0, 2, None):
        text = json.dumps(state.view(seat))
        assert '"AS"' not in text and '"3C"' not in text
        assert state.view(seat)["state"]["put_out_done"] == [False, True, False]
    with pytest.raises(NotYourTurn):
        state.apply(1, {"type": "put_out", "card": "3C"})
    state.apply(0, {"type": "put_out", "card": "2C"})
    events = state.apply(2, {"type": "put_out", "card": "4C"})
    assert events[-1].kind == "reveal" and all(visible(e, None) for e in events)
    assert [p["card"] for p in state.view(None)["state"]["table"]] == ["AS", "4C", "2C"]


def test_exposed_cards_follow_the_reveals() -> None:
    state = three_players()
    take(state, 1, "KS")
    take(state, 2, "QS")
    assert state.exposed == [["AS"], ["KS"], ["QS"]]
    # Seat 1 puts the known KS face down again: nobody can tell yet.
    state.apply(1, {"type": "put_out", "card": "KS"})
    assert state.view(0)["state"]["exposed"] == [["AS"], ["KS"], ["QS"]]
    state.apply(2, {"type": "put_out", "card": state.drawn[2]})
    state.apply(0, {"type": "put_out", "card": state.drawn[0]})
    # Turned up: KS is on the table, no longer known to be in seat 1's hand.
    assert state.exposed[1] == []
    assert state.exposed[0] == ["AS"] and state.exposed[2] == ["QS"]


def test_wrong_phase_and_malformed_moves() -> None:
    state = three_players()
    before = state.to_dict()
    with pytest.raises(IllegalMove, match="now you must take a card from the table"):
        state.apply(1, {"type": "put_out", "card": "3C"})
    with pytest.raises(IllegalMove, match="not on the table"):
        state.apply(1, {"type": "take", "card": "2D"})
    with pytest.raises(IllegalMove, match="now you must take"):
        state.apply(1, {"type": "call"})
    for bad in ({"type": "take"}, {"type": "take", "card": "as"}, {"type": "draw"},
                {"type": "pass", "card": "AS"}, []):  # fmt: skip
        with pytest.raises(MalformedMove):
            state.apply(1, bad)
    assert state.to_dict() == before


# ---------------------------------------------------------------------------
# Options and presets
# ---------------------------------------------------------------------------


def test_options_report_every_problem() -> None:
    with pytest.raises(InvalidOptions) as err:
        cowpoke.new_state({"players": 6, "suit_order": "CHS", "hands": 0, "colour": 1}, "x")
    assert set(err.value.problems) == {"players", "suit_order", "hands", "colour"}
    with pytest.raises(InvalidOptions) as err:
        cowpoke.new_state({"players": 3, "first_dealer": 3}, "x")
    assert set(err.value.problems) == {"first_dealer"}
    options = cowpoke.parse_options(None)
    assert (options.players, options.suit_order, options.hands) == (4, "CHSD", 5)
    assert len(cowpoke.OPTIONS["suit_order"]["choices"]) == 24
    assert REGISTRY["cowpoke"] is cowpoke.GAME and cowpoke.GAME.seats == (2, 3, 4, 5)


def test_presets_report_every_problem() -> None:
    good = preset(["2C", "3C"], [], dummy="4C")
    with pytest.raises(InvalidDeal) as err:
        cowpoke.new_state(
            {"players": 2, "hands": 2},
            "x",
            deals=[
                {**good, "dealer": 1, "extra": True},
                {"hands": [["2C", "3C"], ["AS"]], "stack": ["AS", "ZZ"]},
                good,
            ],
        )
    text = "\n".join(err.value.problems)
    assert "deals: at most 2 presets" in text
    assert "deals[0].dealer: deal 1 is dealt by seat 0" in text
    assert "deals[0]: unknown field(s) extra" in text
    assert "deals[1].hands[0]: must hold exactly one card" in text
    assert "deals[1].dummy: the dummy's card is required with 2 players" in text
    assert "deals[1]: 'ZZ' is not a card" in text
    assert "deals[1]: AS appears 2 times" in text
    with pytest.raises(InvalidDeal, match="only a 2-player game has a dummy"):
        cowpoke.new_state({"players": 3}, "x", deals=[preset(["2C", "3C", "5C"], [], "4C")])
    short = preset(["2C", "3C", "5C"], [])
    short["stack"] = short["stack"][:-1]
    with pytest.raises(InvalidDeal, match="missing 4C"):
        cowpoke.new_state({"players": 3}, "x", deals=[short])

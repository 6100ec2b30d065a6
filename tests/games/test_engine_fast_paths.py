"""The fast paths of the Concerto engine and the kit change nothing a player can see.

Simulating without events, the compact form of the moves (``legal_actions``,
``apply_action``), checking a move without listing every legal move, hand
records built when asked for, cheap clones, Poker categories by table look-up,
the deal's shuffle, the determinization re-deal and the options as saved: each is checked here
against the plain way of doing the same thing.
The golden traces (test_golden_traces.py) check the event-building path move
by move.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from itertools import combinations

import pytest

from server.games import REGISTRY, concerto
from server.games.kit.base import GameOver, IllegalMove, NotYourTurn, options_dict, redeal
from server.games.kit.cards import (
    DOUBLE_PINOCHLE,
    PINOCHLE,
    STANDARD,
    deal_singly,
    derived_rng,
    shuffled,
    shuffled_order,
)
from server.games.kit.poker import Combination, category, evaluate, is_three_pairs

RULES = ("parlett-2013", "penguin")
EVERY_MOVE = [
    *({"type": "play", "card": c} for c in STANDARD.cards()),
    {"type": "pass"},
    {"type": "force"},
]


def random_game(rules: str, seed: str, options: dict | None = None):
    """Yield (state, seat, move) before each move of a seeded random game."""
    state = concerto.new_state({"rules": rules, **(options or {})}, seed)
    rng = random.Random(seed)
    while not state.is_over():
        seat = state.to_move()[0]
        move = rng.choice(state.legal_moves(seat))
        yield state, seat, move
        state.apply(seat, move)


@pytest.mark.parametrize("rules", RULES)
def test_a_quiet_simulation_reaches_the_same_states(rules: str) -> None:
    quiet = concerto.new_state({"rules": rules, "deals": 3}, "quiet")
    steps = 0
    for state, seat, move in random_game(rules, "quiet", {"deals": 3}):
        assert quiet.apply(seat, dict(move), events=False) == []
        state_after = state.clone()
        state_after.apply(seat, dict(move))
        assert quiet.to_dict() == state_after.to_dict()
        steps += 1
    assert steps > 50 and quiet.is_over()


def test_a_quiet_match_ends_like_a_loud_one() -> None:
    options = {"rules": "penguin", "match_target": 150, "deals": 2, "target": 60}
    loud = concerto.new_state(options, "match")
    quiet = concerto.new_state(options, "match")
    rng = random.Random(5)
    while not loud.is_over():
        seat = loud.to_move()[0]
        move = rng.choice(loud.legal_moves(seat))
        loud.apply(seat, move)
        quiet.apply(seat, move, events=False)
    assert quiet.to_dict() == loud.to_dict()
    assert quiet.outcome() == loud.outcome()


@pytest.mark.parametrize("rules", RULES)
def test_the_quick_legality_check_agrees_with_the_list(rules: str) -> None:
    for state, seat, _ in random_game(rules, "legal"):
        legal = state.legal_moves(seat)
        for move in EVERY_MOVE:
            assert state._is_legal(seat, move) == (move in legal), (move, legal)


def test_legal_plays_come_in_the_order_a_player_holds_them() -> None:
    for state, seat, _ in random_game("penguin", "order"):
        plays = [m["card"] for m in state.legal_moves(seat) if m["type"] == "play"]
        suits = [c[1] for c in plays]
        assert suits == sorted(suits, key="SHDC".index)
        for a, b in zip(plays, plays[1:], strict=False):
            if a[1] == b[1]:
                assert STANDARD.rank_order(a) > STANDARD.rank_order(b)


def test_a_clone_is_equal_and_independent() -> None:
    for n, (state, seat, move) in enumerate(random_game("parlett-2013", "clone")):
        if n % 7:
            continue
        before = state.to_dict()
        copy = state.clone()
        assert copy.to_dict() == before
        copy.apply(seat, move)
        while not copy.is_over():
            s = copy.to_move()[0]
            copy.apply(s, copy.legal_moves(s)[0], events=False)
        assert state.to_dict() == before


def test_a_clone_of_a_match_plays_on_without_touching_the_match() -> None:
    """Deal results and finished games are shared with clones: they must stay the original's."""
    options = {"match_target": 150, "deals": 2, "target": 60}
    for n, (state, seat, move) in enumerate(random_game("penguin", "match", options)):
        if n % 23:
            continue
        before = state.to_dict()
        copy = state.clone()
        copy.apply(seat, move)
        while not copy.is_over():
            s = copy.to_move()[0]
            copy.apply_action(s, copy.legal_actions(s)[-1])
        assert copy.to_dict()["deal_results"] != before["deal_results"]
        assert state.to_dict() == before
    assert state.games and state.is_over()


@pytest.mark.parametrize("rules", RULES)
def test_a_determinized_world_looks_the_same_to_the_seat(rules: str) -> None:
    rng = random.Random(11)
    for n, (state, seat, _) in enumerate(random_game(rules, "worlds")):
        if n % 5:
            continue
        view = state.view(seat)
        others = Counter(c for s in range(4) if s != seat for c in state.hands[s])
        worlds = [state.determinize(seat, rng) for _ in range(4)]
        for world in worlds:
            assert world.view(seat) == view
            assert Counter(c for s in range(4) if s != seat for c in world.hands[s]) == others
            assert world.seed != state.seed
        if sum(others.values()) - max(len(state.hands[s]) for s in range(4) if s != seat) > 1:
            assert any(w.hands != state.hands for w in worlds)


def test_a_determinized_world_plays_on_to_the_end_without_touching_the_game() -> None:
    state = concerto.new_state({"deals": 2}, "world")
    before = state.to_dict()
    world = state.determinize(0, random.Random(3))
    while not world.is_over():
        seat = world.to_move()[0]
        world.apply(seat, world.legal_moves(seat)[-1], events=False)
    assert state.to_dict() == before


def test_redeal_keeps_the_kept_hands_and_every_count() -> None:
    hands = [["AS", "KS"], ["QS"], ["JS", "TS", "9S"], []]
    new = redeal(hands, [0], random.Random(1), sorted)
    assert new[0] == ["AS", "KS"]
    assert [len(h) for h in new] == [2, 1, 3, 0]
    assert sorted(new[1] + new[2]) == ["9S", "JS", "QS", "TS"]
    assert new[2] == sorted(new[2])


@pytest.mark.parametrize(
    ("five", "expected"),
    [
        (["AS", "KS", "QS", "JS", "TS"], Combination.STRAIGHT_FLUSH),
        (["AH", "2H", "3H", "4H", "5H"], Combination.STRAIGHT_FLUSH),  # C5: the wheel
        (["AH", "2D", "3H", "4H", "5H"], Combination.STRAIGHT),
        (["QS", "KD", "AC", "2H", "3S"], Combination.NOTHING),  # C5: no wrap-around
        (["9H", "9S", "9D", "9C", "2S"], Combination.FOURS),
        (["9H", "9S", "9D", "2C", "2S"], Combination.FULL_HOUSE),
        (["2D", "7D", "9D", "JD", "KD"], Combination.FLUSH),
        (["9H", "9S", "9D", "3C", "2S"], Combination.THREES),
        (["9H", "9S", "3D", "3C", "2S"], Combination.TWO_PAIRS),
        (["9H", "9S", "4D", "3C", "2S"], Combination.ONE_PAIR),
        (["9H", "JS", "4D", "3C", "2S"], Combination.NOTHING),
    ],
)
def test_category_by_look_up(five: list[str], expected: Combination) -> None:
    assert category(five) is expected
    assert category(five[::-1]) is expected


def test_category_agrees_with_evaluate_on_every_hand_of_one_suit_pair() -> None:
    """All 5-card hands from 26 cards (two suits): 65,780 hands, every shape but fours."""
    cards = [c for c in STANDARD.cards() if c[1] in "SH"]
    for five in combinations(cards, 5):
        assert category(five) == evaluate(five)[0]


def test_the_shuffle_is_the_standard_library_shuffle() -> None:
    for pack in (STANDARD, PINOCHLE, DOUBLE_PINOCHLE):
        for n in range(200):
            expected = pack.cards()
            random.Random(f"s{n}").shuffle(expected)
            assert shuffled(pack, random.Random(f"s{n}")) == expected


# -- the compact form (legal_actions / apply_action) ---------------------------
EVERY_ACTION = [*STANDARD.cards(), "pass", "force"]


def as_move(action: str) -> dict:
    """The move an action stands for, written out from docs/api.md's move shapes."""
    return {"type": action} if action in ("pass", "force") else {"type": "play", "card": action}


@pytest.mark.parametrize("rules", RULES)
def test_the_actions_are_the_moves_in_the_same_order(rules: str) -> None:
    for state, seat, _ in random_game(rules, "actions"):
        actions = state.legal_actions(seat)
        assert [as_move(a) for a in actions] == state.legal_moves(seat)
        assert all(concerto.State.action_kinds[a] == as_move(a)["type"] for a in actions)
        for other in range(4):
            if other != seat:
                assert state.legal_actions(other) == [] == state.legal_moves(other)
        assert state.legal_actions(None) == []


@pytest.mark.parametrize("rules", RULES)
def test_apply_action_reaches_the_same_states_as_apply(rules: str) -> None:
    options = {"rules": rules, "deals": 3}
    compact = concerto.new_state(options, "compact")
    steps = 0
    for state, seat, move in random_game(rules, "compact", {"deals": 3}):
        after = state.clone()
        after.apply(seat, dict(move))
        compact.apply_action(seat, move.get("card", move["type"]))
        assert compact.to_dict() == after.to_dict()
        steps += 1
    assert steps > 50 and compact.is_over()
    assert compact.legal_actions(0) == []
    with pytest.raises(GameOver):
        compact.apply_action(0, "pass")


@pytest.mark.parametrize("rules", RULES)
def test_apply_action_refuses_exactly_what_apply_refuses(rules: str) -> None:
    for n, (state, seat, _) in enumerate(random_game(rules, "refusals")):
        if n % 9:
            continue
        legal = state.legal_actions(seat)
        before = state.to_dict()
        for action in EVERY_ACTION:
            by_action, by_move = state.clone(), state.clone()
            if action in legal:
                by_action.apply_action(seat, action)
                by_move.apply(seat, as_move(action))
                assert by_action.to_dict() == by_move.to_dict()
                continue
            with pytest.raises(IllegalMove) as refused:
                by_action.apply_action(seat, action)
            with pytest.raises(IllegalMove) as also_refused:
                by_move.apply(seat, as_move(action))
            assert str(refused.value) == str(also_refused.value)
            assert by_action.to_dict() == before
        with pytest.raises(NotYourTurn):
            state.apply_action((seat + 1) % 4, legal[0])
        with pytest.raises(IllegalMove):
            state.apply_action(seat, "XX")
        assert state.to_dict() == before


def test_hand_records_built_late_are_the_records_of_the_hands_played() -> None:
    """The records come from the cards played, whenever they are asked for (C3, C13)."""
    state = concerto.new_state({"rules": "penguin", "deals": 2}, "records")
    played: list[tuple[int, str]] = []
    rng = random.Random(2)
    while not state.is_over() and len(state._hand_log) < 11:
        seat = state.to_move()[0]
        action = rng.choice(state.legal_actions(seat))
        if action not in ("pass", "force"):
            played.append((seat, action))
        state.apply_action(seat, action)
    records = state.completed_hands
    assert len(records) == 11
    for n, record in enumerate(records):
        five = played[5 * n : 5 * n + 5]
        assert record["cards"] == [{"seat": s, "card": c} for s, c in five]
        assert record["leader"] == five[0][0]
        assert record["combination"] == category([c for _, c in five]).wire_name
    restored = concerto.State.from_dict(state.to_dict())
    assert restored.completed_hands == records
    assert restored._hand_log == state._hand_log
    assert state.clone().completed_hands == records


# -- the kit's dealing helpers -------------------------------------------------
def test_shuffled_order_is_the_order_of_the_shuffled_pack() -> None:
    for n in range(300):
        expected = list(range(52))
        random.Random(f"o{n}").shuffle(expected)
        assert shuffled_order(52, random.Random(f"o{n}")) == expected
        pack = STANDARD.cards()
        assert [pack[i] for i in shuffled_order(52, random.Random(n))] == shuffled(
            STANDARD, random.Random(n)
        )


def test_deal_singly_deals_one_card_at_a_time_from_the_first_seat() -> None:
    # Seat 2 first, then 3, 0, 1, 2, ...: card i goes to seat (2 + i) % 4.
    assert deal_singly(list("abcdefghij"), 4, first=2) == [
        ["c", "g"],
        ["d", "h"],
        ["a", "e", "i"],
        ["b", "f", "j"],
    ]


def test_derived_rng_is_the_generator_seeded_by_the_joined_text() -> None:
    for seed, labels in (("g", ("deal", 0)), ("bench-7", ("deal", 3)), ("é", ("first_dealer",))):
        text = "/".join([seed, *map(str, labels)])
        assert derived_rng(seed, *labels).getstate() == random.Random(text).getstate()


def test_three_pairs_is_three_ranks_each_held_twice() -> None:
    rng = random.Random(4)
    cards = STANDARD.cards()
    for _ in range(3000):
        six = rng.sample(cards[:20], 6)  # few ranks, so that pairs are common
        counts = sorted(Counter(c[0] for c in six).values())
        assert is_three_pairs(six) == (counts == [2, 2, 2])
    assert is_three_pairs(["AS", "AH", "KS", "KH", "2S", "2H"])
    assert not is_three_pairs(["AS", "AH", "AD", "KH", "2S", "2H"])
    assert not is_three_pairs(["AS", "AH", "KS", "KH", "2S"])


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_options_are_saved_as_asdict_saves_them(game_id: str) -> None:
    """``options_dict`` (in ``to_dict``, ``public_options``) is ``asdict``, fresh each time."""
    state = REGISTRY[game_id].new_state({}, "options")
    saved = state.to_dict()["options"]
    assert saved == dataclasses.asdict(state.options) == state.public_options()
    saved["first_dealer"] = "changed"
    assert state.to_dict()["options"] == dataclasses.asdict(state.options)


def test_options_with_a_list_fall_back_to_asdict() -> None:
    """A field that is not a scalar is copied, as ``asdict`` copies it."""

    @dataclasses.dataclass(frozen=True)
    class Listed:
        order: list[str]
        players: int = 4

    options = Listed(["S", "H"])
    saved = options_dict(options)
    assert saved == {"order": ["S", "H"], "players": 4}
    assert saved["order"] is not options.order

    @dataclasses.dataclass(frozen=True)
    class One:
        players: int = 4

    assert options_dict(One(3)) == {"players": 3} == dataclasses.asdict(One(3))

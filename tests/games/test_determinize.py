"""Determinization: a world a seat cannot tell from the real one (docs/engines.md).

A searching bot samples the cards it cannot see. A world must show the seat
exactly its own view, hold the same unseen cards in the same counts, and be
one in which every card played so far was a legal play; the deals still to
come must not leak through the copy (new seed, no presets beyond this deal).
The kit's ``redeal`` carries the constraints (``known`` cards stay, ``fits``).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from server.games import seconds
from server.games.kit.base import REDEAL_TRIES, redeal

SUITS = "SHDC"


def seconds_steps(seed: str) -> list[seconds.State]:
    """States along one random game of Seconds (two deals), every 7th step."""
    state = seconds.new_state({}, seed)
    rng = random.Random(seed)
    out = []
    for step in range(2 * 52):
        if state.is_over():
            break
        if step % 7 == 3:
            out.append(state.clone())
        seat = state.to_move()[0]
        state.apply(seat, rng.choice(state.legal_moves(seat)))
    return out


def follows_suit_throughout(world: seconds.State) -> bool:
    """Every play of this deal in ``world`` was legal by docs/rules/seconds.md "Tricks":
    follow suit if you can. Each seat's holding at the deal's start is its hand now
    plus the cards it has played; the tricks are replayed against those holdings."""
    tricks = [(leader, list(cards)) for leader, cards, _ in world.tricks]
    tricks.append((world.leader, list(world.trick)))
    holding = [list(world.hands[s]) for s in range(4)]
    for leader, cards in tricks:
        for i, card in enumerate(cards):
            holding[(leader + i) % 4].append(card)
    for leader, cards in tricks:
        for i, card in enumerate(cards):
            seat = (leader + i) % 4
            led = cards[0][1]
            if i and card[1] != led and any(c[1] == led for c in holding[seat]):
                return False
            holding[seat].remove(card)
    return True


@pytest.mark.parametrize("seed", ["w1", "w2", "w3"])
def test_a_seconds_world_looks_the_same_to_the_seat_and_its_history_is_legal(seed: str) -> None:
    rng = random.Random(seed)
    differed = 0
    for state in seconds_steps(seed):
        for seat in range(4):
            view = state.view(seat)
            unseen = Counter(c for s in range(4) if s != seat for c in state.hands[s])
            for _ in range(3):
                world = state.determinize(seat, rng)
                assert world.view(seat) == view
                assert [len(h) for h in world.hands] == [len(h) for h in state.hands]
                assert Counter(c for s in range(4) if s != seat for c in world.hands[s]) == unseen
                assert follows_suit_throughout(world)
                assert world.seed != state.seed
                assert world.presets == state.presets[: state.deal_number]
                differed += world.hands != state.hands
    assert differed > 0


def test_the_voids_shown_are_never_dealt_back() -> None:
    """A seat that did not follow a suit gets none of it in any world."""
    checked = 0
    for seed in ("v1", "v2", "v3", "v4"):
        for state in seconds_steps(seed):
            voids = state.voids()
            for seat in range(4):
                world = state.determinize(seat, random.Random(seed))
                for other in range(4):
                    held = {c[1] for c in world.hands[other]}
                    assert not held & voids[other]
                    checked += bool(voids[other])
    assert checked > 0


def test_a_seconds_world_plays_on_to_the_end_without_touching_the_game() -> None:
    state = seconds_steps("end")[3]
    before = state.to_dict()
    world = state.determinize(state.to_move()[0], random.Random(5))
    while not world.is_over():
        seat = world.to_move()[0]
        world.apply(seat, world.legal_moves(seat)[-1], events=False)
    assert state.to_dict() == before


def test_redeal_builds_a_fitting_deal_when_random_deals_almost_never_fit() -> None:
    """Thirteen spades must all go to seat 1: about 1 deal in 8 million fits, so the
    matching builds it once the tries run out."""
    pack = [r + s for s in SUITS for r in "AKQJT98765432"]
    hands = [pack[i : i + 13] for i in range(0, 52, 13)]  # seat 0: the spades
    fits = [lambda c: True, lambda c: True, lambda c: c[1] != "S", lambda c: c[1] != "S"]
    assert REDEAL_TRIES < 1000
    for n in range(5):
        new = redeal(hands, [3], random.Random(n), sorted, fits=lambda s, c: fits[s](c))
        assert [len(h) for h in new] == [13, 13, 13, 13]
        assert new[3] == hands[3]
        assert sorted(new[0] + new[1] + new[2]) == sorted(hands[0] + hands[1] + hands[2])
        assert all(c[1] != "S" for c in new[2])


def test_redeal_keeps_known_cards_with_their_holder() -> None:
    hands = [["AS", "KS", "QS"], ["JS", "TS", "9S"], ["8S", "7S"]]
    for n in range(20):
        new = redeal(hands, [0], random.Random(n), sorted, known=[[], ["TS"], ["7S"]])
        assert "TS" in new[1] and "7S" in new[2]
        assert new[0] == hands[0]
        assert sorted(new[1] + new[2]) == sorted(hands[1] + hands[2])


def test_redeal_refuses_constraints_no_deal_can_meet() -> None:
    with pytest.raises(ValueError, match="fits"):
        redeal([["AS"], ["KS"]], [], random.Random(0), fits=lambda s, c: False)

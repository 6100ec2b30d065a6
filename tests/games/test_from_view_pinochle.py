"""Pinochle worlds from a view: all a bot playing over HTTP holds (docs/engines.md).

``State.from_view`` gets the game's public options and one seat's view, both
through JSON exactly as the API sends them. The world must show the seat that
very view, store every public field as the real game does, deal back the real
game's unseen cards in the same numbers (each seat keeping the cards the table
has seen it hold), make every card played this deal legal by the head rule as
written (docs/rules/pinochle.md#p6, checked by the determinize tests' helpers),
and play on to the end.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from server.games import cowpoke
from server.games.pinochle import State, new_state
from tests.games.test_determinize_pinochle import (
    CHECK_HANDS,
    VARIANTS,
    assert_dealt_like,
    has_marriage,
)
from tests.games.test_determinize_pinochle import sampled_steps as determinize_steps

SECRET = {"hands", "seed", "presets"}
"""What a world may store differently from the real game: the hidden cards, the seed of
the deals to come, the preset deals (none in a world)."""


def as_json(value: Any) -> Any:
    return json.loads(json.dumps(value))


def sampled_steps(options: dict[str, Any], seed: str) -> list[State]:
    """The determinize tests' states, every seventh trick step, and the finished game."""
    return determinize_steps(options, seed, every=7, finished=True)


def world_of(state: State, seat: int, rng: random.Random) -> State:
    """The world a bot in ``seat`` draws from what the API shows it."""
    options, view = as_json(state.public_options()), as_json(state.view(seat))
    return State.from_view(options, view, seat, rng)


@pytest.mark.parametrize(
    ("options", "phases"), VARIANTS, ids=lambda v: str(sorted(v)) if isinstance(v, set) else str(v)
)
def test_a_world_from_a_view_is_the_game_with_the_unseen_cards_drawn_again(
    options: dict[str, Any], phases: set[str]
) -> None:
    rng = random.Random(str(options))
    seen, differed = set(), 0
    seeds = ("v1", "v2") if options["variant"] != "double-deck" else ("v1",)
    for seed in seeds:
        for state in sampled_steps(options, seed):
            n = state.num_seats
            seen.add(state.phase)
            real = state.to_dict()
            for seat in (0, 1, n - 1):
                view = as_json(state.view(seat))
                world = world_of(state, seat, rng)
                assert world.view(seat) == view
                stored = world.to_dict()
                secret = SECRET | ({"dixes"} if state.phase == "exchange" else set())
                assert {k: v for k, v in stored.items() if k not in secret} == {
                    k: v for k, v in real.items() if k not in secret
                }
                assert_dealt_like(world, state, seat)
                assert world.presets == []
                assert world.seed != state.seed
                differed += world.hands != state.hands
    assert phases | {"over"} <= seen
    assert differed > 0


def test_the_dixes_are_those_the_melds_showed() -> None:
    """P5: each dix held when trumps were fixed is shown as a meld of its own, so a world
    drawn after the melds holds the real counts, even the exchanger's given-away dix."""
    rng, checked = random.Random(5), 0
    for seed in ("x1", "x2", "x3"):
        for state in sampled_steps({"variant": "partnership"}, seed):
            if state.melds is not None and any(state.dixes):
                assert world_of(state, 2, rng).dixes == state.dixes
                checked += 1
    assert checked > 0


def test_a_check_bidder_holds_a_marriage_in_every_world_from_a_view() -> None:
    """P15: seat 1 bid 200, so it holds a K-Q of one suit; seat 3, seeing none of seat
    1's cards but clubs, draws worlds in which it does (dealt at random, often not)."""
    state = new_state(
        {"variant": "check"}, "p15", [{"dealer": 0, "hands": [h.split() for h in CHECK_HANDS]}]
    )
    state.apply(1, {"type": "bid", "amount": 200})
    state.apply(2, {"type": "pass"})
    rng = random.Random(15)
    for _ in range(20):
        assert has_marriage(world_of(state, 3, rng).hands[1])


@pytest.mark.parametrize("options", [options for options, _ in VARIANTS], ids=str)
def test_a_world_plays_on_to_the_end_and_a_seed_draws_it_again(options: dict[str, Any]) -> None:
    rng = random.Random(3)
    for state in sampled_steps(options, "end")[::9]:
        if state.is_over():
            continue
        seat = state.to_move()[0]
        world = world_of(state, seat, random.Random(11))
        assert world.to_dict() == world_of(state, seat, random.Random(11)).to_dict()
        while not world.is_over():
            mover = world.to_move()[0]
            world.apply(mover, rng.choice(world.legal_moves(mover)), events=False)
        assert world.outcome() is not None


def a_view(options: dict[str, Any], seed: str, plays: int) -> tuple[dict[str, Any], Any, int]:
    """Public options, and the view of the seat to move after ``plays`` random moves."""
    state = new_state(options, seed)
    rng = random.Random(seed)
    for _ in range(plays):
        seat = state.to_move()[0]
        state.apply(seat, rng.choice(state.legal_moves(seat)), events=False)
    seat = state.to_move()[0]
    return as_json(state.public_options()), as_json(state.view(seat)), seat


def test_a_view_of_another_game_or_a_malformed_one_is_a_value_error() -> None:
    options, view, seat = a_view({"variant": "partnership"}, "bad", 10)  # mid-trick
    assert view["state"]["phase"] == "play" and view["state"]["current_trick"]
    other = cowpoke.new_state(None, "bad")
    other_options, other_view = as_json(other.public_options()), as_json(other.view(0))
    three_aces = {**view, "hand": ["AS", "AS", "AS", *view["hand"][3:]]}
    played = view["state"]["current_trick"][0]
    unknown_card = {
        **view,
        "state": {**view["state"], "current_trick": [{**played, "card": "ZZ"}]},
    }
    more_cards = {**view, "state": {**view["state"], "cards_left": [12, 12, 12, 12]}}
    other_scores = {**view, "scores": [500, 0, 500, 0]}  # the game's scores say otherwise
    no_hand = {k: v for k, v in view.items() if k != "hand"}
    bids_not_a_list = {**view, "state": {**view["state"], "bids": 3}}
    for bad_options, bad_view in [
        (other_options, view),
        (options, other_view),
        (options, {}),
        (options, None),
        (options, three_aces),
        (options, unknown_card),
        (options, more_cards),
        (options, other_scores),
        (options, no_hand),
        (options, bids_not_a_list),
    ]:
        with pytest.raises(ValueError, match="(?i)pinochle|option"):
            State.from_view(bad_options, bad_view, seat, random.Random(0))
    assert State.from_view(options, view, seat, random.Random(0)).view(seat) == view

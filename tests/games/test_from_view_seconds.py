"""A Seconds world from a bot's view alone (``State.from_view``, docs/engines.md).

A bot playing over HTTP holds the game's public options and its own view, as
JSON. From them it builds a world it cannot tell from the game: the same view,
the cards it cannot see drawn from exactly the unseen cards with every hidden
hand keeping its size, every card played so far a legal play, and deals to
come it cannot know. Games here run through all seven deals (each with its own
partners) under both ``winner`` rules, and are sampled at every kind of moment.
"""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from server.games import REGISTRY, seconds
from tests.games.test_determinize import follows_suit_throughout

GAMES = [
    ("fv1", {"first_dealer": 0, "winner": "second-highest"}),
    ("fv2", {"first_dealer": 3, "winner": "highest"}),
    ("fv3", {"first_dealer": 1}),
]


def sampled_game(seed: str, options: dict[str, Any]) -> list[seconds.State]:
    """States along one random game, every 17th move (so at every point of a trick and
    of a deal, in all seven deals) and the finished game."""
    state = seconds.new_state(options, seed)
    rng = random.Random(seed)
    out = []
    step = 0
    while not state.is_over():
        if step % 17 == 0:
            out.append(state.clone())
        seat = state.to_move()[0]
        state.apply(seat, rng.choice(state.legal_moves(seat)))
        step += 1
    return [*out, state]


def as_received(state: seconds.State, seat: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """The options and the view exactly as a bot receives them: through JSON."""
    return json.loads(json.dumps(state.public_options())), json.loads(json.dumps(state.view(seat)))


SAMPLES = [(seed, s) for seed, options in GAMES for s in sampled_game(seed, options)]


def test_the_samples_cover_every_deal_both_winner_rules_and_the_end() -> None:
    assert {s.deal_number for _, s in SAMPLES} == set(range(1, 8))
    assert {s.options.winner for _, s in SAMPLES} == {"second-highest", "highest"}
    assert {len(s.trick) for _, s in SAMPLES} == {0, 1, 2, 3}
    assert sum(s.is_over() for _, s in SAMPLES) == len(GAMES)


def test_the_world_shows_the_seat_exactly_its_view() -> None:
    rng = random.Random(1)
    for _, state in SAMPLES:
        for seat in range(4):
            options, view = as_received(state, seat)
            assert seconds.State.from_view(options, view, seat, rng).view(seat) == view


def test_the_hidden_cards_are_the_unseen_ones_and_every_play_so_far_was_legal() -> None:
    rng = random.Random(2)
    differed = 0
    for _, state in SAMPLES:
        for seat in range(4):
            world = seconds.State.from_view(*as_received(state, seat), seat, rng)
            others = [s for s in range(4) if s != seat]
            assert Counter(c for s in others for c in world.hands[s]) == Counter(
                c for s in others for c in state.hands[s]
            )
            assert [len(h) for h in world.hands] == [len(h) for h in state.hands]
            assert world.hands[seat] == state.hands[seat]
            # "Tricks": follow suit if able, checked by replaying the deal's tricks.
            assert follows_suit_throughout(world)
            differed += world.hands != state.hands
    assert differed > len(SAMPLES)  # the unseen cards really are drawn


def test_the_world_plays_on_to_the_end_and_one_seed_gives_one_world() -> None:
    for n, (seed, state) in enumerate(SAMPLES[::3]):
        seat = n % 4
        options, view = as_received(state, seat)
        world = seconds.State.from_view(options, view, seat, random.Random(n))
        assert (
            world.to_dict()
            == seconds.State.from_view(options, view, seat, random.Random(n)).to_dict()
        )
        assert world.presets == [] and world.seed != state.seed  # deals to come: secret
        rng = random.Random(seed)
        while not world.is_over():
            mover = world.to_move()[0]
            world.apply(mover, rng.choice(world.legal_moves(mover)))  # checked
        assert world.deal_number == 7 and len(world.deal_results) == 7
        assert world.deal_results[: len(state.deal_results)] == state.deal_results


def test_options_and_view_of_another_game_are_refused() -> None:
    for game in REGISTRY.values():
        if game.id == "seconds":
            continue
        other = game.new_state({}, "other")
        options = json.loads(json.dumps(other.public_options()))
        view = json.loads(json.dumps(other.view(0)))
        _, mine = as_received(SAMPLES[5][1], 0)
        for pair in [(options, view), ({}, view), (options, mine)]:
            with pytest.raises(ValueError):
                seconds.State.from_view(*pair, 0, random.Random(0))


def mid_deal() -> seconds.State:
    """A state with tricks done, a trick under way and a void shown."""
    return next(s for _, s in SAMPLES if s.trick and s.tricks and any(s.voids()))


def changed(edit: Callable[[dict[str, Any]], Any]) -> dict[str, Any]:
    view = copy.deepcopy(mid_deal().view(1))
    edit(view)
    return view


def card_played_before() -> str:
    return str(mid_deal().tricks[0][1][0])


MALFORMED: dict[str, Callable[[], Any]] = {
    "not a mapping": lambda: ["state"],
    "nothing": lambda: None,
    "no state": lambda: changed(lambda v: v.pop("state")),
    "a spectator's view": lambda: changed(lambda v: v.pop("hand")),
    "not a card": lambda: changed(lambda v: v["hand"].__setitem__(0, "1X")),
    "a card held and played": lambda: changed(
        lambda v: v["hand"].__setitem__(0, card_played_before())
    ),
    "a card in the hand twice": lambda: changed(lambda v: v["hand"].__setitem__(0, v["hand"][1])),
    "a hand one card short": lambda: changed(lambda v: v["hand"].pop()),
    "a hand size off": lambda: changed(lambda v: v["state"]["cards_left"].__setitem__(0, 13)),
    "deal 0": lambda: changed(lambda v: v["state"].__setitem__("deal_number", 0)),
    "deal 8": lambda: changed(lambda v: v["state"].__setitem__("deal_number", 8)),
    "deal as text": lambda: changed(lambda v: v["state"].__setitem__("deal_number", "2")),
    "a trick won by the wrong card": lambda: changed(
        lambda v: v["state"]["tricks"][0].__setitem__(
            "winner", (v["state"]["tricks"][0]["winner"] + 1) % 4
        )
    ),
    "partners of another deal": lambda: changed(
        lambda v: v["state"].__setitem__("partners", [None] * 4)
    ),
    "a card as a number": lambda: changed(
        lambda v: v["state"]["current_trick"][0].__setitem__("card", 7)
    ),
    "another leader": lambda: changed(
        lambda v: v["state"].__setitem__("leader", (v["state"]["leader"] + 1) % 4)
    ),
    "an unknown result": lambda: changed(
        lambda v: v.__setitem__("result", {"termination": "x", "scores": [], "winners": []})
    ),
}


@pytest.mark.parametrize("name", list(MALFORMED))
def test_a_malformed_view_is_refused_with_a_value_error(name: str) -> None:
    options = mid_deal().public_options()
    with pytest.raises(ValueError):
        seconds.State.from_view(options, MALFORMED[name](), 1, random.Random(0))


@pytest.mark.parametrize("seat", [-1, 4, "1", None])
def test_a_seat_that_is_not_one_is_refused(seat: Any) -> None:
    state = mid_deal()
    with pytest.raises(ValueError):
        seconds.State.from_view(state.public_options(), state.view(1), seat, random.Random(0))


def test_options_that_disagree_with_the_view_are_refused() -> None:
    state = mid_deal()
    view = state.view(1)
    rule = {"second-highest": "highest", "highest": "second-highest"}[state.options.winner]
    for options in [
        {**state.public_options(), "winner": rule},
        {**state.public_options(), "first_dealer": (state.options.first_dealer + 1) % 4},
        {**state.public_options(), "players": 4},
    ]:
        with pytest.raises(ValueError):
            seconds.State.from_view(options, view, 1, random.Random(0))

"""Cowpoke worlds from a view: what a bot that plays over HTTP can build (docs/engines.md).

A bot holds only the game's options and its seat's view, as JSON. From them
``State.from_view`` builds a state the seat cannot tell from the real game: the
same view, the same unseen cards in places of the same sizes (docs/rules/cowpoke.md,
"What each player sees"), a history in which every move was legal, and secret
deals to come. The real game, kept by the test, is the yardstick.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

from server.games import REGISTRY, cowpoke
from tests.games.test_determinize_cowpoke import (
    cowpoke_steps,
    holding,
    public,
    random_move,
    sizes,
    unseen,
)

PHASES = (cowpoke.PUT_OUT, cowpoke.EXCHANGE, cowpoke.ASKING, cowpoke.OVER)


def as_json(data: Any) -> Any:
    """What a bot receives: the data through JSON."""
    return json.loads(json.dumps(data))


def steps_to_the_end(players: int, seed: str) -> list[cowpoke.State]:
    """Sampled states of a random two-deal game, and the finished game."""
    states = cowpoke_steps(players, seed)
    last = states[-1].clone()
    rng = random.Random(seed)
    while not last.is_over():
        random_move(last, rng)
    return [*states, last]


def world(state: cowpoke.State, seat: int, rng: random.Random) -> cowpoke.State:
    """A world from what ``seat`` receives of ``state``."""
    options, view = as_json(state.public_options()), as_json(state.view(seat))
    return cowpoke.State.from_view(options, view, seat, rng)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("seed", ["v1", "v2"])
def test_a_world_from_the_view_shows_that_view_and_hides_the_same_cards(
    players: int, seed: str
) -> None:
    rng = random.Random(f"{players}{seed}")
    phases: Counter[str] = Counter()
    differed = 0
    for state in steps_to_the_end(players, seed):
        phases[state.phase] += 1
        for seat in {0, players - 1, rng.randrange(players)}:
            view = as_json(state.view(seat))
            w = world(state, seat, rng)
            assert w.view(seat) == view
            assert unseen(w, seat) == unseen(state, seat)  # the same cards, hidden
            assert sizes(w) == sizes(state)  # each in a place of the same size
            assert public(w) == public(state)  # incl. what the view drops after the exchange
            assert holding(w, seat) == holding(state, seat)
            assert w.drawn[seat] == state.drawn[seat]
            assert w.scores == state.scores and w.outcome() == state.outcome()
            differed += w.hands != state.hands or w.stack != state.stack
    assert all(phases[p] for p in PHASES)
    assert differed > 0


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_move_so_far_was_legal_in_the_world(players: int) -> None:
    """What the seat cannot see was played by the rules (docs/rules/cowpoke.md): each
    other player's latest draw came off the stack this round, so it holds it (in hand,
    or as its put-out) and nobody saw it before (never on an earlier table, not exposed
    unless put out again); each face-down put-out is a card of its owner's holding; and
    a card taken in an exchange stays with its taker until turned up again."""
    rng = random.Random(players)
    for state in steps_to_the_end(players, "legal"):
        seat = rng.randrange(players)
        w = world(state, seat, rng)
        earlier = [r for r in state.rounds if r["round"] < state.round]
        tabled = {p["card"] for r in earlier for p in r["put_outs"]}
        for p in range(players):
            assert not Counter(w.exposed[p]) - Counter(holding(w, p))
            if p == seat:
                continue
            drawn = w.drawn[p]
            assert drawn in w.hands[p] or drawn == w.put_outs[p]
            assert drawn not in tabled
            assert drawn not in w.exposed[p] or drawn == w.put_outs[p]
            if state.phase == cowpoke.PUT_OUT:
                assert (w.put_outs[p] is None) == (state.put_outs[p] is None)
                assert w.put_outs[p] not in w.hands[p]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_a_world_plays_on_to_the_end_and_one_seed_gives_one_world(players: int) -> None:
    rng = random.Random(players)
    for state in cowpoke_steps(players, "end")[::4]:
        seat = rng.randrange(players)
        w = world(state, seat, random.Random(7))
        assert w.to_dict() == world(state, seat, random.Random(7)).to_dict()
        assert w.seed != state.seed and w.presets == []  # the deals to come are secret
        while not w.is_over():
            random_move(w, rng)  # apply checks every move


def test_the_servers_envelope_around_the_view_is_read_past() -> None:
    """``GET /v1/games/{id}`` adds the game's record around the engine's view, and a
    forfeit gives a result before the game's end: a world only reads the engine's part."""
    state = cowpoke.new_state({"players": 4}, "http")
    view = as_json(state.view(2))
    forfeit = {"termination": "forfeit", "scores": [0, 0, 0, 0], "winners": [], "forfeit": 1}
    got = {"id": "g1", "game": "cowpoke", "you": 2, "deadline": None, **view, "result": forfeit}
    w = cowpoke.State.from_view(as_json(state.public_options()), got, 2, random.Random(0))
    assert w.view(2) == view and not w.is_over()


def test_at_the_start_a_world_deals_every_card_but_the_seats_own_two() -> None:
    """Three players, before anyone moves: seat 0 sees its set-up card and its draw;
    the others hold two cards each and the stack the other 46 (docs/rules/cowpoke.md)."""
    state = cowpoke.new_state({"players": 3}, "start")
    w = world(state, 0, random.Random(0))
    assert [len(h) for h in w.hands] == [2, 2, 2] and len(w.stack) == 46
    assert sorted(w.hands[0] + w.hands[1] + w.hands[2] + w.stack) == sorted(
        r + s for s in "SHDC" for r in "23456789TJQKA"
    )


# -- views that are not of this game ------------------------------------------


def test_the_view_of_another_game_is_refused() -> None:
    state = cowpoke.new_state({"players": 4}, "other")
    options = as_json(state.public_options())
    for game_id, game in REGISTRY.items():
        if game_id == cowpoke.State.game:
            continue
        other = game.new_state(None, "other")
        view = as_json(other.view(0))
        with pytest.raises(ValueError):
            cowpoke.State.from_view(options, view, 0, random.Random(0))
        with pytest.raises(ValueError):  # its options too
            cowpoke.State.from_view(as_json(other.public_options()), view, 0, random.Random(0))


def test_options_that_disagree_with_the_view_are_refused() -> None:
    state = cowpoke.new_state({"players": 3, "first_dealer": 1}, "opts")
    view = as_json(state.view(0))
    for options in (
        {"players": 4, "suit_order": "CHSD", "hands": 5, "first_dealer": 1},
        {"players": 3, "suit_order": "SHDC", "hands": 5, "first_dealer": 1},
        {"players": 3, "suit_order": "CHSD", "hands": 5, "first_dealer": 0},  # the dealer
        {"players": 3, "hands": 5, "first_dealer": 1, "trumps": "S"},
    ):
        with pytest.raises(ValueError):
            cowpoke.State.from_view(options, view, 0, random.Random(0))
    with pytest.raises(ValueError):  # not a seat of the game
        cowpoke.State.from_view(state.public_options(), view, 3, random.Random(0))


BAD_VALUES: list[Any] = [None, -1, 99, "x", "AS", [], [None], [[]], {}, True]


@pytest.mark.parametrize("players", [2, 4])
def test_a_malformed_view_is_refused_or_taken_at_its_word(players: int) -> None:
    """Every field of the view removed or replaced by a wrong value: ``from_view``
    raises ValueError, or (a value the rules allow, e.g. another latest draw) builds a
    world whose view is the altered one. Never another exception."""
    rng = random.Random(players)
    refused = 0
    for state in steps_to_the_end(players, "bad")[::6]:
        seat = rng.randrange(players)
        options, good = as_json(state.public_options()), as_json(state.view(seat))
        bad_views: list[Any] = [None, [], {}, {"state": None}, good["state"]]
        for key in good:
            bad_views.append({k: v for k, v in good.items() if k != key})
            bad_views += [{**good, key: bad} for bad in BAD_VALUES]
        for key in good["state"]:
            body = {k: v for k, v in good["state"].items() if k != key}
            bad_views.append({**good, "state": body})
            bad_views += [{**good, "state": {**good["state"], key: b}} for b in BAD_VALUES]
        for bad in bad_views:
            try:
                w = cowpoke.State.from_view(options, bad, seat, rng)
            except ValueError:
                refused += 1
                continue
            assert w.view(seat)["state"] == bad["state"] and w.hands[seat] == bad["hand"]
    assert refused > 0


def test_a_view_whose_cards_are_not_one_pack_is_refused() -> None:
    """A hidden card shown in the seat's hand, or one card too many in the stack."""
    state = cowpoke.new_state({"players": 3}, "pack")
    options, view = as_json(state.public_options()), as_json(state.view(0))
    stolen = {**view, "hand": sorted({*view["hand"], state.hands[1][0]})}
    bigger = {**view, "state": {**view["state"], "stack_size": len(state.stack) + 1}}
    for bad in (stolen, bigger):
        with pytest.raises(ValueError, match="pack"):
            cowpoke.State.from_view(options, bad, 0, random.Random(0))

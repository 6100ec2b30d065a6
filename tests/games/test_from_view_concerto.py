"""Concerto worlds from a view (``State.from_view``): what a bot holding only its view
can search with.

A bot over HTTP has the game's public options and its seat's view, as JSON. A world
built from them must show the seat exactly that view, hide the same unseen cards in
the same places and sizes, be one in which every move so far was legal, play on to
the end, and come out the same from the same random generator. A view of another
game, or a broken one, is refused with a ValueError.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import dataclass
from typing import Any

import pytest

from server.games import REGISTRY, concerto

RULES = ("parlett-2013", "penguin")
GAMES = [
    *({"rules": rules, "deals": 3} for rules in RULES),
    *({"rules": rules, "deals": 2, "target": 60, "match_target": 150} for rules in RULES),
]
PACK = [r + s for s in "SHDC" for r in "AKQJT98765432"]


def as_received(value: Any) -> Any:
    """``value`` exactly as a bot receives it over HTTP."""
    return json.loads(json.dumps(value))


@dataclass
class Sample:
    state: concerto.State
    deal_start: concerto.State  # the same game when the current deal was dealt
    moves: list[tuple[int, dict[str, Any]]]  # the moves made since then


def samples(options: dict[str, Any], seed: str) -> list[Sample]:
    """States along one seeded random game, every 9th move and the end."""
    state = concerto.new_state(options, seed)
    rng = random.Random(seed)
    start, moves, out = state.clone(), [], []
    step = 0
    while not state.is_over():
        if step % 9 == 4:
            out.append(Sample(state.clone(), start, list(moves)))
        seat = state.to_move()[0]
        move = rng.choice(state.legal_moves(seat))
        deal = (state.game_number, state.deal_number)
        state.apply(seat, move)
        moves.append((seat, move))
        if (state.game_number, state.deal_number) != deal and not state.is_over():
            start, moves = state.clone(), []
        step += 1
    out.append(Sample(state, start, moves))
    return out


def world_of(state: concerto.State, seat: int, rng: random.Random) -> concerto.State:
    return concerto.State.from_view(
        as_received(state.public_options()), as_received(state.view(seat)), seat, rng
    )


def played_this_deal(state: concerto.State) -> list[tuple[int, str]]:
    """(seat, card) of every card played in the current deal, from the public records."""
    view = state.state_view()
    records = [r for r in view["completed_hands"] if r["deal"] == view["deal_number"]]
    played = [(c["seat"], c["card"]) for r in records for c in r["cards"]]
    if state.is_over():  # the last hand stays on the table, and is among the records
        return played
    return played + [(c["seat"], c["card"]) for c in view["current_hand"]]


def holdings_at_deal_start(world: concerto.State) -> list[list[str]]:
    """Each seat's 13 cards as dealt: what it holds now and what it has played since."""
    holding = [list(h) for h in world.hands]
    for seat, card in played_this_deal(world):
        holding[seat].append(card)
    return holding


@pytest.mark.parametrize(
    "options", GAMES, ids=lambda o: o["rules"] + ("-match" if "match_target" in o else "")
)
@pytest.mark.parametrize("seed", ["v1", "v2"])
def test_a_world_from_the_view_is_one_the_seat_cannot_tell_from_the_game(
    options: dict[str, Any], seed: str
) -> None:
    rng = random.Random(seed)
    covered: Counter[str] = Counter()
    for n, sample in enumerate(samples(options, seed)):
        state = sample.state
        for seat in (n % 4, (n + 1) % 4):
            view = as_received(state.view(seat))
            world = world_of(state, seat, rng)

            assert world.view(seat) == view
            assert world.hands[seat] == state.hands[seat]
            assert [len(h) for h in world.hands] == [len(h) for h in state.hands]
            unseen = Counter(c for s in range(4) if s != seat for c in state.hands[s])
            assert Counter(c for s in range(4) if s != seat for c in world.hands[s]) == unseen
            assert world.seed != state.seed and world.presets == []

            # docs/rules/concerto.md "The deal": 13 cards each, the whole pack; any card
            # held may be played, so a play was legal when its player held the card.
            holding = holdings_at_deal_start(world)
            assert [len(h) for h in holding] == [13] * 4
            assert sorted(c for h in holding for c in h) == sorted(PACK)
            # The same moves, through the checked apply, from the world's deal.
            replay = sample.deal_start.clone()
            replay.hands = [concerto.sort_hand(h) for h in holding]
            for mover, move in sample.moves:
                replay.apply(mover, move)
            assert replay.hands == world.hands
            assert replay.state_view() == world.state_view()

            covered["differs"] += world.hands != state.hands
        st = state.state_view()
        covered["hand starts"] += not st["current_hand"]
        covered["mid-hand"] += bool(st["current_hand"])
        covered["passes"] += st["passes"] > 0
        covered["forced"] += st["forced"] is not None
        covered["left-overs revealed"] += any(r["leftovers"] for r in st["deal_results"])
        covered["later games"] += st["game_number"] > 1
        covered["over, final hands"] += st["final_hands"] is not None
    wanted = {"differs", "hand starts", "mid-hand", "passes", "forced", "left-overs revealed"}
    wanted |= {"over, final hands"} | ({"later games"} if "match_target" in options else set())
    assert wanted <= {k for k, v in covered.items() if v}, covered


def test_once_the_game_is_over_the_world_holds_the_final_hands() -> None:
    state = samples(GAMES[0], "over")[-1].state
    assert state.is_over()
    for seat in range(4):
        world = world_of(state, seat, random.Random(seat))
        assert world.hands == state.hands == world.state_view()["final_hands"]


@pytest.mark.parametrize("options", [GAMES[1], GAMES[2]], ids=["penguin", "match"])
def test_a_world_plays_on_to_the_end_and_the_same_generator_makes_the_same_world(
    options: dict[str, Any],
) -> None:
    for sample in samples(options, "on")[::6]:
        state = sample.state
        seat = (state.to_move() or [0])[0]
        before = state.to_dict()
        world = world_of(state, seat, random.Random(7))
        assert world.to_dict() == world_of(state, seat, random.Random(7)).to_dict()
        assert world.seed != world_of(state, seat, random.Random(8)).seed
        rng = random.Random(1)
        while not world.is_over():
            mover = world.to_move()[0]
            world.apply(mover, rng.choice(world.legal_moves(mover)), events=False)
        assert world.outcome() is not None
        assert state.to_dict() == before


def broken_views(view: dict[str, Any], seat: int) -> list[tuple[str, dict[str, Any]]]:
    """The view with one thing wrong, each named."""
    other = (seat + 1) % 4
    played = view["state"]["completed_hands"][0]["cards"][0]["card"]

    def changed(path: str, value: Any) -> dict[str, Any]:
        """A copy of the view with the value at ``path`` ("state.cards_left.2") replaced,
        or deleted when ``value`` is KeyError."""
        broken = as_received(view)
        *parents, last = (int(k) if k.isdigit() else k for k in path.split("."))
        place = broken
        for key in parents:
            place = place[key]
        if value is KeyError:
            del place[last]
        else:
            place[last] = value
        return broken

    return [
        ("no state", changed("state", KeyError)),
        ("a spectator's view", changed("hand", KeyError)),
        ("the state is a list", changed("state", [])),
        ("a card twice in hand", changed("hand", view["hand"][:1] * 2 + view["hand"][2:])),
        ("a played card in hand", changed("hand", [played, *view["hand"][1:]])),
        ("not a card", changed("hand", ["1X", *view["hand"][1:]])),
        ("a card missing", changed("hand", view["hand"][1:])),
        ("cards left wrong", changed(f"state.cards_left.{other}", 3)),
        ("a fifth seat", changed("state.cards_left", [*view["state"]["cards_left"], 0])),
        ("a score changed", changed("state.game_scores.NS", 999)),
        ("another seat's turn", changed("to_move", [other])),
        ("no such combination", changed("state.completed_hands.0.combination", "royal")),
        ("rules of the other edition", changed("state.rules", "penguin")),
        ("a number for a record", changed("state.deal_results", 5)),
    ]


def test_a_broken_view_or_one_of_another_game_is_refused_with_a_value_error() -> None:
    state = next(s.state for s in samples(GAMES[0], "bad") if s.state.deal_number == 2)
    seat = state.to_move()[0]
    options, view = as_received(state.public_options()), as_received(state.view(seat))
    assert options["rules"] == "parlett-2013"
    for name, broken in broken_views(view, seat):
        try:
            concerto.State.from_view(options, broken, seat, random.Random(0))
        except ValueError as e:
            assert "Concerto" in str(e), name
        else:
            pytest.fail(f"{name}: accepted")
    for bad in (None, [], "view", {}):
        with pytest.raises(ValueError, match="Concerto"):
            concerto.State.from_view(options, bad, seat, random.Random(0))
    with pytest.raises(ValueError, match="seat"):
        concerto.State.from_view(options, view, 4, random.Random(0))
    with pytest.raises(ValueError, match="unknown option"):
        concerto.State.from_view({**options, "trumps": True}, view, seat, random.Random(0))
    for game in ("seconds", "cowpoke", "pinochle"):
        other = REGISTRY[game].new_state({}, "other")
        other_view = as_received(other.view(0))
        with pytest.raises(ValueError, match="Concerto"):
            concerto.State.from_view(options, other_view, 0, random.Random(0))
        with pytest.raises(ValueError):
            concerto.State.from_view(
                as_received(other.public_options()), view, seat, random.Random(0)
            )


def test_any_one_value_spoiled_is_refused_or_still_shows_the_view() -> None:
    """Random damage to one value anywhere in the view: a ValueError, never another
    exception, and a world built anyway shows exactly the damaged view."""
    rng = random.Random(3)
    junk = [None, -1, 0, 99, "AS", "XX", [], {}, True, [0, 1], {"NS": 1}]
    refused = 0
    for sample in samples(GAMES[3], "junk")[::5]:
        state = sample.state
        seat = (state.to_move() or [0])[0]
        for _ in range(20):
            broken = as_received(state.view(seat))
            place: Any = broken
            while True:
                keys = list(place) if isinstance(place, dict) else list(range(len(place)))
                key = rng.choice(keys)
                if not isinstance(place[key], (dict, list)) or not place[key] or rng.random() < 0.3:
                    break
                place = place[key]
            place[key] = rng.choice(junk)
            try:
                world = concerto.State.from_view(state.public_options(), broken, seat, rng)
            except ValueError:
                refused += 1
                continue
            assert world.view(seat) == broken
    assert refused > 0

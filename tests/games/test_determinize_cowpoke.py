"""Determinization of Cowpoke: a world a seat cannot tell from the real one (docs/engines.md).

What a seat cannot see (docs/rules/cowpoke.md, "What each player sees"): the
other players' hands but for the ``exposed`` cards they took, their put-outs
until the reveal, the stack, the dummy's cards, the others' latest draws and
the deals to come. A world redraws all of that from the same unseen cards,
each place keeping its size, and leaves everything the seat has seen in place.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from server.games import cowpoke
from server.games.kit.cards import STANDARD

PHASES = (cowpoke.PUT_OUT, cowpoke.EXCHANGE, cowpoke.ASKING)


def random_move(state: cowpoke.State, rng: random.Random) -> None:
    """A random legal move; a showdown is called only now and then, so rounds go on."""
    seat = rng.choice(state.to_move())
    moves = state.legal_moves(seat)
    if state.phase == cowpoke.ASKING:
        moves = [{"type": "call"}] if rng.random() < 0.15 else [{"type": "pass"}]
    state.apply(seat, rng.choice(moves))


def cowpoke_steps(players: int, seed: str) -> list[cowpoke.State]:
    """States along one random two-deal game, every 3rd step."""
    state = cowpoke.new_state({"players": players, "hands": 2}, seed)
    rng = random.Random(seed)
    out = []
    step = 0
    while not state.is_over():
        if step % 3 == 1:
            out.append(state.clone())
        random_move(state, rng)
        step += 1
    return out


def holding(state: cowpoke.State, p: int) -> list[str]:
    """A player's cards: its hand and, before the reveal, its face-down put-out."""
    put_out = state.put_outs[p] if state.phase == cowpoke.PUT_OUT else None
    return state.hands[p] + ([put_out] if put_out else [])


def unseen(state: cowpoke.State, seat: int) -> Counter[str]:
    """The cards ``seat`` cannot see, from the rules: the others' holdings less the
    exposed cards, the stack, the dummy's dead card and its face-down put-out."""
    cards = Counter(state.stack) + Counter(state.dummy_cards)
    for p in range(state.num_seats):
        if p != seat:
            cards += Counter(holding(state, p)) - Counter(state.exposed[p])
    if state.options.has_dummy and state.phase == cowpoke.PUT_OUT:
        cards[state.put_outs[2]] += 1  # type: ignore[index]
    return cards


def sizes(state: cowpoke.State) -> list[object]:
    return [
        [len(h) for h in state.hands],
        [c is None for c in state.put_outs],
        len(state.stack),
        len(state.dummy_cards),
    ]


def public(state: cowpoke.State) -> dict[str, object]:
    """What every player has seen: exposed cards, the rounds, this round's takes and,
    after the reveal, the table."""
    d = state.to_dict()
    seen = {k: d[k] for k in ("exposed", "rounds", "takes", "out_of_play", "deal_results")}
    if state.phase != cowpoke.PUT_OUT:
        seen["put_outs"] = d["put_outs"]
    return seen


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("seed", ["d1", "d2"])
def test_a_cowpoke_world_looks_the_same_to_the_seat(players: int, seed: str) -> None:
    rng = random.Random(f"{players}{seed}")
    phases: Counter[str] = Counter()
    differed = 0
    for state in cowpoke_steps(players, seed):
        phases[state.phase] += 1
        for seat in {0, players - 1, rng.randrange(players)}:
            view = state.view(seat)
            hidden = unseen(state, seat)
            for _ in range(2):
                world = state.determinize(seat, rng)
                assert world.view(seat) == view
                assert unseen(world, seat) == hidden
                assert sizes(world) == sizes(state)
                assert world.hands[seat] == state.hands[seat]
                assert world.put_outs[seat] == state.put_outs[seat]
                assert world.drawn[seat] == state.drawn[seat]
                assert public(world) == public(state)
                for p in range(players):  # an exposed card stays with its taker
                    assert not Counter(world.exposed[p]) - Counter(holding(world, p))
                differed += world.hands != state.hands or world.stack != state.stack
    assert all(phases[p] for p in PHASES)
    assert differed > 0


@pytest.mark.parametrize("players", [2, 4])
def test_each_latest_draw_is_a_card_its_drawer_holds_that_nobody_saw_before(players: int) -> None:
    """A draw comes off the stack this round: the drawer holds it (in hand or as its
    put-out this round), and it was never exposed nor on an earlier table."""
    rng = random.Random(players)
    for state in cowpoke_steps(players, "draws"):
        world = state.determinize(0, rng)
        earlier = [r for r in state.rounds if r["round"] < state.round]
        tabled = {p["card"] for r in earlier for p in r["put_outs"]}
        for p in range(1, players):
            drawn = world.drawn[p]
            assert drawn in world.hands[p] or drawn == world.put_outs[p]
            assert drawn not in tabled
            assert drawn not in world.exposed[p] or drawn == world.put_outs[p]


def test_at_the_start_every_card_but_the_seats_own_two_is_unseen() -> None:
    """Three players, before anyone moves: seat 0 sees its set-up card and its draw,
    so the other 50 cards (2 + 2 in hands, 46 in the stack) are dealt anew."""
    state = cowpoke.new_state({"players": 3}, "start")
    rng = random.Random(0)
    own = state.hands[0]
    for _ in range(20):
        world = state.determinize(0, rng)
        others = world.hands[1] + world.hands[2] + world.stack
        assert [len(world.hands[1]), len(world.hands[2]), len(world.stack)] == [2, 2, 46]
        assert sorted(others + own) == sorted(STANDARD.cards())
        assert world.drawn[1] in world.hands[1] and world.drawn[2] in world.hands[2]


def test_an_exposed_card_put_out_face_down_is_not_given_away() -> None:
    """A player who took a card may put it out face down; the seat cannot tell which
    card went out, so worlds put out other cards of that player's holding too."""
    checked = 0
    for players in (3, 4, 5):
        for state in cowpoke_steps(players, "exposed"):
            if state.phase != cowpoke.PUT_OUT:
                continue
            for p in range(1, players):
                if state.put_outs[p] in state.exposed[p]:
                    rng = random.Random(p)
                    worlds = [state.determinize(0, rng) for _ in range(30)]
                    assert {w.put_outs[p] for w in worlds} != {state.put_outs[p]}
                    checked += 1
    assert checked > 0


def test_the_deals_to_come_stay_secret() -> None:
    """Preset deals beyond the current one are cut and the seed is drawn anew."""
    pack = list(STANDARD.cards())
    deals = []
    for n in range(3):
        random.Random(n).shuffle(pack)
        deals.append({"hands": [[pack[0]], [pack[1]], [pack[2]]], "stack": pack[3:]})
    state = cowpoke.new_state({"players": 3, "hands": 3}, "presets", deals)
    rng = random.Random(1)
    world = state.determinize(1, rng)
    assert len(state.presets) == 3
    assert world.presets == state.presets[:1]
    assert world.presets[0]["stack"] == deals[0]["stack"]
    assert world.seed.startswith("world-") and world.seed != state.seed
    assert state.determinize(1, rng).seed != world.seed


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_a_world_plays_on_to_the_end_without_touching_the_game(players: int) -> None:
    rng = random.Random(players)
    for state in cowpoke_steps(players, "end")[::5]:
        before = state.to_dict()
        world = state.determinize(state.to_move()[0], rng)
        while not world.is_over():
            random_move(world, rng)  # apply checks every move
        assert state.to_dict() == before

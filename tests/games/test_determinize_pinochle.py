"""Pinochle worlds for searching bots: what a seat cannot see, drawn anew (docs/engines.md).

A world must show the seat exactly its own view, deal the unseen cards back to
the seats that hold them in the same numbers, leave with each seat the cards the
table has seen it hold (``exposed``), and be one in which every card played this
deal was legal by the head rule (docs/rules/pinochle.md#p6). The legality is
checked here against the rules as written, not with the engine's head rules.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from server.games.kit.base import redeal
from server.games.pinochle import State, new_state
from server.games.pinochle.melds import find_melds

SUITS = "SHDC"
RANKS = "9JQKTA"  # low to high: A > T > K > Q > J > 9

VARIANTS: list[tuple[dict[str, Any], set[str]]] = [
    ({"variant": "partnership"}, {"exchange", "play"}),
    ({"variant": "partnership", "head_rule": "strict"}, {"exchange", "play"}),
    ({"variant": "firehouse", "head_rule": "trump-only"}, {"auction", "trump", "play"}),
    ({"variant": "check"}, {"auction", "trump", "play"}),
    ({"variant": "double-deck", "players": 6}, {"exchange", "play"}),
    ({"variant": "double-deck", "players": 8, "head_rule": "strict"}, {"exchange", "play"}),
]


def sampled_steps(
    options: dict[str, Any], seed: str, every: int = 5, finished: bool = False
) -> list[State]:
    """States along one random game of two deals: every step before the tricks, every
    ``every``-th step of trick play, and with ``finished`` the finished game."""
    state = new_state({**options, "max_deals": 2}, seed)
    rng = random.Random(seed)
    out, step = [], 0
    while not state.is_over():
        if state.phase != "play" or step % every == 0:
            out.append(state.clone())
        step += 1
        seat = state.to_move()[0]
        state.apply(seat, rng.choice(state.legal_moves(seat)), events=False)
    return [*out, state] if finished else out


def beats(card: str, best: str, trump: str | None) -> bool:
    """Played after ``best``: a higher card of its suit, or a trump on a plain card."""
    if card[1] == best[1]:
        return RANKS.index(card[0]) > RANKS.index(best[0])
    return card[1] == trump


def legal(card: str, hand: list[str], trick: list[str], trump: str | None, rule: str) -> bool:
    """docs/rules/pinochle.md#p6 as written: follow suit (beating the winning card when
    trumps were led, or always under ``strict``), else trump (beating the best trump so
    far, except under ``trump-only``), else anything."""
    if not trick:
        return True
    best = trick[0]
    for c in trick[1:]:
        if beats(c, best, trump):
            best = c
    led = trick[0][1]

    def choose(cards: list[str], must_beat: bool) -> list[str]:
        over = [c for c in cards if beats(c, best, trump)] if must_beat else []
        return over or cards

    follow = [c for c in hand if c[1] == led]
    trumps = [c for c in hand if c[1] == trump]
    if follow:
        allowed = choose(follow, led == trump or rule == "strict")
    elif trumps:
        allowed = choose(trumps, rule != "trump-only")
    else:
        allowed = hand
    return card in allowed


def deal_tricks(state: State) -> list[tuple[int, list[str]]]:
    """This deal's tricks, the one being played included, from the public records."""
    tricks = [(t["leader"], [p["card"] for p in t["cards"]]) for t in state.tricks]
    return [*tricks, (state.leader, list(state.trick))]


def holdings_at_first_trick(state: State) -> list[list[str]]:
    """Each seat's hand now plus the cards it has played this deal."""
    held = [list(h) for h in state.hands]
    for leader, cards in deal_tricks(state):
        for i, card in enumerate(cards):
            held[(leader + i) % state.num_seats].append(card)
    return held


def plays_were_legal(world: State) -> bool:
    """Every card of this deal's tricks was legal with what its player held then."""
    n, trump, rule = world.num_seats, world.trump, world.options.head_rule
    held = holdings_at_first_trick(world)
    for leader, cards in deal_tricks(world):
        for i, card in enumerate(cards):
            seat = (leader + i) % n
            if not legal(card, held[seat], cards[:i], trump, rule):
                return False
            held[seat].remove(card)
    return True


def unseen(state: State, seat: int) -> Counter[str]:
    """The cards of the other hands, as a multiset."""
    return Counter(c for s, hand in enumerate(state.hands) if s != seat for c in hand)


def assert_dealt_like(world: State, state: State, seat: int) -> None:
    """``world`` deals ``state``'s unseen cards back: the same sizes and cards, the seat's
    own hand and every shown card kept in place, every play of the deal legal."""
    assert [len(h) for h in world.hands] == [len(h) for h in state.hands]
    assert unseen(world, seat) == unseen(state, seat)
    assert world.hands[seat] == state.hands[seat]
    for s in range(state.num_seats):
        assert Counter(world.hands[s]) >= Counter(state.exposed[s])
    assert plays_were_legal(world)


def has_marriage(hand: list[str]) -> bool:
    return any("K" + s in hand and "Q" + s in hand for s in SUITS)


@pytest.mark.parametrize(
    ("options", "phases"), VARIANTS, ids=lambda v: str(sorted(v)) if isinstance(v, set) else str(v)
)
def test_a_world_looks_the_same_to_the_seat_and_its_plays_are_legal(
    options: dict[str, Any], phases: set[str]
) -> None:
    rng = random.Random(str(options))
    seen, differed, constrained = set(), 0, 0
    for seed in ("d1", "d2"):
        for state in sampled_steps(options, seed):
            n = state.num_seats
            seen.add(state.phase)
            before = state.to_dict()
            for seat in (0, 1, n - 1):
                view = state.view(seat)
                for _ in range(2):
                    world = state.determinize(seat, rng)
                    assert world.view(seat) == view
                    assert_dealt_like(world, state, seat)
                    assert world.seed != state.seed
                    assert world.presets == state.presets[: state.deal_number]
                    differed += world.hands != state.hands
            assert state.to_dict() == before
            # some plays do forbid cards: a seat that did not follow the led suit
            constrained += any(
                cards[i][1] != cards[0][1]
                for _, cards in deal_tricks(state)
                for i in range(1, len(cards))
            )
    assert phases <= seen
    assert differed > 0
    assert constrained > 0


@pytest.mark.parametrize("options", [options for options, _ in VARIANTS], ids=str)
def test_a_world_plays_on_to_the_end_without_touching_the_game(options: dict[str, Any]) -> None:
    """From every phase; a world drawn before the melds counts the dixes its own hands
    hold (P5: each dix held when trumps are fixed scores 10)."""
    rng = random.Random(7)
    for state in sampled_steps(options, "end")[::9]:
        before = state.to_dict()
        seat = state.to_move()[0]
        world = state.determinize(seat, rng)
        dixes = None
        if world.phase == "exchange":
            dixes = [h.count("9" + str(world.trump)) for h in world.hands]
        while not world.is_over():
            mover = world.to_move()[0]
            world.apply(mover, rng.choice(world.legal_moves(mover)), events=False)
            if dixes is not None and world.melds is not None:
                shown = [sum(m["name"] == "dix" for m in ms) for ms in world.melds]
                assert shown == dixes
                dixes = None
        assert state.to_dict() == before


def test_the_deals_to_come_stay_secret() -> None:
    """Two preset deals: a world drawn in the first keeps only the first preset."""
    packs = []
    for n in range(2):
        cards = [r + s for s in SUITS for r in RANKS for _ in range(2)]
        random.Random(n).shuffle(cards)
        packs.append({"dealer": 0, "hands": [cards[i : i + 12] for i in range(0, 48, 12)]})
    state = new_state({"variant": "firehouse"}, "secret", packs)
    world = state.determinize(1, random.Random(0))
    assert len(state.presets) == 2
    assert world.presets == state.presets[:1]
    assert world.seed.startswith("world-") and world.seed != state.seed


CHECK_HANDS = [  # dealer 0; only seat 3 holds clubs, so seat 3 sees no spade, heart or diamond
    "AS AS TS TS AH AH TH TH AD AD TD TD",
    "KS QS JS JS KH JH 9H 9H KD JD 9D 9D",  # one marriage, KS QS
    "KS QS 9S 9S KH QH QH JH KD QD QD JD",
    "AC AC TC TC KC KC QC QC JC JC 9C 9C",
]


def test_a_check_bidder_holds_a_marriage_in_every_world() -> None:
    """P15: seat 1 bid 200, so it holds a K-Q of one suit; seat 2's pass tells nothing.
    Dealt at random, the 36 cards seat 3 cannot see often leave seat 1 without one."""
    state = new_state(
        {"variant": "check"}, "p15", [{"dealer": 0, "hands": [h.split() for h in CHECK_HANDS]}]
    )
    state.apply(1, {"type": "bid", "amount": 200})
    state.apply(2, {"type": "pass"})
    assert state.to_move() == [3]
    rng = random.Random(15)
    plain = [redeal(state.hands, (3,), rng)[1] for _ in range(40)]
    assert not all(map(has_marriage, plain))
    for _ in range(40):
        assert has_marriage(state.determinize(3, rng).hands[1])


def shows_the_same_melds(state: State, world: State, seat: int) -> bool:
    """Would every other seat, holding at the meld its world hand and the cards it has
    played since, have shown what it showed? (The melds are found as the engine does.)"""
    held = holdings_at_first_trick(world)
    table, records = state.options.meld_table, state.melds
    assert records is not None
    return all(
        [m.to_dict() for m in find_melds(held[s], state.trump, table, state.dixes[s])] == records[s]
        for s in range(state.num_seats)
        if s != seat
    )


def test_worlds_mostly_show_the_melds_that_were_shown() -> None:
    """A hand that showed no marriage of a suit did not hold its K and Q: worlds are drawn
    until the other hands would have shown the same melds (a bounded number of tries), so
    most worlds agree, far more than plain re-deals that keep only the shown cards."""
    rng = random.Random(20)
    agree = plain = total = 0
    for seed in ("m1", "m2", "m3"):
        for state in sampled_steps({"variant": "partnership"}, seed):
            if state.phase != "play":
                continue
            seat = state.to_move()[0]
            world = state.determinize(seat, rng)
            agree += shows_the_same_melds(state, world, seat)
            other = state.clone()
            other.hands = redeal(state.hands, (seat,), rng, sorted, known=state.exposed)
            plain += shows_the_same_melds(state, other, seat)
            total += 1
    assert total > 20
    assert agree >= 0.75 * total
    assert plain <= agree - 0.2 * total

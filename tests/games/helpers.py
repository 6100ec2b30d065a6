"""Test helpers for Concerto: build preset deals by hand and play them move by move.

These helpers exist so a test can say *what* is played ("the leader plays 5H,
the partner 6H, …") and have the boring parts (filling the other 40-odd cards
of a deal, inserting the partner's passes) done deterministically. They hold
no rules knowledge beyond docs/rules/concerto.md's seating (hand *k* of a deal with dealer
*D* is led by ``(D + k) % 4``; partners sit opposite) and a deliberately simple
"this obviously scores nothing" predicate used to pick filler cards. Expected
scores always come from the test, worked by hand from docs/rules/.

Hand specs are strings of tokens:

* ``"5H 6H 7H 8H 9H"`` — bare cards alternate leader, partner, leader, …;
* ``"L:5H P:6H P:7H L:8H P:9H"`` — ``L``/``P`` name the hand's designated
  leader / partner, ``N E S W`` name a seat outright;
* ``"P:pass"``, ``"L:force"`` — an explicit pass or call of 'Play'.

When a token's seat is not on turn, :func:`play_tokens` makes the seat that is
on turn pass first (that is how "the leader plays two cards running" happens at
the table), so specs only spell out passes and 'Play' calls a test is about.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from server.games import concerto
from server.games.kit.base import Event

RANKS = "AKQJT98765432"  # high to low, as on the wire
SUITS = "SHDC"
PACK = [r + s for s in SUITS for r in RANKS]  # 52 cards in a fixed order
SEAT_LETTERS = {"N": 0, "E": 1, "S": 2, "W": 3}
SIDE_SEATS = {"NS": (0, 2), "EW": (1, 3)}
# Straight windows as rank sets, the ace low in the first (A-2-3-4-5), high in the last.
_ORDER = "A23456789TJQKA"
STRAIGHT_WINDOWS = [set(_ORDER[i : i + 5]) for i in range(len(_ORDER) - 4)]

Token = tuple[int, str]  # (seat, card | "pass" | "force")


def partner(seat: int) -> int:
    return (seat + 2) % 4


def side_name(seat: int) -> str:
    return "NS" if seat % 2 == 0 else "EW"


def designated_leader(dealer: int, hand_number: int) -> int:
    """docs/rules/concerto.md: hand k of a deal is led by seat (dealer + k) mod 4."""
    return (dealer + hand_number) % 4


# ---------------------------------------------------------------------------
# Reading hand specs
# ---------------------------------------------------------------------------


def parse_tokens(spec: str, leader: int) -> list[Token]:
    """Turn a hand spec into explicit ``(seat, card-or-action)`` tokens.

    Bare cards alternate leader / partner by their position among the cards.
    """
    tokens: list[Token] = []
    card_index = 0
    for word in spec.split():
        if ":" in word:
            who, what = word.split(":", 1)
            if who == "L":
                seat = leader
            elif who == "P":
                seat = partner(leader)
            else:
                seat = SEAT_LETTERS[who]
        else:
            what = word
            seat = leader if card_index % 2 == 0 else partner(leader)
        if what not in ("pass", "force"):
            card_index += 1
        tokens.append((seat, what))
    return tokens


def cards_of(tokens: Iterable[Token]) -> list[tuple[int, str]]:
    """Only the cards of a token list, with who plays them."""
    return [(seat, what) for seat, what in tokens if what not in ("pass", "force")]


# ---------------------------------------------------------------------------
# Playing
# ---------------------------------------------------------------------------


def move_for(what: str) -> dict[str, Any]:
    if what in ("pass", "force"):
        return {"type": what}
    return {"type": "play", "card": what}


def play_tokens(state: concerto.State, tokens: Iterable[Token]) -> list[Event]:
    """Apply tokens in order, letting the seat on turn pass when a token names its partner.

    Asserts the seat is on turn before each explicit move, so a test fails
    loudly (not silently passes) when the engine's turn order differs from
    the one the test expects.
    """
    events: list[Event] = []
    for seat, what in tokens:
        for _ in range(2):  # at most two consecutive passes can stand in between (C6)
            if state.to_move() == [seat]:
                break
            (on_turn,) = state.to_move()
            assert on_turn == partner(seat), f"seat {on_turn} on turn, expected {seat}"
            events += state.apply(on_turn, {"type": "pass"})
        assert state.to_move() == [seat], f"seat {state.to_move()} on turn, expected {seat}"
        events += state.apply(seat, move_for(what))
    return events


def play_hand(state: concerto.State, spec: str) -> list[Event]:
    """Play one hand from a spec; L/P are relative to the current designated leader."""
    return play_tokens(state, parse_tokens(spec, state.leader))


# ---------------------------------------------------------------------------
# Building preset deals
# ---------------------------------------------------------------------------


def fill_preset(dealer: int, partial: Mapping[int, Iterable[str]]) -> dict[str, Any]:
    """A preset deal: the given cards for each seat, the rest filled in pack order.

    Good for tests of a single hand, where the other cards never matter.
    """
    hands = {seat: list(partial.get(seat, [])) for seat in range(4)}
    used = [c for h in hands.values() for c in h]
    assert len(used) == len(set(used)), f"card given twice: {used}"
    rest = [c for c in PACK if c not in used]
    for seat in range(4):
        need = 13 - len(hands[seat])
        assert need >= 0, f"seat {seat} given more than 13 cards"
        hands[seat] += rest[:need]
        rest = rest[need:]
    return {"dealer": dealer, "hands": [hands[s] for s in range(4)]}


def single_hand_preset(dealer: int, spec: str) -> tuple[dict[str, Any], list[Token]]:
    """The preset and tokens for playing ``spec`` as hand 1 of a deal by ``dealer``."""
    tokens = parse_tokens(spec, designated_leader(dealer, 1))
    partial: dict[int, list[str]] = {}
    for seat, card in cards_of(tokens):
        partial.setdefault(seat, []).append(card)
    return fill_preset(dealer, partial), tokens


def is_plain_nothing(cards: Iterable[str]) -> bool:
    """True when no five of these cards can make any Poker combination.

    Obvious by inspection: all ranks differ (no pairs, threes, fours, full
    house), no suit appears five times (no flush) and no five ranks fall in
    one straight window, the ace low or high (no straight).
    """
    cards = list(cards)
    ranks = [c[0] for c in cards]
    if len(set(ranks)) != len(ranks):
        return False
    if max(Counter(c[1] for c in cards).values()) >= 5:
        return False
    return not any(window <= set(ranks) for window in STRAIGHT_WINDOWS)


@dataclass
class DealPlan:
    """A whole deal decided in advance: the preset to deal and the 8 hands' tokens."""

    dealer: int
    preset: dict[str, Any]
    hands: list[list[Token]]  # hand 1..8, in order
    leftovers: dict[str, list[str]]  # per side, what stays unplayed

    def play(self, state: concerto.State, hands: Iterable[int] = range(1, 9)) -> list[Event]:
        """Play the given hands (1-based) of this plan on ``state``."""
        events: list[Event] = []
        for k in hands:
            assert state.hand_number == k, f"state is at hand {state.hand_number}, not {k}"
            events += play_tokens(state, self.hands[k - 1])
        return events


def plan_deal(
    dealer: int,
    hands: Mapping[int, str] | None = None,
    leftovers: Mapping[str, str] | None = None,
    seed: int = 0,
) -> DealPlan:
    """Plan a whole deal: the hands and left-overs a test names, plain filler elsewhere.

    Args:
        dealer: the dealer's seat.
        hands: hand number (1..8) → spec; L/P relative to that hand's designated leader.
        leftovers: side ("NS"/"EW") → the six cards it keeps unplayed.
        seed: varies the filler (deterministically).

    Every hand not named is five cards of plain nothing (0 points) played
    leader, partner, leader, partner, leader, and a side's left-overs that are
    not named are six cards of plain nothing, so a test's arithmetic only has
    to account for what it names. Each seat ends up with exactly 13 cards.
    """
    hands = dict(hands or {})
    leftovers = {side: spec.split() for side, spec in (leftovers or {}).items()}
    fixed: dict[int, list[Token]] = {
        k: parse_tokens(spec, designated_leader(dealer, k)) for k, spec in hands.items()
    }
    used = [c for toks in fixed.values() for _, c in cards_of(toks)]
    used += [c for six in leftovers.values() for c in six]
    assert len(used) == len(set(used)), f"card named twice: {sorted(used)}"
    pool = [c for c in PACK if c not in used]
    free_hands = [k for k in range(1, 9) if k not in fixed]
    free_sides = [side for side in SIDE_SEATS if side not in leftovers]
    rng = random.Random(seed)
    for _ in range(20000):
        rng.shuffle(pool)
        groups = _greedy_groups(pool, [5] * len(free_hands) + [6] * len(free_sides))
        if groups is not None:
            break
    else:  # pragma: no cover - a helper misuse, not a rules failure
        raise AssertionError("could not find plain filler for this deal")
    for k, five in zip(free_hands, groups, strict=False):
        fixed[k] = parse_tokens(" ".join(five), designated_leader(dealer, k))
    for side, six in zip(free_sides, groups[len(free_hands) :], strict=True):
        leftovers[side] = six
    tokens = [fixed[k] for k in range(1, 9)]

    held: dict[int, list[str]] = {seat: [] for seat in range(4)}
    for toks in tokens:
        for seat, card in cards_of(toks):
            held[seat].append(card)
    for side, (a, b) in SIDE_SEATS.items():
        six = list(leftovers[side])
        need_a = 13 - len(held[a])
        assert 0 <= need_a <= 6 and 13 - len(held[b]) == 6 - need_a, (
            f"side {side} does not play 20 cards split to fit 13 each"
        )
        held[a] += six[:need_a]
        held[b] += six[need_a:]
    preset = {"dealer": dealer, "hands": [held[s] for s in range(4)]}
    assert sorted(c for h in preset["hands"] for c in h) == sorted(PACK)
    return DealPlan(dealer, preset, tokens, {s: list(v) for s, v in leftovers.items()})


def _greedy_groups(pool: list[str], sizes: list[int]) -> list[list[str]] | None:
    """Split ``pool`` into groups of the given sizes, each plain nothing, or None."""
    rest = list(pool)
    groups: list[list[str]] = []
    for size in sizes:
        group: list[str] = []
        for card in list(rest):
            if len(group) == size:
                break
            if is_plain_nothing([*group, card]):
                group.append(card)
                rest.remove(card)
        if len(group) != size:
            return None
        groups.append(group)
    return groups


def new_game(
    plans: Iterable[DealPlan], rules: str = "parlett-2013", seed: str = "test", **options: Any
) -> concerto.State:
    """A new Concerto state whose first deals are the plans' presets."""
    presets = [p.preset for p in plans]
    return concerto.new_state({"rules": rules, **options}, seed, deals=presets)

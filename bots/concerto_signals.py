"""``concerto_signals``: Parlett's signalling system for Concerto (docs/bots/conventions.md).

Partners cannot see each other's cards, so the side that builds a hand talks
through the order of its first two cards (seed 000, "Concerto signals"):

1. **The leader signals.** It goes down Parlett's checklist and shows the
   first holding it has, by the pattern of its first two cards: same rank,
   same suit, same colour, in range (at most four ranks apart) or not,
   rising or falling, and the gap between them. "Red and pass" and "black
   and pass" replace the second card by a pass.
2. **The partner passes after the lead**, so that the leader's second card
   completes the signal (unless it can turn the lead into a straight flush or
   fours of 12 points straight away; then it plays, and the leader passes).
3. **The partner reads the signal** and completes the indicated combination:
   it plays the cards it holds that the leader's holding lacks (the missing
   card of a straight flush, the fourth of the leader's threes, two more of
   the leader's pair for fours 2+2, ...), then calls 'Play' so the leader
   finishes the hand alone. The leader passes while its partner contributes.
4. **Visible hands are read**: a holding is only signalled when the cards
   it needs are not already among the completed hands of the deal, and the
   partner rules out readings that the cards it can see make impossible.

Everything is recomputed from the view at every move (the bot keeps no memory
of a game), so a restarted runner picks up in the middle of a hand.

:func:`convention_card` discloses all of it, machine-readably, for opponents
and for a human partner. Where Parlett leaves a choice or his table is
ambiguous, the card's ``"deviations"`` say what this bot does.

Run it: ``python -m bots.concerto_signals --server URL --token T``.
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import Any

from client_sdk import Bot
from client_sdk.cli import bot_main
from client_sdk.types import Move, View

from ._concerto import (
    FORCE,
    PASS,
    RANK_OF,
    SUITS,
    VALUE,
    Pip,
    Table,
    best_completion,
    completing_card,
    hand_points,
    is_red,
    keep_score,
    pip,
    play,
    read_table,
)

# ---------------------------------------------------------------------------
# Ranks as positions in a straight: the ace is 1 (A-2-3-4-5) or 14 (T-J-Q-K-A)
# ---------------------------------------------------------------------------


def coords(card: str) -> tuple[int, ...]:
    """Positions of a card's rank in a straight: the ace counts 1 and 14."""
    value = VALUE[card[0]]
    return (1, 14) if value == 14 else (value,)


def card_at(coord: int, suit: str) -> str:
    return RANK_OF[14 if coord == 1 else coord] + suit


def rank_at(coord: int) -> str:
    return RANK_OF[14 if coord == 1 else coord]


def pattern(first: str, second: str) -> tuple[int, int] | None:
    """``(a1, a2)``: the two cards' positions when in range (≤ 4 apart), else None.

    The ace takes whichever value brings the pair in range: A then 5 is a
    rising A-5 (the wheel), K then A a rising K-A.
    """
    for a1 in coords(first):
        for a2 in coords(second):
            if a1 != a2 and abs(a1 - a2) <= 4:
                return a1, a2
    return None


def windows_of(held: Iterable[int]) -> list[range]:
    """Every five-rank straight window (A-5 … T-A) containing all of ``held``."""
    held = list(held)
    return [range(lo, lo + 5) for lo in range(1, 11) if all(lo <= c < lo + 5 for c in held)]


# ---------------------------------------------------------------------------
# The leader: Parlett's checklist
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Signal:
    """What the leader shows: its first card, then a second card, a pass or 'Play'."""

    holding: str
    first: str
    then: str  # "card", "pass" or "force"
    second: str | None = None


def _suit_coords(hand: Sequence[str], suit: str) -> set[int]:
    return {c for card in hand if card[1] == suit for c in coords(card)}


_WINDOWS = tuple((lo, sum(1 << c for c in range(lo, lo + 5))) for lo in range(10, 0, -1))
_COORD_BITS = {r: (1 << 1) | (1 << 14) if r == "A" else 1 << VALUE[r] for r in VALUE}


@lru_cache(maxsize=256)
def _dead_bits(seen: frozenset[str]) -> dict[str, int]:
    """Per suit, the straight positions of the cards already played (see ``_COORD_BITS``)."""
    dead = dict.fromkeys(SUITS, 0)
    for card in seen:
        dead[card[1]] |= _COORD_BITS[card[0]]
    return dead


def _sf_holdings(hand: Sequence[str], seen: frozenset[str], size: int) -> list[tuple[str, range]]:
    """(suit, window) where the hand holds exactly ``size`` cards of a live straight flush.

    Live: none of the window's missing cards has been played already (they
    could still be in the partner's hand). Higher windows first. Bit masks of
    straight positions (the ace at both ends): the samplers of
    ``concerto_search`` run this on every hand they draw.
    """
    held = dict.fromkeys(SUITS, 0)
    for card in hand:
        held[card[1]] |= _COORD_BITS[card[0]]
    dead = _dead_bits(seen)
    found = []
    for suit in SUITS:
        mine, gone = held[suit], dead[suit]
        if mine.bit_count() < size:
            continue
        for lo, bits in _WINDOWS:
            if (mine & bits).bit_count() == size and not bits & ~mine & gone:
                found.append((suit, range(lo, lo + 5)))
    return found


def sf4_cards(window: range, missing: int) -> tuple[int, int]:
    """The two positions a four-card straight-flush holding is shown by.

    ``L xx H`` four in sequence; ``L x H`` three in sequence and one higher or
    lower; ``H xx L`` one missing in the middle (seed 000 table).
    """
    lo = window[0]
    position = missing - lo
    return {
        0: (lo + 1, lo + 4),  # 4 in sequence, rising, two gaps
        4: (lo, lo + 3),
        1: (lo + 2, lo + 4),  # 3 in sequence + 1 lower: rising, one gap
        3: (lo, lo + 2),  # 3 in sequence + 1 higher: rising, one gap
        2: (lo + 4, lo + 1),  # missing between: falling, two gaps
    }[position]


def sf3_cards(held: Sequence[int]) -> tuple[int, int]:
    """The two positions a three-card straight-flush holding is shown by (seed 000).

    ``H x L`` three in sequence; ``LH`` two in sequence and one higher; ``HL``
    two in sequence and one lower; ``H xxx L`` none consecutive.
    """
    x, y, z = sorted(held)
    if y == x + 1 and z == y + 1:
        return z, x
    if y == x + 1:
        return x, y
    if z == y + 1:
        return z, y
    return z, x


def _pick(cards: Iterable[str], prefer: Iterable[str] = ()) -> str:
    """A deterministic choice: the first of ``prefer`` present, else the first card."""
    cards = list(cards)
    for p in prefer:
        if p in cards:
            return p
    return cards[0]


def _same_colour_pair(
    first_choices: Sequence[str], second_choices: Sequence[str]
) -> tuple[str, str] | None:
    """Cards of the same colour from different suits, one from each list."""
    for a in first_choices:
        for b in second_choices:
            if a[1] != b[1] and is_red(a) == is_red(b):
                return a, b
    return None


CHECKLIST = (
    "straight_flush_5", "fours", "straight_flush_4", "two_threes", "full_house", "threes",
    "straight_flush_3", "flush_5", "straight_5", "two_pairs",
    "flush_4", "straight_4", "flush_3", "straight_3", "pair", "nothing",
)  # fmt: skip
"""Parlett's checklist: the holdings in the order :func:`holdings` finds them."""


def choose_signal(hand: Sequence[str], seen: frozenset[str]) -> Signal:
    """The leader's signal: the first holding of Parlett's checklist it can show.

    ``hand`` is the leader's hand before its first card; ``seen`` the cards
    already played in the deal's completed hands (the "visible" cards).
    """
    return next(holdings(hand, seen))


def holdings(hand: Sequence[str], seen: frozenset[str]) -> Iterator[Signal]:
    """Every holding the leader could show, in the checklist's order, each as
    :func:`choose_signal` would show it (the first is its answer; the last is
    always "nothing"). ``concerto_search`` ranks them by its own order."""
    hand = sorted(hand, key=lambda c: (-VALUE[c[0]], SUITS.index(c[1])))
    if len(hand) < 2:
        yield Signal("nothing", hand[0], "force")
        return
    ranks: dict[str, list[str]] = {}
    suits: dict[str, list[str]] = {}
    for card in hand:
        ranks.setdefault(card[0], []).append(card)
        suits.setdefault(card[1], []).append(card)
    yield from _straight_flushes_and_fours(hand, seen, ranks)  # 1-3
    threes = [cards for cards in ranks.values() if len(cards) == 3]
    pairs = [cards for cards in ranks.values() if len(cards) == 2]
    if len(threes) >= 2:
        # 4. Two sets of three; afterwards the second set counts as a pair.
        yield from _two_threes(threes[0], threes[1])
        pairs = [threes[1][:2], *pairs]
        threes = [threes[0]]
    if threes:  # 5. Full house, 5b. threes only.
        yield from _threes(threes[0], pairs)
    # 6. Three to a straight flush.
    for suit, window in _sf_holdings(hand, seen, 3)[:1]:
        held = [c for c in window if c in _suit_coords(hand, suit)]
        a, b = sf3_cards(held)
        yield Signal("straight_flush_3", card_at(a, suit), "card", card_at(b, suit))
    # 7. Five-card flush (rising, out of range) or straight (lowest then highest).
    yield from _flush_or_straight(hand, suits, 5)
    # 8. Two pairs: same rank, black-red or minor-major (never heart-diamond).
    if len(pairs) >= 2:
        # show the pair whose other two cards are unseen: the partner may hold them
        shown = max(pairs, key=lambda p: _unseen_of_rank(p, seen))
        first, second = _two_pairs_order(shown)
        yield Signal("two_pairs", first, "card", second)
    # 9. Four to a flush or straight; 10. three to a flush or straight.
    yield from _flush_or_straight(hand, suits, 4)
    yield from _flush_or_straight(hand, suits, 3)
    # 11. One pair: black and pass (the diamond if both are red).
    if pairs:
        cards = pairs[0]
        black = [c for c in cards if not is_red(c)]
        yield Signal("pair", black[0] if black else _pick(cards, [cards[0][0] + "D"]), "pass")
    # Nothing to show: a card, then 'Play' — "you build this one".
    yield Signal("nothing", min(hand, key=lambda c: VALUE[c[0]]), "force")


def _straight_flushes_and_fours(
    hand: Sequence[str], seen: frozenset[str], ranks: Mapping[str, Sequence[str]]
) -> Iterator[Signal]:
    """Steps 1-3 of the checklist, the holdings above any set of three."""
    # 1. Five to a straight flush: its lowest, then its highest card.
    for suit, window in _sf_holdings(hand, seen, 5)[:1]:
        yield Signal("straight_flush_5", card_at(window[0], suit), "card", card_at(window[4], suit))
    # 2. Fours: the heart, then the diamond.
    for rank in [r for r, cards in ranks.items() if len(cards) == 4][:1]:
        yield Signal("fours", rank + "H", "card", rank + "D")
    # 3. Four to a straight flush.
    for suit, window in _sf_holdings(hand, seen, 4)[:1]:
        held = _suit_coords(hand, suit)
        a, b = sf4_cards(window, next(c for c in window if c not in held))
        yield Signal("straight_flush_4", card_at(a, suit), "card", card_at(b, suit))


def _two_threes(a: Sequence[str], b: Sequence[str]) -> Iterator[Signal]:
    """4. Two sets of three: different rank, same colour (out of range); in
    range the full-house pattern says it without clashing with straights."""
    if pattern(a[0], b[0]) is None:
        pair = _same_colour_pair(a, b)
        if pair:
            yield Signal("two_threes", pair[0], "card", pair[1])


def _threes(threes: Sequence[str], pairs: Sequence[Sequence[str]]) -> Iterator[Signal]:
    """5. Full house: different rank, different colour, threes first; then
    5b. threes only: red and pass, the heart if possible."""
    if pairs:
        pair_card = pairs[0][0]
        threes_card = _pick(c for c in threes if is_red(c) != is_red(pair_card))
        yield Signal("full_house", threes_card, "card", pair_card)
    rank = threes[0][0]
    yield Signal("threes", _pick((c for c in threes if is_red(c)), [rank + "H"]), "pass")


def _flush_or_straight(
    hand: Sequence[str], suits: Mapping[str, Sequence[str]], size: int
) -> Iterator[Signal]:
    """A flush of ``size`` (five or more for 5) if one shows, then a straight of ``size``."""
    flush = (_flush_signal(cards, f"flush_{size}") for cards in suits.values()
             if len(cards) == size or (size == 5 and len(cards) > 5))  # fmt: skip
    yield from [s for s in flush if s][:1]
    straight = _straight_signal(hand, size)
    if straight:
        yield straight


def _unseen_of_rank(cards: Sequence[str], seen: frozenset[str]) -> int:
    """How many cards of the rank of ``cards`` are neither ours nor played yet."""
    rank = cards[0][0]
    return sum(1 for suit in SUITS if rank + suit not in cards and rank + suit not in seen)


_MINOR = {"C": 0, "D": 1, "S": 2, "H": 3}  # minor-major order, clubs/diamonds first


def _two_pairs_order(cards: Sequence[str]) -> tuple[str, str]:
    """Same rank, black then red or minor then major: never heart then diamond."""
    a, b = cards[0], cards[1]
    if is_red(a) != is_red(b):
        return (a, b) if not is_red(a) else (b, a)
    return (a, b) if _MINOR[a[1]] < _MINOR[b[1]] else (b, a)


def _flush_signal(cards: Sequence[str], holding: str) -> Signal | None:
    """Same suit: five held rising out of range; four rising in range; three falling.

    Five cards with no pair out of range (A-2-3-4-6) use the four-card pattern:
    the partner's answer (give suit cards) is the right one either way.
    """
    ordered = sorted(cards, key=lambda c: VALUE[c[0]])
    duos = [(a, b) for a in ordered for b in ordered if a != b]
    rising = [(a, b, pattern(a, b)) for a, b in duos]
    if holding == "flush_5":
        for a, b, p in rising:
            if p is None and VALUE[a[0]] < VALUE[b[0]]:
                return Signal(holding, a, "card", b)
    if holding in ("flush_5", "flush_4"):
        # rising with one or two gaps first (the partner then gives one card)
        for gaps in ((2, 3), (1,)):
            for a, b, p in rising:
                if p and p[1] - p[0] in gaps:
                    return Signal(holding, a, "card", b)
    for a, b, p in rising:  # falling, gap 1, 2 or 4 (a gap of 3 means four held)
        if p and p[0] - p[1] in (1, 2, 4):
            return Signal(holding, a, "card", b)
    return None


def _straight_signal(hand: Sequence[str], size: int) -> Signal | None:
    """``size`` cards to a straight, shown by two cards of one colour, different suits.

    Five: lowest then highest; four: rising within range; three: falling.
    The colour rule keeps straights apart from the full house (different
    colours) — see the convention card's deviations.
    """
    by_coord: dict[int, list[str]] = {}
    for card in hand:
        for c in coords(card):
            by_coord.setdefault(c, []).append(card)
    for lo in range(10, 0, -1):
        window = range(lo, lo + 5)
        held = [c for c in window if c in by_coord]
        if len(held) < size:
            continue
        if size == 5:
            candidates = [(held[0], held[-1])]
        elif size == 4:
            candidates = [(a, b) for a in held for b in held if 0 < b - a < 4]
        else:
            candidates = [(a, b) for a in held for b in held if 0 < a - b <= 4]
        for a, b in candidates:
            pair = _same_colour_pair(by_coord[a], by_coord[b])
            if pair:
                return Signal(f"straight_{size}", pair[0], "card", pair[1])
    return None


# ---------------------------------------------------------------------------
# The partner: reading the signal
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Reading:
    """What the partner concludes about the leader's holding."""

    meaning: str
    first: str
    second: str | None = None
    at: tuple[int, int] | None = None
    """The two cards' straight positions, for the sequence signals."""


def read_signal(first: str, then: str, second: str | None, known: frozenset[str]) -> Reading:
    """Decode the leader's first card and what followed it.

    Args:
        first: the lead.
        then: ``"card"``, ``"pass"`` or ``"force"``.
        second: the second card when ``then == "card"``.
        known: cards the partner knows are not the leader's (its own hand and
            the deal's completed hands), to rule out impossible readings.
    """
    if then == "force":
        return Reading("nothing", first)
    if then == "pass":
        return _read_pass(first, known)
    assert second is not None
    return _read_two_cards(first, second, known)


def _read_pass(first: str, known: frozenset[str]) -> Reading:
    """A card then a pass: threes (red) or one pair (black, or a red pair)."""
    if first[1] == "H":
        return Reading("threes", first)
    if not is_red(first):
        return Reading("pair", first)
    # a diamond: threes without the heart, or a red pair (heart and diamond)
    return Reading("threes" if first[0] + "H" in known else "pair", first)


def _read_two_cards(first: str, second: str, known: frozenset[str]) -> Reading:
    """Two cards: same rank, same suit, or two ranks whose counts tell the set."""
    rank = first[0]
    if second[0] == rank:
        if first[1] == "H" and second[1] == "D":
            return Reading("fours", first, second)
        return Reading("two_pairs", first, second)
    at = pattern(first, second)
    if first[1] == second[1]:
        if at is not None:
            return Reading("straight_flush", first, second, at)
        if VALUE[first[0]] < VALUE[second[0]]:
            return Reading("flush_5", first, second)
        return Reading("two_pairs_ranks", first, second)
    others = Counter(c[0] for c in known if c not in (first, second))
    if is_red(first) != is_red(second):
        if others[rank] <= 1 and others[second[0]] <= 2:
            return Reading("full_house", first, second)
    elif at is None and others[rank] <= 1 and others[second[0]] <= 1:
        return Reading("two_threes", first, second)
    if at is not None:
        return Reading("straight", first, second, at)
    return Reading("unknown", first, second)


# Cards of the signalled suit the leader claims in all (the two shown included),
# by (rising?, gap) of a same-suit, in-range signal: straight flush and flush
# readings together (the smaller when they differ).
_CLAIMED_IN_SUIT = {
    (True, 4): 5, (True, 3): 4, (True, 2): 4, (True, 1): 3,
    (False, 1): 3, (False, 2): 3, (False, 3): 4, (False, 4): 3,
}  # fmt: skip


def sf_candidates(a1: int, a2: int) -> list[tuple[frozenset[int], frozenset[int]]]:
    """(leader's holding, cards it lacks) for each reading of a straight-flush signal.

    Straight from the seed 000 table; positions outside A..A are dropped.
    """
    options: list[tuple[set[int], set[int]]] = []
    if a2 > a1:
        gap = a2 - a1
        if gap == 4:
            options.append((set(range(a1, a2 + 1)), set()))
        elif gap == 3:
            held = set(range(a1, a2 + 1))
            options += [(held, {a1 - 1}), (held, {a2 + 1})]
        elif gap == 2:
            options += [({a1 - 2, a1, a1 + 1, a2}, {a1 - 1}), ({a1, a1 + 1, a2, a2 + 2}, {a2 + 1})]
        else:  # LH: two in sequence and one higher
            options += [
                ({a1, a2, a2 + 2}, {a1 - 1, a2 + 1}),
                ({a1, a2, a2 + 2}, {a2 + 1, a1 + 4}),
                ({a1, a2, a2 + 3}, {a2 + 1, a2 + 2}),
            ]
    else:
        high, gap = a1, a1 - a2
        if gap == 1:  # HL: two in sequence and one lower
            options += [
                ({high, high - 1, high - 3}, {high - 2, high + 1}),
                ({high, high - 1, high - 3}, {high - 4, high - 2}),
                ({high, high - 1, high - 4}, {high - 3, high - 2}),
            ]
        elif gap == 2:  # H x L: three in sequence
            held = {high, high - 1, high - 2}
            for window in windows_of(held):
                options.append((held, set(window) - held))
        elif gap == 3:  # H xx L: one missing between
            options.append(({high, high - 1, high - 3, high - 4}, {high - 2}))
        else:  # H xxx L: none consecutive
            options.append(({high, high - 2, high - 4}, {high - 3, high - 1}))
    return [
        (frozenset(h), frozenset(n))
        for h, n in options
        if all(1 <= c <= 14 for c in h | n) and windows_of(h | n)
    ]


# ---------------------------------------------------------------------------
# The partner: completing the indicated combination
# ---------------------------------------------------------------------------


def partner_cards(
    reading: Reading,
    signal: Sequence[tuple[int, str]],
    hand: Sequence[str],
    known: frozenset[str],
    leader_left: int,
    rules: str,
    me: int,
    must_play: bool,
) -> tuple[str, ...]:
    """The cards the partner adds to the leader's signal, in playing order.

    After them the partner calls 'Play' and the leader completes the hand.
    ``must_play``: the leader passed ("and pass"), so at least one card.
    """
    meaning = reading.meaning
    if meaning == "straight_flush":
        assert reading.at is not None
        cards = _sf_partner(reading, hand, known)
    elif meaning == "straight":
        assert reading.at is not None
        cards = _straight_partner(reading.at, hand)
    elif meaning in _HOLDINGS:
        cards = _rank_partner(reading, signal, hand, leader_left, rules, me, must_play)
    else:  # fours, five-card flush or straight, nothing readable: the leader has it
        cards = ()
    if must_play and not cards:
        _, cards = best_completion(signal, hand, me, rules, 1)
    return cards


def _sf_partner(reading: Reading, hand: Sequence[str], known: frozenset[str]) -> tuple[str, ...]:
    """Complete the straight flush if we hold what it lacks; else make the flush."""
    assert reading.at is not None
    a1, a2 = reading.at
    suit = reading.first[1]
    shown = {reading.first, reading.second}
    for held, lacking in sf_candidates(a1, a2):
        held_cards = {card_at(c, suit) for c in held} - shown
        lacking_cards = [card_at(c, suit) for c in sorted(lacking)]
        if held_cards & known:
            continue  # impossible: we hold or have seen a card this reading gives the leader
        if lacking_cards and all(c in hand for c in lacking_cards):
            return tuple(lacking_cards)
    give = 5 - _CLAIMED_IN_SUIT[(a2 > a1, abs(a2 - a1))]
    in_suit = [c for c in hand if c[1] == suit]
    if give <= 0 or len(in_suit) < give:
        return ()
    return min(
        combinations(in_suit, give),
        key=lambda chosen: -keep_score(c for c in hand if c not in chosen),
    )


def _straight_partner(at: tuple[int, int], hand: Sequence[str]) -> tuple[str, ...]:
    """Fill the straight: rising (4 or 5 held) with two or three cards, falling with three."""
    a1, a2 = at
    if a2 - a1 == 4:
        return ()
    best: tuple[str, ...] = ()
    for window in windows_of((a1, a2)):
        mine = []
        for c in window:
            if c in (a1, a2):
                continue
            match = [card for card in hand if card[0] == rank_at(c)]
            if match:
                mine.append(match[0])
        if len(mine) > len(best):
            best = tuple(mine)
    wanted = 2 if a2 > a1 else 3
    return best if len(best) >= wanted else ()


# What each rank reading says the leader still holds besides the signal
# cards: ranks ("first"/"second": the shown cards' ranks; "X": a pair of some
# other rank), each entry one card.
_HOLDINGS = {
    "two_threes": ("first", "first", "second", "second"),
    "full_house": ("first", "first", "second"),
    "threes": ("first", "first"),
    "pair": ("first",),
    "two_pairs": ("X", "X"),
    "two_pairs_ranks": ("first", "second"),
}


def _rank_partner(
    reading: Reading,
    signal: Sequence[tuple[int, str]],
    hand: Sequence[str],
    leader_left: int,
    rules: str,
    me: int,
    must_play: bool,
) -> tuple[str, ...]:
    """Choose the cards that make the most with the leader's announced ranks.

    The leader's hand is modelled as the announced cards (suits unknown) plus
    cards that match nothing, and is assumed to complete the hand as well as
    it can. Among equal results: fewer cards of ours, then the most useful
    cards kept (:func:`keep_score`).
    """
    leader = signal[0][0]
    values = {
        "first": VALUE[reading.first[0]],
        "second": VALUE[reading.second[0]] if reading.second else 0,
        "X": 50,
    }
    announced = [
        Pip(values[name], f"?{i}", leader) for i, name in enumerate(_HOLDINGS[reading.meaning])
    ]
    shown = [pip(c, s) for s, c in signal]
    need = 5 - len(shown)
    signal_ranks = {p.value for p in shown} | {p.value for p in announced}
    counts = Counter(VALUE[c[0]] for c in hand)
    relevant = [c for c in hand if VALUE[c[0]] in signal_ranks or counts[VALUE[c[0]]] >= 2]
    spare = sorted((c for c in hand if c not in relevant), key=lambda c: VALUE[c[0]])[:1]
    pool = relevant + spare
    best: tuple[int, int, float, tuple[str, ...]] | None = None
    for size in range(1 if must_play else 0, min(need, len(pool)) + 1):
        rest = need - size
        if rest > leader_left:
            continue
        for chosen in combinations(pool, size):
            ours = [pip(c, me) for c in chosen]
            points = _leader_completes([*shown, *ours], announced, rest, rules, leader)
            key = (points, -size, keep_score(c for c in hand if c not in chosen), chosen)
            if best is None or key[:3] > best[:3]:
                best = key
    if best is None:
        return ()
    return tuple(sorted(best[3], key=lambda c: -counts[VALUE[c[0]]]))


def _leader_completes(
    pips: Sequence[Pip], announced: Sequence[Pip], rest: int, rules: str, leader: int
) -> int:
    """The best the leader can add, ``rest`` cards from its announced ones plus blanks."""
    if rest == 0:
        return hand_points(pips, rules)
    best = 0
    for size in range(0, min(rest, len(announced)) + 1):
        blanks = [Pip(100 + i, f"?b{i}", leader) for i in range(rest - size)]
        for chosen in combinations(announced, size):
            best = max(best, hand_points([*pips, *chosen, *blanks], rules))
    return best


# ---------------------------------------------------------------------------
# The bot
# ---------------------------------------------------------------------------


def _immediate(lead: tuple[int, str], hand: Sequence[str], me: int, rules: str) -> tuple[str, ...]:
    """Cards to play at once instead of passing after the lead: 12+ points with it.

    Only a straight flush 1+4 (four of the lead's suit) or fours 1+3 (three of
    its rank) can reach 12, so other hands are not searched.
    """
    lead_card = lead[1]
    if (sum(c[1] == lead_card[1] for c in hand) < 4
            and sum(c[0] == lead_card[0] for c in hand) < 3):  # fmt: skip
        return ()
    points, cards = best_completion([lead], hand, me, rules, 4)
    return cards if points >= 12 else ()


class SignalsBot(Bot):
    """Parlett's signals: the leader shows its holding, the partner completes it."""

    name = "concerto_signals"

    def choose_move(self, view: View) -> Move:
        table = read_table(view)
        if table.forced is not None or table.cards_left[table.partner] == 0:
            return self._complete(table)  # must play alone (C9, C11)
        if not table.current:
            return play(self._signal(table).first)
        if table.actual_leader == table.me:
            return self._as_leader(table)
        return self._as_partner(table)

    # -- helpers -------------------------------------------------------------
    @staticmethod
    def _complete(table: Table) -> Move:
        """Play a card of the best hand we can finish from our own cards."""
        return play(completing_card(table.current, table.hand, table.me, table.rules))

    @staticmethod
    def _deal_seen(table: Table) -> frozenset[str]:
        """Cards of the deal's completed hands: what the leader saw when it signalled."""
        return table.seen - {c for _, c in table.current}

    def _signal(self, table: Table) -> Signal:
        mine = [c for s, c in table.current if s == table.me]
        return choose_signal([*table.hand, *mine], self._deal_seen(table))

    # -- leading -------------------------------------------------------------
    def _as_leader(self, table: Table) -> Move:
        if len(table.current) == 1 and table.passes == 1:
            signal = self._signal(table)  # the partner passed: finish the signal
            if signal.then == "card" and signal.second in table.hand:
                return play(signal.second)
            if signal.then == "pass":
                return PASS
            if signal.then == "force":
                return FORCE
        partner_just_played = table.current[-1][0] == table.partner and table.passes == 0
        if partner_just_played and table.may_pass():
            return PASS  # the partner is completing the combination: let it
        # The partner passed after the signal, or left the rest to us. A search
        # partner that passed to see more predicts this card (completing_card).
        return self._complete(table)

    # -- partnering ------------------------------------------------------------
    def _as_partner(self, table: Table) -> Move:
        lead = table.current[0]
        mine = [c for s, c in table.current if s == table.me]
        hand = [*table.hand, *mine]  # our hand when the signal began
        immediate = _immediate(lead, hand, table.me, table.rules)
        if len(table.current) == 1 and table.passes == 0:
            if immediate:
                return play(immediate[0])
            return PASS if table.may_pass() else self._complete(table)
        if immediate and len(table.current) > 1 and table.current[1][0] == table.me:
            plan: tuple[str, ...] = immediate
        else:
            plan = self._plan(table, lead, hand)
        for card in plan:
            if card not in mine and card in table.hand:
                return play(card)
        if table.may_pass() and table.cards_left[lead[0]] >= table.need:
            return FORCE  # our part is done: the leader completes the hand
        return self._complete(table)

    def _plan(self, table: Table, lead: tuple[int, str], hand: list[str]) -> tuple[str, ...]:
        """Read the signal and decide our contribution (the same at every turn of the hand)."""
        leader = lead[0]
        signal = [lead]
        if len(table.current) > 1 and table.current[1][0] == leader:
            signal.append(table.current[1])
            then, second = "card", table.current[1][1]
        else:
            then, second = "pass", None  # the leader passed after our pass
        known = frozenset(hand) | self._deal_seen(table)
        reading = read_signal(lead[1], then, second, known)
        leader_played = sum(1 for s, _ in table.current if s == leader)
        leader_left = table.cards_left[leader] + leader_played - len(signal)
        return partner_cards(
            reading, signal, hand, known, leader_left, table.rules, table.me,
            must_play=then == "pass",
        )  # fmt: skip


# ---------------------------------------------------------------------------
# The convention card
# ---------------------------------------------------------------------------


def convention_card() -> dict[str, Any]:
    """This bot's conventions, machine-readable, for opponents and human partners.

    Patterns describe the leader's first two cards: ``same_rank``,
    ``same_suit``, ``same_colour``, ``in_range`` (at most four ranks apart,
    the ace high or low as fits), ``direction`` (``rising`` / ``falling``) and
    ``gap`` (rank difference); ``then`` is ``card``, ``pass`` or ``force``.
    """
    sf = "straight_flush"
    return {
        "game": "concerto",
        "system": "Parlett's Concerto signals (docs/bots/conventions.md, seed 000)",
        "bot": SignalsBot.name,
        "version": 1,
        "leader": {
            "checklist": list(CHECKLIST),
            "live_only": "a straight-flush holding is shown only if the cards it lacks "
            "are not among the deal's completed hands",
            "after_a_pass": "once the signal is sent, when the partner passes: a card of "
            "the best hand we can finish alone, of its most repeated rank",
        },  # fmt: skip
        "signals": [
            {
                "holding": "straight_flush_5",
                "example": "AS then 5S",
                "pattern": {"same_suit": True, "direction": "rising", "gap": 4},
            },
            {
                "holding": "fours",
                "example": "7H then 7D",
                "pattern": {"same_rank": True, "first_suit": "H", "second_suit": "D"},
            },
            {
                "holding": "straight_flush_4",
                "meaning": "four in sequence (L xx H)",
                "example": "2S then 5S",
                "pattern": {"same_suit": True, "direction": "rising", "gap": 3},
            },
            {
                "holding": "straight_flush_4",
                "meaning": "three in sequence, one higher or lower (L x H)",
                "example": "3S then 5S",
                "pattern": {"same_suit": True, "direction": "rising", "gap": 2},
            },
            {
                "holding": "straight_flush_4",
                "meaning": "one missing between (H xx L)",
                "example": "5S then 2S",
                "pattern": {"same_suit": True, "direction": "falling", "gap": 3},
            },
            {
                "holding": "straight_flush_3",
                "meaning": "two in sequence, one higher (LH)",
                "example": "4S then 5S",
                "pattern": {"same_suit": True, "direction": "rising", "gap": 1},
            },
            {
                "holding": "straight_flush_3",
                "meaning": "two in sequence, one lower (HL)",
                "example": "5S then 4S",
                "pattern": {"same_suit": True, "direction": "falling", "gap": 1},
            },
            {
                "holding": "straight_flush_3",
                "meaning": "three in sequence (H x L)",
                "example": "5S then 3S",
                "pattern": {"same_suit": True, "direction": "falling", "gap": 2},
            },
            {
                "holding": "straight_flush_3",
                "meaning": "none consecutive (H xxx L)",
                "example": "5S then AS",
                "pattern": {"same_suit": True, "direction": "falling", "gap": 4},
            },
            {
                "holding": "two_threes",
                "example": "4H then JD",
                "pattern": {
                    "same_rank": False,
                    "same_suit": False,
                    "same_colour": True,
                    "in_range": False,
                },
            },
            {
                "holding": "full_house",
                "meaning": "threes first (also two threes in range)",
                "example": "4H then JS",
                "pattern": {"same_rank": False, "same_colour": False},
            },
            {
                "holding": "threes",
                "example": "7H then pass",
                "pattern": {"first": "red, the heart if held", "then": "pass"},
            },
            {
                "holding": "flush_5",
                "example": "4D then JD",
                "pattern": {"same_suit": True, "in_range": False, "direction": "rising"},
            },
            {
                "holding": "straight_5",
                "example": "4C then 8S",
                "pattern": {
                    "same_suit": False,
                    "same_colour": True,
                    "direction": "rising",
                    "gap": 4,
                },
            },
            {
                "holding": "two_pairs",
                "example": "7C then 7H",
                "pattern": {
                    "same_rank": True,
                    "order": "black-red or minor-major, never heart then diamond",
                },
            },
            {
                "holding": "flush_4",
                "example": "4S then 7S",
                "pattern": {"same_suit": True, "in_range": True, "direction": "rising"},
            },
            {
                "holding": "straight_4",
                "example": "4C then 6S",
                "pattern": {
                    "same_suit": False,
                    "same_colour": True,
                    "in_range": True,
                    "direction": "rising",
                    "gap": [1, 2, 3],
                },
            },
            {
                "holding": "flush_3",
                "example": "8S then 4S",
                "pattern": {
                    "same_suit": True,
                    "in_range": True,
                    "direction": "falling",
                    "gap": [1, 2, 4],
                },
            },
            {
                "holding": "straight_3",
                "example": "8C then 4S",
                "pattern": {
                    "same_suit": False,
                    "same_colour": True,
                    "in_range": True,
                    "direction": "falling",
                },
            },
            {
                "holding": "pair",
                "example": "7S then pass",
                "pattern": {"first": "black (the diamond if both red)", "then": "pass"},
            },
            {"holding": "nothing", "example": "2C then 'Play'", "pattern": {"then": "force"}},
        ],  # fmt: skip
        "partner": {
            "after_the_lead": "pass, unless the lead and four of our cards make 12+ points "
            "(a straight flush 1+4 or fours 1+3): then play them, and the "
            "leader passes until the hand is complete",
            "responses": {
                sf: "play the card(s) the signalled holding lacks if we hold them all; "
                "else give suit cards for a flush",
                "fours": "call 'Play'",
                "two_threes": "give the fourth of either rank (fours 3+1), else 'Play'",
                "full_house": "give the fourth of the threes (fours 3+1), else 'Play'",
                "threes": "give the fourth (fours 3+1), else a pair (full house)",
                "pair": "give two of its rank (fours 2+2), or one and a pair (full house)",
                "two_pairs": "give the other two of the rank (fours 2+2), or one (full house)",
                "flush_5": "call 'Play'",
                "straight_5": "call 'Play'",
                "straight": "give two or three cards filling the straight, else 'Play'",
                "nothing": "complete the hand alone",
            },
            "then": "call 'Play': the leader completes the hand alone",
            "reads_visible_hands": True,
        },  # fmt: skip
        "deviations": [
            "Parlett's table lets several holdings share a pattern; this bot keeps "
            "them apart: straights are shown in one colour (different suits), full "
            "houses in two colours, and two threes within range use the full-house "
            "pattern.",
            "Two pairs are always shown by a pair of the same rank (Parlett's "
            "'different rank, high then low' is read but not sent).",
            "'Threes only' (red and pass) sits after the full house in the checklist; "
            "Parlett's checklist does not place it.",
            "A leader with nothing to show plays its lowest card and then calls 'Play'.",
            "Strong and weak signals are used on any hand, whichever the checklist reaches first.",
        ],
    }


def make_bot(rng: random.Random | None = None) -> SignalsBot:
    return SignalsBot(rng)


if __name__ == "__main__":
    sys.exit(bot_main(make_bot))

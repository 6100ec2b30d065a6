"""The leader's side of Parlett's signals: the checklist, and the two cards that show a holding.

:func:`choose_signal` goes down :data:`CHECKLIST` and shows the first holding the
hand has; :func:`holdings` lists every holding it could show, in that order
(``concerto_search`` ranks them by its own). The patterns are the seed 000 tables
(docs/bots/conventions.md), as :mod:`bots._signals.card` discloses them.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from .._concerto import SUITS, VALUE, is_red
from .ranks import card_at, coords, pattern


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

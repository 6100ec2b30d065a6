"""Cards, packs and the seeded shuffle.

On the wire and in stored state a card is a two-character string, rank then
suit: ``"TS"`` is the ten of spades (the wire format). In double packs identical cards
are simply repeated. Engines look ranks up in small tables built here once, so
no game parses strings on its hot path.

>>> STANDARD.rank_order("QS") > STANDARD.rank_order("JS")
True
>>> PINOCHLE.rank_order("TS") > PINOCHLE.rank_order("KS")   # A T K Q J 9
True
>>> len(PINOCHLE.cards()), len(DOUBLE_PINOCHLE.cards())
(48, 96)
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from typing import TypeGuard, TypeVar

SUITS = "SHDC"
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RED_SUITS = frozenset("HD")

Card = str
T = TypeVar("T")


def rank(card: Card) -> str:
    return card[0]


def suit(card: Card) -> str:
    return card[1]


@dataclass(frozen=True)
class Pack:
    """A pack of cards: its ranks from high to low, and how many copies of each card.

    >>> STANDARD.is_card("TS"), STANDARD.is_card("1S"), PINOCHLE.is_card("2S")
    (True, False, False)
    """

    name: str
    ranks: str  # highest first
    copies: int = 1

    def cards(self) -> list[Card]:
        """Every card of the pack, in a fixed order (suit by suit, high to low)."""
        return list(self._cards)

    def low_to_high(self) -> tuple[Card, ...]:
        """Each card once, in the reverse of :meth:`cards`' order: suit by suit from clubs
        (C D H S), low to high. The games' action spaces list cards so: a hand held in the
        pack's order, read from its last card, gives its action ids ascending.

        >>> STANDARD.low_to_high()[:3], PINOCHLE.low_to_high()[:7]
        (('2C', '3C', '4C'), ('9C', 'JC', 'QC', 'KC', 'TC', 'AC', '9D'))
        """
        return tuple(dict.fromkeys(reversed(self._cards)))

    @cached_property
    def _cards(self) -> tuple[Card, ...]:
        return tuple(r + s for s in SUITS for r in self.ranks for _ in range(self.copies))

    def is_card(self, text: object) -> TypeGuard[Card]:
        return (
            isinstance(text, str) and len(text) == 2 and text[0] in self.ranks and text[1] in SUITS
        )

    def rank_order(self, card: Card) -> int:
        """Larger is higher: the lowest rank of the pack is 0."""
        return len(self.ranks) - 1 - self.ranks.index(card[0])

    def problems(self, cards: Iterable[object]) -> list[str]:
        """Every reason ``cards`` is not a sub-multiset of this pack (empty if it is)."""
        problems: list[str] = []
        counts: dict[str, int] = {}
        for c in cards:
            if not self.is_card(c):
                problems.append(f"{c!r} is not a card of the {self.name} pack")
                continue
            counts[c] = counts.get(c, 0) + 1
        for c, n in sorted(counts.items()):
            if n > self.copies:
                problems.append(f"{c} appears {n} times (the pack has {self.copies})")
        return problems


STANDARD = Pack("52-card", "AKQJT98765432")
PINOCHLE = Pack("48-card pinochle", "ATKQJ9", copies=2)
DOUBLE_PINOCHLE = Pack("96-card double pinochle", "ATKQJ9", copies=4)


def shuffled(pack: Pack, rng: random.Random) -> list[Card]:
    """The pack in an order drawn from ``rng`` (never the global RNG).

    The order is exactly ``rng.shuffle(pack.cards())`` (a test holds it to
    that): the same Fisher-Yates draws, written out so that a deal does not
    pay a method call per card.
    """
    cards = pack.cards()
    shuffle(cards, rng)
    return cards


def shuffled_order(size: int, rng: random.Random) -> list[int]:
    """``range(size)`` shuffled by the draws :func:`shuffled` makes for a pack of that size.

    Position *i* holds the index, in ``pack.cards()``, of the card
    :func:`shuffled` puts there: an engine that holds cards as small ints
    shuffles those directly, and deals the very same cards.
    """
    order = list(range(size))
    shuffle(order, rng)
    return order


@cache
def _fisher_yates_steps(size: int) -> tuple[tuple[int, int], ...]:
    """(i, bits of i + 1) for each swap of a Fisher-Yates shuffle, last place first."""
    return tuple((i, (i + 1).bit_length()) for i in range(size - 1, 0, -1))


def shuffle(items: list[T], rng: random.Random) -> None:
    """``rng.shuffle(items)``: the same draws, without a method call per item."""
    getrandbits = rng.getrandbits
    for i, k in _fisher_yates_steps(len(items)):
        j = getrandbits(k)
        while j > i:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


def deal_singly(cards: Sequence[T], players: int, first: int) -> list[list[T]]:
    """Deal ``cards`` one at a time round the table, starting with seat ``first``."""
    return [list(cards[(seat - first) % players :: players]) for seat in range(players)]


_SORT_KEYS: dict[Pack, dict[Card, int]] = {}


def _sort_key(pack: Pack) -> dict[Card, int]:
    """Each card's place in :func:`sort_hand` order, built once per pack."""
    keys = _SORT_KEYS.get(pack)
    if keys is None:
        order = sorted(set(pack.cards()), key=lambda c: (SUITS.index(c[1]), -pack.rank_order(c)))
        keys = _SORT_KEYS[pack] = {c: i for i, c in enumerate(order)}
    return keys


def sort_hand(cards: Iterable[Card], pack: Pack = STANDARD) -> list[Card]:
    """Cards grouped by suit (S H D C), high to low within a suit: how a player holds them."""
    return sorted(cards, key=_sort_key(pack).__getitem__)


def derived_rng(seed: str, *labels: object) -> random.Random:
    """A generator for one purpose (a deal, the first dealer) derived from the game seed.

    Deriving one generator per purpose, instead of drawing from one stream,
    means no RNG state has to be stored and deal *k* is the same whatever
    happened before it.
    """
    # Exactly random.Random(text): the integer its seeding derives from a string,
    # computed here so that the generator is seeded once, from that integer.
    text = "/".join([seed, *map(str, labels)]).encode()
    return random.Random(int.from_bytes(text + hashlib.sha512(text).digest()))

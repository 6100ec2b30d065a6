"""Poker combinations of a standard 52-card pack, shared by Concerto and Cowpoke.

Straights run A-2-3-4-5 up to T-J-Q-K-A; there is no wrap-around such as
Q-K-A-2-3 (Concerto C5). The ace is low only in the wheel A-2-3-4-5.

>>> classify(["AS", "2D", "3C", "4H", "5S"]).name
'STRAIGHT'
>>> classify(["QS", "KD", "AC", "2H", "3S"]).name
'NOTHING'
>>> classify(["9H", "9S", "9D", "9C", "2S"]).name
'FOURS'
"""

from __future__ import annotations

import enum
import math
import threading
from collections import Counter
from collections.abc import Sequence
from itertools import combinations, combinations_with_replacement

Card = str

RANK_VALUE = {r: v for v, r in enumerate("23456789TJQKA", start=2)}


class Combination(enum.IntEnum):
    """Poker categories, in ascending order of rank."""

    NOTHING = 0
    ONE_PAIR = 1
    TWO_PAIRS = 2
    THREES = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOURS = 7
    STRAIGHT_FLUSH = 8

    @property
    def wire_name(self) -> str:
        """The name used on the wire (docs/api.md `combination`)."""
        return self.name.lower()


WIRE_NAMES = {c: c.wire_name for c in Combination}
"""Each category's name on the wire, looked up (``wire_name`` computes it)."""


def _straight_high(values: Sequence[int]) -> int | None:
    """The top card of the straight made by five distinct values, or None."""
    s = sorted(values)
    if s == [2, 3, 4, 5, 14]:
        return 5  # the wheel: the ace is low
    if s[4] - s[0] == 4 and len(set(s)) == 5:
        return s[4]
    return None


def classify(cards: Sequence[Card]) -> Combination:
    """The Poker category of exactly five cards (:func:`category` under another name)."""
    return category(cards)


def evaluate(cards: Sequence[Card]) -> tuple[Combination, tuple[int, ...]]:
    """Category and standard Poker tie-break key of five cards (higher key wins).

    The key is the ranks grouped by multiplicity (e.g. the trips of a full
    house before its pair), as Poker compares hands; straights compare by their
    top card.
    """
    values = [RANK_VALUE[c[0]] for c in cards]
    counts = Counter(values)
    # ranks ordered by (how many, rank), most significant first
    grouped = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    shape = [n for _, n in grouped]
    ranks = tuple(v for v, _ in grouped)
    is_flush = len({c[1] for c in cards}) == 1
    high = _straight_high(values) if len(counts) == 5 else None
    if high is not None and is_flush:
        return Combination.STRAIGHT_FLUSH, (high,)
    if shape[0] == 4:
        return Combination.FOURS, ranks
    if shape == [3, 2]:
        return Combination.FULL_HOUSE, ranks
    if is_flush:
        return Combination.FLUSH, ranks
    if high is not None:
        return Combination.STRAIGHT, (high,)
    if shape[0] == 3:
        return Combination.THREES, ranks
    if shape[:2] == [2, 2]:
        return Combination.TWO_PAIRS, ranks
    if shape[0] == 2:
        return Combination.ONE_PAIR, ranks
    return Combination.NOTHING, ranks


def best_five(cards: Sequence[Card]) -> tuple[Combination, tuple[int, ...], tuple[Card, ...]]:
    """The best five-card Poker hand among ``cards`` (5 to 10 cards).

    Returns (category, tie-break key, the five cards), as :func:`evaluate`
    ranks them. Among equal hands the first found is returned, so the answer is
    deterministic. Each five is looked up in a table (see :func:`category`)
    that gives its rank among all hands with its category and key.
    """
    if not _RANKED:
        _build_tables()
    plain, flush = _RANKED
    p = _PRIME
    top = -1
    best = None
    for five in combinations(cards, 5):
        a, b, c, d, e = five
        s = a[1]
        table = flush if b[1] == s and c[1] == s and d[1] == s and e[1] == s else plain
        entry = table[p[a[0]] * p[b[0]] * p[c[0]] * p[d[0]] * p[e[0]]]
        if entry[0] > top:
            top = entry[0]
            best = (entry[1], entry[2], five)
    assert best is not None, "best_five needs at least five cards"
    return best


def is_three_pairs(cards: Sequence[Card]) -> bool:
    """Exactly three pairs among six cards: three ranks, each held exactly twice (C15)."""
    if len(cards) != 6:
        return False
    ranks = [c[0] for c in cards]
    distinct = set(ranks)
    return len(distinct) == 3 and all(ranks.count(r) == 2 for r in distinct)


# Each rank a prime, so that the product of five ranks names their multiset.
_PRIME = dict(zip("23456789TJQKA", (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41), strict=True))


Ranked = tuple[int, Combination, tuple[int, ...]]
"""A five-card hand's place among all hands (higher is better), its category and key."""


def _build_tables() -> None:
    """The category, key and place of every multiset of five ranks, suits mixed and one suit.

    Built with :func:`evaluate` itself, so a look-up can never disagree with it;
    the place orders (category, key) as Poker compares hands. Built once, under a
    lock, and published whole: the server's threads may all ask first at once.
    """
    with _BUILDING:
        if not (_TABLES and _RANKED):
            ranked = _ranked_hands()
            _TABLES[:] = [{key: r[1] for key, r in table.items()} for table in ranked]
            _RANKED[:] = ranked


def _ranked_hands() -> tuple[dict[int, Ranked], dict[int, Ranked]]:
    """Every five ranks' product -> its place, category and key: suits mixed, one suit."""
    hands: list[tuple[int, bool, Combination, tuple[int, ...]]] = []
    for ranks in combinations_with_replacement("23456789TJQKA", 5):
        key = math.prod(_PRIME[r] for r in ranks)
        hands.append((key, False, *evaluate([r + s for r, s in zip(ranks, "SHDCS", strict=True)])))
        hands.append((key, True, *evaluate([r + "S" for r in ranks])))
    place = {value: i for i, value in enumerate(sorted({(cat, k) for _, _, cat, k in hands}))}
    ranked: tuple[dict[int, Ranked], dict[int, Ranked]] = ({}, {})
    for key, one_suit, cat, k in hands:
        ranked[one_suit][key] = (place[cat, k], cat, k)
    return ranked


_BUILDING = threading.Lock()
_TABLES: list[dict[int, Combination]] = []  # [suits mixed, one suit], built on first use
_RANKED: list[dict[int, Ranked]] = []  # the same, with each hand's place and key


def category(cards: Sequence[Card]) -> Combination:
    """The Poker category of exactly five cards, by table look-up (no sorting, no counting).

    >>> category(["TH", "JH", "QH", "KH", "AH"]).name
    'STRAIGHT_FLUSH'
    """
    if not _TABLES:
        _build_tables()
    a, b, c, d, e = cards
    p = _PRIME
    key = p[a[0]] * p[b[0]] * p[c[0]] * p[d[0]] * p[e[0]]
    s = a[1]
    one_suit = b[1] == s and c[1] == s and d[1] == s and e[1] == s
    return _TABLES[one_suit][key]

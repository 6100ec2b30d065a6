"""Pinochle melds under the class rule (docs/rules/pinochle.md#p3, #p4, #p20).

A meld is a set of cards worth points, shown to everyone after trumps are
fixed; the cards go back to the hand. The melds fall into three classes:

* **A** (sequences and marriages): flush A-T-K-Q-J of trumps 150, royal
  marriage K-Q of trumps 40, marriage K-Q of another suit 20; double flush
  1500; with the double pack also triple flush 3000 and double / triple /
  quadruple marriage of one suit 300 / 900 / 1200 (P4).
* **B** (one of each suit of a rank): 100 aces, 80 kings, 60 queens, 40 jacks;
  two of each suit ("8 aces" …) 1000 / 800 / 600 / 400; with the double pack
  also three of each suit ("12 aces" …) 2000 / 1600 / 1200 / 800 and four of
  each suit ("16 of one rank") 3000.
* **C** (pinochles): Q♠ J♦ 40; double 300; with the double pack triple 900 and
  quadruple 1200.

Plus the **dix**, the 9 of trumps, 10 each, in no class.

P20: a card may serve once per class and never twice in the same class (so
the K-Q of a flush is not also a royal marriage), and doubles replace their
singles. Each class is scored as its best set of disjoint melds, then the
classes are added. Within a class the melds of different suits (class A) or
ranks (class B) never share a card, so the best set is found one suit or rank
at a time: count the complete *units* (one flush, one K-Q pair, one card of
each suit, one Q♠-J♦ pair) and split them into groups (a double is a group of
two units) for the highest total (:func:`best_groups`). With the default
values the doubles are always worth more than their singles, so "best"
and "doubles replace their singles" agree; a house value of 0 switches a
double off and its units then score as singles.

The Appendix B examples (hearts trumps unless said otherwise):

>>> table = MeldTable.single_deck()
>>> def score(cards, trump="H"):
...     return [(m.name, m.points) for m in find_melds(cards.split(), trump, table)]
>>> score("KH QH KS KD KC")                 # royal marriage + 80 kings
[('royal_marriage', 40), ('kings', 80)]
>>> score("QS JD KS")                       # pinochle + spade marriage (spades not trumps)
[('marriage', 20), ('pinochle', 40)]
>>> score("AH TH KH QH JH KH")              # flush + an extra K: the flush only
[('flush', 150)]
>>> score("AH TH KH QH JH KH QH")           # flush + an extra K-Q: flush + royal marriage
[('flush', 150), ('royal_marriage', 40)]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..kit.cards import PINOCHLE as PINOCHLE_PACK
from ..kit.cards import SUITS, Card
from ..packs import hand_order

# Option names of the meld values (docs/rules/pinochle.md, double-deck, defaults corrected
# from the damaged scan, P3) and their defaults.
VALUE_DEFAULTS: dict[str, int] = {
    "triple_flush": 3000,
    "double_flush": 1500,
    "quadruple_marriage": 1200,
    "triple_marriage": 900,
    "double_marriage": 300,
    "quadruple_pinochle": 1200,
    "triple_pinochle": 900,
    "double_pinochle": 300,
    "sixteen_of_a_rank": 3000,
    "twelve_aces": 2000,
    "twelve_kings": 1600,
    "twelve_queens": 1200,
    "twelve_jacks": 800,
    "eight_aces": 1000,
    "eight_kings": 800,
    "eight_queens": 600,
    "eight_jacks": 400,
}

# The single melds, fixed by the table of docs/rules/pinochle.md.
FLUSH = 150
ROYAL_MARRIAGE = 40
MARRIAGE = 20
PINOCHLE = 40
DIX = 10
AROUND = {"A": 100, "K": 80, "Q": 60, "J": 40}
RANK_WORDS = {"A": "aces", "K": "kings", "Q": "queens", "J": "jacks"}
FLUSH_RANKS = "ATKQJ"
MULTIPLE_WORDS = {2: "double", 3: "triple", 4: "quadruple"}
AROUND_COUNT_WORDS = {2: "eight", 3: "twelve", 4: "sixteen"}

CLASS_A, CLASS_B, CLASS_C, NO_CLASS = "A", "B", "C", "dix"

Groups = Mapping[int, tuple[str, int]]
"""Group size (in units) → (meld name, points)."""


@dataclass(frozen=True)
class Meld:
    """One meld shown by one player: its name, class, points and the cards it uses."""

    name: str
    cls: str
    points: int
    cards: tuple[Card, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "class": self.cls, "points": self.points,
                "cards": list(self.cards)}  # fmt: skip


@dataclass(frozen=True)
class MeldTable:
    """Which melds exist in a variant and what each is worth.

    The single pack knows the singles and the "doubles" row of docs/rules/pinochle.md
    (double flush, double pinochle, 8 of a rank); the double pack adds the
    extended melds (P3, P4). The values of the multiple melds come from the
    options (:data:`VALUE_DEFAULTS`), in every variant.
    """

    flush: Groups
    royal_marriage: Groups
    marriage: Groups
    around: Mapping[str, Groups]
    pinochle: Groups
    dix: int = DIX
    copies: int = 2
    memo: dict[tuple[Any, ...], list[Meld]] = field(default_factory=dict, compare=False, repr=False)
    """The melds found so far for each count of units, built once per table: a hand's
    melds depend only on a few counts, and :class:`Meld` objects are read-only."""
    proofs: dict[tuple[int, ...], tuple[dict[Card, int], tuple[Card, ...]]] = field(
        default_factory=dict, compare=False, repr=False
    )
    """:func:`proof_of` each list of the table's melds found so far, by the melds' ids
    (the table keeps every meld it made, so an id names one meld while it lives)."""

    @classmethod
    def single_deck(cls, values: Mapping[str, int] = VALUE_DEFAULTS) -> MeldTable:
        return cls._build(values, copies=2)

    @classmethod
    def double_deck(cls, values: Mapping[str, int] = VALUE_DEFAULTS) -> MeldTable:
        return cls._build(values, copies=4)

    @classmethod
    def _build(cls, values: Mapping[str, int], copies: int) -> MeldTable:
        double = copies == 4
        flush: dict[int, tuple[str, int]] = {1: ("flush", FLUSH)}
        flush[2] = ("double_flush", values["double_flush"])
        pinochle: dict[int, tuple[str, int]] = {1: ("pinochle", PINOCHLE)}
        pinochle[2] = ("double_pinochle", values["double_pinochle"])
        royal: dict[int, tuple[str, int]] = {1: ("royal_marriage", ROYAL_MARRIAGE)}
        plain: dict[int, tuple[str, int]] = {1: ("marriage", MARRIAGE)}
        around: dict[str, dict[int, tuple[str, int]]] = {}
        for rank, word in RANK_WORDS.items():
            around[rank] = {1: (word, AROUND[rank]), 2: (f"eight_{word}", values[f"eight_{word}"])}
        if double:
            flush[3] = ("triple_flush", values["triple_flush"])
            for n in (2, 3, 4):
                name = f"{MULTIPLE_WORDS[n]}_marriage"
                # P4: multiple marriages of one suit replace the singles, trumps included.
                royal[n] = plain[n] = (name, values[name])
            pinochle[3] = ("triple_pinochle", values["triple_pinochle"])
            pinochle[4] = ("quadruple_pinochle", values["quadruple_pinochle"])
            for rank, word in RANK_WORDS.items():
                around[rank][3] = (f"twelve_{word}", values[f"twelve_{word}"])
                around[rank][4] = (f"sixteen_{word}", values["sixteen_of_a_rank"])
        return cls(flush, royal, plain, around, pinochle, copies=copies)


def best_groups(units: int, groups: Groups) -> tuple[int, tuple[int, ...]]:
    """The best way to split ``units`` complete units into melds of ``groups``.

    Returns (points, group sizes, largest first). Every table has groups of
    one unit, so every unit always scores. Equal totals prefer the larger
    groups, so the choice never depends on anything but the units.

    >>> best_groups(2, {1: ("aces", 100), 2: ("eight_aces", 1000)})   # 8 aces: 1000 not 1200
    (1000, (2,))
    >>> table = {1: ("a", 100), 2: ("b", 1000), 3: ("c", 2000), 4: ("d", 3000)}
    >>> best_groups(4, table), best_groups(5, table)
    ((3000, (4,)), (3100, (4, 1)))
    """
    best: list[tuple[int, tuple[int, ...]]] = [(0, ())]
    for n in range(1, units + 1):
        options = []
        for size, (_, points) in groups.items():
            if size <= n:
                prev_points, prev_sizes = best[n - size]
                options.append(
                    (prev_points + points, tuple(sorted((*prev_sizes, size), reverse=True)))
                )
        best.append(max(options))
    return best[units]


def _melds_of(
    units: int, groups: Groups, cls: str, unit_cards: tuple[Card, ...], table: MeldTable
) -> list[Meld]:
    """The best melds of ``units`` units of ``groups``; the list is the table's (read-only)."""
    if not units:
        return []
    key = (units, id(groups), unit_cards)  # groups: one of the table's own mappings
    melds = table.memo.get(key)
    if melds is None:
        _, sizes = best_groups(units, groups)
        melds = []
        for size in sizes:
            name, points = groups[size]
            melds.append(Meld(name, cls, points, tuple(c for c in unit_cards for _ in range(size))))
        table.memo[key] = melds
    return melds


_MARRIAGE_CARDS: dict[str, tuple[Card, Card]] = {s: ("K" + s, "Q" + s) for s in SUITS}
_FLUSH_CARDS: dict[str, tuple[Card, ...]] = {s: tuple(r + s for r in FLUSH_RANKS) for s in SUITS}


def _class_a(count: dict[Card, int], suit: str, trump: str | None, table: MeldTable) -> list[Meld]:
    """Flushes and marriages of one suit: the best split between them (P20).

    A K-Q pair used in a flush is not also a royal marriage, so each way of
    taking ``f`` flushes leaves ``min(K, Q) - f`` pairs for marriages.
    """
    get = count.get
    pair = _MARRIAGE_CARDS[suit]
    kings, queens = get(pair[0], 0), get(pair[1], 0)
    if suit != trump:
        return _melds_of(min(kings, queens), table.marriage, CLASS_A, pair, table)
    a, t, k, q, j = _FLUSH_CARDS[suit]
    most_flushes = min(get(a, 0), get(t, 0), kings, queens, get(j, 0))
    if not most_flushes:
        return _melds_of(min(kings, queens), table.royal_marriage, CLASS_A, pair, table)
    key = (suit, kings, queens, most_flushes)
    found = table.memo.get(key)
    if found is None:
        found = table.memo[key] = _trump_sequences(suit, kings, queens, most_flushes, table)
    return found


def _trump_sequences(
    suit: str, kings: int, queens: int, most_flushes: int, table: MeldTable
) -> list[Meld]:
    """The best split of the trump suit's units between flushes and royal marriages."""
    pair = _MARRIAGE_CARDS[suit]
    best: tuple[int, int] | None = None  # (points, flushes)
    for f in range(most_flushes + 1):
        points = best_groups(f, table.flush)[0]
        points += best_groups(min(kings, queens) - f, table.royal_marriage)[0]
        if best is None or points > best[0]:
            best = (points, f)
    assert best is not None
    flushes = best[1]
    return _melds_of(flushes, table.flush, CLASS_A, _FLUSH_CARDS[suit], table) + _melds_of(
        min(kings, queens) - flushes, table.royal_marriage, CLASS_A, pair, table
    )


_HAND_ORDER = hand_order(PINOCHLE_PACK)
"""Cards as a player holds them: by suit (S H D C), high to low (A T K Q J 9)."""
_PINOCHLE = ("QS", "JD")
_CLASS_A_ORDER: dict[str | None, tuple[str, ...]] = {
    trump: tuple(sorted(SUITS, key=lambda s: (s != trump, SUITS.index(s))))
    for trump in (None, *SUITS)
}
"""Class A is shown trumps first, then S H D C."""
_AROUND_CARDS: dict[str, tuple[Card, ...]] = {
    rank: tuple(rank + s for s in SUITS) for rank in RANK_WORDS
}
"""The unit of each "around" meld (class B): one card of the rank in each suit."""


def find_melds(
    hand: Iterable[Card], trump: str | None, table: MeldTable, dixes: int | None = None
) -> list[Meld]:
    """Every meld a hand shows with ``trump`` trumps, class by class (P20).

    Args:
        hand: the player's cards.
        trump: the trump suit.
        table: the variant's melds and values.
        dixes: how many dixes to score; ``None`` counts the 9s of trumps in
            ``hand``. Partnership passes the *original* holding: a dix
            exchanged for the turned card still scores for its first holder,
            and the dix the dealer receives does not (P5).

    Returns:
        The melds in a fixed order: class A (trumps first, then S H D C),
        class B (aces, kings, queens, jacks), class C, then the dixes.
    """
    count: dict[Card, int] = {}
    get = count.get
    for card in hand:
        count[card] = get(card, 0) + 1
    melds: list[Meld] = []
    for suit in _CLASS_A_ORDER[trump]:
        king, queen = _MARRIAGE_CARDS[suit]
        if suit == trump or (king in count and queen in count):  # else no meld of the suit
            melds += _class_a(count, suit, trump, table)
    for rank, cards in _AROUND_CARDS.items():
        s, h, d, c = cards
        if s in count and h in count and d in count and c in count:  # else no unit
            units = min(count[s], count[h], count[d], count[c])
            melds += _melds_of(units, table.around[rank], CLASS_B, cards, table)
    melds += _melds_of(min(get("QS", 0), get("JD", 0)), table.pinochle, CLASS_C, _PINOCHLE, table)
    if trump is not None:
        n = get("9" + trump, 0) if dixes is None else dixes
        if n:
            key = ("dix", trump, n)
            dix = table.memo.get(key)
            if dix is None:
                dix = table.memo[key] = [Meld("dix", NO_CLASS, table.dix, ("9" + trump,))] * n
            melds += dix
    return melds


def meld_points(melds: Iterable[Meld]) -> int:
    return sum(m.points for m in melds)


def shown_cards(melds: Iterable[Meld]) -> Counter[Card]:
    """The cards a player's melds prove were in the hand, as a multiset.

    A card serves once per class, so within a class every card of the melds is
    a different card; across classes the same card may serve again. The proof
    is therefore the largest count of each card over the classes.
    """
    return Counter(shown(melds))


def proof_of(melds: list[Meld], table: MeldTable) -> tuple[dict[Card, int], tuple[Card, ...]]:
    """:func:`shown` of melds found by :func:`find_melds` with ``table``, and the same
    cards as a player holds them (sorted); both kept by the table, read-only.

    Every meld :func:`find_melds` returns is one of the table's own, so the same
    melds (a few marriages, a pinochle …) are proved once per table.
    """
    key = tuple(map(id, melds))
    found = table.proofs.get(key)
    if found is None:
        counts = shown(melds)
        cards = [c for c, n in counts.items() for _ in range(n)]
        found = table.proofs[key] = (counts, tuple(sorted(cards, key=_HAND_ORDER.__getitem__)))
    return found


def shown(melds: Iterable[Meld]) -> dict[Card, int]:
    """:func:`shown_cards` as a plain dict (each card shown, with its count)."""
    per_class: dict[str, dict[Card, int]] = {}
    for meld in melds:
        counts = per_class.get(meld.cls)
        if counts is None:
            counts = per_class[meld.cls] = {}
        for c in meld.cards:
            counts[c] = counts.get(c, 0) + 1
    if len(per_class) < 2:
        return next(iter(per_class.values()), {})
    proof: dict[Card, int] = {}
    for counts in per_class.values():
        for c, n in counts.items():
            if n > proof.get(c, 0):
                proof[c] = n
    return proof


def has_marriage(hand: Iterable[Card]) -> bool:
    """A K-Q of one suit, any suit (Check's bidding rule, P15).

    >>> has_marriage(["KS", "QS", "AH"]), has_marriage(["KS", "QH"])
    (True, False)
    """
    cards = set(hand)
    return any({"K" + s, "Q" + s} <= cards for s in SUITS)

"""What every Concerto bot needs: reading a view, and scoring hands fast.

A bot only ever sees a view (docs/api.md#games-and-views), so everything here works from
the view's public ``state`` plus the bot's own ``hand``. Scoring follows
docs/rules/concerto.md "Scoring a hand" (both editions); it is re-implemented here,
small and fast, because a bot scores thousands of candidate hands per move and
must also score hands made partly of cards it only *believes* its partner
holds ("another seven, suit unknown"). ``tests/bots`` checks it against the
engine's own scoring on random hands.

A card inside the bots is a ``Pip``: ``(value, suit, owner)``. ``value`` is 2..14
(ace high; the wheel A-2-3-4-5 is recognised), ``suit`` one of ``SHDC`` or a
unique placeholder for an unknown suit, ``owner`` the seat that plays it.
Unknown ranks get values far above 14, so they pair only with themselves.

>>> pips = [pip("5H", 0), pip("6H", 2), pip("7H", 0), pip("8H", 2), pip("9H", 0)]
>>> hand_points(pips, "parlett-2013")   # straight flush, leader 3 + partner 2
20
>>> hand_points([pip(c, 0) for c in ("7S", "7H", "7D", "2C", "2S")], "parlett-2013")
8
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from itertools import combinations
from typing import Any, NamedTuple

RANKS = "23456789TJQKA"
VALUE = {r: v for v, r in enumerate(RANKS, start=2)}
RANK_OF = {v: r for r, v in VALUE.items()}
SUITS = "SHDC"
RED = frozenset("HD")

# Categories, numbered as server.games.kit.poker.Combination.
NOTHING, ONE_PAIR, TWO_PAIRS, THREES, STRAIGHT, FLUSH, FULL_HOUSE, FOURS, STRAIGHT_FLUSH = range(9)

# docs/rules/concerto.md "Scoring a hand": base values; fours by the most of the quad one
# player played (C4); straight flush by the leader's share (C2, C3).
BASE_POINTS = (0, 1, 2, 3, 5, 6, 8, 8, 10)
FOURS_POINTS = {4: 8, 3: 12, 2: 16}
STRAIGHT_FLUSH_POINTS = {
    "parlett-2013": {5: 10, 4: 15, 3: 20, 2: 20, 1: 15},
    "penguin": {5: 10, 4: 15, 3: 20, 2: 25, 1: 15},
}


class Pip(NamedTuple):
    value: int
    suit: str
    owner: int


def pip(card: str, owner: int) -> Pip:
    return Pip(VALUE[card[0]], card[1], owner)


def is_red(card: str) -> bool:
    return card[1] in RED


def category(pips: Sequence[Pip]) -> int:
    """The Poker category of five pips (A-2-3-4-5 and T-J-Q-K-A are straights, C5)."""
    values = [p.value for p in pips]
    shape = sorted(Counter(values).values(), reverse=True)
    flush = len({p.suit for p in pips}) == 1
    straight = False
    if shape[0] == 1 and max(values) <= 14:
        low, high = min(values), max(values)
        straight = high - low == 4 or sorted(values) == [2, 3, 4, 5, 14]
    if straight and flush:
        return STRAIGHT_FLUSH
    if shape[0] == 4:
        return FOURS
    if shape[:2] == [3, 2]:
        return FULL_HOUSE
    if flush:
        return FLUSH
    if straight:
        return STRAIGHT
    if shape[0] == 3:
        return THREES
    if shape[:2] == [2, 2]:
        return TWO_PAIRS
    if shape[0] == 2:
        return ONE_PAIR
    return NOTHING


def hand_points(pips: Sequence[Pip], rules: str) -> int:
    """Points of a completed hand, ``pips`` in the order played (docs/rules/concerto.md)."""
    cat = category(pips)
    if cat == FOURS:
        quad = Counter(p.value for p in pips).most_common(1)[0][0]
        most = max(Counter(p.owner for p in pips if p.value == quad).values())
        return FOURS_POINTS[most]
    if cat == STRAIGHT_FLUSH:
        leader = pips[0].owner
        return STRAIGHT_FLUSH_POINTS[rules][sum(1 for p in pips if p.owner == leader)]
    return BASE_POINTS[cat]


class Table(NamedTuple):
    """The parts of a Concerto view a bot reasons with, read once per move."""

    me: int
    partner: int
    hand: tuple[str, ...]
    rules: str
    current: tuple[tuple[int, str], ...]
    """The hand being built: (seat, card) in play order."""
    passes: int
    forced: Mapping[str, int] | None
    cards_left: tuple[int, ...]
    seen: frozenset[str]
    """Cards already played this deal (completed hands and the current one)."""
    legal: tuple[Mapping[str, Any], ...]

    @property
    def actual_leader(self) -> int | None:
        """Who played the hand's first card (C3), ``None`` before the first card."""
        return self.current[0][0] if self.current else None

    @property
    def need(self) -> int:
        return 5 - len(self.current)

    def may_pass(self) -> bool:
        return {"type": "pass"} in self.legal


def read_table(view: Mapping[str, Any]) -> Table:
    """Read a Concerto view into a :class:`Table`."""
    state = view["state"]
    me = view["you"]
    deal = state["deal_number"]
    seen = {c["card"] for h in state["completed_hands"] if h["deal"] == deal for c in h["cards"]}
    current = tuple((c["seat"], c["card"]) for c in state["current_hand"])
    seen.update(c for _, c in current)
    return Table(
        me=me,
        partner=(me + 2) % 4,
        hand=tuple(view.get("hand", ())),
        rules=state.get("rules") or view.get("options", {}).get("rules", "parlett-2013"),
        current=current,
        passes=state["passes"],
        forced=state.get("forced"),
        cards_left=tuple(state["cards_left"]),
        seen=frozenset(seen),
        legal=tuple(view.get("legal_moves", ())),
    )


def play(card: str) -> dict[str, str]:
    return {"type": "play", "card": card}


PASS = {"type": "pass"}
FORCE = {"type": "force"}


def keep_score(cards: Iterable[str]) -> float:
    """How useful cards kept in hand are for later hands: pairs and suit lengths.

    A small tie-breaker, so that among equally scoring choices a bot spends
    singletons and keeps pairs, threes and long suits for the hands to come.
    """
    cards = list(cards)
    ranks = Counter(c[0] for c in cards)
    suits = Counter(c[1] for c in cards)
    return sum(n * n for n in ranks.values()) + 0.25 * sum(n * n for n in suits.values())


# -- fast scoring of real cards ------------------------------------------------
# Each real card is precomputed as (prime of its rank, rank bit, suit bit), so
# five cards are classified with a few integer operations and one dict lookup
# (the product of five rank primes identifies the multiset of ranks).

_PRIMES = dict(zip(range(2, 15), (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41), strict=True))
_STRAIGHTS = frozenset(
    [sum(1 << v for v in range(lo, lo + 5)) for lo in range(2, 11)]
    + [(1 << 14) | sum(1 << v for v in range(2, 6))]
)


def _shape_table() -> dict[int, int]:
    """Category of every multiset of five ranks with a repeated rank, by prime product."""
    table: dict[int, int] = {}

    def walk(start: int, left: int, product: int, counts: list[int]) -> None:
        if left == 0:
            shape = sorted((n for n in counts if n), reverse=True)
            if shape[0] > 1:
                table[product] = (
                    FOURS if shape[0] == 4
                    else FULL_HOUSE if shape[:2] == [3, 2]
                    else THREES if shape[0] == 3
                    else TWO_PAIRS if shape[:2] == [2, 2]
                    else ONE_PAIR
                )  # fmt: skip
            return
        for v in range(start, 15):
            if counts[v] < 4:
                counts[v] += 1
                walk(v, left - 1, product * _PRIMES[v], counts)
                counts[v] -= 1

    walk(2, 5, 1, [0] * 15)
    return table


_SHAPES = _shape_table()


class Fast(NamedTuple):
    """A real card prepared for :func:`fast_category`."""

    prime: int
    rank_bit: int
    suit_bit: int
    card: str


def fast(card: str) -> Fast:
    v = VALUE[card[0]]
    return Fast(_PRIMES[v], 1 << v, 1 << SUITS.index(card[1]), card)


def fast_category(cards: Sequence[Fast]) -> int:
    """Same answer as :func:`category` for five real cards, several times faster."""
    a, b, c, d, e = cards
    ranks = a.rank_bit | b.rank_bit | c.rank_bit | d.rank_bit | e.rank_bit
    if ranks.bit_count() == 5:
        flush = a.suit_bit & b.suit_bit & c.suit_bit & d.suit_bit & e.suit_bit
        straight = ranks in _STRAIGHTS
        if straight:
            return STRAIGHT_FLUSH if flush else STRAIGHT
        return FLUSH if flush else NOTHING
    return _SHAPES[a.prime * b.prime * c.prime * d.prime * e.prime]


def best_completion(
    current: Sequence[tuple[int, str]], own: Sequence[str], me: int, rules: str, size: int
) -> tuple[int, tuple[str, ...]]:
    """The ``size`` own cards that, added to the ``current`` (seat, card)s, score most.

    When the hand would stay incomplete (``size`` too small to reach five),
    the cards are chosen by :func:`partial_value` instead of points. Ties go
    to the choice keeping the most useful cards (:func:`keep_score`).

    Returns:
        (points of the completed hand, or 0 when it stays incomplete; the cards).
    """
    size = min(size, len(own))
    if size <= 0:
        return 0, ()
    if len(current) + size < 5:
        pips = [pip(c, s) for s, c in current]
        partials = [
            (partial_value([*pips, *(pip(c, me) for c in chosen)]), chosen)
            for chosen in combinations(own, size)
        ]
        return 0, _best_keeping(partials, own)[1]
    fixed = [fast(c) for _, c in current]
    own_fast = [fast(c) for c in own]
    by_category: dict[int, list[tuple[Fast, ...]]] = {}
    for chosen in combinations(own_fast, size):
        by_category.setdefault(fast_category([*fixed, *chosen]), []).append(chosen)
    # Points depend on the category, and for fours and straight flushes on who
    # played what (C2-C4), so only those two are scored card by card.
    # Below a full house points grow with the category, so only the top one and
    # the (split-dependent) full house, fours and straight flush need scoring.
    scored: list[tuple[float, tuple[str, ...]]] = []
    top = max(by_category)
    for cat, choices in by_category.items():
        if cat != top and cat < FULL_HOUSE:
            continue
        for chosen in choices:
            cards = tuple(f.card for f in chosen)
            if cat in (FOURS, STRAIGHT_FLUSH):
                points = hand_points([*(pip(c, s) for s, c in current),
                                      *(pip(c, me) for c in cards)], rules)  # fmt: skip
            else:
                points = BASE_POINTS[cat]
            scored.append((points, cards))
    best, cards = _best_keeping(scored, own)
    return int(best), cards


def completing_card(current: Sequence[tuple[int, str]], own: Sequence[str], me: int,
                    rules: str) -> str:  # fmt: skip
    """The card a player finishing the hand from its own cards plays next.

    A card of :func:`best_completion`'s choice, of its most repeated rank (ties
    by the card's text, so the choice is fixed): a partner that passes can
    predict it from the leader's possible hands (``concerto_search``).
    """
    _, cards = best_completion(current, own, me, rules, 5 - len(current))
    ranks = Counter(c[0] for c in cards)
    return max(cards, key=lambda c: (ranks[c[0]], c))


def _best_keeping(
    scored: Sequence[tuple[float, tuple[str, ...]]], own: Sequence[str]
) -> tuple[float, tuple[str, ...]]:
    """The best-valued choice; among equals, the one leaving the most useful cards."""
    top = max(v for v, _ in scored)
    ties = [cards for v, cards in scored if v == top]
    if len(ties) == 1:
        return top, ties[0]
    return top, max(ties, key=lambda chosen: keep_score(c for c in own if c not in chosen))


def partial_value(pips: Sequence[Pip]) -> float:
    """A rough value of an incomplete hand: its pairs and its longest suit."""
    ranks = Counter(p.value for p in pips)
    suits = Counter(p.suit for p in pips)
    return sum(n * (n - 1) for n in ranks.values()) + 0.5 * max(suits.values(), default=0)

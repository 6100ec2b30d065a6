"""The partner's side of Parlett's signals, second step: completing what was read.

:func:`partner_cards` chooses the cards the partner adds to the leader's
signal (the missing card of a straight flush, the fourth of the leader's
threes, two more of its pair, ...); after them the partner calls 'Play' and
the leader finishes the hand alone.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations

from .._concerto import VALUE, Pip, best_completion, hand_points, keep_score, pip
from .ranks import card_at, rank_at, windows_of
from .reading import Reading, sf_candidates

# Cards of the signalled suit the leader claims in all (the two shown included),
# by (rising?, gap) of a same-suit, in-range signal: straight flush and flush
# readings together (the smaller when they differ).
_CLAIMED_IN_SUIT = {
    (True, 4): 5, (True, 3): 4, (True, 2): 4, (True, 1): 3,
    (False, 1): 3, (False, 2): 3, (False, 3): 4, (False, 4): 3,
}  # fmt: skip


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

"""The partner's side of Parlett's signals, first step: reading what the leader showed.

:func:`read_signal` turns the lead and what followed it (a card, a pass or
'Play') into a :class:`Reading`, ruling out what the cards the partner knows
make impossible; :func:`sf_candidates` lists what a straight-flush signal may
mean, with the cards the leader lacks.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from .._concerto import VALUE, is_red
from .ranks import pattern, windows_of


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

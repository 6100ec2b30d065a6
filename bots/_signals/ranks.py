"""Ranks as positions in a straight, for Parlett's signals: the ace is 1 (A-2-3-4-5) or 14
(T-J-Q-K-A), and two cards are *in range* when at most four positions apart."""

from __future__ import annotations

from collections.abc import Iterable

from .._concerto import RANK_OF, VALUE


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

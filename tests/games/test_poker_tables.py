"""The kit's table look-ups against the plain Poker evaluation they replace."""

from __future__ import annotations

import random
import threading
from itertools import combinations

from server.games.kit import poker
from server.games.kit.cards import STANDARD


def plain_best_five(cards: list[str]) -> tuple[poker.Combination, tuple[int, ...], tuple[str, ...]]:
    """Every five evaluated in turn; the first of the best (category, key) wins."""
    best = None
    for five in combinations(cards, 5):
        cat, key = poker.evaluate(five)
        if best is None or (cat, key) > (best[0], best[1]):
            best = (cat, key, five)
    assert best is not None
    return best


def test_best_five_is_the_plain_evaluation_for_hands_of_5_to_10_cards() -> None:
    rng = random.Random(5)
    pack = STANDARD.cards()
    for n in range(2000):
        cards = rng.sample(pack, 5 + n % 6)
        assert poker.best_five(cards) == plain_best_five(cards)


def test_best_five_of_equal_hands_keeps_the_first_found() -> None:
    # Two straights to the nine, differing only in suits: the first five wins.
    cards = ["5S", "6S", "7H", "8D", "9C", "5H"]
    assert poker.best_five(cards)[2] == ("5S", "6S", "7H", "8D", "9C")


def test_best_five_ranks_categories_then_keys() -> None:
    assert poker.best_five(["AS", "AH", "KD", "KC", "2S", "2H", "QD"])[:2] == (
        poker.Combination.TWO_PAIRS,
        (14, 13, 12),
    )
    wheel = poker.best_five(["AS", "2H", "3D", "4C", "5S", "KH"])
    assert wheel[:2] == (poker.Combination.STRAIGHT, (5,))
    assert poker.best_five(["2H", "3H", "4H", "5H", "6H", "AH"])[:2] == (
        poker.Combination.STRAIGHT_FLUSH,
        (6,),
    )


def test_threads_that_ask_first_at_once_build_the_tables_once(monkeypatch) -> None:
    """A server's threads may all need the tables first at the same moment: each must
    get the whole tables, built once (two builds once left four tables behind, and
    every later look-up failed)."""
    monkeypatch.setattr(poker, "_TABLES", [])
    monkeypatch.setattr(poker, "_RANKED", [])
    hand = ["AS", "AH", "KD", "KC", "7S", "7H", "2D"]
    start = threading.Barrier(8)
    got: list[object] = []

    def ask() -> None:
        start.wait()
        got.append(poker.best_five(hand)[0])

    threads = [threading.Thread(target=ask) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(poker._TABLES) == 2 and len(poker._RANKED) == 2
    assert got == [poker.Combination.TWO_PAIRS] * 8

"""Card tables built once per pack, for the hot paths of Seconds, Cowpoke and Pinochle.

:meth:`server.games.kit.cards.Pack.cards` builds a pack's card list on every
call, and a simulation deals thousands of times a second; these engines take
the list, and the order a player holds cards in, from here, built once.
:func:`shuffled` is the kit's shuffle of the same pack order by the same
generator, so every seeded deal is unchanged.

>>> from server.games.kit.cards import PINOCHLE, STANDARD, sort_hand
>>> pack_cards(STANDARD) == tuple(STANDARD.cards())
True
>>> hand = ["9S", "AH", "TS", "9S", "KD"]
>>> sorted(hand, key=hand_order(PINOCHLE).__getitem__) == sort_hand(hand, PINOCHLE)
True
"""

from __future__ import annotations

import random
from functools import cache

from .kit.cards import Card, Pack, shuffle


@cache
def pack_cards(pack: Pack) -> tuple[Card, ...]:
    """Every card of ``pack`` in the kit's fixed order (suit by suit, high to low)."""
    return tuple(pack.cards())


@cache
def hand_order(pack: Pack) -> dict[Card, int]:
    """Each card's place in a sorted hand: by suit (S H D C), high to low within a suit.

    Identical cards of a double pack share a place, as in :func:`~.kit.cards.sort_hand`.
    """
    return {c: i for i, c in enumerate(dict.fromkeys(pack.cards()))}


def shuffled(pack: Pack, rng: random.Random) -> list[Card]:
    """The pack in an order drawn from ``rng``: the kit's shuffle (the draws of
    ``rng.shuffle``, without a method call per card), without rebuilding the pack."""
    cards = list(pack_cards(pack))
    shuffle(cards, rng)
    return cards

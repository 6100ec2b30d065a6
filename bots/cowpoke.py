"""``cowpoke``: keeps its best five-card draw, gives away what helps it least.

docs/rules/cowpoke.md: each round a player draws a card, puts one out face down, and
gets one put-out back in the exchange; at five cards or more anybody may call
a showdown, and the best five-card Poker hand wins. The bot plays each
decision by looking one step ahead with its own fast hand evaluator
(:func:`best_hand`, the same ranking as the engine's ``poker.best_five``):

* **put out** the card whose loss hurts its *outlook* least (:func:`outlook`:
  the expected strength of its hand once a few unseen cards are added, over
  samples of the cards nobody has seen, the same samples for every choice);
  between equals, the higher card, which chooses earlier in the exchange;
* **take** the table card that improves its outlook most;
* **call** a showdown when it is ahead: when its best five beats the others'
  hands in most samples of their unseen cards (:func:`win_chance`). Cards a
  player took in an exchange are public (``exposed``) and count as theirs.

>>> best_hand(["9S", "9H", "9D", "KC", "KS", "2H"])[0] == FULL_HOUSE
True
>>> best_hand(["AS", "2D", "3C", "4H", "5S", "KD"])      # the wheel: a straight to the 5
(4, (5,))

Run it: ``python -m bots.cowpoke --server URL --token T``.
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NamedTuple

from client_sdk import Bot
from client_sdk.cli import bot_main
from client_sdk.types import Move, View

RANKS = "23456789TJQKA"
VALUE = {r: v for v, r in enumerate(RANKS, start=2)}
PACK = tuple(r + s for s in "SHDC" for r in RANKS)

# Poker categories, numbered as server.games.kit.poker.Combination.
NOTHING, ONE_PAIR, TWO_PAIRS, THREES, STRAIGHT, FLUSH, FULL_HOUSE, FOURS, STRAIGHT_FLUSH = range(9)

HandRank = tuple[int, tuple[int, ...]]
"""(category, tie-break key): compared as tuples, higher is better, equal ties."""

MAX_CARDS = 10
SHOWDOWN_FROM = 5
OUTLOOK_SAMPLES = 16
WIN_SAMPLES = 40
CALL_WHEN = 0.5
"""Call a showdown when the chance of holding the best hand is above this."""


# --------------------------------------------------------------------------- hands


def _straight_high(values: Iterable[int]) -> int | None:
    """The top of the highest five-in-a-row among ``values`` (the ace also low), or None."""
    present = set(values)
    if 14 in present:
        present.add(1)
    for high in range(14, 4, -1):
        if all(v in present for v in range(high - 4, high + 1)):
            return high
    return None


def best_hand(cards: Sequence[str]) -> HandRank:
    """The best five-card Poker hand among ``cards`` as (category, key), without trying
    every five: the key is the engine's (``poker.evaluate``) for the same five.

    Fewer than five cards rank by what they already make (a pair, threes, fours).
    """
    values = sorted((VALUE[c[0]] for c in cards), reverse=True)
    by_suit: dict[str, list[int]] = {}
    for c in cards:
        by_suit.setdefault(c[1], []).append(VALUE[c[0]])
    flushes = [sorted(v, reverse=True) for v in by_suit.values() if len(v) >= 5]
    best_sf = max((h for v in flushes if (h := _straight_high(v)) is not None), default=None)
    if best_sf is not None:
        return STRAIGHT_FLUSH, (best_sf,)
    counts = Counter(values)
    groups = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    top, n = groups[0]
    if n == 4:
        return FOURS, (top, *_kickers(values, {top}, 1))
    if n == 3:
        pair = max((v for v, k in counts.items() if k >= 2 and v != top), default=None)
        if pair is not None:
            return FULL_HOUSE, (top, pair)
    if flushes:
        return FLUSH, max(tuple(v[:5]) for v in flushes)
    straight = _straight_high(values)
    if straight is not None:
        return STRAIGHT, (straight,)
    if n == 3:
        return THREES, (top, *_kickers(values, {top}, 2))
    pairs = sorted((v for v, k in counts.items() if k == 2), reverse=True)
    if len(pairs) >= 2:
        return TWO_PAIRS, (pairs[0], pairs[1], *_kickers(values, {pairs[0], pairs[1]}, 1))
    if pairs:
        return ONE_PAIR, (pairs[0], *_kickers(values, {pairs[0]}, 3))
    return NOTHING, tuple(values[:5])


def _kickers(values: Sequence[int], used: set[int], count: int) -> list[int]:
    """The ``count`` highest values (descending ``values``) not of the ranks in ``used``."""
    return [v for v in values if v not in used][:count]


def strength(rank: HandRank) -> float:
    """A hand's worth as one number: the category, plus a little for its top rank."""
    category, key = rank
    return category + (key[0] - 2) / 26 if key else float(category)


# --------------------------------------------------------------------------- the table


class Table(NamedTuple):
    """The parts of a Cowpoke view the bot reasons with, read once per move."""

    me: int
    hand: tuple[str, ...]
    phase: str
    players: int
    held: tuple[int, ...]
    """Cards each player holds now."""
    exposed: tuple[tuple[str, ...], ...]
    """Cards each player is known to hold (taken in an exchange)."""
    unseen: tuple[str, ...]
    """Cards whose place I do not know: the stack, the others' hidden cards, dead cards."""
    legal: tuple[Mapping[str, Any], ...]


def read_table(view: Mapping[str, Any]) -> Table:
    """Read a Cowpoke view (docs/rules/cowpoke.md) into a :class:`Table`."""
    state = view["state"]
    me = view["you"]
    hand = tuple(view["hand"])
    exposed = tuple(tuple(cards) if s != me else () for s, cards in enumerate(state["exposed"]))
    known = set(hand) | {c for cards in exposed for c in cards}
    known |= {t["card"] for t in state["table"]}  # put-outs turned up, not yet taken
    known |= {r["out_of_play"] for r in state["rounds"] if r.get("out_of_play")}
    if state.get("put_out"):
        known.add(state["put_out"])  # my own card face down
    return Table(
        me=me,
        hand=hand,
        phase=state["phase"],
        players=state["players"],
        held=tuple(state["cards_held"]),
        exposed=exposed,
        unseen=tuple(c for c in PACK if c not in known),
        legal=tuple(view["legal_moves"]),
    )


def outlook(cards: Sequence[str], futures: Sequence[Sequence[str]]) -> float:
    """The mean strength of ``cards`` completed by each of ``futures`` (samples of the
    unseen cards), each cut so that the hand reaches five cards, or gains one."""
    if len(cards) >= MAX_CARDS or not futures:
        return strength(best_hand(cards))
    need = min(max(1, SHOWDOWN_FROM - len(cards)), MAX_CARDS - len(cards))
    total = 0.0
    for future in futures:
        total += strength(best_hand([*cards, *future[:need]]))
    return total / len(futures)


def sample_futures(table: Table, rng: random.Random, samples: int = OUTLOOK_SAMPLES,
                   size: int = SHOWDOWN_FROM) -> list[list[str]]:  # fmt: skip
    """``samples`` random draws of ``size`` unseen cards (shared by every candidate)."""
    size = min(size, len(table.unseen))
    return [rng.sample(table.unseen, size) for _ in range(samples)]


def win_chance(table: Table, rng: random.Random, samples: int = WIN_SAMPLES) -> float:
    """How often my best five beats every other hand (a shared win counts as a share),
    the others' hidden cards dealt at random from the unseen cards."""
    mine = best_hand(table.hand)
    others = [s for s in range(table.players) if s != table.me]
    hidden = {s: table.held[s] - len(table.exposed[s]) for s in others}
    total = sum(hidden.values())
    if total > len(table.unseen):  # cannot happen with a consistent view
        return 0.0
    won = 0.0
    for _ in range(samples):
        deal = rng.sample(table.unseen, total)
        best, tied = True, 1
        for s in others:
            cards = [*table.exposed[s], *deal[: hidden[s]]]
            deal = deal[hidden[s] :]
            theirs = best_hand(cards)
            if theirs > mine:
                best = False
                break
            tied += theirs == mine
        won += 1 / tied if best else 0.0
    return won / samples


# --------------------------------------------------------------------------- the bot


class CowpokeBot(Bot):
    """Keeps the best draw, takes what helps most, calls when ahead."""

    name = "cowpoke"

    def choose_move(self, view: View) -> Move:
        table = read_table(view)
        legal = table.legal
        kinds = {m["type"] for m in legal}
        if "call" in kinds:
            call = win_chance(table, self.rng) > CALL_WHEN
            return {"type": "call"} if call else {"type": "pass"}
        if len(legal) == 1:
            return dict(legal[0])
        futures = sample_futures(table, self.rng)
        hand = list(table.hand)
        if "put_out" in kinds:
            # the card whose loss hurts least; between equals the higher, which chooses first
            def kept(move: Mapping[str, Any]) -> tuple[float, int]:
                rest = list(hand)
                rest.remove(move["card"])
                return outlook(rest, futures), VALUE[move["card"][0]]

            best = max(legal, key=kept)
            return dict(best)
        # take: the table card that helps most
        return dict(max(legal, key=lambda m: (outlook([*hand, m["card"]], futures),
                                              VALUE[m["card"][0]])))  # fmt: skip


def make_bot(rng: random.Random | None = None) -> CowpokeBot:
    return CowpokeBot(rng)


if __name__ == "__main__":
    sys.exit(bot_main(make_bot))

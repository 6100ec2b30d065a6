"""``seconds``: plays each deal of Seconds for the trick counts its score wants.

docs/rules/seconds.md: the second-highest card of the led suit wins a trick, and what a
trick is worth changes from deal to deal:

* deals 1-5, **products**: my score is my tricks × my (half-)partner's
  tricks, so a trick is worth the partner's count to me when I win it and my
  own count when the partner wins it (a product grows fastest when balanced,
  and 0 × anything is 0); a trick won by anyone else is worth nothing;
* deal 6, **squares**: my tricks squared, so every trick I win is worth more
  than the one before (2t + 1), and nobody else's trick matters;
* deal 7, **13 minus**: every trick I win costs me a point.

On its turn the bot estimates, for each card it may play, the value of the
trick's likely winner (:func:`trick_values`): it deals the unseen cards to the
other players at random, respecting the suits each has shown void in, lets
the players still to play follow at random, and applies the trick rule of the
engine (``server.games.seconds.trick_winner``; bots may use the pure engines).
Last to play it needs no guessing: the trick is decided by its own card.

Between cards of equal value it keeps the cards that will win later tricks
when it wants tricks and sheds them when it does not (:func:`winning_power`:
a card wins when exactly one higher card of its suit falls on it, so a king
whose ace is still out is dangerous and an ace never wins).

It plays for points, whatever the ``winner`` option says about who wins the
game in the end (aiming for second place is left to a cleverer bot).

>>> winning_power("AS", unseen={"KS", "QS"}), winning_power("KS", unseen={"AS"})
(0.0, 1.0)

Run it: ``python -m bots.seconds --server URL --token T``.
"""

from __future__ import annotations

import random
import sys
from bisect import bisect
from collections.abc import Mapping, Sequence
from itertools import accumulate
from typing import Any, NamedTuple

from client_sdk import Bot
from client_sdk.cli import bot_main
from client_sdk.types import Move, View
from server.games.seconds import trick_winner

RANKS = "23456789TJQKA"
VALUE = {r: v for v, r in enumerate(RANKS, start=2)}
PACK = tuple(r + s for s in "SHDC" for r in RANKS)
SEATS = 4
TRICKS_PER_DEAL = 13

SAMPLES = 24
"""Random deals of the unseen cards per decision (the same deals for every candidate)."""

KEEP_WEIGHT = 0.15
"""How much the future winning power of a card counts, relative to one unit of trick value."""


class Table(NamedTuple):
    """The parts of a Seconds view the bot reasons with, read once per move."""

    me: int
    hand: tuple[str, ...]
    scoring: str
    partner: int | None
    tricks_won: tuple[int, ...]
    tricks_left: int
    """Tricks still to be played after the current one."""
    trick: tuple[tuple[int, str], ...]
    """The current trick so far: (seat, card) in play order."""
    cards_left: tuple[int, ...]
    voids: tuple[frozenset[str], ...]
    """Suits each seat is known to hold no more of (it did not follow them)."""
    unseen: frozenset[str]
    """Cards neither in my hand nor played this deal: the others hold them."""
    legal: tuple[str, ...]


def read_table(view: Mapping[str, Any]) -> Table:
    """Read a Seconds view (docs/api.md, docs/rules/seconds.md) into a :class:`Table`."""
    state = view["state"]
    me = view["you"]
    hand = tuple(view["hand"])
    trick = tuple((c["seat"], c["card"]) for c in state["current_trick"])
    voids: list[set[str]] = [set() for _ in range(SEATS)]
    played: set[str] = set()
    tricks = [[(c["seat"], c["card"]) for c in t["cards"]] for t in state["tricks"]]
    for cards in [*tricks, list(trick)]:
        if not cards:
            continue
        led = cards[0][1][1]
        for seat, card in cards:
            played.add(card)
            if card[1] != led:
                voids[seat].add(led)
    return Table(
        me=me,
        hand=hand,
        scoring=state["scoring"],
        partner=state["partners"][me],
        tricks_won=tuple(state["tricks_won"]),
        tricks_left=TRICKS_PER_DEAL - len(state["tricks"]) - 1,
        trick=trick,
        cards_left=tuple(state["cards_left"]),
        voids=tuple(frozenset(v) for v in voids),
        unseen=frozenset(PACK) - played - set(hand),
        legal=tuple(m["card"] for m in view["legal_moves"]),
    )


def trick_values(table: Table) -> list[float]:
    """What it is worth to me, per seat, that this seat wins the current trick.

    Future tricks are estimated as shared evenly (``tricks_left / 4`` each), so
    a product values my trick at the partner's expected final count.

    >>> t = Table(0, (), "product", 2, (3, 0, 1, 0), 5, (), (), (), frozenset(), ())
    >>> trick_values(t)          # my trick is worth 1 + 5/4, my partner's 3 + 5/4
    [2.25, 0.0, 4.25, 0.0]
    >>> trick_values(t._replace(scoring="thirteen_minus", partner=None))
    [-1.0, 0.0, 0.0, 0.0]
    """
    values = [0.0] * SEATS
    expected = table.tricks_left / SEATS
    mine = table.tricks_won[table.me] + expected
    if table.scoring == "product" and table.partner is not None:
        theirs = table.tricks_won[table.partner] + expected
        values[table.me] = theirs
        values[table.partner] = mine
    elif table.scoring == "square":
        values[table.me] = 2 * mine + 1
    else:  # thirteen_minus
        values[table.me] = -1.0
    return values


def winning_power(card: str, unseen: frozenset[str] | set[str]) -> float:
    """How likely ``card`` is to win a later trick: 1 / (higher cards of its suit still out).

    A card wins when it is the second-highest of its suit in the trick, i.e.
    when exactly one higher card falls on it; with no higher card out (the
    ace, or a king whose ace I hold) it cannot, and with many it rarely does.
    """
    higher = sum(1 for c in unseen if c[1] == card[1] and VALUE[c[0]] > VALUE[card[0]])
    return 0.0 if higher == 0 else 1.0 / higher


def deal_unseen(table: Table, rng: random.Random) -> dict[int, list[str]] | None:
    """Deal the unseen cards to the other seats at random, each getting its count of
    cards and none of a suit it is void in. None if a few tries find no such deal."""
    others = [s for s in range(SEATS) if s != table.me]
    voids = table.voids
    cards = list(table.unseen)
    holders = {c[1]: sum(1 for s in others if c[1] not in voids[s]) for c in cards}
    for _ in range(10):
        rng.shuffle(cards)
        # cards fewer seats may hold go first, so the constraints rarely dead-end
        cards.sort(key=lambda c: holders[c[1]])
        room = {s: table.cards_left[s] for s in others}
        hands: dict[int, list[str]] = {s: [] for s in others}
        for card in cards:
            able = [s for s in others if room[s] and card[1] not in voids[s]]
            if not able:
                break
            seat = able[_weighted_index([room[s] for s in able], rng)]
            hands[seat].append(card)
            room[seat] -= 1
        else:
            return hands
    return None


def _weighted_index(weights: list[int], rng: random.Random) -> int:
    """The index ``rng.choices(range(len(weights)), weights)[0]`` draws, from the same
    single ``rng.random()``, without the cost of its general case (this is the hot loop
    of the bot's sampling)."""
    totals = list(accumulate(weights))
    return bisect(totals, rng.random() * (totals[-1] + 0.0), 0, len(totals) - 1)


def finish_trick(table: Table, card: str, hands: Mapping[int, Sequence[str]],
                 rng: random.Random) -> int:  # fmt: skip
    """The seat that wins the trick if I play ``card`` and the later players follow at random."""
    trick = [*table.trick, (table.me, card)]
    led = trick[0][1][1]
    seat = table.me
    while len(trick) < SEATS:
        seat = (seat + 1) % SEATS
        hand = hands[seat]
        following = [c for c in hand if c[1] == led]
        trick.append((seat, rng.choice(following or hand)))
    return trick[trick_winner([c for _, c in trick])][0]


def card_values(table: Table, rng: random.Random, samples: int = SAMPLES) -> dict[str, float]:
    """Each legal card's expected trick value, plus or minus its future winning power."""
    values = trick_values(table)
    totals = dict.fromkeys(table.legal, 0.0)
    if len(table.trick) == SEATS - 1:  # last to play: my card decides, no guessing
        for card in table.legal:
            totals[card] = values[finish_trick(table, card, {}, rng)]
    else:
        deals = [d for d in (deal_unseen(table, rng) for _ in range(samples)) if d]
        for hands in deals:
            for card in table.legal:
                totals[card] += values[finish_trick(table, card, hands, rng)] / len(deals)
    # Keep future winners when I want tricks, shed them when I do not.
    sign = 1.0 if values[table.me] > 0 else -1.0
    scale = KEEP_WEIGHT * max(1.0, abs(values[table.me]))
    return {
        card: total - sign * scale * winning_power(card, table.unseen)
        for card, total in totals.items()
    }


class SecondsBot(Bot):
    """Plays the card whose trick is worth most to its score in this deal."""

    name = "seconds"

    def choose_move(self, view: View) -> Move:
        table = read_table(view)
        if len(table.legal) == 1:
            return dict(view["legal_moves"][0])
        values = card_values(table, self.rng)
        best = max(table.legal, key=lambda c: (values[c], -VALUE[c[0]], c))
        return {"type": "play", "card": best}


def make_bot(rng: random.Random | None = None) -> SecondsBot:
    return SecondsBot(rng)


if __name__ == "__main__":
    sys.exit(bot_main(make_bot))

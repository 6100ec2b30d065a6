"""``concerto_search``: Parlett's signals, with the leader's hidden cards searched.

It talks like ``concerto_signals`` (the signalling conventions of
docs/rules/concerto.md), so two of them understand each other and so does a
signals bot or a human reading that bot's convention card. As leader it shows
its holding with the signals bot's patterns, chosen by its own order of the
checklist; as partner it searches (determinized Monte Carlo) where the
signals bot follows fixed rules:

* **Answering the lead** (:meth:`SearchBot._search_answer`): right after the
  lead it may play its part of a candidate hand at once, before the leader
  commits a second card, when that scores better on average than passing.
* **Contributing after the signal** (:meth:`SearchBot._search_contribution`):
  the best candidate given the whole signal, or a pass (:data:`SEE_MORE`,
  :func:`see_more_value`) to see the next card of the leader's best hand.

**Convention card** (:data:`SEARCH_ORDER`, :func:`leader_signal`): Parlett's
checklist with three changes, each measured better: two pairs before a
five-card flush or straight, one pair before four or three to one, and threes
before a full house (a full house is shown as its threes, its pair kept
back). A pair is what a partner completes best, a weak flush or straight what
it completes worst.

The search, each time the partner decides:

1. **Worlds.** It samples the leader's hand from the cards it has not seen,
   keeping only hands with which the leader's checklist sends exactly what it
   sent at every lead this deal (:func:`signals_sent`, :func:`sends`): a
   signal rules out higher holdings as well as announcing one. When no sample
   fits in 300 draws the tests loosen (the current signal only, then what it
   announces, :func:`holds_signal`, then nothing). The opponents' cards need
   no sampling: a side's hand points depend on its own cards only.
2. **Candidates.** On the first few worlds, our cards in the best hand the
   two could finish seeing both hands (:func:`best_joint`); also giving
   nothing and what the signals bot would give.
3. **Scores.** Each candidate is played out on every world as play then goes
   (we play it, call 'Play', the leader completes as well as its own cards
   allow); the best average wins (ties: fewer cards, then the most useful
   cards kept).

A search samples for at most half its ``budget_ms`` (80 ms by default;
between ``min_worlds`` and ``max_worlds``, 128, worlds) and keeps its plans
for the rest of the hand; about 57 ms a searched decision, 0.9 s a deal.

Over 1,000 deals (``python -m bots.tools.par_arena --deals 1000``) it reaches
78.2 ± 0.7% of double-dummy par against 67.1 ± 0.7% for the signals bot. Why
each choice was made, the variants measured and left out, and where the rest
of the gap to par lies: docs/bots/concerto-search.md.

Run it: ``python -m bots.concerto_search --server URL --token T --budget-ms 80``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from itertools import chain, combinations
from typing import Any, TypeVar

from client_sdk.cli import bot_main
from client_sdk.types import Move, View

from ._concerto import BASE_POINTS as POINTS
from ._concerto import (
    FORCE,
    FOURS,
    PASS,
    STRAIGHT_FLUSH,
    SUITS,
    Table,
    best_completion,
    completing_card,
    fast,
    fast_category,
    hand_points,
    keep_score,
    pip,
    play,
)
from .concerto_signals import (
    CHECKLIST,
    Reading,
    Signal,
    SignalsBot,
    _immediate,
    card_at,
    holdings,
    partner_cards,
    rank_at,
    read_signal,
    sf_candidates,
    windows_of,
)

DECK = tuple(r + s for s in SUITS for r in "23456789TJQKA")
DEFAULT_BUDGET_MS = 80.0
SEE_MORE = ("pass",)
"""A contribution plan: pass, so the leader shows one more card (:func:`completing_card`)."""
CANDIDATE_WORLDS = 6  # worlds that propose candidates; all worlds score them
T = TypeVar("T")
W = TypeVar("W")

# Cards of the signalled suit a same-suit, in-range signal claims in all, by
# (rising?, gap): the smaller of its straight-flush and flush readings (as
# the signals bot reads them).
_CLAIMED_IN_SUIT = {
    (True, 4): 5, (True, 3): 4, (True, 2): 4, (True, 1): 3,
    (False, 1): 3, (False, 2): 3, (False, 3): 4, (False, 4): 3,
}  # fmt: skip


# The search bot's convention card: Parlett's checklist (docs/rules/concerto.md,
# the signals bot's patterns) with two pairs before a five-card flush or
# straight, one pair before four or three to a flush or straight, and threes
# before a full house (never chosen, then: a full house is shown as threes).
# The samplers run it on every hand they draw.
SEARCH_ORDER = (
    "straight_flush_5", "fours", "straight_flush_4", "two_threes", "threes", "full_house",
    "straight_flush_3", "two_pairs", "flush_5", "straight_5", "pair",
    "flush_4", "straight_4", "flush_3", "straight_3", "nothing",
)  # fmt: skip
_PRIORITY = {holding: i for i, holding in enumerate(SEARCH_ORDER)}
# For each holding, the best priority of any ``holdings`` finds after it
# (CHECKLIST order): once the best so far beats that, the rest need not be looked at.
_BEST_AFTER = {holding: min((_PRIORITY[h] for h in CHECKLIST[i + 1:]), default=len(SEARCH_ORDER))
               for i, holding in enumerate(CHECKLIST)}  # fmt: skip


def leader_signal(hand: Sequence[str], seen: frozenset[str]) -> Signal:
    """The search bot's signal: of the holdings the checklist finds
    (:func:`~bots.concerto_signals.holdings`), the first by :data:`SEARCH_ORDER`.

    Each is shown with the signals bot's pattern, so a ``concerto_signals``
    partner reads it as the same holding.
    """
    best, key = None, len(SEARCH_ORDER)
    for signal in holdings(hand, seen):
        if _PRIORITY[signal.holding] < key:
            best, key = signal, _PRIORITY[signal.holding]
        if key < _BEST_AFTER[signal.holding]:
            break
    assert best is not None  # the checklist always ends with "nothing"
    return best


def holds_signal(reading: Reading, cards: Sequence[str]) -> bool:
    """Whether a leader holding ``cards`` (its hand when it signalled) fits ``reading``.

    Each reading is checked for what it announces (docs/rules/concerto.md, signals): fours
    all four of the rank, threes three, a full house three and two, a flush
    five of the suit, a straight (flush) its cards in one window. Readings
    that announce nothing accept every hand.
    """
    ranks = Counter(c[0] for c in cards)
    first, second, meaning = reading.first, reading.second, reading.meaning
    r1 = first[0]
    r2 = second[0] if second else ""
    if meaning == "fours":
        return ranks[r1] == 4
    if meaning == "threes":
        return ranks[r1] >= 3
    if meaning == "pair":
        return ranks[r1] >= 2
    if meaning == "two_pairs":
        return ranks[r1] >= 2 and any(n >= 2 for r, n in ranks.items() if r != r1)
    if meaning == "two_pairs_ranks":
        return ranks[r1] >= 2 and ranks[r2] >= 2
    if meaning == "full_house":
        return ranks[r1] >= 3 and ranks[r2] >= 2
    if meaning == "two_threes":
        return ranks[r1] >= 3 and ranks[r2] >= 3
    if meaning == "flush_5":
        return sum(1 for c in cards if c[1] == first[1]) >= 5
    if meaning == "straight_flush" and reading.at is not None:
        a1, a2 = reading.at
        suit = first[1]
        held = set(cards)
        if any(all(card_at(c, suit) in held for c in h) for h, _ in sf_candidates(a1, a2)):
            return True
        return sum(1 for c in cards if c[1] == suit) >= _CLAIMED_IN_SUIT[(a2 > a1, abs(a2 - a1))]
    if meaning == "straight" and reading.at is not None:
        a1, a2 = reading.at
        wanted = 5 if a2 - a1 == 4 else 4 if a2 > a1 else 3
        return any(sum(1 for c in w if ranks[rank_at(c)]) >= wanted for w in windows_of((a1, a2)))
    return True


class Sampler:
    """Random hands for a hidden player, from the cards we have not seen.

    Args:
        rng: the bot's randomness.
        unseen: the cards that may be in the hidden hand.
        count: how many it holds.
        accept: a test the hand must pass (what its signals announced); when
            ``tries`` draws in a row fail it (a misread signal, a partner that
            signals differently) it is replaced for good by the first of
            ``fallbacks`` (looser tests), and at the end dropped.
    """

    def __init__(self, rng: random.Random, unseen: Sequence[str], count: int,
                 accept: Callable[[list[str]], bool] | None = None, tries: int = 300,
                 fallbacks: Sequence[Callable[[list[str]], bool]] = ()) -> None:  # fmt: skip
        self.rng, self.pool, self.count = rng, list(unseen), count
        self.accept, self.tries, self.fallbacks = accept, tries, list(fallbacks)

    def draw(self) -> list[str]:
        while True:
            for _ in range(self.tries):
                hand = self.rng.sample(self.pool, self.count)
                if self.accept is None or self.accept(hand):
                    return hand
            self.accept = self.fallbacks.pop(0) if self.fallbacks else None


Sent = tuple[tuple[str, ...], frozenset[str], str, "str | None"]
"""One signal a player sent: (the cards it played since, the cards it saw then, its
first card, its second card or None when unknown)."""


def signals_sent(state: Mapping[str, Any], seat: int,
                 current: Sequence[tuple[int, str]]) -> list[Sent]:  # fmt: skip
    """Every hand ``seat`` has led this deal, the current one last, as :data:`Sent`.

    The second card is known when ``seat`` played the hand's second card too
    (the partner passed and it finished its signal).
    """
    deal = state["deal_number"]
    hands = [[(c["seat"], c["card"]) for c in h["cards"]]
             for h in state["completed_hands"] if h["deal"] == deal]  # fmt: skip
    hands.append(list(current))
    sent: list[Sent] = []
    seen: set[str] = set()
    for k, cards in enumerate(hands):
        if cards and cards[0][0] == seat:
            since = tuple(c for later in hands[k:] for s, c in later if s == seat)
            second = cards[1][1] if len(cards) > 1 and cards[1][0] == seat else None
            sent.append((since, frozenset(seen), cards[0][1], second))
        seen.update(c for _, c in cards)
    return sent


def sends(hand: Sequence[str], sent: Sequence[Sent]) -> bool:
    """Whether a player now holding ``hand`` would have sent all of ``sent``."""
    for since, seen, first, second in sent:
        signal = leader_signal([*hand, *since], seen)
        if signal.first != first or second is not None and (
                signal.then != "card" or signal.second != second):  # fmt: skip
            return False
    return True


def monte_carlo(options: Sequence[T], worlds: Iterator[W], score: Callable[[T, W], float],
                deadline: float, min_worlds: int, max_worlds: int) -> list[float]:  # fmt: skip
    """The mean score of each option over worlds taken one at a time.

    Every option is scored on the same worlds (common random numbers, so the
    comparison is fair even with few worlds); stops at ``deadline``
    (``time.perf_counter``) once ``min_worlds`` are done.
    """
    totals = [0.0] * len(options)
    done = 0
    while done < max_worlds and (done < min_worlds or time.perf_counter() <= deadline):
        world = next(worlds, None)
        if world is None:
            break
        for i, option in enumerate(options):
            totals[i] += score(option, world)
        done += 1
    return [t / max(done, 1) for t in totals]


def leader_finishes(played: Sequence[tuple[int, str]], world: Sequence[str], leader: int,
                    rules: str) -> int:  # fmt: skip
    """The points of the hand when the leader, holding ``world``, completes ``played`` alone."""
    rest = 5 - len(played)
    if rest == 0:
        return hand_points([pip(c, s) for s, c in played], rules)
    return best_completion(played, world, leader, rules, rest)[0]


def best_joint(prefix: Sequence[tuple[int, str]], mine: Sequence[str], theirs: Sequence[str],
               me: int, leader: int, rules: str) -> tuple[str, ...]:  # fmt: skip
    """Our cards in the best hand the two of us could finish, seeing both hands.

    ``prefix``: the hand so far as (seat, card). Double dummy: every split is
    reachable by passing (see ``server/games/analysis/concerto_par.py``).
    """
    need = 5 - len(prefix)
    owner = {c: me for c in mine}
    owner.update({c: leader for c in theirs})
    fixed = tuple(fast(c) for _, c in prefix)
    best_points, best_cards = -1, tuple[str, ...]()
    for chosen in combinations([fast(c) for c in owner], need):
        category = fast_category(fixed + chosen)
        if category in (FOURS, STRAIGHT_FLUSH):
            pips = [*(pip(c, s) for s, c in prefix), *(pip(f.card, owner[f.card]) for f in chosen)]
            points = hand_points(pips, rules)
        else:
            points = POINTS[category]
        if points > best_points:
            best_points, best_cards = points, tuple(f.card for f in chosen)
    return tuple(c for c in best_cards if owner[c] == me)


def see_more_value(prefix: Sequence[tuple[int, str]], hand: Sequence[str],
                   worlds: Sequence[Sequence[str]], me: int, rules: str) -> float:  # fmt: skip
    """The mean points if we pass after the two-card signal ``prefix``.

    The leader then plays its next card (:func:`completing_card`, as
    ``concerto_signals`` does when its partner passes); for each card the
    worlds would play, the best contribution for the worlds that play it.
    """
    leader = prefix[0][0]
    groups: dict[str, list[list[str]]] = {}
    for world in worlds:
        card = completing_card(prefix, world, leader, rules)
        groups.setdefault(card, []).append([c for c in world if c != card])
    total = sum(best_for_group([*prefix, (leader, card)], hand, rests, rests[:3], me, rules)
                for card, rests in groups.items())  # fmt: skip
    return total / max(len(worlds), 1)


def best_for_group(shown: Sequence[tuple[int, str]], hand: Sequence[str],
                   rests: Sequence[Sequence[str]], proposers: Iterable[Sequence[str]],
                   me: int, rules: str) -> float:  # fmt: skip
    """The most one contribution scores, summed over leader hands that all showed ``shown``.

    ``rests``: those hands (what each leader still holds). The contributions
    tried: none, and our part of the double-dummy best (:func:`best_joint`)
    for each of the ``proposers``; the leader completes each alone
    (:func:`leader_finishes`). Used to value a pass: the partner will
    contribute knowing what the leader showed next.
    """
    leader = shown[0][0]
    options = {()} | {tuple(best_joint(shown, hand, rest, me, leader, rules)) for rest in proposers}
    need = 5 - len(shown)
    return max(
        (
            sum(
                leader_finishes([*shown, *((me, c) for c in ours)], rest, leader, rules)
                for rest in rests
            )
            for ours in options
            if need - len(ours) <= len(rests[0])
        ),
        default=0,
    )


class SearchBot(SignalsBot):
    """Signals for talking; Monte Carlo over the leader's possible hands for contributing.

    Args:
        rng: the bot's randomness (the samples).
        budget_ms: time allowed per searched decision.
        min_worlds: worlds always scored, whatever the budget.
        max_worlds: worlds scored at most.
    """

    name = "concerto_search"

    def __init__(self, rng: random.Random | None = None, budget_ms: float = DEFAULT_BUDGET_MS,
                 min_worlds: int = 4, max_worlds: int = 128) -> None:  # fmt: skip
        super().__init__(rng)
        self.budget_ms = budget_ms
        self.min_worlds = min_worlds
        self.max_worlds = max_worlds
        self._plans: dict[tuple, tuple[str, ...]] = {}
        self._where: tuple = ()
        self._state: Mapping[str, Any] = {}

    def choose_move(self, view: View) -> Move:
        state = view["state"]
        assert state is not None, "a seat to move always sees the state"
        self._state = state
        self._where = (view.get("id"), state["game_number"], state["deal_number"],
                       state["hand_number"])  # fmt: skip
        return super().choose_move(view)

    def on_game_over(self, view: View) -> None:
        self._plans.clear()

    def _signal(self, table: Table) -> Signal:
        mine = [c for s, c in table.current if s == table.me]
        return leader_signal([*table.hand, *mine], self._deal_seen(table))

    def _as_partner(self, table: Table) -> Move:
        lead = table.current[0]
        if len(table.current) == 1 and table.passes == 0 and table.may_pass():
            answer = self._answer(table, lead)
            return play(answer[0]) if answer else PASS
        plan = self._plans.get((*self._where, lead, "answer"))
        if plan and len(table.current) > 1 and table.current[1][0] == table.me:
            mine = [c for s, c in table.current if s == table.me]
            for card in plan:
                if card not in mine and card in table.hand:
                    return play(card)
            if table.may_pass() and table.cards_left[lead[0]] >= table.need:
                return FORCE
            return self._complete(table)
        mine = [c for s, c in table.current if s == table.me]
        if self._plan(table, lead, [*table.hand, *mine]) == SEE_MORE and table.may_pass():
            return PASS
        return super()._as_partner(table)

    def _answer(self, table: Table, lead: tuple[int, str]) -> tuple[str, ...]:
        """Cards to play right after the lead (none: pass and let the leader signal)."""
        key = (*self._where, lead, "answer")
        if key not in self._plans:
            if len(self._plans) > 64:
                self._plans.clear()
            self._plans[key] = self._search_answer(table, lead)
        return self._plans[key]

    def _search_answer(self, table: Table, lead: tuple[int, str]) -> tuple[str, ...]:
        """Our cards in the best answer to the lead, or () when passing scores better.

        Both are valued on the same worlds (leader hands that would have led
        this card): an answer as the leader then completes it; passing as the
        best contribution for each signal the worlds go on to send.
        """
        start = time.perf_counter()
        deadline = start + self.budget_ms / 1000
        leader, first, rules, me = lead[0], lead[1], table.rules, table.me
        hand = list(table.hand)
        leader_left = table.cards_left[leader]
        deal_seen = self._deal_seen(table)
        unseen = [c for c in DECK if c not in table.seen and c not in table.hand]

        history = signals_sent(self._state, leader, table.current)
        sampler = Sampler(self.rng, unseen, leader_left, lambda h: sends(h, history),
                          fallbacks=[lambda h: sends(h, history[-1:])])  # fmt: skip
        worlds: list[list[str]] = []
        sampled = start + self.budget_ms / 2000  # half the budget for sampling
        while len(worlds) < self.max_worlds and (
                len(worlds) < self.min_worlds or time.perf_counter() < sampled):  # fmt: skip
            worlds.append(sampler.draw())
        signals = [leader_signal([*w, first], deal_seen) for w in worlds]

        def completes(played: list[tuple[int, str]], world: Sequence[str]) -> int:
            return leader_finishes(played, world, leader, rules)

        def in_time(items: Sequence[T], least: int) -> Iterator[T]:
            """The first ``least`` items, then more while the budget lasts."""
            for i, item in enumerate(items):
                if i >= least and time.perf_counter() > deadline:
                    return
                yield item

        options = {tuple(sorted(best_joint([lead], hand, w, me, leader, rules)))
                   for w in in_time(worlds[:CANDIDATE_WORLDS], 2)}  # fmt: skip
        options.add(tuple(sorted(_immediate(lead, hand, me, rules))))
        options = {o for o in options if o and 4 - len(o) <= leader_left}
        early = sorted(options)
        if not early:
            return ()
        means = [sum(completes([lead, *((me, c) for c in o)], w) for w in worlds) / len(worlds)
                 for o in early]  # fmt: skip
        groups: dict[tuple[str, str | None], list[int]] = {}
        for i, sig in enumerate(signals):
            groups.setdefault((sig.then, sig.second), []).append(i)
        total = 0.0
        for (then, second), idx in groups.items():
            if then == "force":
                total += len(idx) * best_completion([lead], hand, me, rules, 4)[0]
            elif then == "pass" or second is None or second not in worlds[idx[0]]:
                total += max(sum(completes([lead, *((me, c) for c in o)], worlds[i]) for i in idx)
                             for o in early)  # fmt: skip
            else:
                rests = [[c for c in worlds[i] if c != second] for i in idx]
                total += best_for_group([lead, (leader, second)], hand, rests,
                                        in_time(rests[:3], 1), me, rules)  # fmt: skip
        passing = total / len(worlds)
        best = max(range(len(early)), key=lambda i: means[i])
        if means[best] <= passing:
            return ()
        counts = Counter(c[0] for c in early[best])
        return tuple(sorted(early[best], key=lambda c: -counts[c[0]]))

    def _plan(self, table: Table, lead: tuple[int, str], hand: list[str]) -> tuple[str, ...]:
        """Our contribution to the leader's hand: searched once, then kept for the hand
        (searched again if we passed to see another card of the leader's, :data:`SEE_MORE`)."""
        key = (*self._where, lead, sum(1 for s, _ in table.current if s == lead[0]))
        if key not in self._plans:
            if len(self._plans) > 64:
                self._plans.clear()
            self._plans[key] = self._search_contribution(table, lead, hand)
        return self._plans[key]

    def _search_contribution(self, table: Table, lead: tuple[int, str],
                             hand: list[str]) -> tuple[str, ...]:  # fmt: skip
        """Monte Carlo over the leader's hands that fit its signal (see the module doc)."""
        deadline = time.perf_counter() + self.budget_ms / 1000
        leader, rules = lead[0], table.rules
        if len(table.current) > 1 and table.current[1][0] == leader:
            then, second = "card", table.current[1][1]
        else:
            then, second = "pass", None  # the leader passed after our pass
        known = frozenset(hand) | self._deal_seen(table)
        reading = read_signal(lead[1], then, second, known)
        prefix = [(s, c) for s, c in table.current if s == leader]
        shown = [c for _, c in prefix]
        leader_left = table.cards_left[leader]
        unseen = [c for c in DECK if c not in table.seen and c not in table.hand]
        deal_seen = self._deal_seen(table)

        def sent(h: list[str]) -> bool:
            signal = leader_signal([*h, *shown], deal_seen)
            return (signal.first == lead[1] and signal.then == then
                    and (then != "card" or signal.second == second)
                    and (len(shown) < 3 or shown_next(h)))  # fmt: skip

        def shown_next(h: list[str]) -> bool:
            """Whether the leader, holding ``h``, would show its third card after our pass."""
            third = shown[2]
            return completing_card(prefix[:2], [*h, third], leader, rules) == third

        history = signals_sent(self._state, leader, table.current)[:-1]
        sampler = Sampler(self.rng, unseen, leader_left,
                          lambda h: sent(h) and sends(h, history),
                          fallbacks=[sent, lambda h: holds_signal(reading, [*h, *shown])],
                          )  # fmt: skip
        must_play = len(table.current) == 1 and table.passes == 2
        need = 5 - len(prefix)

        worlds = [sampler.draw() for _ in range(max(1, min(CANDIDATE_WORLDS, self.min_worlds)))]
        while len(worlds) < CANDIDATE_WORLDS and time.perf_counter() < deadline:
            worlds.append(sampler.draw())
        candidates = {tuple(sorted(best_joint(prefix, hand, world, table.me, leader, rules)))
                      for world in worlds}  # fmt: skip
        candidates.add(tuple(sorted(partner_cards(reading, prefix, hand, known, leader_left, rules,
                                                  table.me, must_play))))  # fmt: skip
        candidates.add(())
        options = [c for c in sorted(candidates)
                   if 0 <= need - len(c) <= leader_left and (c or not must_play)]  # fmt: skip
        if not options:
            return best_completion(prefix, hand, table.me, rules, 1)[1]

        def score(ours: tuple[str, ...], world: list[str]) -> float:
            return leader_finishes([*prefix, *((table.me, c) for c in ours)], world, leader, rules)

        scored: list[list[str]] = []

        def all_worlds() -> Iterator[list[str]]:
            for world in chain(worlds, iter(sampler.draw, None)):
                scored.append(world)
                yield world

        means = monte_carlo(options, all_worlds(), score, deadline, self.min_worlds,
                            self.max_worlds)  # fmt: skip
        may_see = (len(prefix) == 2 == len(table.current) and table.passes == 0
                   and table.may_pass() and leader_left >= 2)  # fmt: skip
        if may_see and see_more_value(prefix, hand, scored, table.me, rules) > max(means):
            return SEE_MORE
        best = max(
            range(len(options)),
            key=lambda i: (
                means[i],
                -len(options[i]),
                keep_score(c for c in hand if c not in options[i]),
            ),
        )
        counts = Counter(c[0] for c in options[best])
        return tuple(sorted(options[best], key=lambda c: -counts[c[0]]))


def make_bot(rng: random.Random | None = None, budget_ms: float = DEFAULT_BUDGET_MS) -> SearchBot:
    return SearchBot(rng, budget_ms=budget_ms)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m bots.concerto_search [--budget-ms MS] --server URL --token T``."""
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--budget-ms", type=float, default=DEFAULT_BUDGET_MS,
                        help="time allowed per searched decision")  # fmt: skip
    args, rest = parser.parse_known_args(argv)
    return bot_main(lambda rng: make_bot(rng, args.budget_ms), rest)


if __name__ == "__main__":
    sys.exit(main())

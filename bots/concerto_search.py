"""``concerto_search``: Parlett's signals, with the leader's hidden cards searched.

The bot talks like ``concerto_signals`` (RULES.md Appendix A: the leader shows
its holding with its first two cards, the partner passes, then contributes and
calls 'Play', and the leader completes), so two of them understand each other
and a human reading that bot's convention card understands them too. As
leader it shows its holding with the signals bot's patterns, but chooses the
holding by its own order of the checklist (the convention card below). As
partner it searches (determinized Monte Carlo) where the signals bot follows
fixed rules, twice per hand, or three times when it passes to see more:

* **Answering the lead** (:meth:`SearchBot._search_answer`). Right after the
  lead the partner may play at once instead of passing — before the leader's
  second card is committed to the hand. (A partner that could see the
  leader's hand at this point would reach 86% of par, one that sees it only
  after the second card 75%: the second signal card costs more than it
  tells.) It plays its part of a candidate hand when that scores better on
  average than passing, where passing is valued as what follows: for each
  second card (or pass, or 'Play') the sampled leaders would send, the best
  contribution for the worlds that send it.
* **Contributing after the signal** (:meth:`SearchBot._search_contribution`):
  the best of the candidates below, given the full signal — or, when it
  scores better on average, a pass (:data:`SEE_MORE`, :func:`see_more_value`):
  the leader then plays the next card of the best hand it could finish
  alone (:func:`~bots._concerto.completing_card`, what ``concerto_signals``
  does whenever its partner passes), and the partner searches again among
  the worlds that would have played it. Passing is valued like passing on
  the lead: for each card the worlds would show, the best contribution for
  the worlds that show it. Chosen in about one deal in six.

**Convention card** (:data:`SEARCH_ORDER`, :func:`leader_signal`): Parlett's
checklist with three changes — two pairs before a five-card flush or
straight, one pair ("black and pass") before four or three to a flush or
straight, and threes ("red and pass") before a full house, so a full house
is shown as its threes and its pair is kept back; everything else, and
every pattern, as ``concerto_signals``. A pair is what a partner completes
best (fours 2+2, a full house), a weak flush or straight what it completes
worst; a full house shown whole spends its pair on 8 points, where threes
let the partner add the fourth card (fours 3+1, 12) or its own pair, and
the kept pair can still meet the partner's two for fours 2+2 later. A
signals partner reads each signal as the holding sent (it never infers from
the order); a search partner also reads what the order rules out.

1. **Worlds.** The partner cannot see the leader's cards, but it knows the
   cards it has not seen (52 − its own − every card played this deal) and how
   many the leader still holds. It samples the leader's hand from them,
   keeping only hands with which the leader's checklist
   (:func:`leader_signal`, the convention card above, over
   ``concerto_signals.holdings``) sends exactly what it sent in *every*
   hand it has led this deal (:func:`signals_sent`, :func:`sends`): the
   signal rules out higher holdings as well as announcing one. When no
   sample fits for 300 draws (a partner that signals differently) the tests
   loosen: the current signal only, then what it announces
   (:func:`holds_signal`), then nothing.
   The opponents' cards need no sampling: a side's hand points depend on its
   own cards only.
2. **Candidates.** On each of the first few worlds, the best hand the two
   could finish seeing both hands (double dummy, :func:`best_joint`; every
   split is reachable by passing, see ``server/analysis/concerto_par.py``); our
   cards in it are a candidate contribution. So are giving nothing and what
   the signals bot would give.
3. **Scores.** Each candidate is scored on every world exactly as play then
   goes: we play it, call 'Play', and the leader completes the hand as well as
   its own cards allow. The best average wins (ties: fewer cards, then the
   most useful cards kept).

Each search samples for at most half its ``budget_ms`` (at least
``min_worlds``, at most ``max_worlds`` worlds, 128 by default), and stops
proposing candidates at the budget once the first are done. The plans are
kept for the rest of the hand. The samplers run the leader's checklist
(:func:`leader_signal`) about 20 times for each world they keep; it stops
at the first holding nothing later in the checklist can beat (36 µs a
call instead of 75). Measured per searched decision at the default 80 ms
budget (12 deals, 158 decisions): 113 worlds on average, 57 ms median, 113
ms at worst; the lead is not searched (under 0.1 ms). A deal (eight hands,
both sides) takes about 0.9 s. More worlds measured better, but little
and unevenly: in pairs (below; 300 deals), 60 worlds instead of 20 gained
+0.84 ± 0.95 points of percent of par, 120 worlds +1.13 ± 0.96, 240 worlds
only +0.33 ± 1.03; at 120 worlds, twice the worlds proposing candidates
(12, and 6 for each card a pass may show) +0.07 ± 0.55 more. Raising the
cap from 32 worlds to 128 (with the faster checklist, the default budget
now fills it) took the bot from 77.8% to 78.2% over 1,000 deals
(``penguin`` 74.1% to 74.4%).

Measured over 1,000 deals (``python -m bots.tools.par_arena --deals 1000``):
78.2 ± 0.7% of double-dummy par against 67.1 ± 0.7% for the signals bot
(``penguin``: 74.4 ± 0.7% against 63.4 ± 0.7%), and +9.31 ± 1.04 points per
deal against it in duplicate (+9.59 ± 1.04 under ``penguin``; the
duplicate also counts the left-over bonus, and its interval is wider than
the change); with at most 32 worlds, 77.8% (74.1%) and +9.79 (+10.05);
before the partner passed to see more, 77.6% (74.0%) and +9.62 (+9.96);
with a full house shown whole 77.1% (73.2%) and +8.89 (+9.04); with
Parlett's order of the checklist 76.3% (72.6%) and +8.50 (+8.78); before
the answer to the lead and the sampling by every signal, 72.8% (69.0%) and
+5.2.

Variants compared in pairs — the same deals with 20 worlds per decision
and an unlimited budget, so that a run repeats exactly and only the change
differs; the difference in points of percent of par, 95% interval: the
full house shown as threes +0.80 ± 0.54 (1,000 deals; ``penguin`` +0.93 ±
0.81 over 400), kept; on top of it, passing after the signal to see one
more card +0.19 ± 0.18 (1,000 deals; ``penguin`` +0.42 ± 0.26 over 400),
kept. No better: 'nothing' (a card, then 'Play') before
three to a flush or straight −0.22 ± 0.34, before four to one −0.67 ± 0.49
(300 deals); the pair before two pairs −0.62 ± 0.63 (400); choosing the
leader's completion, or the partner's contribution, by its points plus
the mean score of the best holding the kept cards leave for the player's
next lead (measured per holding: four to a straight flush 11.0, a full
house 9.7, three to a straight flush 8.3, two pairs 7.3, a pair 5.8) +0.07
± 0.28 and +0.10 ± 0.43 (400).

Other orders of the checklist (200 deals, ±1.4; Parlett's 76.2%, the
card's 78.3%): only the pair moved up 77.9%, the pair after four to a flush
77.8%, two pairs before three to a straight flush and the pair before a
five-card flush 75.0%. In pairs with the bot as it is (300 deals, 20
worlds): three to a straight flush before threes −0.21 ± 1.20, a five-card
flush or straight before three to a straight flush −2.14 ± 1.37.

Other patterns, in pairs (20 worlds). The lead is the one card a partner
can answer before the leader commits a second, so threes held beside three
to a straight flush were led by the straight flush's card, then pass: the
partner could answer with the straight flush's other two cards (3+2, 20),
and after its pass the pass still said threes, with the led card as a
kicker. +0.55 ± 0.67 over the first 1,000 deals but +0.29 ± 0.48 over
2,000, −0.31 ± 1.21 at 120 worlds (300 deals), and 78.2% of par over 1,000
deals at the default budget, as before: not clearly better, and a signals
partner would misread it, so it was left out. On top of it, against it
(300 deals), no better: a red card of the threes second instead of the
pass −0.08 ± 1.01; four to a straight flush shown that way beside threes
−0.98 ± 0.96; two pairs shown by a card of each pair +0.08 ± 0.33 (1,000
deals); threes led by the heart when a pair is beside them, else by the
diamond, +0.00 ± 0.50, the reverse −0.28 ± 0.66; threes whose fourth card
is already played after two pairs −0.32 ± 0.54; three to a straight flush
with one live window only after two pairs −0.90 ± 1.14. Against the bot as
it is (300 deals): three to a straight flush shown by its first card and a
pass, keeping its second card back, −1.28 ± 1.10 (the second card tells
more than it costs); fours, which score 8 alone whenever they are played,
kept back at the player's first lead (after two pairs, or last) −0.55 ±
0.76 and −0.52 ± 0.77; one pair shown by the pair with most of its rank
unseen changed 4 deals of 300 (two pairs come first when there are two).

Tried and measured no better (200 deals, ±1.3): more worlds, when the bot
was weaker (a 300 ms budget and 96 worlds: 76.1% against 76.2%, not paired;
see above for the paired measure); also requiring the leader's earlier
completions to have been its best (76.3%); twice the candidate worlds for the
answer (76.5%); a margin of ±0.5 points between answering and passing (75.3%,
74.9%; later, in pairs, answering rather than passing when the two are
level: −0.74 ± 0.61, 300 deals); valuing the cards kept by the best five
the partner could then make alone (76.0%). Weighing what a choice leaves
for the deal's other hands by their double-dummy par
(``concerto_par.max_hands``) over sampled hidden hands, for the leader's
completion or the partner's contribution: 75.4% and 75.6% against 75.7%
(100 deals) — with the *true* hidden hand it would be worth 78.5% and
78.1%, so planning needs knowledge the signals do not give. Earlier:
searching the leader's choice of holding with the
signals bot as the model partner, a straight-flush probe right after the
lead. A partner that *knew* when the leader holds the other pair of a rank
for fours 2+2 would gain only 0.5 points of percent, so no probe protocol
for it was built. The gap to par is the leader's: it signals by the
checklist without knowing its partner's cards; the order of the checklist is
the part of that a convention can change without hiding the holding.

A leader that searches its holding was measured and left out (100 deals,
±2.1, against 77.7% for this bot on the same deals). It tried every holding
the checklist finds: for each, it played the hand out against sampled
partner hands, with the real partner code answering. With the search
partner as the model (10 ms, 6 sampled hands) it scored 75.8%, at 13 s a
deal. With the signals bot as the model (16 hands) it scored 75.6%. The
choice is worth a lot only to a leader that sees the partner's cards:
picking the holding whose real play scored best reached 89.5%. Part of
that is luck. On 25 deals, this bot played once scored 79.2%. Replaying its
own holding with four other random streams and keeping the best reached
83.8%. Picking the holding reached 90.3%. No other holding beats the
order's choice on average. For example, with three to a straight flush,
showing a pair instead did better on 34 of 99 hands but was 0.13 points
worse on average. Which hands it helps depends on the partner's cards, and
sampling does not see them.

The gap is information, not planning: two partners who see each other's
hands and take, hand by hand, the best hand they can make through any of
the leader's cards reach 99.0% of par (200 deals, ties broken by the cards
kept). Through the card this bot leads, that best hand is worth 87.8% of
the best through any of the leader's cards (120 deals, the partner's cards
seen); more than half of that loss is at each side's first lead, when
nothing is known of the partner yet. The hands actually played reach
84.7% of the best through the card led; the most is lost after three to a
straight flush (2.3 points a lead), four to one (2.0), threes (1.4) and two
pairs (1.3). The two halves do not simply add up: with the partner seeing
the leader's hand at both its decisions, 86.3% of par (200 deals); with the
leader also leading the card whose double-dummy best is highest, seeing its
partner's hand, only 87.9% (+1.56 ± 0.95; the partner's value of a pass
still expects the checklist's second card, so part of the gain is lost to
that). A hand that falls short of its best also spends cards the later
hands needed.

Where the rest of the gap lies, by oracles (200 deals in pairs as above; the
partner's worlds are made to agree with the leader's real cards at one
decision only): knowing the leader's whole hand when answering the lead is
worth +4.1 ± 1.4 points of percent, only its cards of the lead's suit +1.9
± 1.5, of the lead's rank +0.3 ± 1.3, its whole signal (holding and second
card) +1.2 ± 1.4; knowing the whole hand when contributing after the
signal +3.5 ± 1.2; both, 86.3% of par. At the contribution most of that
comes after threes, three to a straight flush and a pair (0.66, 0.60 and
0.48 points a deal, 150 deals): cards the checklist never shows — a pair
that meets the partner's two for fours 2+2 beside the threes' card, a
straight flush through the lead. Seeing one more card recovers a little of
it; playing the least repeated, or the least related, card of the
leader's completion first (to tell more) measured no better: −0.37 ± 0.31
and −0.11 ± 0.21 (400 deals); nor did a probe, answering the lead with one
card and a pass so that the leader shows the next card of its best hand
with it (valued like the pass to see more): −0.47 ± 0.86, and with a
0.5-point margin −0.24 ± 0.49 (300 deals); the same probe where the
partner must play anyway (after threes or a pair, a card and a pass):
−0.28 ± 0.33 (300 deals, 120 worlds). Sampling harder before loosening the
tests (3,000 draws instead of 300; about one searched decision a deal
loosens them): +0.07 ± 0.22 (300 deals). A pass is valued as if the
partner then chose the best contribution for the worlds that send each
signal, proposed by those same worlds — for a signal only one world sends,
that is double dummy. Valuing it honestly instead (each world scored by
the choice the other worlds of its group make, and giving nothing when
none do) measured worse: −1.37 ± 0.85 (300 deals, 120 worlds).

About half of the answer's share is fours 2+2 through any lead card:
knowing, when answering, only the leader's cards of the ranks the partner
holds a pair of is worth +2.3 ± 1.1 (300 deals; on the first 200, +1.9
against +3.7 ± 1.4 for the whole hand). No cheap channel carries it: only
the lead card is shown before the answer, and a card played to ask (the
probe above) or a pair shown instead of three to a straight flush costs
more than it finds (that order for a leader with two or more other pairs
−2.24 ± 1.47, three or more −1.55 ± 1.37; 300 deals). With the leader's
hand known at both decisions every hand made its double-dummy best through
the card led (13,836 of 13,845 points, 200 deals), and three quarters of
what that knowledge adds comes in each side's first hand, when nothing is
known yet. Three small changes measured level (600 deals): of several
three-card straight-flush holdings, showing the one with the most live
windows −0.01 ± 0.65; offering the partner's pairs whose other two cards
are unseen as candidates +0.08 ± 0.36; valuing a pass at the answer, for
the leaders that would show threes or a pair, by those worlds' own best
contribution +0.07 ± 0.07.

The leader's own choice at its later leads (from the side's second hand on,
when it has seen its partner's signal) is worth about as much as that pair
knowledge, but only to a leader that sees its partner's cards. Among the
holdings the checklist finds, showing the one whose lead card has the
highest double-dummy best with the partner's real cards gained +2.0 ± 0.7
(300 deals in pairs, 20 worlds; the partner plays as this bot does). It
changed 227 of about 1,800 later leads, of many kinds: three to a straight
flush shown as two pairs or a pair (36), a pair as three or four to a flush
(28), two pairs as three to a flush (13). The same choice over 16 partner
hands sampled from the partner's signals lost −3.6 ± 1.0; made only when
its mean beat the checklist's by 2 points, −0.13 ± 0.43; by 4 points,
+0.12 ± 0.17 (7 deals changed). The partner's signals tell too little to
choose by.

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


# The search bot's convention card: Parlett's checklist (RULES.md Appendix A,
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

    Each reading is checked for what it announces (RULES.md Appendix A): fours
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
    reachable by passing (see ``server/analysis/concerto_par.py``).
    """
    need = 5 - len(prefix)
    owner = {c: me for c in mine}
    owner.update({c: leader for c in theirs})
    fixed = tuple(fast(c) for _, c in prefix)
    best_points, best_cards = -1, ()
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
        state = self._state = view["state"]
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

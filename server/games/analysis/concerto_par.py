"""Double-dummy par for Concerto: the most a side could score had both partners seen all.

For one side's 26 cards, the dealer and the rules edition, :func:`side_par`
computes two exact bounds (docs/rules/concerto.md):

* ``max_hands`` — the largest total of the side's four hands that any legal
  play reaches (hand scores, C2–C4, C16);
* ``min_leftover`` — the smallest left-over bonus (10 × value, C14, C15, C19)
  the side's six unplayed cards can be made to show.

The two are separate bounds: a play reaching one may not reach the other.
Only the side's own cards matter: the opponents play their own hands in
between, and nothing they do changes which of its cards a side can combine.

>>> first = "9H TH JH 2S 2H 4S 4H 6S 6H 3S 5D 7C 9D".split()
>>> second = "QH KH 2D 2C 4D 4C 6D 6C TC QD AC KD JS".split()
>>> side_par(first, second, "parlett-2013")   # straight flush 3+2 (20), fours 2+2 × 3
Par(max_hands=68, min_leftover=0)
>>> side_par(first, second, "penguin").max_hands   # the straight flush led by its 2-holder
73

**Which plays are legal — the reduction to card sets.** In one hand (leader
L, partner P) the first card must be L's (C6) unless L has no cards, when P
leads (C11). After any card either partner can supply the next one: the
player on turn plays it, or passes and the partner plays it (one pass is
always allowed after a card: the pass count restarts at every card, C6/C7,
and the passer's partner has cards, else the turn would not have come to the
passer, C11/C12). 'Play' (C8/C9) adds nothing new. So a hand is exactly any
five of the side's remaining cards containing at least one of L's, led by L —
or, when L is empty, five of P's, led by P. Its points depend only on the five
cards, who gave which, and who led (C3).

Across the deal, the side's hands are led X, Y, X, Y (X = the first of its
players to lead). A designated leader who still holds cards plays at least
one card of its hand, so a deal's play is a partition of 20 of the 26 cards
into four hands, two "led by X" with at least one of X's cards, two "led by
Y" with at least one of Y's — in any order, since hands take disjoint cards.
Could a leader be empty? X plays at most 5 + 4 cards in hands 1–2, so X
always has cards for hand 3; Y can be empty at hand 4 only after playing
4 + 5 + 4 of its 13 cards in hands 1–3, one card of X's in hands 1 and 3 —
and then the same four card sets score the same played as hand 1 = X's five,
hand 2 = Y's five, hand 3 = hand 3, hand 4 = old hand 1 led by Y (4 + 1 either
way round is 15 in both editions, fours do not care who leads). So
``max_hands`` is the best such labelled partition, and ``min_leftover`` the
least left-over value of the six cards such a partition leaves (any six: each
partner still plays at least seven cards, enough to lead its two hands).

**How it is fast.** Values are decided by card *sets*, so the search is over
sets, never over move orders. A partition's hands are its flushes and
straight flushes, whose cards matter suit by suit, and the rest, whose values
depend on ranks alone: a straight, fours (worth the split in which the
partners hold that rank's four cards, fixed by the deal), a full house,
threes or pairs, each made by a few "core" cards of given ranks, filled with
any other cards (a filler can only raise a hand's category). So the search
has two phases:

1. *Suited hands* (flushes and straight flushes) are enumerated explicitly,
   card by card, best first, in canonical (increasing index) order.
2. Everything else depends only on how many cards of each rank remain
   (straights, fours, full houses, threes, pairs): :meth:`_Solver.rank_best`
   solves that exactly from the 13 rank counts — straights are enumerated as
   multisets of windows, the best fours are taken by value, and trips and
   pairs are matched into full houses, threes and pairs by a small table
   (:func:`_units`). It is memoised on the packed counts, and its answer for
   the current cards is an exact upper bound for every sub-search, which
   prunes phase 1 (branch and bound: a suited hand is tried only if its value
   plus the rank-only optimum of what is left can beat the best found).

Who leads a hand matters only for the Penguin book's 3+2 straight flush (25
when led by the player with two of its cards) and for sides that could build
more single-owner hands than they lead (never in a real deal: 13 cards make
at most two five-card hands). Only then is a candidate checked card by card
(:meth:`_Solver.exact_leaf`): the rank-only hands are enumerated and each
hand is given a leader and a card of that leader's, or a spare card of his as
a filler. Measured on 1,000 random sides per edition: about 10 ms on average
per side, under 0.1 s in the worst case (``tests/games/test_concerto_par.py``
keeps it under a second). A deal's two pars are cached by the cards, so a
replay asked for again costs nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import combinations, product
from typing import Any

from server.games.concerto import EDITIONS, FOURS_POINTS, SIDE_NAMES, Edition, parse_options

RANKS = "23456789TJQKA"
SUITS = "SHDC"
FLUSH, STRAIGHT = 6, 5

# Five-rank windows of a straight, as rank indexes (0 = deuce … 12 = ace): the
# wheel A-2-3-4-5 first, then 2-6 up to T-A (C5: no wrap-around).
WINDOWS = tuple(tuple((w + i - 1) % 13 for i in range(5)) for w in range(10))
_GUARDS = sum(8 << (4 * r) for r in range(13))


def _delta(ranks: Iterable[int]) -> int:
    """The packed rank counts (4 bits a rank) of some cards."""
    return sum(1 << (4 * r) for r in ranks)


def _has(code: int, delta: int) -> bool:
    """Whether the packed counts ``code`` hold every card counted in ``delta``."""
    return ((code | _GUARDS) - delta) & _GUARDS == _GUARDS


@dataclass(frozen=True)
class Par:
    """A side's double-dummy bounds for one deal (points, as scored)."""

    max_hands: int
    min_leftover: int

    def to_dict(self) -> dict[str, int]:
        return {"max_hands": self.max_hands, "min_leftover": self.min_leftover}


@dataclass(frozen=True)
class _Suited:
    """A flush or straight flush, card by card: its value if led by X or by Y."""

    value: int  # the better of the two (an upper bound)
    mask: int
    delta: int
    owners: tuple[tuple[int, int], ...]  # (rank, owner) of each card
    by_x: int | None  # None: cannot be led by X (none of X's cards in it)
    by_y: int | None

    @property
    def leader_matters(self) -> bool:
        return self.by_x is not None and self.by_y is not None and self.by_x != self.by_y


@dataclass(frozen=True)
class _RankHand:
    """A hand decided by ranks alone: its cards per rank, any suits and owners."""

    value: int
    delta: int
    ranks: tuple[tuple[int, int], ...]  # (rank, how many)
    size: int


@cache
def _units(n2: int, n3: int, n4: int, m: int) -> int:
    """Best points of ``m`` hands built from trips and pairs alone.

    ``n2``, ``n3``, ``n4``: how many ranks have 2, 3, 4 cards left. A rank of
    three gives threes or a pair, a rank of four threes or two pairs (its
    fours are counted separately). Full house = threes + a pair of another
    rank (8), threes 3, two pairs 2, one pair 1 (the table of docs/rules/concerto.md).
    """
    best = 0
    for j3 in range(min(n3, m) + 1):
        for j4 in range(min(n4, m - j3) + 1):
            trips = j3 + j4
            pairs = n2 + (n3 - j3) + 2 * (n4 - j4)
            for fh in range(min(trips, pairs, m) + 1):
                for threes in range(min(trips - fh, m - fh) + 1):
                    rest = m - fh - threes
                    # pairs left: two pairs score 2, a pair 1; at most 2 a hand
                    value = 8 * fh + 3 * threes + min(pairs - fh, 2 * rest)
                    best = max(best, value)
    return best


def _shift(counts: list[int], hist: list[int], window: Sequence[int], step: int) -> None:
    """Take (``step`` -1) or give back (+1) one card of each rank of a straight's window."""
    for r in window:
        hist[counts[r]] -= 1
        counts[r] += step
        hist[counts[r]] += 1


class _Solver:
    """One side's cards, ready for :meth:`max_hands`.

    Args:
        first: the cards of X, the side's player who leads first.
        second: the cards of Y, X's partner.
        edition: the rules edition.
        hands: how many hands X and Y lead (2, 2 in a deal; tests use fewer).
    """

    def __init__(self, first: Sequence[str], second: Sequence[str], edition: Edition,
                 hands: tuple[int, int]) -> None:  # fmt: skip
        self.edition = edition
        self.n_x, self.n_y = hands
        self.n = self.n_x + self.n_y
        self.a = [0] * 13  # X's cards per rank
        self.b = [0] * 13
        self.cards: list[tuple[int, int, int]] = []  # (rank, suit, owner)
        for owner, cards in enumerate((first, second)):
            for card in cards:
                r, s = RANKS.index(card[0]), SUITS.index(card[1])
                self.cards.append((r, s, owner))
                (self.a if owner == 0 else self.b)[r] += 1
        if len(self.cards) < 5 * self.n:
            raise ValueError(f"{len(self.cards)} cards cannot make {self.n} hands")
        self.fours = [
            FOURS_POINTS[max(self.a[r], self.b[r])] if self.a[r] + self.b[r] == 4 else 0
            for r in range(13)
        ]
        # Any partition of the cards can be given leaders when neither player
        # can build more single-owner hands than it leads (always in a deal).
        self.any_partition_leads = len(first) // 5 <= self.n_x and len(second) // 5 <= self.n_y
        self.suited: list[_Suited] = []
        self.memo: dict[int, tuple[int, ...]] = {}
        self.best = -1

    def _suited_hands(self) -> list[_Suited]:
        """Every flush and straight flush in the cards, best value first."""
        points = self.edition.straight_flush_points
        found = []
        for suit in range(4):
            held = sorted((r, o) for r, s, o in self.cards if s == suit)
            for five in combinations(held, 5):
                ranks = [r for r, _ in five]
                n_x = sum(1 for _, o in five if o == 0)
                straight = ranks[4] - ranks[0] == 4 or ranks == [0, 1, 2, 3, 12]
                if straight:  # C2/C3: by the leader's share
                    by_x = points[n_x] if n_x else None
                    by_y = points[5 - n_x] if n_x < 5 else None
                else:
                    by_x = FLUSH if n_x else None
                    by_y = FLUSH if n_x < 5 else None
                found.append(_Suited(
                    value=max(v for v in (by_x, by_y) if v is not None),
                    mask=sum(1 << (13 * suit + r) for r in ranks),
                    delta=_delta(ranks), owners=tuple(five), by_x=by_x, by_y=by_y,
                ))  # fmt: skip
        found.sort(key=lambda h: -h.value)
        return found

    # -- phase 2: hands decided by ranks alone ---------------------------------
    def rank_best(self, code: int) -> tuple[int, ...]:
        """Best points of 0..n hands built without suits from the packed counts.

        Exact: every rank-only hand is a straight (a window), fours (a rank
        with all four cards left, worth its C4 split), or built from trips and
        pairs; straights are enumerated as window multisets, then fours
        (the highest-valued first: all leave the same trips and pairs), then
        :func:`_units`. Entry ``k`` is the best with at most ``k`` hands.
        """
        known = self.memo.get(code)
        if known is not None:
            return known
        counts = [(code >> (4 * r)) & 15 for r in range(13)]
        hist = [0] * 5
        for c in counts:
            hist[c] += 1
        best = [0] * (self.n + 1)

        def visit(straights: int, start: int) -> None:
            self._without_straights(best, straights, counts, hist)
            if straights == self.n:
                return
            for w in range(start, 10):
                window = WINDOWS[w]
                if all(counts[r] for r in window):
                    _shift(counts, hist, window, -1)
                    visit(straights + 1, w)
                    _shift(counts, hist, window, +1)

        visit(0, 0)
        result = tuple(best)
        self.memo[code] = result
        return result

    def _without_straights(
        self, best: list[int], straights: int, counts: Sequence[int], hist: Sequence[int]
    ) -> None:
        """Raise ``best`` with ``straights`` straights taken: the best fours, then :func:`_units`.

        Every rank with four cards left leaves the same trips and pairs, so the
        fours are taken by value, highest first.
        """
        n = self.n
        quads = sorted((self.fours[r] for r in range(13) if counts[r] == 4), reverse=True)
        fours_points = 0
        for j in range(min(len(quads), n - straights) + 1):
            if j:
                fours_points += quads[j - 1]
            used = straights + j
            base = STRAIGHT * straights + fours_points
            for k in range(used, n + 1):
                value = base + _units(hist[2], hist[3], hist[4] - j, k - used)
                if value > best[k]:
                    best[k] = value

    # -- phase 1: suited hands, branch and bound -------------------------------
    def max_hands(self) -> int:
        code = sum(1 << (4 * r) for r, _, _ in self.cards)
        self.suited = self._suited_hands()
        self.best = -1
        self._suited_search(0, 0, code, 0, (), self.n)
        return self.best

    def _suited_search(self, start: int, used: int, code: int, total: int,
                       chosen: tuple[_Suited, ...], left: int) -> None:  # fmt: skip
        ranked = self.rank_best(code)
        if total + ranked[left] > self.best:
            if self.any_partition_leads and not any(h.leader_matters for h in chosen):
                self.best = total + ranked[left]
            else:
                self.exact_leaf(chosen, code, left)
        if left == 0:
            return
        for i in range(start, len(self.suited)):
            hand = self.suited[i]
            v = hand.value
            # the rest: k - 1 more suited hands worth at most v, rank-only hands
            if total + max(k * v + ranked[left - k] for k in range(1, left + 1)) <= self.best:
                break
            if hand.mask & used:
                continue
            self._suited_search(i + 1, used | hand.mask, code - hand.delta, total + v,
                                (*chosen, hand), left - 1)  # fmt: skip

    # -- who leads what: the card-by-card check -------------------------------
    def exact_leaf(self, chosen: tuple[_Suited, ...], code: int, left: int) -> None:
        """Best exact total with the suited hands ``chosen`` and ``left`` other hands.

        Enumerates rank-only hands (best first, bounded by :meth:`rank_best`)
        and, for each candidate, the leaders of all hands (:meth:`_lead_value`).
        """
        a2, b2 = list(self.a), list(self.b)
        for hand in chosen:
            for r, owner in hand.owners:
                (a2 if owner == 0 else b2)[r] -= 1
        optimistic = sum(h.value for h in chosen)
        specs = self._rank_hands(code)

        def search(start: int, code: int, value: int, taken: tuple[_RankHand, ...],
                   left: int) -> None:  # fmt: skip
            ranked = self.rank_best(code)
            if optimistic + value + ranked[left] <= self.best:
                return
            if optimistic + value > self.best:
                lead = self._lead_value(chosen, taken, left, a2, b2)
                if lead is not None and lead + value > self.best:
                    self.best = lead + value
            if left == 0:
                return
            for i in range(start, len(specs)):
                spec = specs[i]
                bound = max(k * spec.value + ranked[left - k] for k in range(1, left + 1))
                if optimistic + value + bound <= self.best:
                    break
                if _has(code, spec.delta):
                    search(i, code - spec.delta, value + spec.value, (*taken, spec), left - 1)

        search(0, code, 0, (), left)

    def _rank_hands(self, code: int) -> list[_RankHand]:
        """Every minimal rank-only hand the counts allow, best first."""
        counts = [(code >> (4 * r)) & 15 for r in range(13)]
        specs = [
            _RankHand(STRAIGHT, _delta(w), tuple((r, 1) for r in w), 5)
            for w in WINDOWS if all(counts[r] for r in w)
        ]  # fmt: skip
        for r in range(13):
            if counts[r] == 4:
                specs.append(_RankHand(self.fours[r], 4 << (4 * r), ((r, 4),), 4))
            if counts[r] >= 3:
                specs.append(_RankHand(3, 3 << (4 * r), ((r, 3),), 3))
                for p in range(13):
                    if p != r and counts[p] >= 2:
                        specs.append(_RankHand(8, (3 << (4 * r)) + (2 << (4 * p)),
                                               ((r, 3), (p, 2)), 5))  # fmt: skip
            if counts[r] >= 2:
                specs.append(_RankHand(1, 2 << (4 * r), ((r, 2),), 2))
                for q in range(r + 1, 13):
                    if counts[q] >= 2:
                        specs.append(_RankHand(2, (2 << (4 * r)) + (2 << (4 * q)),
                                               ((r, 2), (q, 2)), 4))  # fmt: skip
        specs.sort(key=lambda s: -s.value)
        return specs

    def _lead_value(self, suited: Sequence[_Suited], ranked: Sequence[_RankHand], junk: int,
                    a2: Sequence[int], b2: Sequence[int]) -> int | None:  # fmt: skip
        """Best points of the suited hands over every legal choice of leaders.

        X leads ``n_x`` hands, Y ``n_y``, and each hand needs a card of its
        leader's: in a suited hand that is fixed; a rank-only hand takes it
        from one of its ranks (``a2``/``b2``: the cards per rank left after
        the suited hands) or as a filler among the cards nobody uses; a junk
        hand (``junk`` of them, worth nothing) as a filler. None: no choice.
        """
        options = [
            [(who, v) for who, v in ((0, h.by_x), (1, h.by_y)) if v is not None] for h in suited
        ]
        assignments = []
        for leads in product(*options):
            x_suited = sum(1 for who, _ in leads if who == 0)
            value = sum(v for _, v in leads)
            for ranked_leads in product((0, 1), repeat=len(ranked)):
                x_junk = self.n_x - x_suited - ranked_leads.count(0)
                if 0 <= x_junk <= junk:
                    assignments.append((value, ranked_leads, x_junk))
        assignments.sort(key=lambda a: -a[0])
        for value, ranked_leads, x_junk in assignments:
            if self._leaders_have_cards(ranked, ranked_leads, x_junk, junk - x_junk, a2, b2):
                return value
        return None

    @staticmethod
    def _leaders_have_cards(ranked: Sequence[_RankHand], leads: Sequence[int], x_junk: int,
                            y_junk: int, a2: Sequence[int], b2: Sequence[int]) -> bool:  # fmt: skip
        """Whether each rank-only and junk hand can hold a card of its leader's.

        Each rank-only hand names where its leader's card comes from (one of
        its ranks, or a filler) and the per-rank and filler counts are checked:
        of rank r the hands use K cards, x of them X's, with room for the
        witnesses of each owner; the fillers come from the cards left unused.
        """
        need = [0] * 13
        for hand in ranked:
            for r, k in hand.ranks:
                need[r] += k
        choices = []
        for hand, who in zip(ranked, leads, strict=True):
            own = a2 if who == 0 else b2
            opts: list[int | None] = [r for r, _ in hand.ranks if own[r]]
            if hand.size < 5:
                opts.append(None)  # a filler
            choices.append(opts)
        totals = (sum(a2), sum(b2), sum(need))
        return any(
            _Solver._pick_fits(pick, leads, x_junk, y_junk, need, a2, b2, totals)
            for pick in product(*choices)
        )

    @staticmethod
    def _pick_fits(pick: Sequence[int | None], leads: Sequence[int], x_junk: int, y_junk: int,
                   need: Sequence[int], a2: Sequence[int], b2: Sequence[int],
                   totals: tuple[int, int, int]) -> bool:  # fmt: skip
        """Whether one choice of witnesses (a rank, or None: a filler) fits the counts."""
        total_a, total_b, total = totals
        wit_a, wit_b = [0] * 13, [0] * 13
        fill_a, fill_b = x_junk, y_junk
        for rank, who in zip(pick, leads, strict=True):
            if rank is None:
                if who == 0:
                    fill_a += 1
                else:
                    fill_b += 1
            elif who == 0:
                wit_a[rank] += 1
            else:
                wit_b[rank] += 1
        low = high = 0
        for r in range(13):
            if need[r]:
                lo = max(wit_a[r], need[r] - b2[r])
                hi = min(a2[r], need[r] - wit_b[r])
                if lo > hi:
                    return False
                low += lo
                high += hi
        # x = X's cards the rank-only hands use; the rest are fillers
        return max(low, total - total_b + fill_b) <= min(high, total_a - fill_a)


def max_hands(first: Sequence[str], second: Sequence[str], rules: str = "parlett-2013",
              hands: tuple[int, int] = (2, 2)) -> int:  # fmt: skip
    """The most a side's hands can score (see the module docstring).

    Args:
        first: the cards of the side's player who leads its first hand.
        second: the partner's cards.
        rules: ``parlett-2013`` or ``penguin``.
        hands: hands led by each (two each in a deal).

    Raises:
        ValueError: too few cards for the hands, or an unknown edition.
    """
    return _Solver(first, second, _edition(rules), hands).max_hands()


def min_leftover(first: Sequence[str], second: Sequence[str], rules: str = "parlett-2013",
                 hands: tuple[int, int] = (2, 2)) -> int:  # fmt: skip
    """The smallest left-over bonus (10 × value, C14/C15/C19) the side can leave.

    Any cards may be left as long as each player still plays at least one card
    in each hand it leads. Fewer than five left-overs make no combination (0).
    The search picks left-overs card by card and abandons a set as soon as its
    pairs, threes or suit lengths already reach the best value found.

    Raises:
        ValueError: too few cards for the hands, or an unknown edition.
    """
    edition = _edition(rules)
    n_x, n_y = hands
    cards = sorted(list(first) + list(second), key=lambda c: (RANKS.index(c[0]), c[1]))
    keep = len(cards) - 5 * (n_x + n_y)
    if keep < 0:
        raise ValueError(f"{len(cards)} cards cannot make {n_x + n_y} hands")
    if keep < 5:
        return 0
    own = set(first)
    max_x, max_y = len(first) - n_x, len(second) - n_y  # left-overs each may keep
    best = [10**9]
    chosen: list[str] = []
    rank_count: dict[str, int] = {}
    suit_count: dict[str, int] = {}

    def search(start: int, x_kept: int, y_kept: int) -> None:
        if best[0] == 0 or _floor_value(rank_count, suit_count) >= best[0]:
            return
        if len(chosen) == keep:
            best[0] = min(best[0], edition.leftover_value(chosen)[0])
            return
        for i in range(start, len(cards) - (keep - len(chosen)) + 1):
            card = cards[i]
            mine = card in own
            if (x_kept + mine > max_x) or (y_kept + (not mine) > max_y):
                continue
            chosen.append(card)
            rank_count[card[0]] = rank_count.get(card[0], 0) + 1
            suit_count[card[1]] = suit_count.get(card[1], 0) + 1
            search(i + 1, x_kept + mine, y_kept + (not mine))
            chosen.pop()
            rank_count[card[0]] -= 1
            suit_count[card[1]] -= 1

    search(0, 0, 0)
    return 10 * best[0]


def _floor_value(rank_count: Mapping[str, int], suit_count: Mapping[str, int]) -> int:
    """A value the left-overs chosen so far already guarantee, whatever is added to them."""
    counts = sorted(rank_count.values(), reverse=True) + [0, 0]
    top, second_top = counts[0], counts[1]
    value = 0
    if top >= 4 or (top == 3 and second_top >= 2):
        value = 8
    elif max(suit_count.values(), default=0) >= 5:
        value = FLUSH
    elif top == 3:
        value = 3
    elif top == 2:
        value = 2 if second_top == 2 else 1
    return value


def side_par(first: Sequence[str], second: Sequence[str], rules: str = "parlett-2013",
             hands: tuple[int, int] = (2, 2)) -> Par:  # fmt: skip
    """Both bounds for one side: :func:`max_hands` and :func:`min_leftover`."""
    return Par(max_hands(first, second, rules, hands), min_leftover(first, second, rules, hands))


@lru_cache(maxsize=1024)
def _deal_par(hands: tuple[tuple[str, ...], ...], dealer: int, rules: str) -> tuple[Par, Par]:
    pars = []
    for side in (0, 1):
        # hand k is led by (dealer + k) % 4: the side's first leader leads its
        # first hand (hand 1 or 2), the partner the next one
        first = next((dealer + k) % 4 for k in (1, 2) if (dealer + k) % 2 == side)
        second = (first + 2) % 4
        pars.append(side_par(hands[first], hands[second], rules))
    return pars[0], pars[1]


def deal_par(hands: Sequence[Sequence[str]], dealer: int, rules: str = "parlett-2013"
             ) -> dict[str, Par]:  # fmt: skip
    """Par of both sides of one deal: ``{"NS": Par, "EW": Par}``.

    Args:
        hands: the 13 cards dealt to each seat 0..3.
        dealer: the dealer's seat.
        rules: the edition.
    """
    key = tuple(tuple(sorted(h)) for h in hands)
    ns, ew = _deal_par(key, dealer, rules)
    return {SIDE_NAMES[0]: ns, SIDE_NAMES[1]: ew}


def replay_par(
    options: Mapping[str, Any], events: Iterable[Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """Par of every deal of a finished game, from its full event record.

    The record holds each deal's header (``deal``), each seat's dealt cards
    (``hand``, private until the game ends) and the deal's scoring
    (``deal_end``). One entry per deal, oldest first::

        {"game": 1, "deal": 1, "dealer": 3,
         "NS": {"max_hands": 44, "min_leftover": 0, "hand_points": 31}, "EW": {...}}

    Args:
        options: the game's options (the edition is read from them).
        events: every event, as stored (``{"kind", "data", ...}``).
    """
    rules = parse_options(options).rules
    out: list[dict[str, Any]] = []
    header: dict[str, Any] | None = None
    dealt: dict[int, list[str]] = {}
    for event in events:
        kind, data = event["kind"], event["data"]
        if kind == "deal":
            header, dealt = data, {}
        elif kind == "hand" and header is not None:
            dealt[data["seat"]] = list(data["cards"])
        elif kind == "deal_end" and header is not None and len(dealt) == 4:
            par = deal_par([dealt[s] for s in range(4)], header["dealer"], rules)
            entry: dict[str, Any] = {k: header[k] for k in ("game", "deal", "dealer")}
            for name in SIDE_NAMES:
                entry[name] = {**par[name].to_dict(),
                               "hand_points": data["hand_points"][name]}  # fmt: skip
            out.append(entry)
            header = None
    return out


def _edition(rules: str) -> Edition:
    try:
        return EDITIONS[rules]
    except KeyError:
        raise ValueError(f"unknown rules edition {rules!r}") from None

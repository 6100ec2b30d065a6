"""The rule hooks in which the Pinochle variants and options differ.

Each family of differences is one small class hierarchy, chosen by an option,
so the state reads the same for every variant (like Concerto's
``Edition``):

* :class:`Counting` — ``count``: the counters' values;
* :class:`HeadRule` — ``head_rule``: the trick obligations (P6);
* :class:`CheckTable` — ``check_table``: Check's check ledger (P11, P13, P14);
* :class:`Auction` — how the contract is bid (Firehouse P9, Check P15, P16);
* :class:`Variant` — ``variant``: pack, deal, turned trump, auction, settling a deal.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import ClassVar

from ..kit.base import Seat
from ..kit.cards import DOUBLE_PINOCHLE, PINOCHLE, Card, Pack
from .melds import MeldTable, has_marriage

RANKS = "ATKQJ9"  # high to low
MIN_BID = 200
BID_STEP = 10
MAX_BID = 1500
"""No contract above 1500 (the rules are silent): beyond any hand a bidder can
expect to make, and it keeps the list of legal bids short."""


RANK_ORDER: dict[str, int] = {r: 5 - i for i, r in enumerate(RANKS)}
"""Larger is higher: A 5, T 4, K 3, Q 2, J 1, 9 0 (looked up, not parsed, on every play)."""


def rank_order(card: Card) -> int:
    """Larger is higher: A 5, T 4, K 3, Q 2, J 1, 9 0."""
    return RANK_ORDER[card[0]]


# ---------------------------------------------------------------------------
# The trick
# ---------------------------------------------------------------------------


def beats(card: Card, best: Card, trump: str | None) -> bool:
    """Does ``card``, played later, beat ``best``? Identical cards: the first wins.

    >>> beats("9H", "AS", "H"), beats("AS", "AS", "H"), beats("AD", "KS", "H")
    (True, False, False)
    """
    if card[1] == best[1]:
        return RANK_ORDER[card[0]] > RANK_ORDER[best[0]]
    return card[1] == trump


def trick_winner(cards: Sequence[Card], trump: str | None) -> int:
    """Position (0 = the lead) of the card that wins: highest trump, else highest of the led suit.

    Of two identical cards the first played wins (docs/rules/pinochle.md, "Pack").

    >>> trick_winner(["AS", "TS", "AS", "KS"], "H")     # the first AS
    0
    >>> trick_winner(["AS", "9H", "AH", "9H"], "H")
    2
    """
    best, top = 0, cards[0]
    for i in range(1, len(cards)):
        card = cards[i]  # beats(card, top, trump), written out: run at every play
        if card[1] == top[1]:
            if RANK_ORDER[card[0]] > RANK_ORDER[top[0]]:
                best, top = i, card
        elif card[1] == trump:
            best, top = i, card
    return best


@dataclass(frozen=True)
class HeadRule:
    """The trick obligations (P6). Every rule: follow suit if able, else trump if
    able, else discard; when trumps are led, beat the best trump so far if able.
    """

    name: ClassVar[str]
    heads_led_suit: ClassVar[bool]
    """Following a plain suit, beat the winning card when it is of that suit (``strict``)."""
    overtrumps: ClassVar[bool]
    """Void in the led suit, beat the best trump in the trick if able."""

    def playable(
        self,
        hand: Sequence[Card],
        trick: Sequence[Card],
        trump: str | None,
        winning: Card | None = None,
    ) -> list[Card]:
        """The cards of ``hand`` that may be played to ``trick`` (with repeats).

        ``winning``, if given, is the trick's winning card so far (the state keeps it).
        """
        if not trick:
            return list(hand)
        led = trick[0][1]
        if winning is None:
            winning = trick[trick_winner(trick, trump)]
        follow = [c for c in hand if c[1] == led]
        # A card of the winning card's suit beats it by rank alone (see beats).
        rank = RANK_ORDER
        if follow:
            if led == trump or (self.heads_led_suit and winning[1] == led):
                # the winning card is of the led suit here (a trump when trumps were led)
                top = rank[winning[0]]
                return [c for c in follow if rank[c[0]] > top] or follow
            return follow
        trumps = [c for c in hand if c[1] == trump]
        if trumps:
            if self.overtrumps and winning[1] == trump:
                top = rank[winning[0]]
                return [c for c in trumps if rank[c[0]] > top] or trumps
            return trumps
        return list(hand)

    def explain(self, hand: Sequence[Card], trick: Sequence[Card], trump: str | None,
                card: Card) -> str:  # fmt: skip
        """Why ``card`` may not be played: names only the move's card and public cards."""
        if card not in hand:
            return f"you hold no {card}"
        led = trick[0][1]
        if any(c[1] == led for c in hand):
            if card[1] != led:
                return "you must follow suit"
            if led == trump:
                return "trumps were led: you must beat the best trump in the trick if you can"
            return "you must beat the winning card if you can (head_rule strict)"
        if card[1] != trump:
            return "you cannot follow suit, so you must play a trump"
        return "you must beat the best trump in the trick if you can"


@dataclass(frozen=True)
class SeedHead(HeadRule):
    """Default: overtrump when void; head the lead only when trumps are led."""

    name: ClassVar[str] = "seed"
    heads_led_suit: ClassVar[bool] = False
    overtrumps: ClassVar[bool] = True


@dataclass(frozen=True)
class StrictHead(HeadRule):
    """Always beat the winning card when able."""

    name: ClassVar[str] = "strict"
    heads_led_suit: ClassVar[bool] = True
    overtrumps: ClassVar[bool] = True


@dataclass(frozen=True)
class TrumpOnlyHead(HeadRule):
    """Trump if void, no duty to beat it; head only when trumps are led."""

    name: ClassVar[str] = "trump-only"
    heads_led_suit: ClassVar[bool] = False
    overtrumps: ClassVar[bool] = False


HEAD_RULES: dict[str, HeadRule] = {h.name: h for h in (SeedHead(), StrictHead(), TrumpOnlyHead())}


# ---------------------------------------------------------------------------
# Counters
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Counting:
    """Counter values; both tables total 240 per pack in the cards + 10 for the last trick."""

    name: ClassVar[str]
    values: ClassVar[Mapping[str, int]]
    last_trick: ClassVar[int] = 10
    """Per pack: the double pack's last trick is worth 20 (the rules are silent; it
    keeps the total at 250 per pack, 500 with the double pack, as the variant requires)."""

    def card_points(self, cards: Iterable[Card]) -> int:
        return sum(map(self.card_values.__getitem__, cards))

    @cached_property
    def card_values(self) -> dict[Card, int]:
        """Each card's counter value, looked up once per trick card."""
        return {c: self.values.get(c[0], 0) for c in PINOCHLE.cards()}


@dataclass(frozen=True)
class Traditional(Counting):
    name: ClassVar[str] = "traditional"
    values: ClassVar[Mapping[str, int]] = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2}


@dataclass(frozen=True)
class Simple(Counting):
    name: ClassVar[str] = "simple"
    values: ClassVar[Mapping[str, int]] = {"A": 10, "T": 10, "K": 5, "Q": 5}


COUNTINGS: dict[str, Counting] = {c.name: c for c in (Traditional(), Simple())}


# ---------------------------------------------------------------------------
# Check's checks
# ---------------------------------------------------------------------------


# The doubles the check tables do not list, with the single they double.
DOUBLES = {"double_flush": "flush", "eight_aces": "aces", "eight_kings": "kings",
           "eight_queens": "queens", "eight_jacks": "jacks"}  # fmt: skip


@dataclass(frozen=True)
class CheckTable:
    """Check's ledger (P11, P13, P14): checks per meld, contract, slam and game."""

    name: ClassVar[str]
    meld_checks: ClassVar[Mapping[str, int]]
    bands: ClassVar[tuple[int, ...]]
    """Checks for a made contract of 200-240, 250-290, … as far as the table lists them."""
    band_step: ClassVar[int]
    """Checks added per further band of 50."""
    slam: ClassVar[int]
    game_base: ClassVar[int]
    losers_below_zero: ClassVar[int]
    round_house: ClassVar[int | None] = None

    def contract_checks(self, amount: int) -> int:
        """Checks for making a contract of ``amount`` (the defeated bidders pay double).

        >>> [SeedChecks().contract_checks(a) for a in (200, 240, 250, 390, 440, 450, 500)]
        [2, 2, 4, 10, 13, 16, 19]
        >>> [BicycleChecks().contract_checks(a) for a in (350, 400, 450)]
        [10, 15, 20]
        """
        band = (amount - MIN_BID) // 50
        if band < len(self.bands):
            return self.bands[band]
        return self.bands[-1] + self.band_step * (band - len(self.bands) + 1)

    def game_checks(self, winner_score: int, loser_score: int) -> int:
        """Game checks: base + 1 per 100 (or part) of the margin, + more if the losers are below 0.

        >>> SeedChecks().game_checks(1010, 850), SeedChecks().game_checks(1000, -20)
        (9, 22)
        """
        margin = max(0, winner_score - loser_score)
        checks = self.game_base + -(-margin // 100)
        return checks + (self.losers_below_zero if loser_score < 0 else 0)

    def checks_for_melds(self, names: Sequence[str]) -> int:
        """One player's meld checks. A double earns twice its single's checks unless
        the table lists it (the rules are silent); a round house replaces its kings' and
        queens' checks where the table lists one.

        >>> SeedChecks().checks_for_melds(["flush", "aces", "kings", "queens", "marriage"])
        6
        >>> BicycleChecks().checks_for_melds(["royal_marriage", "kings", "queens", "marriage"])
        5
        """
        total = 0
        for name in names:
            if name in self.meld_checks:
                total += self.meld_checks[name]
            elif name in DOUBLES:
                total += 2 * self.meld_checks.get(DOUBLES[name], 0)
        kings = any(n in ("kings", "eight_kings") for n in names)
        queens = any(n in ("queens", "eight_queens") for n in names)
        if self.round_house is not None and kings and queens:
            total += self.round_house - self.meld_checks["kings"] - self.meld_checks["queens"]
        return total


@dataclass(frozen=True)
class SeedChecks(CheckTable):
    """The seed's table (docs/rules/pinochle.md#p11)."""

    name: ClassVar[str] = "seed"
    meld_checks: ClassVar[Mapping[str, int]] = {
        "flush": 2, "aces": 2, "kings": 1, "queens": 1, "jacks": 1, "double_pinochle": 1,
    }  # fmt: skip
    bands: ClassVar[tuple[int, ...]] = (2, 4, 7, 10, 13)
    band_step: ClassVar[int] = 3
    slam: ClassVar[int] = 4
    game_base: ClassVar[int] = 7
    losers_below_zero: ClassVar[int] = 4


@dataclass(frozen=True)
class BicycleChecks(CheckTable):
    """The Bicycle rulebook's table."""

    name: ClassVar[str] = "bicycle"
    meld_checks: ClassVar[Mapping[str, int]] = {
        "flush": 2, "aces": 2, "kings": 1, "queens": 1, "jacks": 1, "double_pinochle": 2,
    }  # fmt: skip
    bands: ClassVar[tuple[int, ...]] = (2, 4, 7, 10)
    band_step: ClassVar[int] = 5
    slam: ClassVar[int] = 5
    game_base: ClassVar[int] = 10
    losers_below_zero: ClassVar[int] = 5
    round_house: ClassVar[int | None] = 5


CHECK_TABLES: dict[str, CheckTable] = {t.name: t for t in (SeedChecks(), BicycleChecks())}


# ---------------------------------------------------------------------------
# Auctions
# ---------------------------------------------------------------------------

Bids = Sequence[Sequence[int | None]]
"""The auction so far: ``[[seat, amount or None for a pass], ...]``."""


def high_bid(bids: Bids) -> tuple[Seat, int] | None:
    """The standing bid (each bid is above the last, so it is the latest)."""
    for seat, amount in reversed(bids):
        if amount is not None:
            return seat, amount  # type: ignore[return-value]
    return None


@dataclass(frozen=True)
class Auction:
    """How a contract is bid. Bids are multiples of 10 from 200, each above the last."""

    name: ClassVar[str]

    def next_bidder(self, bids: Bids, dealer: Seat, players: int) -> Seat | None:
        """Whose turn it is to bid, or None when the auction is over."""
        raise NotImplementedError

    def amounts(self, bids: Bids, dealer: Seat, seat: Seat, hand: Sequence[Card]) -> list[int]:
        """The amounts ``seat`` may bid now."""
        raise NotImplementedError

    def may_pass(self, bids: Bids, dealer: Seat, seat: Seat) -> bool:
        """The dealer must bid when everyone else has passed (P9, P16)."""
        return seat != dealer or high_bid(bids) is not None

    def explain_bid(self, bids: Bids, dealer: Seat, seat: Seat, hand: Sequence[Card],
                    amount: int) -> str:  # fmt: skip
        high = high_bid(bids)
        if amount % BID_STEP or not MIN_BID <= amount <= MAX_BID:
            return f"bids are multiples of {BID_STEP} from {MIN_BID} to {MAX_BID}"
        if high is not None and amount <= high[1]:
            return f"a bid must be above the standing bid of {high[1]}"
        return "you may not bid that"

    @staticmethod
    def _above(bids: Bids) -> range:
        high = high_bid(bids)
        return range(MIN_BID if high is None else high[1] + BID_STEP, MAX_BID + 1, BID_STEP)


@dataclass(frozen=True)
class FirehouseAuction(Auction):
    """One round from the dealer's left, a bid or a pass each; all pass → the dealer
    is held to 200 (P9): the dealer must then bid."""

    name: ClassVar[str] = "firehouse"

    def next_bidder(self, bids: Bids, dealer: Seat, players: int) -> Seat | None:
        return None if len(bids) == players else (dealer + 1 + len(bids)) % players

    def amounts(self, bids: Bids, dealer: Seat, seat: Seat, hand: Sequence[Card]) -> list[int]:
        return list(self._above(bids))


@dataclass(frozen=True)
class CheckAuction(Auction):
    """Round and round from the dealer's left; a player who passes is out; over when
    three have passed a bid. The first three need a marriage to bid (P15); if all
    three pass, the dealer must bid 200, or more with a marriage (P16)."""

    name: ClassVar[str] = "check"

    def next_bidder(self, bids: Bids, dealer: Seat, players: int) -> Seat | None:
        passed = {seat for seat, amount in bids if amount is None}
        if len(passed) >= players - 1 and high_bid(bids) is not None:
            return None
        seat = dealer if not bids else bids[-1][0]
        for _ in range(players):
            seat = (seat + 1) % players  # type: ignore[operator]
            if seat not in passed:
                return seat
        return None  # pragma: no cover - someone always remains

    def amounts(self, bids: Bids, dealer: Seat, seat: Seat, hand: Sequence[Card]) -> list[int]:
        if has_marriage(hand):
            return list(self._above(bids))
        if seat == dealer and high_bid(bids) is None:
            return [MIN_BID]  # P16: no marriage needed for the forced 200
        return []

    def explain_bid(self, bids: Bids, dealer: Seat, seat: Seat, hand: Sequence[Card],
                    amount: int) -> str:  # fmt: skip
        reason = super().explain_bid(bids, dealer, seat, hand, amount)
        if reason != "you may not bid that":
            return reason
        if seat == dealer and high_bid(bids) is None:
            return "the dealer needs a marriage (K-Q of one suit) to bid above 200"
        return "you need a marriage (K-Q of one suit) to bid"


# ---------------------------------------------------------------------------
# Variants
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Contract:
    bidder: Seat
    amount: int


@dataclass(frozen=True)
class Settlement:
    """A deal's scoring: points per side, whether each side's points were counted,
    whether the contract was made, and the side that won the game (if any)."""

    points: tuple[int, int]
    counted: tuple[bool, bool]
    made: bool | None
    winner: int | None


@dataclass(frozen=True)
class Variant:
    """What a variant fixes: pack, deal, trumps, auction and how a deal is settled."""

    name: ClassVar[str]
    players: ClassVar[tuple[int, ...]]
    double_pack: ClassVar[bool] = False
    packet: ClassVar[int] = 3
    turns_trump: ClassVar[bool] = False
    auction: ClassVar[Auction | None] = None
    default_count: ClassVar[str] = "traditional"
    keeps_checks: ClassVar[bool] = False

    @property
    def pack(self) -> Pack:
        return DOUBLE_PINOCHLE if self.double_pack else PINOCHLE

    @property
    def packs(self) -> int:
        return 2 if self.double_pack else 1

    def meld_table(self, values: Mapping[str, int]) -> MeldTable:
        return MeldTable.double_deck(values) if self.double_pack else MeldTable.single_deck(values)

    def settle(self, made: Sequence[int], contract: Contract | None, scores: Sequence[int],
               target: int) -> Settlement:  # fmt: skip
        """Points of a deal and the end of the game."""
        raise NotImplementedError


def side_of(seat: Seat) -> int:
    """Sides sit alternately: seats 0, 2, 4, … are side 0."""
    return seat % 2


@dataclass(frozen=True)
class TurnedTrumpVariant(Variant):
    """No auction: the dealer's last card is turned for trumps; eldest leads.

    Both sides score what they make; game to the target; both sides over →
    the higher wins, equal → another deal (P18).
    """

    turns_trump: ClassVar[bool] = True

    def settle(self, made: Sequence[int], contract: Contract | None, scores: Sequence[int],
               target: int) -> Settlement:  # fmt: skip
        totals = [scores[s] + made[s] for s in (0, 1)]
        over = [t >= target for t in totals]
        winner = None
        if over[0] != over[1]:
            winner = 0 if over[0] else 1
        elif all(over) and totals[0] != totals[1]:
            winner = 0 if totals[0] > totals[1] else 1
        return Settlement((made[0], made[1]), (True, True), None, winner)


@dataclass(frozen=True)
class AuctionVariant(Variant):
    """The bidder names trumps and leads (P8). The bidding side scores all it made if
    that reaches the bid, else loses the bid; it is counted first, and reaching the
    target ends the game with the opponents scoring nothing that deal."""

    def settle(self, made: Sequence[int], contract: Contract | None, scores: Sequence[int],
               target: int) -> Settlement:  # fmt: skip
        assert contract is not None
        bidders = side_of(contract.bidder)
        others = 1 - bidders
        points = [0, 0]
        made_it = made[bidders] >= contract.amount
        points[bidders] = made[bidders] if made_it else -contract.amount
        counted = [False, False]
        counted[bidders] = True
        winner = None
        if scores[bidders] + points[bidders] >= target:
            winner = bidders
        else:
            counted[others] = True
            points[others] = made[others]
            if scores[others] + points[others] >= target:
                winner = others
        return Settlement((points[0], points[1]), (counted[0], counted[1]), made_it, winner)


@dataclass(frozen=True)
class Partnership(TurnedTrumpVariant):
    name: ClassVar[str] = "partnership"
    players: ClassVar[tuple[int, ...]] = (4,)


@dataclass(frozen=True)
class DoubleDeck(TurnedTrumpVariant):
    """Six or eight players in two alternating teams, 96 cards dealt in fours (P2)."""

    name: ClassVar[str] = "double-deck"
    players: ClassVar[tuple[int, ...]] = (6, 8)
    double_pack: ClassVar[bool] = True
    packet: ClassVar[int] = 4


@dataclass(frozen=True)
class Firehouse(AuctionVariant):
    name: ClassVar[str] = "firehouse"
    players: ClassVar[tuple[int, ...]] = (4,)
    auction: ClassVar[Auction | None] = FirehouseAuction()


@dataclass(frozen=True)
class Check(AuctionVariant):
    name: ClassVar[str] = "check"
    players: ClassVar[tuple[int, ...]] = (4,)
    auction: ClassVar[Auction | None] = CheckAuction()
    default_count: ClassVar[str] = "simple"
    keeps_checks: ClassVar[bool] = True


VARIANTS: dict[str, Variant] = {v.name: v for v in (Partnership(), Firehouse(), Check(),
                                                    DoubleDeck())}  # fmt: skip

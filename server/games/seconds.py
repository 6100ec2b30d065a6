"""Seconds — David Parlett's trick game in which the second-best card wins.

The rules are ``docs/rules/seconds.md`` (the Penguin book's text). A tag such
as S3 cites the resolved point ``docs/rules/seconds.md#s3`` (S3…S6).

The course of play, in rulebook order:

* **Seats and deals.** Four players, each scoring alone. Seven deals; with
  ``P`` the first dealer, the dealers are P, P+1, P+2, P+3, P, P+1, P+2.
* **Partners per deal** (relative to ``P``, never to the deal's dealer):
  d1 P with P+2; d2 P with P+1; d3 P with P+3 (the other two pair up each
  time); d4 each player x is scored with x+1, its "half-partner"; d5 with x-1;
  d6 and d7 no partners (:func:`partners_in_deal`).
* **Tricks.** 13 tricks, no trumps. Eldest (the dealer's left) leads the first
  trick, the winner leads the next. Follow suit if able, else any card.
* **Trick winner** (:func:`trick_winner`): the second-highest card of the led
  suit when two or more of it were played. With four players the only other
  case is that all three others were void (S4): then the four cards are ranked
  regardless of suit and the card in second place wins, the second-played card
  of that rank when its rank is shared (S3).
* **Scores per deal** (:func:`deal_points`): d1–d5 your tricks × your
  (half-)partner's tricks, each player computing their own product (S5);
  d6 your tricks squared; d7 13 − your tricks.
* **End.** After deal 7. With ``winner="second-highest"`` (the default, the
  book's "logical" rule) the player in second place wins; with ``highest`` the
  player in first place. Ties share a place (S6), see :func:`winning_seats`.

The one move is ``{"type": "play", "card": "QS"}``. Information is standard
for trick games: hands are private, played cards are public. Unlike Concerto
nothing is ever left unplayed, so nothing needs to be revealed at the end of
a deal.

>>> s = new_state({}, seed="doc")
>>> s.to_move(), s.dealer, s.partners
([1], 0, [2, 3, 0, 1])
>>> trick_winner(["QS", "AS", "2H", "KS"])   # three spades: the second-highest, KS, wins
3
>>> trick_winner(["AS", "QH", "QD", "3C"])   # nobody followed: the later Q (S3, S4)
2
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from .kit.base import (
    BaseState,
    Event,
    MalformedMove,
    Move,
    Outcome,
    Seat,
    Termination,
    game_record,
    options_dict,
    redeal,
    split_leading_kind,
)
from .kit.cards import STANDARD, SUIT_NAMES, Card, deal_singly, derived_rng
from .kit.deals import (
    HandShape,
    Preset,
    cards_in,
    check_cards,
    check_deals,
    check_scheduled_dealer,
    read_hands,
)
from .packs import hand_order, shuffled
from .seconds_wire import WIRE

SEATS = 4
DEALS = 7
TRICKS_PER_DEAL = 13
PLAY = "play"

# ---------------------------------------------------------------------------
# The seven deals
# ---------------------------------------------------------------------------

# Partner of each seat *relative to the first dealer P* (index 0 is P), deals 1-5.
# d1 P-P+2 / P+1-P+3; d2 P-P+1 / P+2-P+3; d3 P-P+3 / P+1-P+2;
# d4 each x with x+1; d5 each x with x-1 (half-partners are not mutual).
_RELATIVE_PARTNERS: dict[int, tuple[int, int, int, int]] = {
    1: (2, 3, 0, 1),
    2: (1, 0, 3, 2),
    3: (3, 2, 1, 0),
    4: (1, 2, 3, 0),
    5: (3, 0, 1, 2),
}

PRODUCT, SQUARE, THIRTEEN_MINUS = "product", "square", "thirteen_minus"


def dealer_of_deal(deal_number: int, first_dealer: Seat) -> Seat:
    """Deal k (1..7) is dealt by P + k - 1: the deal passes to the left.

    >>> [dealer_of_deal(k, 2) for k in range(1, 8)]
    [2, 3, 0, 1, 2, 3, 0]
    """
    return (first_dealer + deal_number - 1) % SEATS


def partners_in_deal(deal_number: int, first_dealer: Seat) -> list[Seat | None]:
    """Each seat's partner (d1–d3) or half-partner (d4, d5) in a deal; None in d6, d7.

    >>> partners_in_deal(2, 0)        # P with P+1, P+2 with P+3
    [1, 0, 3, 2]
    >>> partners_in_deal(4, 1)        # each x with x+1
    [1, 2, 3, 0]
    >>> partners_in_deal(7, 0)
    [None, None, None, None]
    """
    relative = _RELATIVE_PARTNERS.get(deal_number)
    if relative is None:
        return [None] * SEATS
    return [(first_dealer + relative[(s - first_dealer) % SEATS]) % SEATS for s in range(SEATS)]


def scoring_of_deal(deal_number: int) -> str:
    """``product`` in d1–d5, ``square`` in d6, ``thirteen_minus`` in d7."""
    if deal_number <= 5:
        return PRODUCT
    return SQUARE if deal_number == 6 else THIRTEEN_MINUS


def deal_points(
    deal_number: int, tricks: Sequence[int], partners: Sequence[Seat | None]
) -> list[int]:
    """Each seat's score for one deal from the tricks each seat won.

    S5: in d1–d5 each player computes their *own* product, so in d4/d5, where
    half-partners are not mutual, the four products differ.

    >>> deal_points(4, [5, 3, 4, 1], [1, 2, 3, 0])   # 5×3, 3×4, 4×1, 1×5
    [15, 12, 4, 5]
    >>> deal_points(6, [5, 3, 4, 1], [None] * 4), deal_points(7, [5, 3, 4, 1], [None] * 4)
    ([25, 9, 16, 1], [8, 10, 9, 12])
    """
    kind = scoring_of_deal(deal_number)
    if kind == PRODUCT:
        return [tricks[s] * tricks[_partner(partners, s)] for s in range(len(tricks))]
    if kind == SQUARE:
        return [t * t for t in tricks]
    return [TRICKS_PER_DEAL - t for t in tricks]


def _partner(partners: Sequence[Seat | None], seat: Seat) -> Seat:
    partner = partners[seat]
    if partner is None:  # pragma: no cover - d1-d5 always have partners
        raise ValueError(f"seat {seat} has no partner in this deal")
    return partner


# ---------------------------------------------------------------------------
# The trick
# ---------------------------------------------------------------------------

RANK_ORDER: dict[Card, int] = {c: STANDARD.rank_order(c) for c in STANDARD.cards()}
"""Larger is higher (2 is 0, A is 12), looked up rather than parsed on every trick."""


def trick_winner(cards: Sequence[Card]) -> int:
    """Position (0 = the lead) in a complete four-card trick of the card that wins it.

    Two or more cards of the led suit: the second-highest of them (there are
    no equal cards in one pack). Otherwise nobody followed the lead (S4): rank
    all four cards regardless of suit; the card in second place wins, and if
    its rank is shared, the second-played card of that rank (S3).

    >>> trick_winner(["5H", "9H", "2H", "JH"])    # 9H is the second-highest heart
    1
    >>> trick_winner(["KC", "AD", "2S", "7H"])    # nobody followed: AD, then KC second
    0
    >>> trick_winner(["KS", "KH", "KD", "KC"])    # the second K played
    1
    """
    led = cards[0][1]
    followers = [(RANK_ORDER[c], i) for i, c in enumerate(cards) if c[1] == led]
    if len(followers) >= 2:
        followers.sort(reverse=True)  # by rank, highest first (no two are equal)
        return followers[1][1]
    # S4: all three others void. Rank all four; the second place's rank wins …
    second_rank = sorted((RANK_ORDER[c] for c in cards), reverse=True)[1]
    holders = [i for i, c in enumerate(cards) if RANK_ORDER[c] == second_rank]
    # … S3: shared rank -> the second-played card of that rank.
    return holders[1] if len(holders) >= 2 else holders[0]


# ---------------------------------------------------------------------------
# The winner of the game
# ---------------------------------------------------------------------------

# The place that wins under each `winner` option (0 = first place).
WINNING_PLACE = {"second-highest": 1, "highest": 0}


def winning_seats(scores: Sequence[int], winner: str) -> tuple[Seat, ...]:
    """The seats that win a finished game, under the ``winner`` option.

    S6, ties share a place: the final scores are ranked high to low and the
    seats are given places 1..4 *positionally*, exactly as the cards of an
    all-void trick are (S4: K,K,K,K has a second place, the second K). The
    winning place's score is read off that ranking and every seat with that
    score shares the win. So with ``second-highest``, 50,50,40,30 is won by
    both 50s (they share places 1 and 2) and 50,40,40,30 by both 40s. When all
    four seats share the winning place the game is a draw: no winners, as in
    Concerto.

    >>> winning_seats([30, 50, 40, 10], "second-highest")
    (2,)
    >>> winning_seats([30, 50, 40, 10], "highest")
    (1,)
    >>> winning_seats([50, 40, 50, 30], "second-highest")
    (0, 2)
    >>> winning_seats([20, 20, 20, 20], "highest")
    ()
    """
    target = sorted(scores, reverse=True)[WINNING_PLACE[winner]]
    winners = tuple(s for s, v in enumerate(scores) if v == target)
    return () if len(winners) == len(scores) else winners


# ---------------------------------------------------------------------------
# Options and preset deals
# ---------------------------------------------------------------------------

OPTIONS: dict[str, dict[str, Any]] = {
    "first_dealer": {
        "default": 0,
        "min": 0,
        "max": 3,
        "doc": "seat P of the first dealer; partnerships of every deal are relative to P",
    },
    "winner": {
        "default": "second-highest",
        "choices": list(WINNING_PLACE),
        "doc": "who wins: the second-highest final score (the book's rule) or the highest",
    },
}


@dataclass(frozen=True)
class SecondsOptions:
    first_dealer: int = 0
    winner: str = "second-highest"


def parse_deals(raw: Iterable[Any] | None, options: SecondsOptions) -> list[dict[str, Any]]:
    """Check preset deals, reporting every problem.

    Each preset is ``{"hands": [[13 cards] × 4], "dealer": seat}`` and together
    the four hands must be exactly the 52-card pack. ``dealer`` may be left
    out; when given it must be the dealer the schedule fixes for that deal
    (the partnerships depend on it), so a preset can never shift the rotation.

    Raises:
        InvalidDeal: with every problem found, each prefixed by its place.
    """
    first_dealer = options.first_dealer

    def read(preset: Preset) -> dict[str, Any] | None:
        dealer = check_scheduled_dealer(preset, dealer_of_deal(preset.index + 1, first_dealer))
        hands = read_hands(preset, HANDS)
        if hands is None:
            return None
        check_cards(preset, cards_in(hands), STANDARD)
        return {"dealer": dealer, "hands": hands}

    return check_deals(
        raw,
        read,
        object_text="hands (and optionally dealer)",
        fields=("dealer", "hands"),
        at_most=(DEALS, f"a game has {DEALS} deals"),
    )


HANDS = HandShape(players=SEATS, size=TRICKS_PER_DEAL, hands_text="four hands")


# ---------------------------------------------------------------------------
# The state
# ---------------------------------------------------------------------------


# A compact move, the door for bots that search (:meth:`State.moves`,
# :meth:`State.play`): ``("play", card)``, one shared tuple per card.
SimMove = tuple[str, Card]
PLAY_MOVES: dict[Card, SimMove] = {c: (PLAY, c) for c in STANDARD.cards()}
SUIT_OF: dict[Card, str] = {c: c[1] for c in STANDARD.cards()}


def as_dict(move: SimMove) -> Move:
    """A compact move as the API shows it."""
    return {"type": move[0], "card": move[1]}


HAND_ORDER = hand_order(STANDARD)
"""Position in the pack's order, suit by suit (S H D C), high to low: how a player holds cards."""
ACTIONS: tuple[SimMove, ...] = tuple(PLAY_MOVES[c] for c in STANDARD.low_to_high())
"""The action space (:attr:`State.actions`): every card's play, clubs to spades, low to
high within a suit: the reverse of :data:`HAND_ORDER`, so a hand's ids, read from its
last card, ascend."""
CARD_IDS: dict[Card, int] = {card: i for i, (_, card) in enumerate(ACTIONS)}
"""The id of each card's play, by the card (a string's hash is cached; a tuple's is not)."""

# A completed trick, kept compact: (leader, the four cards in playing order, winner).
# The records the API shows (:func:`trick_record`) are built from it when asked for.
CompactTrick = tuple[Seat, tuple[Card, ...], Seat]


def trick_record(deal: int, number: int, trick: CompactTrick) -> dict[str, Any]:
    """The public record of a completed trick, as views and ``trick`` events show it."""
    leader, cards, winner = trick
    nobody_followed = sum(1 for c in cards if c[1] == cards[0][1]) == 1
    return {
        "deal": deal,
        "number": number,
        "leader": leader,
        "cards": [{"seat": (leader + i) % SEATS, "card": c} for i, c in enumerate(cards)],
        "winner": winner,
        "rule": "nobody_followed" if nobody_followed else "second_of_suit",
    }


class State(BaseState):
    """One game of Seconds in progress.

    Public: everything in :meth:`state_view`. Private to each seat: its own
    hand. Secret until the end: the seed and the preset deals still to come.

    Two doors lead to the same rules: :meth:`apply` (checked, returns the
    events, what the server uses) and :meth:`play` (a move from :meth:`moves`,
    no checks and no events, for bots that search). Events, views and trick
    records are built only when asked for; hands stay sorted as a player
    holds them (:data:`HAND_ORDER`), so the legal plays are a filter of the hand.
    """

    game: ClassVar[str] = "seconds"
    options: SecondsOptions
    option_specs = OPTIONS
    options_type = SecondsOptions
    parse_deals = staticmethod(parse_deals)
    num_seats = SEATS
    actions = ACTIONS

    __slots__ = (
        "options", "seed", "presets", "deal_number", "dealer", "partners", "hands",
        "leader", "turn", "trick", "tricks", "tricks_won", "deal_results", "scores",
        "_outcome",
    )  # fmt: skip

    def __init__(self, options: SecondsOptions, seed: str, presets: list[dict[str, Any]]):
        self.options = options
        self.seed = seed
        self.presets = presets
        self.deal_number = 0
        self.dealer = options.first_dealer
        self.partners: list[Seat | None] = [None] * SEATS  # replaced each deal, never mutated
        self.hands: list[list[Card]] = [[] for _ in range(SEATS)]  # each sorted (sort_hand)
        self.leader: Seat = 0  # who led (or leads) the current trick
        self.turn: Seat | None = None
        self.trick: list[Card] = []  # cards of the trick being played, from the leader
        self.tricks: list[CompactTrick] = []  # completed tricks of this deal
        self.tricks_won = [0] * SEATS  # this deal
        self.deal_results: list[dict[str, Any]] = []
        self.scores = [0] * SEATS
        self._outcome: Outcome | None = None

    # -- whose turn -----------------------------------------------------------
    def to_move(self) -> list[Seat]:
        return [] if self.turn is None else [self.turn]

    def outcome(self) -> Outcome | None:
        return self._outcome

    def is_over(self) -> bool:
        return self._outcome is not None

    @property
    def led_suit(self) -> str | None:
        return self.trick[0][1] if self.trick else None

    def legal_actions(self, seat: Seat | None) -> list[SimMove]:
        """The legal moves of ``seat`` (to move), compact: follow suit if able, else any card."""
        if seat is None:
            return []
        hand = self.hands[seat]
        if self.trick:
            led = self.trick[0][1]
            following = [PLAY_MOVES[c] for c in hand if SUIT_OF[c] == led]
            if following:
                return following
        return list(map(PLAY_MOVES.__getitem__, hand))

    def legal_action_ids(self, seat: Seat | None) -> list[int]:
        """The ids of :meth:`legal_actions`, ascending, from the hand: it is held in the
        reverse of the ids' order (:data:`ACTIONS`), so read from its last card."""
        if seat is None:
            return []
        hand = self.hands[seat]
        if self.trick:
            led = self.trick[0][1]
            following = [CARD_IDS[c] for c in reversed(hand) if SUIT_OF[c] == led]
            if following:
                return following
        return list(map(CARD_IDS.__getitem__, reversed(hand)))

    def _legal_moves(self, seat: Seat) -> list[Move]:
        return [as_dict(m) for m in self.legal_actions(seat)]

    def legal_actions_by_kind(self, seat: Seat | None) -> list[list[SimMove]]:
        """:meth:`legal_actions` grouped by kind: they are all plays."""
        return split_leading_kind(self.legal_actions(seat))

    def normalize_move(self, move: Any) -> Move:
        if not isinstance(move, Mapping) or move.get("type") != PLAY:
            raise MalformedMove("a move is {'type': 'play', 'card': <card>}")
        card = move.get("card")
        if not STANDARD.is_card(card):
            raise MalformedMove(f"{card!r} is not a card (rank then suit, e.g. 'TS')")
        extra = move.keys() - {"type", "card"}
        if extra:
            raise MalformedMove(f"unexpected field(s) in a play move: {', '.join(sorted(extra))}")
        return {"type": PLAY, "card": card}

    def _explain_illegal(self, seat: Seat, move: Move) -> str:
        card = move["card"]
        if card not in self.hands[seat]:
            return f"{card} is not in your hand"
        led = self.led_suit
        return f"you must follow suit: {SUIT_NAMES[led] if led else '?'} were led"

    # -- the moves ------------------------------------------------------------
    def _apply(self, seat: Seat, move: Move) -> list[Event]:
        events: list[Event] = []
        self._play(seat, move["card"], events)
        return events

    def _is_legal(self, seat: Seat, move: Move) -> bool:
        """``move`` (normalized) is among :meth:`moves`, as ``legal_moves`` would say."""
        return PLAY_MOVES[move["card"]] in self.legal_actions(seat)

    def _apply_quietly(self, seat: Seat, move: Move) -> None:
        """``_apply`` without building events (``apply(..., events=False)``)."""
        self._play(seat, move["card"], None)

    def apply_action(self, seat: Seat | None, move: SimMove) -> None:
        """Play an action of :meth:`legal_actions` for ``seat``: no checks, no events (for
        search: take the actions from :meth:`legal_actions`)."""
        assert seat is not None
        self._play(seat, move[1], None)

    def _play(self, seat: Seat, card: Card, log: list[Event] | None) -> None:
        """The card goes to the trick; events go to ``log`` when one is kept."""
        self.hands[seat].remove(card)
        self.trick.append(card)
        if log is not None:
            number = len(self.tricks) + 1
            log.append(Event("play", {"seat": seat, "card": card, "trick_number": number}))
        if len(self.trick) < SEATS:
            self.turn = (seat + 1) % SEATS
        else:
            self._complete_trick(log)

    def _complete_trick(self, log: list[Event] | None) -> None:
        """The second-highest card wins (S3, S4); the winner leads the next trick."""
        cards = tuple(self.trick)
        winner = (self.leader + trick_winner(cards)) % SEATS
        self.tricks.append((self.leader, cards, winner))
        self.tricks_won[winner] += 1
        self.trick = []
        if log is not None:
            log.append(Event("trick", trick_record(self.deal_number, len(self.tricks),
                                                   self.tricks[-1])))  # fmt: skip
        if len(self.tricks) == TRICKS_PER_DEAL:
            self._end_deal(log)
        else:
            self.leader = self.turn = winner

    # -- end of a deal and of the game ----------------------------------------------
    def _end_deal(self, log: list[Event] | None) -> None:
        """Score the deal (S5) and deal the next one, or end the game after deal 7."""
        points = deal_points(self.deal_number, self.tricks_won, self.partners)
        for s in range(SEATS):
            self.scores[s] += points[s]
        result = {
            "deal": self.deal_number,
            "dealer": self.dealer,
            "scoring": scoring_of_deal(self.deal_number),
            "partners": list(self.partners),
            "tricks": list(self.tricks_won),
            "points": points,
            "scores": list(self.scores),
        }
        self.deal_results.append(result)
        if log is not None:
            log.append(Event("deal_end", result))
        if self.deal_number < DEALS:
            self._deal()
            if log is not None:
                log += self.deal_events()
            return
        self.turn = None
        # S6: ties share a place; the winning place depends on the `winner` option.
        winners = winning_seats(self.scores, self.options.winner)
        self._outcome = Outcome(Termination.DEALS_EXHAUSTED, tuple(self.scores), winners)
        if log is not None:
            log.append(Event("game_over", self._outcome.to_dict()))

    def _new_deal(self) -> list[Event]:
        self._deal()
        return self.deal_events()

    def _deal(self) -> None:
        """Deal the next deal (a preset if one is left, else a seeded shuffle); eldest leads."""
        self.deal_number += 1
        self.dealer = dealer_of_deal(self.deal_number, self.options.first_dealer)
        self.partners = partners_in_deal(self.deal_number, self.options.first_dealer)
        index = self.deal_number - 1
        if index < len(self.presets):
            hands = [list(h) for h in self.presets[index]["hands"]]
        else:
            cards = shuffled(STANDARD, derived_rng(self.seed, "deal", index))
            hands = deal_singly(cards, SEATS, first=(self.dealer + 1) % SEATS)
        self.hands = [sorted(h, key=HAND_ORDER.__getitem__) for h in hands]
        self.tricks = []
        self.tricks_won = [0] * SEATS
        self.trick = []
        self.leader = self.turn = (self.dealer + 1) % SEATS

    def opening_events(self) -> list[Event]:
        return self.deal_events()

    def deal_events(self) -> list[Event]:
        """A public header for the deal, and each seat's own cards for that seat only."""
        header = {
            "deal": self.deal_number,
            "dealer": self.dealer,
            "scoring": scoring_of_deal(self.deal_number),
            "partners": list(self.partners),
        }
        return [
            Event("deal", header),
            *(
                Event("hand", {"seat": s, "cards": list(self.hands[s])}, frozenset({s}))
                for s in range(SEATS)
            ),
        ]

    # -- information -----------------------------------------------------------
    def _current_trick(self) -> list[dict[str, Any]]:
        return [{"seat": (self.leader + i) % SEATS, "card": c} for i, c in enumerate(self.trick)]

    def _trick_records(self) -> list[dict[str, Any]]:
        return [trick_record(self.deal_number, i, t) for i, t in enumerate(self.tricks, 1)]

    def state_view(self, seat: Seat | None = None) -> dict[str, Any]:
        """The public part of the state: identical for every seat and spectators."""
        return {
            "winner_rule": self.options.winner,
            "first_dealer": self.options.first_dealer,
            "deal_number": self.deal_number,
            "deals": DEALS,
            "dealer": self.dealer,
            "scoring": scoring_of_deal(self.deal_number),
            "partners": list(self.partners),
            "leader": self.leader,
            "trick_number": min(len(self.tricks) + 1, TRICKS_PER_DEAL),
            "current_trick": self._current_trick(),
            "tricks": self._trick_records(),
            "tricks_won": list(self.tricks_won),
            "cards_left": [len(h) for h in self.hands],
            "deal_results": self.deal_results,
        }

    def seat_scores(self) -> list[int]:
        return list(self.scores)

    def reveal(self) -> dict[str, Any]:
        return {"seed": self.seed, "hands": [list(h) for h in self.hands]}

    # -- persistence -------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "options": options_dict(self.options),
            "seed": self.seed,
            "presets": self.presets,
            "deal_number": self.deal_number,
            "dealer": self.dealer,
            "partners": list(self.partners),
            "hands": [list(h) for h in self.hands],
            "leader": self.leader,
            "turn": self.turn,
            "trick": [[p["seat"], p["card"]] for p in self._current_trick()],
            "tricks": self._trick_records(),
            "tricks_won": list(self.tricks_won),
            "deal_results": list(self.deal_results),
            "scores": list(self.scores),
            "outcome": None if self._outcome is None else self._outcome.to_dict(),
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> State:
        s = cls(SecondsOptions(**d["options"]), d["seed"], d["presets"])
        for name in ("deal_number", "dealer", "leader", "turn"):
            setattr(s, name, d[name])
        s.partners = list(d["partners"])
        s.hands = [list(h) for h in d["hands"]]
        s.trick = [c for _, c in d["trick"]]
        s.tricks = [
            (t["leader"], tuple(p["card"] for p in t["cards"]), t["winner"]) for t in d["tricks"]
        ]
        for name in ("tricks_won", "deal_results", "scores"):
            setattr(s, name, list(d[name]))
        s._outcome = None if d["outcome"] is None else Outcome.from_dict(d["outcome"])
        return s

    def clone(self) -> State:
        """A copy sharing only what is never mutated in place (tuples, deal records, partners)."""
        s = State.__new__(State)
        s.options, s.seed, s.presets = self.options, self.seed, self.presets
        s.deal_number, s.dealer, s.partners = self.deal_number, self.dealer, self.partners
        s.leader, s.turn, s._outcome = self.leader, self.turn, self._outcome
        s.hands = [h[:] for h in self.hands]
        s.trick = self.trick[:]
        s.tricks = self.tricks[:]
        s.tricks_won = self.tricks_won[:]
        s.deal_results = self.deal_results[:]
        s.scores = self.scores[:]
        return s

    def voids(self) -> list[set[str]]:
        """The suits each seat has shown it lacks in this deal: the led suit, when it
        did not follow ("Tricks": you must follow suit if you can). Public: every
        played card is."""
        void: list[set[str]] = [set() for _ in range(SEATS)]
        tricks = [(leader, cards) for leader, cards, _ in self.tricks]
        for leader, cards in [*tricks, (self.leader, tuple(self.trick))]:
            for i, card in enumerate(cards[1:], 1):
                if card[1] != cards[0][1]:
                    void[(leader + i) % SEATS].add(cards[0][1])
        return void

    def determinize(self, seat: Seat, rng: random.Random) -> State:
        """One world ``seat`` cannot tell from this one, for a searching bot.

        The three other hands are pooled and dealt again, each keeping its number
        of cards, and nobody gets a suit it has shown it lacks (:meth:`voids`), so
        every card played so far was a legal play in the world too. The deals still
        to come are secret as well: the copy gets a seed drawn from ``rng`` and no
        preset deals beyond the current one.
        """
        void = self.voids()
        s = self.clone()
        s.hands = redeal(
            self.hands,
            (seat,),
            rng,
            lambda cards: sorted(cards, key=HAND_ORDER.__getitem__),
            fits=lambda who, card: card[1] not in void[who],
        )
        s._hide_the_deals_to_come(rng, self.deal_number)
        return s

    @classmethod
    def _public_from_view(
        cls, raw_options: Mapping[str, Any], view: Mapping[str, Any], seat: Seat
    ) -> State:
        """The kit's :meth:`from_view` before the draw: the public fields read from the view
        and the options, what the rules fix worked out again (the dealer and partners of
        the deal, each trick's winner, whose turn it is), the unseen cards dealt in pack
        order."""
        options = cls.parse_options(raw_options)
        if seat not in range(SEATS):
            raise ValueError(f"{seat!r} is not a seat of Seconds (0 to {SEATS - 1})")
        public = view["state"]
        s = cls(options, "", [])
        s.deal_number = public["deal_number"]
        if s.deal_number not in range(1, DEALS + 1):
            raise ValueError(f"{s.deal_number!r} is not a deal of Seconds (1 to {DEALS})")
        s.dealer = dealer_of_deal(s.deal_number, options.first_dealer)
        s.partners = partners_in_deal(s.deal_number, options.first_dealer)
        s.leader = public["leader"]
        s.trick = [p["card"] for p in public["current_trick"]]
        for record in public["tricks"]:
            cards = tuple(p["card"] for p in record["cards"])
            winner = (record["leader"] + trick_winner(cards)) % SEATS
            s.tricks.append((record["leader"], cards, winner))
            s.tricks_won[winner] += 1
        s.deal_results = list(public["deal_results"])
        s.scores = list(view["scores"])
        s._outcome = None if view["result"] is None else Outcome.from_dict(view["result"])
        s.turn = None if s._outcome else (s.leader + len(s.trick)) % SEATS
        seen = [*view["hand"], *s.trick, *(c for _, cards, _ in s.tricks for c in cards)]
        known = set(seen)
        unseen = [c for c in HAND_ORDER if c not in known]
        if len(known) < len(seen) or len(known) + len(unseen) > len(HAND_ORDER):
            raise ValueError("the cards the view shows are not cards of one pack")
        sizes = public["cards_left"]
        if len(unseen) != sum(sizes) - sizes[seat]:
            raise ValueError("the hands' sizes do not add up to the cards not shown")
        for other in range(SEATS):
            if other == seat:
                s.hands[other] = list(view["hand"])
            else:
                s.hands[other], unseen = unseen[: sizes[other]], unseen[sizes[other] :]
        return s


new_state = State.new

parse_options = State.parse_options
"""Options as a client sent them → the game's options (the kit's one parser)."""


def longest_game(options: Mapping[str, Any]) -> int:
    """A bound on a game's moves: 60 a deal (13 tricks of four cards, and more), for its
    :data:`DEALS` deals, whatever the options."""
    return 60 * DEALS


GAME = game_record(
    State,
    title="Seconds",
    seats=(SEATS,),
    options=OPTIONS,
    house_bots=("seconds",),
    pack=STANDARD.low_to_high(),
    longest_game=longest_game,
    move_of=as_dict,
    wire=WIRE,
    option_sets=({}, {"winner": "highest"}),
)

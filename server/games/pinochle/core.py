"""What every part of a Pinochle game reads: the phases, the move kinds, how a
player holds cards, and :class:`StateCore`, the fields of a game in progress.

:class:`~.state.State` is built from one class per section of the rulebook, each
on this core: :mod:`.deal` (P2), :mod:`.auction` (P8, P9, P15, P16),
:mod:`.melding` (the turned trump and the dix, P5; melds, P3, P4, P20),
:mod:`.tricks` (P6) and :mod:`.scoring` (P11, P13, P14, P17, P18). The steps one
section takes into another (the auction ends by showing the melds, the last
trick by settling the deal, ...) are declared here for the type checker.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..kit.base import BaseState, Event, Outcome, Seat
from ..kit.cards import PINOCHLE as PINOCHLE_PACK
from ..kit.cards import Card
from ..packs import hand_order
from .melds import Meld
from .options import PinochleOptions
from .rules import Variant

if TYPE_CHECKING:
    from collections.abc import Iterable

AUCTION, TRUMP, EXCHANGE, PLAY, OVER = "auction", "trump", "exchange", "play", "over"
BID, PASS, NAME_TRUMP, EXCHANGE_DIX, KEEP, PLAY_CARD = (
    "bid", "pass", "trump", "exchange_dix", "keep", "play",
)  # fmt: skip
HAND_ORDER = hand_order(PINOCHLE_PACK)
"""Position in the pack's order (both packs have the same cards): how a player holds them."""


# A completed trick, kept compact: (leader, cards in playing order, winner, counters, last).
# The records the API shows (:meth:`State.tricks`) are built from it when asked for.
CompactTrick = tuple[Seat, tuple[Card, ...], Seat, int, bool]


class StateCore(BaseState):
    """The fields of one Pinochle game in progress, the rules in force and whose turn it is."""

    options: PinochleOptions

    __slots__ = (
        "options", "seed", "presets", "num_seats", "deal_number", "dealer", "phase", "turn",
        "hands", "turn_up", "trump", "bids", "contract", "exchange", "dixes", "_melds",
        "_meld_records", "exposed", "leader", "trick", "_tricks", "tricks_won", "taken",
        "deal_results", "scores", "checks", "check_log", "_outcome", "_top",
    )  # fmt: skip

    def __init__(self, options: PinochleOptions, seed: str, presets: list[dict[str, Any]]):
        n = options.players
        self.options = options
        self.seed = seed
        self.presets = presets
        self.num_seats = n
        self.deal_number = 0
        self.dealer: Seat = 0
        self.phase = AUCTION
        self.turn: Seat | None = None
        self.hands: list[list[Card]] = [[] for _ in range(n)]
        self.turn_up: Card | None = None
        self.trump: str | None = None
        self.bids: list[list[Any]] = []  # [[seat, amount or None (a pass)], ...]
        self.contract: dict[str, Any] | None = None  # {"bidder", "amount"}
        self.exchange: dict[str, Any] | None = None  # {"seat", "gave", "took"}
        self.dixes = [0] * n  # dixes each seat held when trumps were fixed (secret until shown)
        self._melds: list[list[Meld]] | None = None  # each seat's melds once shown
        self._meld_records: list[list[dict[str, Any]]] | None = None  # their records, once built
        self.exposed: list[list[Card]] = [[] for _ in range(n)]  # public proof of holdings
        self.leader: Seat = 0
        self.trick: list[Card] = []  # cards of the trick being played, from the leader
        self._top = 0  # the position in the trick of the card winning it so far
        self._tricks: list[CompactTrick] = []  # completed tricks of this deal
        self.tricks_won = [0, 0]  # per side, this deal
        self.taken = [0, 0]  # counters per side, this deal
        self.deal_results: list[dict[str, Any]] = []
        self.scores = [0, 0]
        self.checks: list[int] | None = [0, 0] if options.rules.keeps_checks else None
        self.check_log: list[dict[str, Any]] = []
        self._outcome: Outcome | None = None

    # -- rules in force ---------------------------------------------------------
    @property
    def rules(self) -> Variant:
        return self.options.rules

    @property
    def tricks_per_deal(self) -> int:
        return self.options.cards_each

    # -- whose turn -----------------------------------------------------------
    def to_move(self) -> list[Seat]:
        return [] if self.turn is None else [self.turn]

    def outcome(self) -> Outcome | None:
        return self._outcome

    def is_over(self) -> bool:
        return self._outcome is not None

    def _sorted(self, cards: Iterable[Card]) -> list[Card]:
        """Cards as a player holds them: by suit (S H D C), high to low (A T K Q J 9)."""
        return sorted(cards, key=HAND_ORDER.__getitem__)

    def _dix(self) -> Card:
        """The dix: the 9 of trumps."""
        assert self.trump is not None
        return "9" + self.trump

    if TYPE_CHECKING:  # the steps of one section that another takes

        def _deal(self, log: list[Event] | None) -> None: ...  # .deal
        def _show_melds(self, log: list[Event] | None) -> None: ...  # .melding
        def _melds_event(self, paid: list[dict[str, Any]]) -> Event: ...  # .melding
        def meld_points(self) -> list[int] | None: ...  # .melding
        def _end_deal(self, log: list[Event] | None) -> None: ...  # .scoring
        def _pay(  # .scoring
            self, side: int, checks: int, reason: str, seat: Seat | None = None
        ) -> dict[str, Any]: ...

        melds: list[list[dict[str, Any]]] | None  # .melding (a property)

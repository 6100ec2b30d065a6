"""The auction (Firehouse P9; Check P15, P16) and the bidder naming trumps (P8)."""

from __future__ import annotations

from ..kit.base import Event, Seat
from .core import BID, NAME_TRUMP, PASS, TRUMP, StateCore
from .rules import high_bid


class Auction(StateCore):
    """Bids and passes until one bid stands; the bidder then names trumps."""

    __slots__ = ()

    def _bid(self, seat: Seat, amount: int | None, log: list[Event] | None) -> None:
        self.bids.append([seat, amount])
        if log is not None:
            if amount is None:
                log.append(Event(PASS, {"seat": seat}))
            else:
                log.append(Event(BID, {"seat": seat, "amount": amount}))
        auction = self.rules.auction
        assert auction is not None
        self.turn = auction.next_bidder(self.bids, self.dealer, self.num_seats)
        if self.turn is not None:
            return
        high = high_bid(self.bids)
        assert high is not None  # the dealer must bid when everyone else passed
        bidder, amount = high
        self.contract = {"bidder": bidder, "amount": amount}
        self.phase = TRUMP
        self.turn = bidder  # P8: the bidder names trumps …
        if log is not None:
            log.append(Event("contract", {"bidder": bidder, "amount": amount}))

    def _name_trump(self, seat: Seat, suit: str, log: list[Event] | None) -> None:
        self.trump = suit
        self.dixes = [h.count("9" + suit) for h in self.hands]
        if log is not None:
            log.append(Event(NAME_TRUMP, {"seat": seat, "suit": suit}))
        self._show_melds(log)

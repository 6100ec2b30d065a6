"""The deal (P2): presets or a seeded shuffle, dealt in packets from the dealer's left;
the turned card, and the events that show each seat its own cards."""

from __future__ import annotations

from typing import Any

from ..kit.base import Event, Seat
from ..kit.cards import derived_rng
from ..packs import shuffled
from .core import AUCTION, EXCHANGE, StateCore
from .options import deal_in_packets


class Dealing(StateCore):
    """Dealing each deal, and the opening events."""

    __slots__ = ()

    def _new_deal(self) -> list[Event]:
        events: list[Event] = []
        self._deal(events)
        return events

    def _deal(self, log: list[Event] | None) -> None:
        """Deal the next deal: a preset if one is left, else a seeded shuffle.

        The deal passes to the left. Cards go round from the dealer's left in
        threes (fours with the double pack), so the dealer's last card is the
        pack's last.
        """
        n, rules = self.num_seats, self.rules
        index = self.deal_number
        self.deal_number += 1
        self.dealer = self._first_dealer() if index == 0 else (self.dealer + 1) % n
        turn_up = None
        if index < len(self.presets):
            preset = self.presets[index]
            if preset["dealer"] is not None:
                self.dealer = preset["dealer"]
            hands = [list(h) for h in preset["hands"]]
            if rules.turns_trump:
                turn_up = preset["turn_up"] or hands[self.dealer][-1]
        else:
            cards = shuffled(rules.pack, derived_rng(self.seed, "deal", index))
            hands = deal_in_packets(cards, n, (self.dealer + 1) % n, rules.packet)
            if rules.turns_trump:
                turn_up = cards[-1]
        self.hands = [self._sorted(h) for h in hands]
        self.turn_up = turn_up
        self.trump = None if turn_up is None else turn_up[1]
        self.bids, self.contract, self.exchange, self.melds = [], None, None, None
        self.dixes = [0] * n
        self.exposed = [[] for _ in range(n)]
        self.trick, self._tricks = [], []
        self.tricks_won, self.taken = [0, 0], [0, 0]
        if log is not None:
            log += self.deal_events()
        if turn_up is None:
            self.phase = AUCTION
            assert rules.auction is not None
            self.turn = rules.auction.next_bidder([], self.dealer, n)
            return
        self.exposed[self.dealer] = [turn_up]
        self.dixes = [h.count(self._dix()) for h in self.hands]
        if turn_up[0] == "9":  # a turned dix scores for the dealer; nothing to exchange
            self._show_melds(log)
            return
        self.phase = EXCHANGE
        self.turn = (self.dealer + 1) % n

    def _first_dealer(self) -> Seat:
        if self.options.first_dealer is not None:
            return self.options.first_dealer
        return derived_rng(self.seed, "first_dealer").randrange(self.num_seats)

    def deal_events(self) -> list[Event]:
        """A public header for the deal and each seat's own cards for that seat only."""
        header: dict[str, Any] = {"deal": self.deal_number, "dealer": self.dealer,
                                  "turn_up": self.turn_up, "trump": self.trump}  # fmt: skip
        return [
            Event("deal", header),
            *(
                Event("hand", {"seat": s, "cards": list(h)}, frozenset({s}))
                for s, h in enumerate(self.hands)
            ),
        ]

    def opening_events(self) -> list[Event]:
        """The events of the first deal (with its melds, if a turned dix showed them at once)."""
        events = self.deal_events()
        if self.melds is not None and not self._tricks and not self.trick:
            events.append(self._melds_event([]))
        return events

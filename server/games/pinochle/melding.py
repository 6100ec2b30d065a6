"""Trump and melds: the turned card and the dix exchange (P5), then the melds (P3, P4,
P20), found and shown by the server as soon as trumps are fixed, with the cards they
prove."""

from __future__ import annotations

from typing import Any

from ..kit.base import Event, Seat
from ..kit.cards import Card
from .core import KEEP, PLAY, StateCore
from .melds import Meld, find_melds, proof_of
from .rules import side_of


class Melding(StateCore):
    """The dix exchange, and showing every seat's melds once trumps are fixed."""

    __slots__ = ()

    def _exchange(self, seat: Seat, log: list[Event] | None) -> None:
        """P5: the dix for the turned card; the dealer takes the dix in its place."""
        dix, card = self._dix(), self.turn_up
        assert card is not None
        self._move_card(seat, dix, card)
        self._move_card(self.dealer, card, dix)
        self.exchange = {"seat": seat, "gave": dix, "took": card}
        if log is not None:
            log.append(Event("exchange", dict(self.exchange)))
        self._show_melds(log)

    def _keep(self, seat: Seat, log: list[Event] | None) -> None:
        if log is not None:
            log.append(Event(KEEP, {"seat": seat}))
        self.turn = (seat + 1) % self.num_seats
        if self.turn == self.dealer:  # the dealer already holds the turned card
            self._show_melds(log)

    def _move_card(self, seat: Seat, out: Card, into: Card) -> None:
        hand = self.hands[seat]
        hand.remove(out)
        self.hands[seat] = self._sorted([*hand, into])

    def _show_melds(self, log: list[Event] | None) -> None:
        table = self.options.meld_table
        melds: list[list[Meld]] = [
            find_melds(hand, self.trump, table, self.dixes[s]) for s, hand in enumerate(self.hands)
        ]
        self._melds, self._meld_records = melds, None
        self.exposed = [self._proof(s, ms) for s, ms in enumerate(melds)]
        paid: list[dict[str, Any]] = []
        if self.checks is not None:
            for s, ms in enumerate(melds):  # P11: meld checks are paid when shown
                checks = self.options.checks.checks_for_melds([m.name for m in ms])
                if checks:
                    paid.append(self._pay(side_of(s), checks, "melds", seat=s))
        self.phase = PLAY
        # P8: the bidder leads; without an auction, eldest (the dealer's left).
        if self.contract is not None:
            self.leader = self.contract["bidder"]
        else:
            self.leader = (self.dealer + 1) % self.num_seats
        self.turn = self.leader
        if log is not None:
            log.append(self._melds_event(paid))

    def _proof(self, seat: Seat, melds: list[Meld]) -> list[Card]:
        """What the table knows ``seat`` holds once the melds are shown.

        The melds (the most of each card any class uses), the turned card
        still in the dealer's hand, and the exchange (P5): the exchanger holds
        the turned card and one dix fewer than shown; the dealer holds the dix
        received besides any of its own, a different card. Returned as the
        player holds them (sorted).
        """
        counts, cards = proof_of(melds, self.options.meld_table)
        exchange = self.exchange
        dealer_adjusts = seat == self.dealer and (exchange is not None or self.turn_up is not None)
        if not dealer_adjusts and (exchange is None or seat != exchange["seat"]):
            return list(cards)  # the melds alone
        proof = dict(counts)
        get = proof.get
        if exchange is not None:
            if seat == exchange["seat"]:
                proof[exchange["gave"]] = get(exchange["gave"], 0) - 1
                proof[exchange["took"]] = max(get(exchange["took"], 0), 1)
            if seat == self.dealer:
                proof[exchange["gave"]] = get(exchange["gave"], 0) + 1
        elif seat == self.dealer and self.turn_up is not None:
            proof[self.turn_up] = max(get(self.turn_up, 0), 1)
        return self._sorted([c for c, n in proof.items() for _ in range(n)])

    def _melds_event(self, paid: list[dict[str, Any]]) -> Event:
        assert self.melds is not None
        return Event("melds", {"trump": self.trump, "melds": self.melds,
                               "points": self.meld_points(), "checks": paid})  # fmt: skip

    @property
    def melds(self) -> list[list[dict[str, Any]]] | None:
        """Each seat's melds this deal as the API shows them (None before they are shown),
        built the first time a view, an event or ``to_dict`` asks, then kept."""
        if self._meld_records is None and self._melds is not None:
            self._meld_records = [[m.to_dict() for m in ms] for ms in self._melds]
        return self._meld_records

    @melds.setter
    def melds(self, records: list[list[dict[str, Any]]] | None) -> None:
        self._melds, self._meld_records = None, records

    def meld_points(self) -> list[int] | None:
        """Each seat's meld points this deal (None before they are shown)."""
        if self._melds is not None:
            return [sum(m.points for m in ms) for ms in self._melds]
        if self._meld_records is None:
            return None
        return [sum(m["points"] for m in ms) for ms in self._meld_records]

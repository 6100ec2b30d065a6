"""The play of the tricks (P6): following the head rule, the highest trump or else the
highest of the led suit winning, the first of two equal cards."""

from __future__ import annotations

from typing import Any

from ..kit.base import Event, Seat
from ..kit.cards import Card
from .core import PLAY_CARD, CompactTrick, StateCore
from .rules import RANK_ORDER


class Tricks(StateCore):
    """Playing a card, completing a trick, and the tricks' public records."""

    __slots__ = ()

    def _play(self, seat: Seat, card: Card, log: list[Event] | None) -> None:
        self.hands[seat].remove(card)
        exposed = self.exposed[seat]
        if card in exposed:  # a public proof is used up by a play
            exposed.remove(card)
        trick = self.trick
        if trick:  # does the card beat the winning one? (rules.beats, written out)
            top = trick[self._top]
            if card[1] == top[1]:
                if RANK_ORDER[card[0]] > RANK_ORDER[top[0]]:
                    self._top = len(trick)
            elif card[1] == self.trump:
                self._top = len(trick)
        else:
            self._top = 0
        trick.append(card)
        if log is not None:
            number = len(self._tricks) + 1
            log.append(Event(PLAY_CARD, {"seat": seat, "card": card, "trick_number": number}))
        n = self.num_seats
        if len(trick) < n:
            self.turn = (seat + 1) % n
        else:
            self._complete_trick(log)

    def _complete_trick(self, log: list[Event] | None) -> None:
        """The highest trump wins, else the highest of the led suit; the first of two equals."""
        cards, options, tricks = tuple(self.trick), self.options, self._tricks
        winner = (self.leader + self._top) % self.num_seats  # trick_winner, kept up to date
        side = winner % 2  # side_of, written out
        points = options.counting.card_points(cards)
        last = len(tricks) + 1 == options.cards_each  # tricks_per_deal
        if last:
            points += options.counting.last_trick * options.rules.packs
        tricks.append((self.leader, cards, winner, points, last))
        self.tricks_won[side] += 1
        self.taken[side] += points
        self.trick = []
        if log is not None:
            log.append(Event("trick", self._trick_record(len(self._tricks), self._tricks[-1])))
        if last:
            self._end_deal(log)
        else:
            self.leader = self.turn = winner

    def _trick_record(self, number: int, trick: CompactTrick) -> dict[str, Any]:
        """The public record of a completed trick, as views and ``trick`` events show it."""
        leader, cards, winner, counters, last = trick
        n = self.num_seats
        return {
            "number": number,
            "leader": leader,
            "cards": [{"seat": (leader + i) % n, "card": c} for i, c in enumerate(cards)],
            "winner": winner,
            "counters": counters,
            "last": last,
        }

    @property
    def tricks(self) -> list[dict[str, Any]]:
        """The records of this deal's completed tricks."""
        return [self._trick_record(i, t) for i, t in enumerate(self._tricks, 1)]

    def _current_trick(self) -> list[dict[str, Any]]:
        n = self.num_seats
        return [{"seat": (self.leader + i) % n, "card": c} for i, c in enumerate(self.trick)]

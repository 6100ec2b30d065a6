"""Scoring at the end of a deal: melds only for a side that won a trick (P17), the
variant settling the deal (P18; the auction's contract), Check's ledger of checks
(P11, P13, P14), and the end of the game."""

from __future__ import annotations

from typing import Any

from ..kit.base import Event, Outcome, Seat, Termination
from .core import OVER, StateCore
from .rules import Contract, Settlement, side_of


class Scoring(StateCore):
    """Settling each deal, paying checks, and ending the game."""

    __slots__ = ()

    def _end_deal(self, log: list[Event] | None) -> None:
        """Melds count only for a side that won a trick (P17); then the variant settles."""
        per_seat = self.meld_points() or [0] * self.num_seats
        melds = [sum(per_seat[s] for s in range(self.num_seats) if side_of(s) == side)
                 for side in (0, 1)]  # fmt: skip
        counted_melds = [melds[s] if self.tricks_won[s] else 0 for s in (0, 1)]
        made = [counted_melds[s] + self.taken[s] for s in (0, 1)]
        contract = None
        if self.contract is not None:
            contract = Contract(self.contract["bidder"], self.contract["amount"])
        settled = self.rules.settle(made, contract, self.scores, self.options.target)
        for s in (0, 1):
            self.scores[s] += settled.points[s]
        winner, termination = settled.winner, Termination.TARGET_REACHED
        if winner is None and self.deal_number == self.options.max_deals:
            termination = Termination.DEALS_EXHAUSTED
            if self.scores[0] != self.scores[1]:
                winner = 0 if self.scores[0] > self.scores[1] else 1
        paid = self._deal_checks(settled, winner)
        result = {
            "deal": self.deal_number,
            "dealer": self.dealer,
            "trump": self.trump,
            "contract": None if self.contract is None else {**self.contract,
                                                           "made": settled.made},
            "melds": melds,
            "melds_counted": counted_melds,
            "counters": list(self.taken),
            "tricks": list(self.tricks_won),
            "made": made,
            "counted": list(settled.counted),
            "points": list(settled.points),
            "scores": list(self.scores),
            "checks": paid,
        }  # fmt: skip
        self.deal_results.append(result)
        if log is not None:
            log.append(Event("deal_end", result))
        if termination is Termination.TARGET_REACHED and winner is None:
            self._deal(log)
            return
        self.phase, self.turn = OVER, None
        winners = tuple(s for s in range(self.num_seats) if side_of(s) == winner)
        per_seat_scores = tuple(self.scores[side_of(s)] for s in range(self.num_seats))
        self._outcome = Outcome(termination, per_seat_scores, winners)
        if log is not None:
            log.append(Event("game_over", {**self._outcome.to_dict(), "checks": self.checks}))

    def _deal_checks(self, settled: Settlement, winner: int | None) -> list[dict[str, Any]]:
        """Check's ledger at a deal's end: contract (P13), defeat doubled, slam, game (P14)."""
        if self.checks is None:
            return []
        table = self.options.checks
        paid = []
        assert self.contract is not None
        bidders = side_of(self.contract["bidder"])
        checks = table.contract_checks(self.contract["amount"])
        if settled.made:
            paid.append(self._pay(bidders, checks, "contract"))
        else:
            paid.append(self._pay(1 - bidders, 2 * checks, "defeat"))
        for side in (0, 1):
            if self.tricks_won[side] == self.tricks_per_deal:
                paid.append(self._pay(side, table.slam, "all_tricks"))
        if winner is not None:
            w = winner
            game = table.game_checks(self.scores[w], self.scores[1 - w])
            paid.append(self._pay(w, game, "game"))
        return paid

    def _pay(self, side: int, checks: int, reason: str, seat: Seat | None = None) -> dict[str, Any]:
        """Checks are paid across the table (P14): one side's gain is the other's loss."""
        assert self.checks is not None
        self.checks[side] += checks
        self.checks[1 - side] -= checks
        entry = {"deal": self.deal_number, "side": side, "checks": checks, "reason": reason}
        if seat is not None:
            entry["seat"] = seat
        self.check_log.append(entry)
        return entry

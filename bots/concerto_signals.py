"""``concerto_signals``: Parlett's signalling system for Concerto (docs/bots/conventions.md).

Partners cannot see each other's cards, so the side that builds a hand talks
through the order of its first two cards (seed 000, "Concerto signals"):

1. **The leader signals.** It goes down Parlett's checklist and shows the
   first holding it has, by the pattern of its first two cards: same rank,
   same suit, same colour, in range (at most four ranks apart) or not,
   rising or falling, and the gap between them. "Red and pass" and "black
   and pass" replace the second card by a pass.
2. **The partner passes after the lead**, so that the leader's second card
   completes the signal (unless it can turn the lead into a straight flush or
   fours of 12 points straight away; then it plays, and the leader passes).
3. **The partner reads the signal** and completes the indicated combination:
   it plays the cards it holds that the leader's holding lacks (the missing
   card of a straight flush, the fourth of the leader's threes, two more of
   the leader's pair for fours 2+2, ...), then calls 'Play' so the leader
   finishes the hand alone. The leader passes while its partner contributes.
4. **Visible hands are read**: a holding is only signalled when the cards
   it needs are not already among the completed hands of the deal, and the
   partner rules out readings that the cards it can see make impossible.

Everything is recomputed from the view at every move (the bot keeps no memory
of a game), so a restarted runner picks up in the middle of a hand.

:func:`convention_card` discloses all of it, machine-readably, for opponents
and for a human partner. Where Parlett leaves a choice or his table is
ambiguous, the card's ``"deviations"`` say what this bot does.

This module is the bot's play policy (:class:`SignalsBot`: when to signal,
pass, complete or call 'Play'); the system it plays is :mod:`bots._signals`
(the leader's checklist, reading, completing, the card as data), whose names
are re-exported here.

Run it: ``python -m bots.concerto_signals --server URL --token T``.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Sequence

from client_sdk import Bot
from client_sdk.cli import bot_main
from client_sdk.types import Move, View

from ._concerto import FORCE, PASS, Table, best_completion, completing_card, play, read_table
from ._signals.card import convention_card
from ._signals.leader import (
    CHECKLIST,
    Signal,
    _sf_holdings,
    choose_signal,
    holdings,
    sf3_cards,
    sf4_cards,
)
from ._signals.partner import partner_cards
from ._signals.ranks import card_at, coords, pattern, rank_at, windows_of
from ._signals.reading import Reading, read_signal, sf_candidates

__all__ = [
    "CHECKLIST", "Reading", "Signal", "SignalsBot", "_immediate", "_sf_holdings", "card_at",
    "choose_signal", "convention_card", "coords", "holdings", "make_bot", "partner_cards",
    "pattern", "rank_at", "read_signal", "sf3_cards", "sf4_cards", "sf_candidates",
    "windows_of",
]  # fmt: skip


def _immediate(lead: tuple[int, str], hand: Sequence[str], me: int, rules: str) -> tuple[str, ...]:
    """Cards to play at once instead of passing after the lead: 12+ points with it.

    Only a straight flush 1+4 (four of the lead's suit) or fours 1+3 (three of
    its rank) can reach 12, so other hands are not searched.
    """
    lead_card = lead[1]
    if (sum(c[1] == lead_card[1] for c in hand) < 4
            and sum(c[0] == lead_card[0] for c in hand) < 3):  # fmt: skip
        return ()
    points, cards = best_completion([lead], hand, me, rules, 4)
    return cards if points >= 12 else ()


class SignalsBot(Bot):
    """Parlett's signals: the leader shows its holding, the partner completes it."""

    name = "concerto_signals"

    def choose_move(self, view: View) -> Move:
        table = read_table(view)
        if table.forced is not None or table.cards_left[table.partner] == 0:
            return self._complete(table)  # must play alone (C9, C11)
        if not table.current:
            return play(self._signal(table).first)
        if table.actual_leader == table.me:
            return self._as_leader(table)
        return self._as_partner(table)

    # -- helpers -------------------------------------------------------------
    @staticmethod
    def _complete(table: Table) -> Move:
        """Play a card of the best hand we can finish from our own cards."""
        return play(completing_card(table.current, table.hand, table.me, table.rules))

    @staticmethod
    def _deal_seen(table: Table) -> frozenset[str]:
        """Cards of the deal's completed hands: what the leader saw when it signalled."""
        return table.seen - {c for _, c in table.current}

    def _signal(self, table: Table) -> Signal:
        mine = [c for s, c in table.current if s == table.me]
        return choose_signal([*table.hand, *mine], self._deal_seen(table))

    # -- leading -------------------------------------------------------------
    def _as_leader(self, table: Table) -> Move:
        if len(table.current) == 1 and table.passes == 1:
            signal = self._signal(table)  # the partner passed: finish the signal
            if signal.then == "card" and signal.second in table.hand:
                return play(signal.second)
            if signal.then == "pass":
                return PASS
            if signal.then == "force":
                return FORCE
        partner_just_played = table.current[-1][0] == table.partner and table.passes == 0
        if partner_just_played and table.may_pass():
            return PASS  # the partner is completing the combination: let it
        # The partner passed after the signal, or left the rest to us. A search
        # partner that passed to see more predicts this card (completing_card).
        return self._complete(table)

    # -- partnering ------------------------------------------------------------
    def _as_partner(self, table: Table) -> Move:
        lead = table.current[0]
        mine = [c for s, c in table.current if s == table.me]
        hand = [*table.hand, *mine]  # our hand when the signal began
        immediate = _immediate(lead, hand, table.me, table.rules)
        if len(table.current) == 1 and table.passes == 0:
            if immediate:
                return play(immediate[0])
            return PASS if table.may_pass() else self._complete(table)
        if immediate and len(table.current) > 1 and table.current[1][0] == table.me:
            plan: tuple[str, ...] = immediate
        else:
            plan = self._plan(table, lead, hand)
        for card in plan:
            if card not in mine and card in table.hand:
                return play(card)
        if table.may_pass() and table.cards_left[lead[0]] >= table.need:
            return FORCE  # our part is done: the leader completes the hand
        return self._complete(table)

    def _plan(self, table: Table, lead: tuple[int, str], hand: list[str]) -> tuple[str, ...]:
        """Read the signal and decide our contribution (the same at every turn of the hand)."""
        leader = lead[0]
        signal = [lead]
        if len(table.current) > 1 and table.current[1][0] == leader:
            signal.append(table.current[1])
            then, second = "card", table.current[1][1]
        else:
            then, second = "pass", None  # the leader passed after our pass
        known = frozenset(hand) | self._deal_seen(table)
        reading = read_signal(lead[1], then, second, known)
        leader_played = sum(1 for s, _ in table.current if s == leader)
        leader_left = table.cards_left[leader] + leader_played - len(signal)
        return partner_cards(
            reading, signal, hand, known, leader_left, table.rules, table.me,
            must_play=then == "pass",
        )  # fmt: skip


def make_bot(rng: random.Random | None = None) -> SignalsBot:
    return SignalsBot(rng)


if __name__ == "__main__":
    sys.exit(bot_main(make_bot))

"""The state of a Pinochle game: deal, auction or dix exchange, melds, tricks, scoring."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict
from typing import Any, ClassVar

from ..kit.base import (
    BaseState,
    Event,
    MalformedMove,
    Move,
    Outcome,
    Seat,
    Termination,
    game_record,
    redeal,
    split_leading_kind,
)
from ..kit.cards import PINOCHLE as PINOCHLE_PACK
from ..kit.cards import SUITS, Card, derived_rng
from ..packs import hand_order, shuffled
from .melds import Meld, find_melds, proof_of
from .options import (
    OPTIONS,
    PinochleOptions,
    check_options_together,
    deal_in_packets,
    parse_deals,
)
from .rules import (
    BID_STEP,
    MAX_BID,
    MIN_BID,
    RANK_ORDER,
    Contract,
    Settlement,
    Variant,
    high_bid,
    side_of,
    trick_winner,
)

AUCTION, TRUMP, EXCHANGE, PLAY, OVER = "auction", "trump", "exchange", "play", "over"
BID, PASS, NAME_TRUMP, EXCHANGE_DIX, KEEP, PLAY_CARD = (
    "bid", "pass", "trump", "exchange_dix", "keep", "play",
)  # fmt: skip
MOVE_FIELDS: dict[str, frozenset[str]] = {
    BID: frozenset({"type", "amount"}),
    PASS: frozenset({"type"}),
    NAME_TRUMP: frozenset({"type", "suit"}),
    EXCHANGE_DIX: frozenset({"type"}),
    KEEP: frozenset({"type"}),
    PLAY_CARD: frozenset({"type", "card"}),
}
PHASE_MOVES = {AUCTION: {BID, PASS}, TRUMP: {NAME_TRUMP}, EXCHANGE: {EXCHANGE_DIX, KEEP},
               PLAY: {PLAY_CARD}}  # fmt: skip

SimMove = tuple[str, ...] | tuple[str, int]
"""A compact move for bots that search (:meth:`State.moves`, :meth:`State.play`):
``("bid", 250)``, ``("pass",)``, ``("trump", "H")``, ``("exchange_dix",)``, ``("keep",)``,
``("play", "AS")``. The tuples are shared, built once here."""
PASS_MOVE, EXCHANGE_MOVE, KEEP_MOVE = (PASS,), (EXCHANGE_DIX,), (KEEP,)
BID_MOVES: dict[int, SimMove] = {a: (BID, a) for a in range(MIN_BID, MAX_BID + 1, BID_STEP)}
TRUMP_MOVES: tuple[SimMove, ...] = tuple((NAME_TRUMP, suit) for suit in SUITS)
PLAY_MOVES: dict[Card, SimMove] = {c: (PLAY_CARD, c) for c in PINOCHLE_PACK.cards()}
PLAY_MOVE_OF = PLAY_MOVES.__getitem__
MOVE_ARG = {BID: "amount", NAME_TRUMP: "suit", PLAY_CARD: "card"}
HAND_ORDER = hand_order(PINOCHLE_PACK)
"""Position in the pack's order (both packs have the same cards): how a player holds them."""

# A completed trick, kept compact: (leader, cards in playing order, winner, counters, last).
# The records the API shows (:meth:`State.tricks`) are built from it when asked for.
CompactTrick = tuple[Seat, tuple[Card, ...], Seat, int, bool]

VIEW_FIELDS = ("deal_number", "dealer", "phase", "turn_up", "trump", "contract", "exchange",
               "melds", "leader", "tricks", "tricks_won", "deal_results", "scores",
               "checks")  # fmt: skip
"""The fields a view shows as :meth:`State.to_dict` stores them (:meth:`State.from_view`)."""

WORLD_TRIES = 20
"""Worlds :meth:`State.determinize` draws looking for one whose hands would have shown
the same melds and made the same bids; past that it keeps the last one drawn."""


def as_dict(move: SimMove) -> Move:
    """A compact move as the API shows it."""
    if len(move) == 1:
        return {"type": move[0]}
    return {"type": move[0], MOVE_ARG[move[0]]: move[1]}


class State(BaseState):
    """One Pinochle game in progress.

    Public: everything in :meth:`state_view` (bids, the turned card, the
    exchange, melds once shown and the cards they prove, tricks, scores,
    checks). Private to each seat: its own hand. Secret until the end: the
    seed, the preset deals still to come, and each seat's dix count until the
    melds are shown.

    Two doors lead to the same rules: :meth:`apply` (checked, returns the
    events, what the server uses) and :meth:`play` (a move from :meth:`moves`,
    no checks and no events, for bots that search). Events, views and trick
    records are built only when asked for; hands stay sorted as a player holds
    them, so the playable cards come out in order.
    """

    game: ClassVar[str] = "pinochle"
    options: PinochleOptions
    option_specs = OPTIONS
    options_type = PinochleOptions
    _check_options_together = staticmethod(check_options_together)
    parse_deals = staticmethod(parse_deals)

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

    def legal_actions(self, seat: Seat | None) -> list[SimMove]:
        """The legal moves of ``seat`` (to move), compact; each distinct card once."""
        if seat is None:
            return []
        if self.phase == PLAY:
            trick, hand = self.trick, self.hands[seat]
            # the lead may be any card (playable would copy the hand)
            cards = (
                self.options.head.playable(hand, trick, self.trump, trick[self._top])
                if trick
                else hand
            )
            return list(map(PLAY_MOVE_OF, dict.fromkeys(cards)))  # the hand is sorted
        if self.phase == AUCTION:
            auction = self.rules.auction
            assert auction is not None
            moves: list[SimMove] = []
            if auction.may_pass(self.bids, self.dealer, seat):
                moves.append(PASS_MOVE)
            amounts = auction.amounts(self.bids, self.dealer, seat, self.hands[seat])
            return moves + [BID_MOVES[a] for a in amounts]
        if self.phase == TRUMP:
            return list(TRUMP_MOVES)
        # P5: every seat from the dealer's left is asked, holder or not, so
        # who is asked tells nobody who holds a dix.
        holds = self._dix() in self.hands[seat]
        return [EXCHANGE_MOVE, KEEP_MOVE] if holds else [KEEP_MOVE]

    def _legal_moves(self, seat: Seat) -> list[Move]:
        return [as_dict(m) for m in self.legal_actions(seat)]

    def legal_actions_by_kind(self, seat: Seat | None) -> list[list[SimMove]]:
        """:meth:`legal_actions` grouped by kind: the cards (one kind), or pass then the
        bids, or exchanging the dix then keeping it."""
        actions = self.legal_actions(seat)
        if self.phase == PLAY:  # most steps: no kind to look at
            return [actions] if actions else []
        return split_leading_kind(actions)

    def normalize_move(self, move: Any) -> Move:
        kind = move.get("type") if isinstance(move, Mapping) else None
        if not isinstance(kind, str) or kind not in MOVE_FIELDS:
            raise MalformedMove(f"a move is an object with a type: one of {', '.join(MOVE_FIELDS)}")
        extra = move.keys() - MOVE_FIELDS[kind]
        if extra:
            raise MalformedMove(f"unexpected field(s) in a {kind} move: {', '.join(sorted(extra))}")
        if kind == BID:
            amount = move.get("amount")
            if isinstance(amount, bool) or not isinstance(amount, int):
                raise MalformedMove("a bid is {'type': 'bid', 'amount': <integer>}")
            return {"type": BID, "amount": amount}
        if kind == NAME_TRUMP:
            if move.get("suit") not in tuple(SUITS):
                raise MalformedMove("a trump is {'type': 'trump', 'suit': one of S H D C}")
            return {"type": NAME_TRUMP, "suit": move["suit"]}
        if kind == PLAY_CARD:
            card = move.get("card")
            if not self.rules.pack.is_card(card):
                raise MalformedMove(f"{card!r} is not a pinochle card (A T K Q J 9, then a suit)")
            return {"type": PLAY_CARD, "card": card}
        return {"type": kind}

    def _explain_illegal(self, seat: Seat, move: Move) -> str:
        kind = move["type"]
        if kind not in PHASE_MOVES[self.phase]:
            return f"no {kind} now: the deal is in its {self.phase} phase"
        if kind == PASS:
            return "the dealer must bid: everyone else has passed"
        if kind == BID:
            auction = self.rules.auction
            assert auction is not None
            return auction.explain_bid(self.bids, self.dealer, seat, self.hands[seat],
                                       move["amount"])  # fmt: skip
        if kind == EXCHANGE_DIX:
            return "you hold no dix (9 of trumps) to exchange"
        return self.options.head.explain(self.hands[seat], self.trick, self.trump,
                                         move["card"])  # fmt: skip

    # -- the moves ------------------------------------------------------------
    def _apply(self, seat: Seat, move: Move) -> list[Event]:
        events: list[Event] = []
        kind = move["type"]
        self._act(seat, kind, move.get(MOVE_ARG[kind]) if kind in MOVE_ARG else None, events)
        return events

    def _is_legal(self, seat: Seat, move: Move) -> bool:
        """``move`` (normalized) is among :meth:`moves`, as ``legal_moves`` would say."""
        kind = move["type"]
        compact = (kind, move[MOVE_ARG[kind]]) if kind in MOVE_ARG else (kind,)
        return compact in self.legal_actions(seat)

    def _apply_quietly(self, seat: Seat, move: Move) -> None:
        """``_apply`` without building events (``apply(..., events=False)``)."""
        kind = move["type"]
        self._act(seat, kind, move[MOVE_ARG[kind]] if kind in MOVE_ARG else None, None)

    def apply_action(self, seat: Seat | None, move: SimMove) -> None:
        """Play an action of :meth:`legal_actions` for ``seat``: no checks, no events (for
        search: take the actions from :meth:`legal_actions`)."""
        assert seat is not None
        if move[0] == PLAY_CARD:  # the usual move, dispatched at once: the simulations' hot path
            self._play(seat, move[1], None)  # type: ignore[arg-type]
        else:
            self._act(seat, move[0], move[1] if len(move) > 1 else None, None)

    def _act(self, seat: Seat, kind: str, arg: Any, log: list[Event] | None) -> None:
        """One move; its events go to ``log`` when one is kept."""
        if kind == PLAY_CARD:
            self._play(seat, arg, log)
        elif kind in (BID, PASS):
            self._bid(seat, arg, log)
        elif kind == NAME_TRUMP:
            self._name_trump(seat, arg, log)
        elif kind == EXCHANGE_DIX:
            self._exchange(seat, log)
        else:
            self._keep(seat, log)

    # -- the auction (Firehouse P9; Check P15, P16) -------------------------------
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

    # -- the turned trump and the dix (P5) -----------------------------------------
    def _dix(self) -> Card:
        assert self.trump is not None
        return "9" + self.trump

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

    # -- melds (P20, P3, P4; shown automatically once trumps are fixed) ------------
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

    # -- tricks (P6) ------------------------------------------------------------
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

    # -- end of a deal and of the game ----------------------------------------------
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

    def _sorted(self, cards: Iterable[Card]) -> list[Card]:
        """Cards as a player holds them: by suit (S H D C), high to low (A T K Q J 9)."""
        return sorted(cards, key=HAND_ORDER.__getitem__)

    # -- information -----------------------------------------------------------
    def state_view(self, seat: Seat | None = None) -> dict[str, Any]:
        """The public part of the state: identical for every seat and spectators.

        Lists are fresh copies, so a caller appending to them cannot change the
        game; the records inside (tricks, melds, deal results) are written once
        and shared, and must be treated as read-only.
        """
        n = self.num_seats
        return {
            "variant": self.options.variant,
            "head_rule": self.options.head_rule,
            "count": self.options.count,
            "target": self.options.target,
            "sides": [[s for s in range(n) if side_of(s) == side] for side in (0, 1)],
            "deal_number": self.deal_number,
            "dealer": self.dealer,
            "phase": self.phase,
            "turn_up": self.turn_up,
            "trump": self.trump,
            "bids": [{"seat": s, "amount": a} for s, a in self.bids],
            "contract": None if self.contract is None else dict(self.contract),
            "exchange": None if self.exchange is None else dict(self.exchange),
            "melds": None if self.melds is None else [list(ms) for ms in self.melds],
            "meld_points": self.meld_points(),
            "exposed": [list(e) for e in self.exposed],
            "leader": self.leader,
            "trick_number": min(len(self._tricks) + 1, self.tricks_per_deal),
            "current_trick": self._current_trick(),
            "tricks": self.tricks,
            "tricks_won": list(self.tricks_won),
            "counters": list(self.taken),
            "cards_left": [len(h) for h in self.hands],
            "deal_results": list(self.deal_results),
            "scores": list(self.scores),
            "checks": None if self.checks is None else list(self.checks),
            "check_log": list(self.check_log) if self.checks is not None else None,
        }

    def seat_scores(self) -> list[int]:
        return [self.scores[side_of(s)] for s in range(self.num_seats)]

    def reveal(self) -> dict[str, Any]:
        return {"seed": self.seed, "hands": [list(h) for h in self.hands]}

    # -- persistence -------------------------------------------------------------
    _SCALARS = ("deal_number", "dealer", "phase", "turn", "turn_up", "trump", "contract",
                "exchange", "melds", "leader")  # fmt: skip
    _LISTS = ("dixes", "tricks_won", "taken", "deal_results", "scores", "check_log")

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "game": self.game,
            "options": asdict(self.options),
            "seed": self.seed,
            "presets": [{**p, "hands": [list(h) for h in p["hands"]]} for p in self.presets],
            "hands": [list(h) for h in self.hands],
            "bids": [list(b) for b in self.bids],
            "exposed": [list(e) for e in self.exposed],
            "trick": [[p["seat"], p["card"]] for p in self._current_trick()],
            "tricks": self.tricks,
            "checks": None if self.checks is None else list(self.checks),
            "outcome": None if self._outcome is None else self._outcome.to_dict(),
        }
        for name in self._SCALARS:
            d[name] = getattr(self, name)
        for name in self._LISTS:
            d[name] = list(getattr(self, name))
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> State:
        s = cls(PinochleOptions(**d["options"]), d["seed"], d["presets"])
        for name in cls._SCALARS:
            setattr(s, name, d[name])
        for name in cls._LISTS:
            setattr(s, name, list(d[name]))
        s.hands = [list(h) for h in d["hands"]]
        s.bids = [list(b) for b in d["bids"]]
        s.exposed = [list(e) for e in d["exposed"]]
        s.trick = [c for _, c in d["trick"]]
        s._top = trick_winner(s.trick, s.trump) if s.trick else 0
        s._tricks = [
            (t["leader"], tuple(p["card"] for p in t["cards"]), t["winner"], t["counters"],
             t["last"])
            for t in d["tricks"]
        ]  # fmt: skip
        s.checks = None if d["checks"] is None else list(d["checks"])
        s._outcome = None if d["outcome"] is None else Outcome.from_dict(d["outcome"])
        return s

    def clone(self) -> State:
        """A copy sharing only what is never mutated in place (records, tuples, bids, dixes).

        Spelled out field by field: a search clones at every step.
        """
        s = State.__new__(State)
        s.options, s.seed, s.presets, s.num_seats = (
            self.options,
            self.seed,
            self.presets,
            self.num_seats,
        )
        s._outcome, s.deal_number, s.dealer = self._outcome, self.deal_number, self.dealer
        s.phase, s.turn, s.turn_up, s.trump = self.phase, self.turn, self.turn_up, self.trump
        s.contract, s.exchange = self.contract, self.exchange
        s._melds, s._meld_records = self._melds, self._meld_records  # replaced, never mutated
        s.leader, s.dixes = self.leader, self.dixes
        s.bids = self.bids[:]  # each bid is written once
        s.tricks_won, s.taken, s.scores = self.tricks_won[:], self.taken[:], self.scores[:]
        s.deal_results, s.check_log = self.deal_results[:], self.check_log[:]
        s.hands = [h[:] for h in self.hands]
        s.exposed = [e[:] for e in self.exposed]
        s.trick, s._tricks, s._top = self.trick[:], self._tricks[:], self._top
        s.checks = None if self.checks is None else self.checks[:]
        return s

    # -- worlds for searching bots ---------------------------------------------------
    def determinize(self, seat: Seat, rng: random.Random) -> State:
        """One world ``seat`` cannot tell from this one, for a searching bot.

        The other hands are pooled and dealt again, each keeping its number of
        cards. What the table has seen a seat hold (``exposed``: meld proofs not
        yet played, the turned card in the dealer's hand) stays with it, and
        nobody gets a card that would have made one of its plays illegal (P6,
        :meth:`_fits`). Up to :data:`WORLD_TRIES` deals are drawn to find one in
        which every seat would also have shown the same melds and been allowed
        its bids (P15, :meth:`_agrees`); past that the last one is kept, so such
        a world may be off on melds or bids, never on the view or the plays.
        The deals still to come are secret too: the copy gets a seed drawn from
        ``rng`` and no preset deals beyond the current one.
        """
        fits = self._fits()
        s = self.clone()
        for _ in range(WORLD_TRIES):
            s.hands = redeal(self.hands, (seat,), rng, self._sorted, known=self.exposed,
                             fits=fits)  # fmt: skip
            if self._agrees(s.hands, seat):
                break
        if s.phase == EXCHANGE:  # the dixes held, secret until the melds show them
            s.dixes = [h.count(s._dix()) for h in s.hands]
        s._hide_the_deals_to_come(rng, self.deal_number)
        return s

    @classmethod
    def _public_from_view(
        cls, options: Mapping[str, Any], view: Mapping[str, Any], seat: Seat
    ) -> State:
        """The kit's :meth:`from_view` before the draw: the game as stored (:meth:`from_dict`)
        from the public view, the seat's own hand and the unseen cards dealt anyhow
        (:meth:`_view_record`)."""
        return cls.from_dict(cls._view_record(cls.parse_options(options), view, seat))

    @staticmethod
    def _view_record(
        options: PinochleOptions, view: Mapping[str, Any], seat: Seat
    ) -> dict[str, Any]:
        """What :meth:`to_dict` would store for a game showing ``seat`` this view, the cards
        it cannot see dealt anyhow (the tricks and what the table has seen each seat hold
        set aside).

        The dixes each seat held when trumps were fixed are the dix melds it showed (P5);
        none are counted before trumps are fixed, and in the exchange, where they are
        secret, determinize counts them in the hands it draws."""
        public = view["state"]
        melds, exposed, sizes = public["melds"], public["exposed"], public["cards_left"]
        dixes = [0] * options.players
        if melds is not None:
            dixes = [sum(m["name"] == "dix" for m in ms) for ms in melds]
        played = [p["card"] for t in public["tricks"] for p in t["cards"]]
        played += [p["card"] for p in public["current_trick"]]
        seen = Counter(view["hand"]) + Counter(played)
        seen += Counter(c for s, cards in enumerate(exposed) if s != seat for c in cards)
        pack = Counter(options.rules.pack.cards())
        if seen - pack:
            raise ValueError("not a view of a pinochle game: it shows cards the pack does not hold")
        unseen = list((pack - seen).elements())
        hidden = [0 if s == seat else sizes[s] - len(exposed[s]) for s in range(options.players)]
        if min(hidden) < 0 or sum(hidden) != len(unseen):
            raise ValueError(
                "not a view of a pinochle game: its hands do not hold the unseen cards"
            )
        hands = []
        for s, n in enumerate(hidden):
            hands.append(list(view["hand"]) if s == seat else [*exposed[s], *unseen[:n]])
            del unseen[:n]
        return {
            **{name: public[name] for name in VIEW_FIELDS},
            "options": {name: getattr(options, name) for name in OPTIONS},
            "seed": "",
            "presets": [],
            "turn": view["to_move"][0] if view["to_move"] else None,
            "hands": hands,
            "bids": [[b["seat"], b["amount"]] for b in public["bids"]],
            "exposed": exposed,
            "trick": [[p["seat"], p["card"]] for p in public["current_trick"]],
            "taken": public["counters"],
            "dixes": dixes,
            "check_log": public["check_log"] or [],
            "outcome": view["result"],
        }

    def _deal_tricks(self) -> list[tuple[Seat, tuple[Card, ...]]]:
        """This deal's tricks so far, the one being played included: (leader, cards)."""
        return [(t[0], t[1]) for t in self._tricks] + [(self.leader, tuple(self.trick))]

    def _fits(self) -> Callable[[Seat, Card], bool]:
        """Whether a seat may hold a card, given its plays this deal (P6).

        Each card a seat played to a trick was legal with every card it held, so
        a card fits only if, held beside each of those plays, it would not have
        forbidden it (the head rule picks the cards that must be played by their
        own suit and rank, so one card at a time tells)."""
        head, trump, n = self.options.head, self.trump, self.num_seats
        plays: list[list[tuple[Card, tuple[Card, ...]]]] = [[] for _ in range(n)]
        for leader, cards in self._deal_tricks():
            for i in range(1, len(cards)):
                plays[(leader + i) % n].append((cards[i], cards[:i]))
        verdicts: dict[tuple[Seat, Card], bool] = {}  # the same cards are asked again and again

        def fits(who: Seat, card: Card) -> bool:
            if (who, card) not in verdicts:
                verdicts[who, card] = all(
                    c in head.playable((c, card), before, trump) for c, before in plays[who]
                )
            return verdicts[who, card]

        return fits

    def _agrees(self, hands: list[list[Card]], seat: Seat) -> bool:
        """Would every seat but ``seat``, holding ``hands``, have shown the melds it showed
        and been allowed the bids it made? It melded and bid with the cards it holds now
        and those it has played since (P15: a bid in Check needs a marriage)."""
        n, auction, records = self.num_seats, self.rules.auction, self.melds
        held = [list(h) for h in hands]
        for leader, cards in self._deal_tricks():
            for i, card in enumerate(cards):
                held[(leader + i) % n].append(card)
        for s in range(n):
            if s == seat:
                continue
            if records is not None:
                found = find_melds(held[s], self.trump, self.options.meld_table, self.dixes[s])
                if [m.to_dict() for m in found] != records[s]:
                    return False
            bids = ((i, a) for i, (b, a) in enumerate(self.bids) if b == s and a is not None)
            if auction is not None and any(
                a not in auction.amounts(self.bids[:i], self.dealer, s, held[s]) for i, a in bids
            ):
                return False
        return True


new_state = State.new

GAME = game_record(
    State,
    title="Pinochle (partnership, firehouse, check, double-deck)",
    seats=(4, 6, 8),
    options=OPTIONS,
    seat_option="players",
    two_sides=True,  # seats alternate between two sides in every variant (rules.side_of)
    variant_option="variant",
    house_bots=("pinochle",),
)

"""The state of a Pinochle game: the moves, the views, persistence and worlds for bots.

:class:`State` is assembled from one class per section of the rulebook (each on
:class:`~.core.StateCore`, the fields of a game): :class:`~.deal.Dealing`,
:class:`~.auction.Auction`, :class:`~.melding.Melding`, :class:`~.tricks.Tricks`
and :class:`~.scoring.Scoring`. This module adds what the engine API asks of
every game: the legal moves and their checks, the two doors that apply a move,
the public view, ``to_dict``/``from_dict``/``clone``, and the worlds a searching
bot draws (``determinize``, ``from_view``).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from ..kit.base import (
    UNBOUNDED_DEALS,
    Event,
    MalformedMove,
    Move,
    Outcome,
    Seat,
    game_record,
    options_dict,
    redeal,
    split_leading_kind,
)
from ..kit.cards import PINOCHLE as PINOCHLE_PACK
from ..kit.cards import SUITS, Card
from .auction import Auction
from .core import (
    AUCTION,
    BID,
    EXCHANGE,
    EXCHANGE_DIX,
    KEEP,
    NAME_TRUMP,
    PASS,
    PLAY,
    PLAY_CARD,
    TRUMP,
)
from .deal import Dealing
from .melding import Melding
from .melds import find_melds
from .options import OPTIONS, PinochleOptions, check_options_together, parse_deals
from .rules import BID_STEP, MAX_BID, MIN_BID, side_of, trick_winner
from .scoring import Scoring
from .tricks import Tricks
from .wire import WIRE

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

_MOVE_WORDS = {BID: "no bid is made", PASS: "nobody passes", NAME_TRUMP: "nobody names trumps",
               EXCHANGE_DIX: "nobody exchanges the dix", KEEP: "nobody is asked about the dix",
               PLAY_CARD: "no card is played"}  # fmt: skip
_PHASE_WORDS = {AUCTION: "during the auction", TRUMP: "while trumps are named",
                EXCHANGE: "while the dix holders are asked",
                PLAY: "once the tricks have begun"}  # fmt: skip
"""A move refused in the wrong phase, in words: "no card is played during the auction"."""

SimMove = tuple[str, ...] | tuple[str, int]
"""A compact move for bots that search (:meth:`State.legal_actions`, :meth:`State.apply_action`):
``("bid", 250)``, ``("pass",)``, ``("trump", "H")``, ``("exchange_dix",)``, ``("keep",)``,
``("play", "AS")``. The tuples are shared, built once here."""
PASS_MOVE, EXCHANGE_MOVE, KEEP_MOVE = (PASS,), (EXCHANGE_DIX,), (KEEP,)
BID_MOVES: dict[int, SimMove] = {a: (BID, a) for a in range(MIN_BID, MAX_BID + 1, BID_STEP)}
TRUMP_MOVES: tuple[SimMove, ...] = tuple((NAME_TRUMP, suit) for suit in SUITS)
PLAY_MOVES: dict[Card, SimMove] = {c: (PLAY_CARD, c) for c in PINOCHLE_PACK.cards()}
PLAY_MOVE_OF = PLAY_MOVES.__getitem__
MOVE_ARG = {BID: "amount", NAME_TRUMP: "suit", PLAY_CARD: "card"}
ACTIONS: tuple[SimMove, ...] = (
    PASS_MOVE, *BID_MOVES.values(), *((NAME_TRUMP, suit) for suit in "CDHS"), EXCHANGE_MOVE,
    KEEP_MOVE, *(PLAY_MOVES[c] for c in PINOCHLE_PACK.low_to_high()),
)  # fmt: skip
"""The action space (:attr:`State.actions`): pass, the bids, the trumps, exchanging the
dix, keeping it, then every card's play, clubs to spades, low to high within a suit (the
reverse of the order hands are held in, so a hand's ids, read from its last card, ascend)."""
PLAY_IDS: dict[Card, int] = {card: ACTIONS.index(move) for card, move in PLAY_MOVES.items()}
"""The id of each card's play, by the card."""

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


class State(Dealing, Auction, Melding, Tricks, Scoring):
    """One Pinochle game in progress.

    Public: everything in :meth:`state_view` (bids, the turned card, the
    exchange, melds once shown and the cards they prove, tricks, scores,
    checks). Private to each seat: its own hand. Secret until the end: the
    seed, the preset deals still to come, and each seat's dix count until the
    melds are shown.

    Two doors lead to the same rules: :meth:`apply` (checked, returns the
    events, what the server uses) and :meth:`apply_action` (an action of
    :meth:`legal_actions`, no checks and no events, for bots that search).
    Events, views and trick records are built only when asked for; hands stay
    sorted as a player holds them, so the playable cards come out in order.
    """

    game: ClassVar[str] = "pinochle"
    option_specs = OPTIONS
    options_type = PinochleOptions
    _check_options_together = staticmethod(check_options_together)
    parse_deals = staticmethod(parse_deals)
    actions = ACTIONS

    __slots__ = ()

    # -- the moves ------------------------------------------------------------
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

    def legal_action_ids(self, seat: Seat | None) -> list[int]:
        """The ids of :meth:`legal_actions`, ascending; the playable cards' from the sorted
        hand, read from its last card (:data:`ACTIONS`), the other phases' looked up."""
        if seat is None or self.phase != PLAY:
            return super().legal_action_ids(seat)
        trick, hand = self.trick, self.hands[seat]
        cards = (
            self.options.head.playable(hand, trick, self.trump, trick[self._top]) if trick else hand
        )
        return list(map(PLAY_IDS.__getitem__, reversed(dict.fromkeys(cards))))

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
            return f"{_MOVE_WORDS[kind]} {_PHASE_WORDS[self.phase]}"
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

    def _apply(self, seat: Seat, move: Move) -> list[Event]:
        events: list[Event] = []
        kind = move["type"]
        self._act(seat, kind, move.get(MOVE_ARG[kind]) if kind in MOVE_ARG else None, events)
        return events

    def _is_legal(self, seat: Seat, move: Move) -> bool:
        """``move`` (normalized) is among :meth:`legal_actions`, as ``legal_moves`` would say."""
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
            "options": options_dict(self.options),
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


def longest_game(options: Mapping[str, Any]) -> int:
    """A bound on a game's moves: 100 a player a deal (the auction, the exchange and the
    tricks, and more), for its ``max_deals``, or :data:`UNBOUNDED_DEALS` in a game to its
    target alone.

    >>> longest_game({"players": 6, "max_deals": 2}), longest_game({"players": 4})
    (1200, 400000)
    """
    deals = options.get("max_deals")
    return 100 * int(options["players"]) * int(UNBOUNDED_DEALS if deals is None else deals)


GAME = game_record(
    State,
    title="Pinochle (partnership, firehouse, check, double-deck)",
    seats=(4, 6, 8),
    options=OPTIONS,
    seat_option="players",
    two_sides=True,  # seats alternate between two sides in every variant (rules.side_of)
    variant_option="variant",
    house_bots=("pinochle",),
    pack=PINOCHLE_PACK.low_to_high(),
    longest_game=longest_game,
    move_of=as_dict,
    wire=WIRE,
    option_sets=(  # one deal each
        *({"variant": v, "max_deals": 1} for v in ("partnership", "firehouse", "check")),
        {"variant": "check", "max_deals": 1, "check_table": "bicycle"},
        {"variant": "double-deck", "players": 6, "max_deals": 1},
        {"variant": "double-deck", "players": 8, "max_deals": 1},
        {"variant": "partnership", "max_deals": 1, "head_rule": "strict", "count": "simple"},
        {"variant": "firehouse", "max_deals": 1, "head_rule": "trump-only"},
    ),
)

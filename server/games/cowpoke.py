"""Cowpoke — David Parlett's draft-poker game for 2 to 5 cowpokes.

The rules are ``docs/rules/cowpoke.md`` (the author's text). A tag such as W4
cites the resolved point ``docs/rules/cowpoke.md#w4`` (W2…W9).

The course of one deal, in rulebook order:

* **Set-up.** Each player (and, with two players, the dummy) gets one
  face-down card, dealt from the dealer's left; the rest is the stack.
* **Round.** Each player draws the top card of the stack privately and puts
  any one card from hand face down, possibly the card just drawn (W9). With
  two players the dummy is dealt a face-down card too, and that latest card is
  its put-out (W5). Then all put-outs are turned up together.
* **Exchange** (W4, W5, :meth:`State._next_chooser`): the best put-out
  (rank, then suit order, W2: :meth:`State.strength`) chooses first and takes
  any table card but its own; the next chooser is the owner of the card just
  taken if not yet served, else the unserved player with the best put-out;
  nobody takes their own card while three or more are unserved; the last two
  players: the better put-out picks either card, the other gets the last.
  With two players the better put-out takes the opponent's or the dummy's
  card, the other takes either remaining card, and the last goes out of play
  face up.
* **Showdown.** After the exchange of a round that leaves everyone with at
  least five cards, players are asked in turn from the dealer's left whether to
  call a showdown; after the round that brings everyone to ten cards it is
  compulsory. The best five-card Poker hand wins; equal hands share (W7).
* **Game** (house scoring, W8): ``hands`` deals, the deal passing to the left;
  every showdown winner (each co-winner too) scores 1 point. The highest total
  wins; ties share the win (all seats tied: a draw).

Moves, by phase (``state.phase``): ``put_out`` → ``{"type": "put_out", "card":
"QS"}``; ``exchange`` → ``{"type": "take", "card": "QS"}`` (a table card; on
the wire the dummy's cards have owner ``"dummy"``); ``asking`` →
``{"type": "call"}`` (a showdown) or ``{"type": "pass"}``.

Choices where the rules are silent, as a careful player expects them:

* **Put-outs are simultaneous.** The rule says "in turn", but nothing anyone
  does is visible until the reveal, so the order cannot matter: every seat
  that has not yet put out is in ``to_move`` and may act. The draws are made
  at the start of the round, in turn from the dealer's left (the dummy last),
  exactly the cards the players would draw in turn. Whether a seat has put
  out is public (at a table you see the face-down card), its card is not.
* **"Gets the last"** is automatic: the last unserved player takes the last
  table card without a move (a ``take`` event with ``auto: true``).
* **The dummy's first face-down card** is never turned up (its *latest*
  card is its put-out each round) and is dead; it stays secret like the stack.
* **The dealer** of deal *k* is ``first_dealer + k - 1`` (an extra option,
  default 0), as in the other games.
* **Exposed cards.** A card taken in an exchange is known to be in the
  taker's hand; the view lists it under ``exposed`` until it is turned up as a
  put-out again. It is updated only at a reveal, so putting an exposed card
  face down tells nobody anything.

>>> s = new_state({"players": 3}, seed="doc")
>>> s.to_move(), s.phase, [len(h) for h in s.hands]    # dealer 0: seat 1 draws first
([1, 2, 0], 'put_out', [2, 2, 2])
>>> sorted(m["type"] for m in s.legal_moves(1))
['put_out', 'put_out']
"""

from __future__ import annotations

import random
from bisect import insort
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property
from itertools import permutations
from typing import Any, ClassVar

from .cowpoke_wire import WIRE
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
from .kit.cards import STANDARD, Card, derived_rng
from .kit.deals import (
    HandShape,
    Preset,
    cards_in,
    check_cards,
    check_deals,
    check_scheduled_dealer,
    read_hands,
)
from .kit.poker import WIRE_NAMES, best_five
from .packs import hand_order, shuffled

DUMMY = "dummy"  # the owner name of the dummy's cards on the wire
SHOWDOWN_FROM = 5  # cards each before a showdown may be called
MAX_CARDS = 10  # cards each when the showdown is compulsory

PUT_OUT, TAKE, CALL, PASS = "put_out", "take", "call", "pass"
# Phases of a round: put-outs, the exchange, the question "showdown?", and the end.
EXCHANGE, ASKING, OVER = "exchange", "asking", "over"

SUIT_ORDERS = ["CHSD"] + sorted("".join(p) for p in permutations("CHSD") if p != tuple("CHSD"))


# ---------------------------------------------------------------------------
# Options and preset deals
# ---------------------------------------------------------------------------

OPTIONS: dict[str, dict[str, Any]] = {
    "players": {"default": 4, "min": 2, "max": 5, "doc": "2-5 players; with 2 a dummy joins"},
    "suit_order": {
        "default": "CHSD",
        "choices": SUIT_ORDERS,
        "invalid": "must be the four suits C H S D, highest first, e.g. CHSD",
        "doc": "suits from highest to lowest, to break equal ranks of put-outs (W2)",
    },
    "hands": {
        "default": 5,
        "min": 1,
        "max": 100,
        "doc": "deals per game; each showdown winner scores 1 point (W8)",
    },
    "first_dealer": {"default": 0, "min": 0, "max": 4, "doc": "seat of the first dealer"},
}


@dataclass(frozen=True)
class CowpokeOptions:
    players: int = 4
    suit_order: str = "CHSD"
    hands: int = 5
    first_dealer: int = 0

    @cached_property
    def has_dummy(self) -> bool:
        """Two players play with a dummy (W5); read at every take, so kept once known."""
        return self.players == 2


def check_options_together(problems: dict[str, str], values: dict[str, Any]) -> None:
    """The first dealer is a seat of the table."""
    players, first = values["players"], values["first_dealer"]
    if "players" not in problems and "first_dealer" not in problems and first >= players:
        problems["first_dealer"] = f"must be a seat 0..{players - 1}"


def dealer_of_deal(deal_number: int, options: CowpokeOptions) -> Seat:
    """Deal k (1-based) is dealt by ``first_dealer + k - 1``: the deal passes to the left."""
    return (options.first_dealer + deal_number - 1) % options.players


def parse_deals(raw: Iterable[Any] | None, options: CowpokeOptions) -> list[dict[str, Any]]:
    """Check preset deals, reporting every problem.

    A preset is ``{"hands": [[card] × players], "dummy": card, "stack": [...]}``:
    each player's face-down set-up card, the dummy's (two players only) and
    the stack, top card first. Together they must be exactly the 52-card pack.
    ``dealer`` may be given; it must then be the dealer the rotation fixes.

    Raises:
        InvalidDeal: with every problem found, each prefixed by its place.
    """
    n = options.players
    shape = HandShape(n, 1, hands_text=f"{n} hands of one card", hand_text="exactly one card")

    def read(preset: Preset) -> dict[str, Any]:
        check_scheduled_dealer(preset, dealer_of_deal(preset.index + 1, options))
        hands = read_hands(preset, shape) or []
        cards = cards_in(h for h in hands if isinstance(h, list) and len(h) == 1)
        dummy = preset.fields.get("dummy")
        if options.has_dummy:
            if "dummy" not in preset.fields:
                preset.problem("the dummy's card is required with 2 players", ".dummy")
            else:
                cards.append(dummy)
        elif "dummy" in preset.fields:
            preset.problem("only a 2-player game has a dummy", ".dummy")
        stack = preset.fields.get("stack")
        if not isinstance(stack, list):
            preset.problem("must be a list of cards, top first", ".stack")
            stack = []
        check_cards(preset, cards + stack, STANDARD, counted=False)
        return {"hands": hands, "dummy": dummy, "stack": list(stack)}

    return check_deals(
        raw,
        read,
        object_text="hands and stack",
        fields=("dealer", "hands", "dummy", "stack"),
        at_most=(options.hands, "the game has that many deals"),
    )


# ---------------------------------------------------------------------------
# Compact moves and tables (looked up, never parsed, on the hot path)
# ---------------------------------------------------------------------------

SimMove = tuple[str, ...]
"""A compact move for bots that search: ``(type, card)`` or ``(type,)``, shared tuples."""
PUT_OUT_MOVES: dict[Card, SimMove] = {c: (PUT_OUT, c) for c in STANDARD.cards()}
TAKE_MOVES: dict[Card, SimMove] = {c: (TAKE, c) for c in STANDARD.cards()}
CALL_MOVE, PASS_MOVE = (CALL,), (PASS,)
HAND_ORDER = hand_order(STANDARD)
"""Position in the pack's order, suit by suit (S H D C), high to low: how a player holds cards."""
_HAND_PLACE = HAND_ORDER.__getitem__
_CARDS = STANDARD.low_to_high()
ACTIONS: tuple[SimMove, ...] = (
    CALL_MOVE, PASS_MOVE, *(PUT_OUT_MOVES[c] for c in _CARDS), *(TAKE_MOVES[c] for c in _CARDS)
)  # fmt: skip
"""The action space (:attr:`State.actions`): call, pass, then every card's put-out and
every card's take, each clubs to spades, low to high within a suit (the reverse of
:data:`HAND_ORDER`, so a hand's ids, read from its last card, ascend)."""
PUT_OUT_IDS: dict[Card, int] = {c: ACTIONS.index(PUT_OUT_MOVES[c]) for c in _CARDS}
TAKE_IDS: dict[Card, int] = {c: ACTIONS.index(TAKE_MOVES[c]) for c in _CARDS}
"""The id of each card's put-out and take, by the card."""
CALL_OR_PASS_IDS = [ACTIONS.index(CALL_MOVE), ACTIONS.index(PASS_MOVE)]

CompactTake = tuple[Seat, Card, Seat | str, bool]
"""A take: who took, the card, whose it was (a seat or the dummy), whether automatic."""
CompactRound = tuple[
    int, tuple[Card | None, ...], tuple[Seat | None, ...], tuple[CompactTake, ...], Card | None
]
"""A finished round: its number, the put-outs and their takers by owner, the takes, the
card out of play. :attr:`State.rounds` builds the records the API shows from it."""


CompactShowdown = tuple[
    int,
    Seat,
    int,
    Seat | None,
    list[list[Card]],
    list[tuple[Any, Any, tuple[Card, ...]]],
    list[Seat],
    list[int],
    tuple[int, ...],
]
"""A showdown: the deal, dealer, round, who called it, the hands (never changed once shown:
the next deal holds new lists), each hand's :func:`best_five`, the winners, the points and
the scores after it. :attr:`State.deal_results` builds the records the API shows from it."""


def as_dict(move: SimMove) -> Move:
    """A compact move as the API shows it."""
    return {"type": move[0], "card": move[1]} if len(move) > 1 else {"type": move[0]}


_STRENGTHS: dict[str, dict[Card, int]] = {}


def strength_table(suit_order: str) -> dict[Card, int]:
    """W2: each card's put-out strength, rank first (A high … 2), then the suit order.

    >>> t = strength_table("CHSD")
    >>> t["AD"] > t["KC"] > t["KH"] > t["KD"] > t["2C"]
    True
    """
    table = _STRENGTHS.get(suit_order)
    if table is None:
        table = {
            c: 4 * STANDARD.rank_order(c) + 3 - suit_order.index(c[1]) for c in STANDARD.cards()
        }
        _STRENGTHS[suit_order] = table
    return table


# ---------------------------------------------------------------------------
# The state
# ---------------------------------------------------------------------------


class State(BaseState):
    """One game of Cowpoke in progress.

    Owners of table cards are indexed 0..players-1 for the players and
    ``players`` for the dummy (two players only); on the wire the dummy is
    ``"dummy"``.

    Public: everything in :meth:`state_view` without a seat. Private to each
    seat: its hand, its latest draw and its put-out before the reveal. Secret
    until the end: the stack, the dummy's face-down cards and put-out before
    the reveal, the seed and the presets still to come.

    Two doors lead to the same rules: :meth:`apply` (checked, returns the
    events, what the server uses) and :meth:`play` (a move from :meth:`moves`,
    no checks and no events, for bots that search). Events, views and the
    records of finished rounds are built only when asked for.
    """

    game: ClassVar[str] = "cowpoke"
    options: CowpokeOptions
    option_specs = OPTIONS
    options_type = CowpokeOptions
    _check_options_together = staticmethod(check_options_together)
    parse_deals = staticmethod(parse_deals)
    actions = ACTIONS

    __slots__ = (
        "options", "num_seats", "seed", "presets", "deal_number", "dealer", "hands", "stack",
        "dummy_cards", "round", "phase", "drawn", "put_outs", "taken_by", "chooser", "_takes",
        "out_of_play", "asked", "passes", "exposed", "_rounds", "_results", "_showdowns",
        "scores", "_outcome", "_order", "_strength", "_ranked", "_waiting",
    )  # fmt: skip

    def __init__(self, options: CowpokeOptions, seed: str, presets: list[dict[str, Any]]):
        n = options.players
        self.options = options
        self.num_seats = n
        self.seed = seed
        self.presets = presets
        self.deal_number = 0
        self.dealer: Seat = options.first_dealer
        self.hands: list[list[Card]] = [[] for _ in range(n)]
        self.stack: list[Card] = []  # top card first
        self.dummy_cards: list[Card] = []  # the dummy's dead face-down card
        self.round = 0
        self.phase = PUT_OUT
        self.drawn: list[Card | None] = [None] * n  # each seat's draw this round
        self.put_outs: list[Card | None] = [None] * self.owners
        self.taken_by: list[Seat | None] = [None] * self.owners
        self.chooser: Seat | None = None
        self._takes: list[CompactTake] = []  # this round's exchange so far
        self.out_of_play: Card | None = None
        self.asked: Seat | None = None  # who is asked whether to call a showdown
        self.passes: list[Seat] = []  # who declined a showdown this round
        self.exposed: list[list[Card]] = [[] for _ in range(n)]
        self._rounds: list[CompactRound] = []  # finished rounds of this deal
        self._results: list[dict[str, Any]] = []  # the showdowns' records built so far
        self._showdowns: list[CompactShowdown] = []  # the later ones, not yet asked for
        self.scores = [0] * n
        self._outcome: Outcome | None = None
        self._order = self.seats_from_left()
        self._strength = strength_table(options.suit_order)
        self._ranked: list[int] = []  # owners by put-out strength, best first (the exchange)
        self._waiting: list[Seat] = []  # seats yet to put out this round, from the dealer's left

    # -- small helpers -----------------------------------------------------------
    @property
    def owners(self) -> int:
        """Number of put-outs per round: the players, and the dummy with two players."""
        return self.options.players + (1 if self.options.has_dummy else 0)

    def owner_name(self, owner: int) -> Seat | str:
        return DUMMY if owner == self.options.players else owner

    def seats_from_left(self) -> list[Seat]:
        """Every seat in turn from the dealer's left (the dealer last)."""
        n = self.num_seats
        return [(self.dealer + 1 + i) % n for i in range(n)]

    def strength(self, card: Card) -> int:
        """W2: put-outs rank by rank (A high … 2), then by the suit order (a table look-up)."""
        return self._strength[card]

    def unserved(self) -> list[Seat]:
        """Players who have not yet received a card in this exchange."""
        return [s for s in range(self.num_seats) if s not in self.taken_by]

    def _put_out(self, owner: int) -> Card:
        card = self.put_outs[owner]
        assert card is not None, "every owner has put out by the exchange"
        return card

    # -- whose turn -----------------------------------------------------------
    def to_move(self) -> list[Seat]:
        phase = self.phase
        if phase == PUT_OUT:
            return self._waiting[:]
        if phase == EXCHANGE:
            return [] if self.chooser is None else [self.chooser]
        if phase == ASKING:
            return [] if self.asked is None else [self.asked]
        return []

    def outcome(self) -> Outcome | None:
        return self._outcome

    def is_over(self) -> bool:
        return self._outcome is not None

    def takeable(self, seat: Seat) -> list[Card]:
        """Table cards ``seat`` may take now, best first (W4, W5)."""
        # W5 (two players): the first chooser takes the opponent's or the dummy's
        # card; the other may take either remaining card, their own included.
        # W4: nobody takes their own card while three or more are unserved
        # (each take so far served one player).
        takes = len(self._takes)
        may_take_own = takes > 0 if self.options.has_dummy else self.num_seats - takes <= 2
        put_outs, taken_by = self.put_outs, self.taken_by
        return [
            put_outs[o]  # type: ignore[misc]
            for o in self._ranked
            if taken_by[o] is None and (may_take_own or o != seat)
        ]

    def _rank_put_outs(self) -> None:
        """The revealed put-outs' owners by strength, best first: the exchange's order."""
        strengths = list(map(self._strength.__getitem__, self.put_outs))  # type: ignore[arg-type]
        self._ranked = sorted(range(len(strengths)), key=strengths.__getitem__, reverse=True)

    def legal_actions(self, seat: Seat | None) -> list[SimMove]:
        """The legal moves of ``seat`` (to move), compact: ``(type, card)`` or ``(type,)``."""
        if seat is None:
            return []
        phase = self.phase
        if phase == PUT_OUT:
            return list(map(PUT_OUT_MOVES.__getitem__, self.hands[seat]))
        if phase == EXCHANGE:
            return list(map(TAKE_MOVES.__getitem__, self.takeable(seat)))
        return [CALL_MOVE, PASS_MOVE]

    def _legal_moves(self, seat: Seat) -> list[Move]:
        return [as_dict(m) for m in self.legal_actions(seat)]

    def legal_action_ids(self, seat: Seat | None) -> list[int]:
        """The ids of :meth:`legal_actions`, ascending, from the rules: a hand's put-outs
        read from its last card (:data:`ACTIONS`), the takes sorted, or call and pass."""
        if seat is None:
            return []
        phase = self.phase
        if phase == PUT_OUT:
            return list(map(PUT_OUT_IDS.__getitem__, reversed(self.hands[seat])))
        if phase == EXCHANGE:
            ids = list(map(TAKE_IDS.__getitem__, self.takeable(seat)))
            ids.sort()
            return ids
        return CALL_OR_PASS_IDS[:]

    def legal_actions_by_kind(self, seat: Seat | None) -> list[list[SimMove]]:
        """:meth:`legal_actions` grouped by kind: one kind, or call then pass."""
        return split_leading_kind(self.legal_actions(seat))

    def normalize_move(self, move: Any) -> Move:
        if not isinstance(move, Mapping):
            raise MalformedMove("a move is an object with a 'type'")
        kind = move.get("type")
        if kind in (PUT_OUT, TAKE):
            card = move.get("card")
            if not STANDARD.is_card(card):
                raise MalformedMove(f"{card!r} is not a card (rank then suit, e.g. 'TS')")
            fields = {"type", "card"}
        elif kind in (CALL, PASS):
            fields = {"type"}
        else:
            raise MalformedMove("move type must be 'put_out', 'take', 'call' or 'pass'")
        extra = move.keys() - fields
        if extra:
            raise MalformedMove(f"unexpected field(s) in a {kind} move: {', '.join(sorted(extra))}")
        return {k: move[k] for k in sorted(fields)}

    def _explain_illegal(self, seat: Seat, move: Move) -> str:
        kind = move["type"]
        expected = {PUT_OUT: (PUT_OUT,), EXCHANGE: (TAKE,), ASKING: (CALL, PASS)}[self.phase]
        if kind not in expected:
            what = {
                PUT_OUT: "put out a card face down",
                EXCHANGE: "take a card from the table",
                ASKING: "call a showdown or pass",
            }[self.phase]
            return f"now you must {what}, not {kind}"
        card = move["card"]
        if kind == PUT_OUT:
            return f"{card} is not in your hand"
        # The exchange: every put-out on the table is public now.
        if card not in self.put_outs:
            return f"{card} is not on the table"
        owner = self.put_outs.index(card)
        if self.taken_by[owner] is not None:
            return f"{card} has already been taken"
        if self.options.has_dummy:
            return "the first chooser takes the opponent's or the dummy's card, not their own (W5)"
        return "nobody may take their own card while three or more players are unserved (W4)"

    # -- the moves ------------------------------------------------------------
    def _apply(self, seat: Seat, move: Move) -> list[Event]:
        events: list[Event] = []
        self._act(seat, move["type"], move.get("card"), events)
        return events

    def _is_legal(self, seat: Seat, move: Move) -> bool:
        """``move`` (normalized) is among :meth:`moves`, as ``legal_moves`` would say."""
        compact = (move["type"], move["card"]) if "card" in move else (move["type"],)
        return compact in self.legal_actions(seat)

    def _apply_quietly(self, seat: Seat, move: Move) -> None:
        """``_apply`` without building events (``apply(..., events=False)``)."""
        self._act(seat, move["type"], move.get("card"), None)

    def apply_action(self, seat: Seat | None, move: SimMove) -> None:
        """Play an action of :meth:`legal_actions` for ``seat``: no checks, no events (for
        search: take the actions from :meth:`legal_actions`)."""
        assert seat is not None
        kind = move[0]
        if kind == PUT_OUT:  # the usual two, dispatched at once: the simulations' hot path
            self._put_out_card(seat, move[1], None)
        elif kind == TAKE:
            owner = self.put_outs.index(move[1])
            self._receive(seat, owner, False, None)
            self._next_chooser(owner, None)
        else:
            self._act(seat, kind, None, None)

    def _act(self, seat: Seat, kind: str, card: Card | None, log: list[Event] | None) -> None:
        """One move; its events go to ``log`` when one is kept."""
        if kind == PUT_OUT:
            assert card is not None
            self._put_out_card(seat, card, log)
        elif kind == TAKE:
            assert card is not None
            owner = self.put_outs.index(card)
            self._receive(seat, owner, False, log)
            self._next_chooser(owner, log)
        elif kind == CALL:
            if log is not None:
                log.append(Event("call", {"seat": seat, "round": self.round}))
            self._showdown(seat, log)
        else:
            self._pass(seat, log)

    def _put_out_card(self, seat: Seat, card: Card, log: list[Event] | None) -> None:
        """A card face down (W9: may be the card just drawn). Nobody learns which."""
        self.hands[seat].remove(card)
        self.put_outs[seat] = card
        self._waiting.remove(seat)
        if log is not None:
            log.append(Event("put_out", {"seat": seat, "round": self.round}))
        if None not in self.put_outs:  # the dummy's, if any, is put out when the round starts
            self._reveal(log)

    def _reveal(self, log: list[Event] | None) -> None:
        """All put-outs are turned up together; the best live put-out chooses first."""
        self.phase = EXCHANGE
        # the players' put-outs (with two players the dummy's is last and left out)
        for exposed, card in zip(self.exposed, self.put_outs, strict=False):
            if card in exposed:
                exposed.remove(card)
        self._takes = []
        self._rank_put_outs()
        best = self._ranked[0]
        # the best put-out of a player (the dummy's may be better: then the next)
        self.chooser = best if best < self.num_seats else self._ranked[1]
        if log is not None:
            data = {"round": self.round, "put_outs": self._put_outs_view(),
                    "chooser": self.chooser}  # fmt: skip
            log.append(Event("reveal", data))

    def _receive(self, seat: Seat, owner: int, auto: bool, log: list[Event] | None) -> None:
        card = self.put_outs[owner]  # _put_out, written out
        assert card is not None, "every owner has put out by the exchange"
        self.taken_by[owner] = seat
        insort(self.hands[seat], card, key=_HAND_PLACE)
        self.exposed[seat].append(card)
        source = owner if owner < self.num_seats else DUMMY  # owner_name, written out
        self._takes.append((seat, card, source, auto))
        if log is not None:
            log.append(Event("take", _take_record((seat, card, source, auto))))

    def _next_chooser(self, last_owner: int, log: list[Event] | None) -> None:
        """Who chooses next in the exchange (W4, W5), or the end of the exchange."""
        if self.options.has_dummy:
            unserved = self.unserved()
            # W5: the better put-out chose first; the other chooses next; the
            # last card goes out of play face up.
            if unserved:
                self.chooser = unserved[0]
                return
            (last,) = [o for o in range(self.owners) if self.taken_by[o] is None]
            self.out_of_play = self._put_out(last)
            if log is not None:
                data = {"card": self.out_of_play, "from": self.owner_name(last)}
                log.append(Event("out_of_play", data))
            self._end_exchange(log)
            return
        taken_by = self.taken_by
        unserved = [s for s in self._ranked if s not in taken_by]  # best put-out first
        if len(unserved) >= 3:
            # W4: the owner of the card just taken chooses next if not yet
            # served; otherwise (a broken chain) the unserved best put-out.
            self.chooser = last_owner if last_owner in unserved else unserved[0]
            return
        if len(unserved) == 2:
            # W4: two players, two cards: the better put-out picks either card.
            self.chooser = unserved[0]
            return
        if unserved:
            # W4: ... and the other gets the last.
            (last,) = [o for o in range(self.owners) if self.taken_by[o] is None]
            self._receive(unserved[0], last, True, log)
        self._end_exchange(log)

    def _end_exchange(self, log: list[Event] | None) -> None:
        """Record the round; then ask about a showdown, force one, or start the next round."""
        self._rounds.append(
            (self.round, tuple(self.put_outs), tuple(self.taken_by), tuple(self._takes),
             self.out_of_play)
        )  # fmt: skip
        self.chooser = None
        held = min(map(len, self.hands))
        if held >= MAX_CARDS:
            self._showdown(None, log)  # compulsory at ten cards
        elif held >= SHOWDOWN_FROM:
            self.phase = ASKING
            self.passes = []
            self.asked = self._order[0]
            if log is not None:
                log.append(Event("asking", {"round": self.round, "asked": self.asked}))
        else:
            self._start_round(log)

    def _pass(self, seat: Seat, log: list[Event] | None) -> None:
        """Decline a showdown; the next player is asked, or the next round starts."""
        self.passes.append(seat)
        if log is not None:
            log.append(Event("pass", {"seat": seat, "round": self.round}))
        if len(self.passes) < self.num_seats:
            self.asked = (seat + 1) % self.num_seats
        else:
            self._start_round(log)

    # -- deals and rounds ------------------------------------------------------
    def _new_deal(self) -> list[Event]:
        events: list[Event] = []
        self._deal(events)
        return events

    def _deal(self, log: list[Event] | None) -> None:
        """Set-up (a preset if one is left, else a seeded shuffle), then the first round."""
        self.deal_number += 1
        self.dealer = dealer_of_deal(self.deal_number, self.options)
        self._order = order = self.seats_from_left()
        index = self.deal_number - 1
        self.hands = [[] for _ in range(self.num_seats)]
        self.dummy_cards = []
        if index < len(self.presets):
            preset = self.presets[index]
            for s in range(self.num_seats):
                self.hands[s] = list(preset["hands"][s])
            if self.options.has_dummy:
                self.dummy_cards = [preset["dummy"]]
            self.stack = list(preset["stack"])
        else:
            self.stack = shuffled(STANDARD, derived_rng(self.seed, "deal", index))
            for s in order:  # one face-down card each from the dealer's left, the dummy last
                self.hands[s] = [self.stack.pop(0)]
            if self.options.has_dummy:
                self.dummy_cards = [self.stack.pop(0)]
        self.round = 0
        self._rounds = []
        self.exposed = [[] for _ in range(self.num_seats)]
        if log is not None:
            log.append(Event("deal", {"deal": self.deal_number, "dealer": self.dealer}))
            log += [
                Event("hand", {"seat": s, "cards": list(self.hands[s])}, frozenset({s}))
                for s in range(self.num_seats)
            ]
        self._start_round(log)

    def _start_round(self, log: list[Event] | None) -> None:
        """Each player draws the top card, in turn from the dealer's left (the dummy last)."""
        self.round += 1
        self.phase = PUT_OUT
        owners = self.owners
        self.put_outs = [None] * owners
        self.taken_by = [None] * owners
        self.chooser = self.asked = self.out_of_play = None
        self._takes = []
        self.passes = []
        self._waiting = self._order[:]
        if log is not None:
            log.append(Event("round", {"deal": self.deal_number, "round": self.round}))
        for s in self._order:
            card = self.stack.pop(0)
            self.drawn[s] = card
            insort(self.hands[s], card, key=_HAND_PLACE)
            if log is not None:
                log.append(Event("draw", {"seat": s, "card": card}, frozenset({s})))
        if self.options.has_dummy:
            # W5: the dummy's latest face-down card is its put-out.
            self.put_outs[self.options.players] = self.stack.pop(0)

    def _showdown(self, called_by: Seat | None, log: list[Event] | None) -> None:
        """W7: the best five-card Poker hand wins; equal hands share. W8: 1 point each."""
        best = list(map(best_five, self.hands))
        top = max((cat, key) for cat, key, _ in best)
        winners = [s for s, (cat, key, _) in enumerate(best) if (cat, key) == top]
        points = [0] * self.num_seats
        for s in winners:
            self.scores[s] += 1
            points[s] = 1
        self._showdowns = [
            *self._showdowns,
            (self.deal_number, self.dealer, self.round, called_by, self.hands, best, winners,
             points, tuple(self.scores)),
        ]  # fmt: skip
        self.phase, self.asked = OVER, None
        if log is not None:
            log.append(Event("showdown", self.deal_results[-1]))
        if self.deal_number < self.options.hands:
            self._deal(log)
            return
        top_score = max(self.scores)
        leaders = tuple(s for s, v in enumerate(self.scores) if v == top_score)
        winners_of_game = () if len(leaders) == self.num_seats else leaders
        self._outcome = Outcome(Termination.DEALS_EXHAUSTED, tuple(self.scores), winners_of_game)
        if log is not None:
            log.append(Event("game_over", self._outcome.to_dict()))

    def opening_events(self) -> list[Event]:
        """The events of a freshly dealt state: the deal, set-up cards and first draws.

        Rebuilt from the state, so only meaningful before the first move of a deal.
        """
        header = Event("deal", {"deal": self.deal_number, "dealer": self.dealer})
        setup = []
        for s, hand in enumerate(self.hands):
            cards = [c for c in hand if c != self.drawn[s]]
            setup.append(Event("hand", {"seat": s, "cards": cards}, frozenset({s})))
        draws = [
            Event("draw", {"seat": s, "card": self.drawn[s]}, frozenset({s}))
            for s in self.seats_from_left()
        ]
        round_event = Event("round", {"deal": self.deal_number, "round": self.round})
        return [header, *setup, round_event, *draws]

    # -- information -----------------------------------------------------------
    def _put_outs_view(
        self,
        put_outs: tuple[Card | None, ...] | None = None,
        taken_by: tuple[Seat | None, ...] | None = None,
    ) -> list[dict[str, Any]]:
        """The revealed put-outs, best first, with who has taken each (now, or in a past round)."""
        cards = self.put_outs if put_outs is None else put_outs
        takers = self.taken_by if taken_by is None else taken_by
        owners = sorted(range(self.owners), key=lambda o: self._strength[cards[o]])  # type: ignore[index]
        return [
            {"owner": self.owner_name(o), "card": cards[o], "taken_by": takers[o]}
            for o in reversed(owners)
        ]

    @property
    def takes(self) -> list[dict[str, Any]]:
        """The records of this round's takes so far, as views, events and ``to_dict`` show
        them (built when asked for)."""
        return list(map(_take_record, self._takes))

    @takes.setter
    def takes(self, records: list[dict[str, Any]]) -> None:
        self._takes = list(map(_compact_take, records))

    @property
    def deal_results(self) -> list[dict[str, Any]]:
        """The records of the showdowns so far, each built from its compact form the first
        time it is asked for, then kept."""
        if self._showdowns:
            self._results = [*self._results, *map(_showdown_record, self._showdowns)]
            self._showdowns = []
        return self._results

    @deal_results.setter
    def deal_results(self, records: list[dict[str, Any]]) -> None:
        self._results, self._showdowns = records, []

    @property
    def rounds(self) -> list[dict[str, Any]]:
        """The records of this deal's finished rounds, built from the compact ones."""
        return [
            {"round": number, "put_outs": self._put_outs_view(put_outs, taken_by),
             "takes": list(map(_take_record, takes)), "out_of_play": out}
            for number, put_outs, taken_by, takes, out in self._rounds
        ]  # fmt: skip

    def state_view(self, seat: Seat | None = None) -> dict[str, Any]:
        """The state as ``seat`` may see it; ``None`` gives the public part only.

        The private part is the seat's own latest draw and, before the reveal,
        its own put-out. Other put-outs show only whether they have been made.
        """
        revealed = self.phase == EXCHANGE
        own_put_out = None
        if seat is not None and self.phase == PUT_OUT:
            own_put_out = self.put_outs[seat]
        return {
            "players": self.num_seats,
            "suit_order": self.options.suit_order,
            "dummy": self.options.has_dummy,
            "deals": self.options.hands,
            "deal_number": self.deal_number,
            "dealer": self.dealer,
            "round": self.round,
            "phase": self.phase,
            "cards_held": [len(h) for h in self.hands],
            "stack_size": len(self.stack),
            "put_out_done": [self.put_outs[s] is not None for s in range(self.num_seats)],
            "table": self._put_outs_view() if revealed else [],
            "chooser": self.chooser,
            "unserved": self.unserved() if revealed else [],
            "takes": self.takes if revealed else [],
            "asked": self.asked,
            "passes": list(self.passes),
            "exposed": [list(e) for e in self.exposed],
            "rounds": self.rounds,
            "deal_results": self.deal_results,
            "drawn": None if seat is None else self.drawn[seat],
            "put_out": own_put_out,
        }

    def seat_scores(self) -> list[int]:
        return list(self.scores)

    def reveal(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "hands": [list(h) for h in self.hands],
            "stack": list(self.stack),
            "dummy_cards": list(self.dummy_cards),
        }

    # -- persistence -------------------------------------------------------------
    _COPIED = (
        "deal_number", "dealer", "round", "phase", "chooser", "out_of_play", "asked",
    )  # fmt: skip
    _LISTS = ("stack", "dummy_cards", "drawn", "put_outs", "taken_by", "takes", "passes",
              "deal_results", "scores")  # fmt: skip

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "game": self.game,
            "options": options_dict(self.options),
            "seed": self.seed,
            "presets": self.presets,
        }
        for name in self._COPIED:
            d[name] = getattr(self, name)
        for name in self._LISTS:
            d[name] = list(getattr(self, name))
        d["hands"] = [list(h) for h in self.hands]
        d["exposed"] = [list(e) for e in self.exposed]
        d["rounds"] = self.rounds
        d["outcome"] = None if self._outcome is None else self._outcome.to_dict()
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> State:
        s = cls(CowpokeOptions(**d["options"]), d["seed"], d["presets"])
        for name in cls._COPIED:
            setattr(s, name, d[name])
        for name in cls._LISTS:
            setattr(s, name, list(d[name]))
        s.hands = [list(h) for h in d["hands"]]
        s.exposed = [list(e) for e in d["exposed"]]
        s._rounds = [s._compact_round(r) for r in d["rounds"]]
        s._order = s.seats_from_left()
        s._waiting = [seat for seat in s._order if s.put_outs[seat] is None]
        if s.phase == EXCHANGE:
            s._rank_put_outs()
        s._outcome = None if d["outcome"] is None else Outcome.from_dict(d["outcome"])
        return s

    def _compact_round(self, record: Mapping[str, Any]) -> CompactRound:
        put_outs: list[Card | None] = [None] * self.owners
        taken_by: list[Seat | None] = [None] * self.owners
        for p in record["put_outs"]:
            owner = self.options.players if p["owner"] == DUMMY else p["owner"]
            put_outs[owner], taken_by[owner] = p["card"], p["taken_by"]
        takes = tuple(map(_compact_take, record["takes"]))
        return (record["round"], tuple(put_outs), tuple(taken_by), takes,
                record["out_of_play"])  # fmt: skip

    def clone(self) -> State:
        """A copy sharing only what is never mutated in place (records, tuples, tables).

        Spelled out field by field: a search clones at every step.
        """
        s = State.__new__(State)
        s.options, s.num_seats, s.seed, s.presets = (
            self.options,
            self.num_seats,
            self.seed,
            self.presets,
        )
        s._outcome, s._order, s._strength = self._outcome, self._order, self._strength
        s._ranked = self._ranked  # replaced at each reveal, never mutated
        s._waiting = self._waiting[:]
        s.deal_number, s.dealer, s.round, s.phase = (
            self.deal_number,
            self.dealer,
            self.round,
            self.phase,
        )
        s.chooser, s.out_of_play, s.asked = self.chooser, self.out_of_play, self.asked
        s.dummy_cards = self.dummy_cards  # replaced each deal, never mutated
        s.stack, s.drawn = self.stack[:], self.drawn[:]
        s.put_outs, s.taken_by = self.put_outs[:], self.taken_by[:]
        s._takes, s.passes, s._rounds = self._takes[:], self.passes[:], self._rounds[:]
        s._results, s._showdowns = self._results, self._showdowns  # replaced, never mutated
        s.scores = self.scores[:]
        s.hands = [h[:] for h in self.hands]
        s.exposed = [e[:] for e in self.exposed]
        return s

    def determinize(self, seat: Seat, rng: random.Random) -> State:
        """One world ``seat`` cannot tell from this one, for a searching bot.

        Hidden from ``seat`` (docs/rules/cowpoke.md, "What each player sees"): the
        others' hands and face-down put-outs, the stack and its order, the dummy's
        dead card and face-down put-out, the others' latest draws, the deals to come.
        Those cards are pooled and dealt again by :func:`redeal`, each place keeping
        its size; the stack is one more place, its order the shuffle's. What all have
        seen stays: the table once turned up, the takes, and ``exposed`` cards, which
        stay with their taker (``known``). A face-down put-out is dealt as part of its
        owner's holding and then drawn from it at random, so an exposed card may be
        the one put out: the seat cannot tell. Each other player's latest draw is one
        of its cards never seen before this round: not exposed, not on an earlier table.
        The deals to come are secret: a seed drawn from ``rng``, no later presets.
        """
        n = self.num_seats
        face_down = self.put_outs if self.phase == PUT_OUT else [None] * self.owners
        places = [h + [c] if c else list(h) for h, c in zip(self.hands, face_down, strict=False)]
        places += [self.stack, self.dummy_cards, [c for c in face_down[n:] if c]]
        dealt = redeal(places, (seat,), rng, known=[*self.exposed, [], [], []])
        tabled = {c for r in self._rounds if r[0] < self.round for c in r[1]}  # earlier rounds
        s = self.clone()
        for p in range(n):
            if p == seat:
                continue
            cards = dealt[p]
            if face_down[p]:
                s.put_outs[p] = cards.pop(rng.randrange(len(cards)))
            s.hands[p] = sorted(cards, key=_HAND_PLACE)
            drawable = [c for c in cards if c not in self.exposed[p]]  # never seen before
            put_out = s.put_outs[p]
            if put_out is not None and put_out not in tabled:
                drawable.append(put_out)
            s.drawn[p] = rng.choice(drawable)
        s.stack, s.dummy_cards = dealt[n], dealt[n + 1]
        if dealt[n + 2]:  # the dummy's put-out, still face down
            s.put_outs[n] = dealt[n + 2][0]
        s._hide_the_deals_to_come(rng, self.deal_number)
        return s

    @classmethod
    def _public_from_view(
        cls, options: Mapping[str, Any], view: Mapping[str, Any], seat: Seat
    ) -> State:
        """The kit's :meth:`from_view` before the draw: everything public read from the view
        (and the options), and so are the seat's hand, latest draw and put-out; the cards
        the view does not show dealt anyhow into the places the seat cannot see, each of
        the size the view gives (the dummy's dead card is one). Determinizing the world
        again gives more worlds of the same kind, for less."""
        parsed = cls.parse_options(options)  # InvalidOptions is a ValueError
        if not (isinstance(seat, int) and 0 <= seat < parsed.players):
            raise ValueError(f"seat {seat!r} is not a seat of this game")
        return cls.from_dict(_stored_from_view(parsed, view, seat))


def _take_record(take: CompactTake) -> dict[str, Any]:
    """The public record of a take."""
    seat, card, source, auto = take
    return {"seat": seat, "card": card, "from": source, "auto": auto}


def _compact_take(record: Mapping[str, Any]) -> CompactTake:
    return (record["seat"], record["card"], record["from"], record["auto"])


def _check_frame(options: CowpokeOptions, view: Mapping[str, Any]) -> None:
    """The view is of a Cowpoke game with these options, in one of its phases."""
    n, v = options.players, view["state"]
    shown = (v["players"], v["suit_order"], v["dummy"], v["deals"])
    if shown != (n, options.suit_order, options.has_dummy, options.hands):
        raise ValueError("the view is not of a Cowpoke game with these options")
    if v["dealer"] != dealer_of_deal(v["deal_number"], options):
        raise ValueError("the dealer is not the one the options and the deal number give")
    if v["phase"] not in (PUT_OUT, EXCHANGE, ASKING, OVER):
        raise ValueError(f"{v['phase']!r} is not a phase of Cowpoke")
    if v["phase"] == OVER and (v["deal_number"] != options.hands or view["result"] is None):
        raise ValueError("a game is over after its last deal, with a result")
    if len(v["cards_held"]) != n or len(v["exposed"]) != n:
        raise ValueError(f"the view does not show {n} players' cards")


def _stored_from_view(
    options: CowpokeOptions, view: Mapping[str, Any], seat: Seat
) -> dict[str, Any]:
    """The state as :meth:`State.to_dict` stores it, rebuilt from ``seat``'s view: the
    public fields as shown, the unseen cards dealt anyhow (for ``determinize`` to redraw).

    The round's put-outs are the table in the exchange; after it (asking, the game's
    end) the last finished round, whose takes and card out of play stay with them.
    """
    _check_frame(options, view)
    v = view["state"]
    n, phase, rounds = options.players, v["phase"], v["rounds"]
    table, takes, out = v["table"], v["takes"], None
    if phase in (ASKING, OVER):
        table, takes, out = rounds[-1]["put_outs"], rounds[-1]["takes"], rounds[-1]["out_of_play"]
    put_outs: list[Card | None] = [None] * (n + options.has_dummy)
    taken_by: list[Seat | None] = [None] * len(put_outs)
    for p in table:
        owner = n if p["owner"] == DUMMY else p["owner"]
        put_outs[owner], taken_by[owner] = p["card"], p["taken_by"]
    if phase == PUT_OUT:
        put_outs[seat] = v["put_out"]
    seen = {*view["hand"], *put_outs, *(c for e in v["exposed"] for c in e)}
    seen |= {r["out_of_play"] for r in rounds}
    unseen = [c for c in STANDARD.cards() if c not in seen]

    def deal(k: int) -> list[Card]:
        if not 0 <= k <= len(unseen):
            raise ValueError("the view's cards do not make up one pack")
        cards = unseen[:k]
        del unseen[:k]
        return cards

    held, exposed = v["cards_held"], v["exposed"]
    hands = [
        list(view["hand"]) if p == seat else [*exposed[p], *deal(held[p] - len(exposed[p]))]
        for p in range(n)
    ]
    if phase == PUT_OUT:  # the face-down put-outs, the dummy's always
        for p, done in enumerate(v["put_out_done"]):
            if done and p != seat:
                put_outs[p] = deal(1)[0]
        if options.has_dummy:
            put_outs[n] = deal(1)[0]
    stack, dummy_cards = deal(v["stack_size"]), deal(1 if options.has_dummy else 0)
    if unseen:
        raise ValueError("the view's cards do not make up one pack")
    drawn: list[Card | None] = [None] * n
    drawn[seat] = v["drawn"]
    results = v["deal_results"]
    return {
        "options": options_dict(options), "seed": "view", "presets": [],
        **{name: v[name] for name in ("deal_number", "dealer", "round", "phase", "chooser",
                                      "asked", "passes", "exposed", "rounds", "deal_results")},
        "out_of_play": out, "takes": takes, "put_outs": put_outs, "taken_by": taken_by,
        "hands": hands, "stack": stack, "dummy_cards": dummy_cards, "drawn": drawn,
        "scores": results[-1]["scores"] if results else [0] * n,
        "outcome": view["result"] if phase == OVER else None,
    }  # fmt: skip


def _showdown_record(showdown: CompactShowdown) -> dict[str, Any]:
    """The public record of a showdown, as views, ``showdown`` events and ``to_dict`` show it."""
    deal, dealer, round_, called_by, hands, best, winners, points, scores = showdown
    return {
        "deal": deal,
        "dealer": dealer,
        "round": round_,
        "called_by": called_by,  # None: compulsory at ten cards
        "hands": [list(h) for h in hands],
        "best": [
            {"cards": sorted(five, key=_HAND_PLACE), "combination": WIRE_NAMES[cat]}
            for cat, _, five in best
        ],
        "winners": winners,
        "points": points,
        "scores": list(scores),
    }


new_state = State.new

parse_options = State.parse_options
"""Options as a client sent them → the game's options (the kit's one parser)."""


def longest_game(options: Mapping[str, Any]) -> int:
    """A bound on a game's moves: 100 a player a hand (the calls, put-outs and takes, and
    more), for its ``hands``.

    >>> longest_game({"players": 3, "hands": 2})
    600
    """
    return 100 * int(options["players"]) * int(options["hands"])


GAME = game_record(
    State,
    title="Cowpoke",
    seats=(2, 3, 4, 5),
    options=OPTIONS,
    seat_option="players",
    house_bots=("cowpoke",),
    pack=STANDARD.low_to_high(),
    longest_game=longest_game,
    move_of=as_dict,
    wire=WIRE,
    option_sets=(
        *({"players": n, "hands": 1} for n in (2, 3, 4, 5)),  # one showdown each
        {"players": 3, "hands": 1, "suit_order": "SHDC"},
    ),
)

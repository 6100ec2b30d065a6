"""Concerto — David Parlett's partnership game of building Poker hands.

The rules are ``docs/rules/concerto.md``, in both editions: ``parlett-2013``
(the author's 2013 revision, the default) and ``penguin`` (the Penguin book).
A tag such as C2 cites the resolved point ``docs/rules/concerto.md#c2`` (C2…C24).

The course of play, in rulebook order:

* **Seats.** 0 N, 1 E, 2 S, 3 W; partners N–S (side 0, "NS") and E–W (side 1, "EW").
* **Deal.** 13 cards each, singly from the dealer's left. The next deal is made
  by the previous dealer's left neighbour, also across games of a match (C24).
* **Eight hands per deal.** Hand *k* is led by seat ``(dealer + k) % 4``, so the
  non-dealing side plays the odd hands and the dealing side the even ones.
* **Playing one hand**: only the leader and partner act, alternately; play,
  pass or call 'Play' (move ``force``) under C6–C12; five cards complete it.
* **Scoring** by Poker category, with the contribution splits of fours and
  straight flushes (C2–C4), per edition (:class:`Edition`).
* **End of a deal**: hand scores (C16), left-overs (C14, C15, C17, C19).
* **End of a game**: target and game bonus (C20–C22); a match (C23).

A quick game between the same two moves every time:

>>> s = new_state({"rules": "penguin", "first_dealer": 3}, seed="doc")
>>> s.to_move(), s.state_view()["leader"]
([0], 0)
>>> [m["type"] for m in s.legal_moves(0)][:1]
['play']
>>> {"type": "pass"} in s.legal_moves(0)   # the leader must play the first card
False

The same moves in the compact form a simulation uses (the rules are written
on it; ``legal_moves`` and ``apply`` are that form as the API serves it):

>>> [move_of(a) for a in s.legal_actions(0)] == s.legal_moves(0)
True
>>> s.apply_action(0, s.legal_actions(0)[0]); s.legal_actions(2)[-2:]
['pass', 'force']
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations, islice
from typing import Any, ClassVar

from .concerto_wire import WIRE
from .kit.base import (
    UNBOUNDED_DEALS,
    BaseState,
    Event,
    GameOver,
    IllegalMove,
    MalformedMove,
    Move,
    NotYourTurn,
    Outcome,
    Seat,
    Termination,
    game_record,
    options_dict,
    redeal,
)
from .kit.cards import STANDARD, Card, deal_singly, derived_rng, shuffled_order, sort_hand
from .kit.deals import (
    HandShape,
    Preset,
    cards_in,
    check_cards,
    check_deals,
    read_dealer,
    read_hands,
)
from .kit.poker import RANK_VALUE, Combination, category, is_three_pairs

SIDE_NAMES = ("NS", "EW")
HANDS_PER_DEAL = 8
CARDS_PER_HAND = 5


def side_of(seat: Seat) -> int:
    """0 for North–South (seats 0, 2), 1 for East–West (seats 1, 3)."""
    return seat % 2


def partner_of(seat: Seat) -> Seat:
    return (seat + 2) % 4


PARTNER = tuple(partner_of(seat) for seat in range(4))
"""``partner_of`` as a table, for the rules run at every move."""


def seats_of(side: int) -> tuple[Seat, Seat]:
    return (side, side + 2)


# ---------------------------------------------------------------------------
# The two editions
# ---------------------------------------------------------------------------

# Value of a combination as a completed hand (fours and straight flush vary
# with the split, see Edition.hand_points) and as left-overs (C14: fours 8,
# straight flush 10).
BASE_POINTS = {
    Combination.NOTHING: 0,
    Combination.ONE_PAIR: 1,
    Combination.TWO_PAIRS: 2,
    Combination.THREES: 3,
    Combination.STRAIGHT: 5,
    Combination.FLUSH: 6,
    Combination.FULL_HOUSE: 8,
    Combination.FOURS: 8,
    Combination.STRAIGHT_FLUSH: 10,
}

# C4: fours by the largest number of the four played by one player
# (4+0 -> 8, 3+1 -> 12, 2+2 -> 16); the fifth card never counts.
FOURS_POINTS = {4: 8, 3: 12, 2: 16}


@dataclass(frozen=True)
class Edition:
    """The rule hooks in which the editions differ. Subclasses override them."""

    name: ClassVar[str]
    # Straight flush by the number of its cards played by the leader, the
    # player who actually played the first card (C3).
    straight_flush_points: ClassVar[Mapping[int, int]]

    def hand_points(self, combination: Combination, cards: Sequence[tuple[Seat, Card]]) -> int:
        """Points of a completed hand (docs/rules/concerto.md, "Scoring a hand")."""
        if combination is Combination.FOURS:
            quad_rank = _quad_rank(c for _, c in cards)
            per_player: dict[Seat, int] = {}
            for seat, card in cards:
                if card[0] == quad_rank:
                    per_player[seat] = per_player.get(seat, 0) + 1
            return FOURS_POINTS[max(per_player.values())]
        if combination is Combination.STRAIGHT_FLUSH:
            leader = cards[0][0]
            by_leader = sum(1 for seat, _ in cards if seat == leader)
            return self.straight_flush_points[by_leader]
        return BASE_POINTS[combination]

    def leftover_value(self, six: Sequence[Card]) -> tuple[int, Combination | None]:
        """Value (before the ×10) of the best combination in six left-over cards.

        Returns (value, combination) where combination is None for the
        parlett-2013 three-pairs bonus, which is not a five-card combination.
        No combination scores 0 (C19).
        """
        category = _best_category(six)
        return BASE_POINTS[category], category

    def tie_bonus(
        self, dealer_side: int, leftovers: Sequence[Sequence[Card]]
    ) -> tuple[list[int], set[int]]:
        """Left-over bonus per side when hand scores tie, and the sides revealed."""
        raise NotImplementedError


@dataclass(frozen=True)
class Parlett2013(Edition):
    """The author's 2013 revision."""

    name: ClassVar[str] = "parlett-2013"
    # C2: 10 if 5+0, 15 if 4+1, 20 if 3+2, either way round.
    straight_flush_points: ClassVar[Mapping[int, int]] = {5: 10, 4: 15, 3: 20, 2: 20, 1: 15}

    def leftover_value(self, six: Sequence[Card]) -> tuple[int, Combination | None]:
        """C15: exactly three pairs among the six score 6 (60).

        Other six-card shapes don't count.
        """
        if is_three_pairs(six):
            return 6, None
        return super().leftover_value(six)

    def tie_bonus(
        self, dealer_side: int, leftovers: Sequence[Sequence[Card]]
    ) -> tuple[list[int], set[int]]:
        """Tie: the non-dealing side scores 10 × the dealing side's left-overs."""
        bonus = [0, 0]
        value, _ = self.leftover_value(leftovers[dealer_side])
        bonus[1 - dealer_side] = 10 * value
        return bonus, {dealer_side}


@dataclass(frozen=True)
class Penguin(Edition):
    """The Penguin book's rules."""

    name: ClassVar[str] = "penguin"
    # C2: 15 for 4+1 either way; 20 if the leader played 3 and the partner 2,
    # 25 if the leader played 2 and the partner 3.
    straight_flush_points: ClassVar[Mapping[int, int]] = {5: 10, 4: 15, 3: 20, 2: 25, 1: 15}

    def tie_bonus(
        self, dealer_side: int, leftovers: Sequence[Sequence[Card]]
    ) -> tuple[list[int], set[int]]:
        """Tie (C17): both reveal; the side left with the higher combination loses.

        The other side scores 10 × the value of that higher combination. Equal
        categories are decided by the five cards' ranks in descending order
        (the higher loses); in a wheel A-2-3-4-5 the ace counts low, as it
        does in the straight itself. Complete equality: nobody scores. Under
        this edition three pairs is simply two pairs (C15).
        """
        keys = [_tie_key(cards) for cards in leftovers]
        bonus = [0, 0]
        if keys[0] != keys[1]:
            loser = 0 if keys[0] > keys[1] else 1
            bonus[1 - loser] = 10 * BASE_POINTS[keys[loser][0]]
        return bonus, {0, 1}


EDITIONS: dict[str, Edition] = {e.name: e for e in (Parlett2013(), Penguin())}


def _quad_rank(cards: Iterable[Card]) -> str:
    counts: dict[str, int] = {}
    for c in cards:
        counts[c[0]] = counts.get(c[0], 0) + 1
    return max(counts, key=counts.__getitem__)


def _best_category(cards: Sequence[Card]) -> Combination:
    return max(map(category, combinations(cards, CARDS_PER_HAND)))


def _descending_ranks(five: Sequence[Card], category: Combination) -> tuple[int, ...]:
    values = sorted((RANK_VALUE[c[0]] for c in five), reverse=True)
    if category in (Combination.STRAIGHT, Combination.STRAIGHT_FLUSH) and values == [
        14,
        5,
        4,
        3,
        2,
    ]:
        values = [5, 4, 3, 2, 1]
    return tuple(values)


def _tie_key(cards: Sequence[Card]) -> tuple[Combination, tuple[int, ...]]:
    """The best five of six left-overs for C17: category first, then descending ranks."""
    best = None
    for five in combinations(cards, CARDS_PER_HAND):
        kind = category(five)
        key = (kind, _descending_ranks(five, kind))
        if best is None or key > best:
            best = key
    assert best is not None
    return best


# ---------------------------------------------------------------------------
# Options and preset deals
# ---------------------------------------------------------------------------

OPTIONS: dict[str, dict[str, Any]] = {
    "rules": {
        "default": "parlett-2013",
        "choices": list(EDITIONS),
        "doc": "rules edition: the author's 2013 revision or the Penguin book",
    },
    "deals": {"default": 4, "min": 1, "max": 20, "doc": "deals per game"},
    "target": {"default": 100, "min": 1, "max": 10000, "doc": "score that ends a game"},
    "first_dealer": {
        "default": None,
        "min": 0,
        "max": 3,
        "doc": "seat of the first dealer; null draws it from the deal seed",
    },
    "match_target": {
        "default": None,
        "min": 1,
        "max": 100000,
        "doc": "null for a single game; else games are played until a side reaches it",
    },
}


@dataclass(frozen=True)
class ConcertoOptions:
    rules: str = "parlett-2013"
    deals: int = 4
    target: int = 100
    first_dealer: int | None = None
    match_target: int | None = None

    @property
    def edition(self) -> Edition:
        return EDITIONS[self.rules]


HANDS = HandShape(players=4, size=13, hands_text="four hands")


def parse_deals(
    raw: Iterable[Any] | None, options: ConcertoOptions | None = None
) -> list[dict[str, Any]]:
    """Check preset deals, reporting every problem.

    Each preset is ``{"dealer": seat, "hands": [[13 cards] × 4]}`` and together
    the four hands must be exactly the 52-card pack. The options change nothing.

    Raises:
        InvalidDeal: with every problem found, each prefixed by its place.
    """
    return check_deals(raw, _read_deal, object_text="dealer and hands")


def _read_deal(preset: Preset) -> dict[str, Any] | None:
    dealer = read_dealer(preset, 4, required=True)
    hands = read_hands(preset, HANDS)
    if hands is None:
        return None
    check_cards(preset, cards_in(hands), STANDARD)
    return {"dealer": dealer, "hands": hands}


# ---------------------------------------------------------------------------
# The state
# ---------------------------------------------------------------------------

PLAY, PASS, FORCE = "play", "pass", "force"
PACK = tuple(STANDARD.cards())  # suit by suit, high to low: the order hands are held in
DECK = frozenset(PACK)

Action = str
"""The compact form of a move, for simulations: the card played, ``"pass"`` or ``"force"``."""

PASS_OR_FORCE = [PASS, FORCE]
ACTION_KINDS: dict[Action, str] = {**dict.fromkeys(DECK, PLAY), PASS: PASS, FORCE: FORCE}
"""The move ``type`` of each action."""
ACTIONS: tuple[Action, ...] = (
    *STANDARD.low_to_high(), PASS, FORCE
)  # fmt: skip
"""The action space (:attr:`State.actions`): every card, clubs to spades, low to high
within a suit (the reverse of :data:`PACK`, the order hands are held in), then pass
and force."""
CARD_IDS: dict[Card, int] = {card: i for i, card in enumerate(ACTIONS[:-2])}
"""The id of each card (the action that plays it)."""
PASS_OR_FORCE_IDS = [ACTIONS.index(PASS), ACTIONS.index(FORCE)]

HandLog = tuple[int, int, int, tuple[tuple[Seat, Card], ...], Combination, int]
"""A completed hand as the rules keep it: deal, number, side, (seat, card) pairs,
combination, points. Its record (``completed_hands``) is built when asked for."""


def move_of(action: Action) -> Move:
    """The move (the API's form) of an action."""
    return {"type": PLAY, "card": action} if len(action) == 2 else {"type": action}


def action_of(move: Move) -> Action:
    """The action of a normalized move."""
    kind: str = move["type"]
    return move["card"] if kind == PLAY else kind


class State(BaseState):
    """One Concerto game (or match) in progress.

    Public: everything in :meth:`state_view`. Private to each seat: its own
    hand. Secret until the end: the seed, the preset deals still to come and
    the left-overs nobody had to reveal.
    """

    game: ClassVar[str] = "concerto"
    num_seats = 4
    action_kinds = ACTION_KINDS
    actions = ACTIONS
    options: ConcertoOptions
    option_specs = OPTIONS
    options_type = ConcertoOptions
    parse_deals = staticmethod(parse_deals)

    __slots__ = (
        "options", "seed", "presets", "deal_index", "game_number", "deal_number",
        "dealer", "hands", "hand_number", "current", "turn", "passes", "forced_by",
        "_hand_log", "_hand_records", "deal_hand_points", "deal_results", "game_scores", "totals",
        "games", "final_hands", "_outcome",
    )  # fmt: skip

    def __init__(self, options: ConcertoOptions, seed: str, presets: list[dict[str, Any]]):
        self.options = options
        self.seed = seed
        self.presets = presets
        self.deal_index = 0  # deals dealt so far in the whole game or match
        self.game_number = 1
        self.deal_number = 0
        self.dealer = 0
        self.hands: list[list[Card]] = [[], [], [], []]  # each held in sort_hand order
        self.hand_number = 1
        self.current: list[tuple[Seat, Card]] = []  # (seat, card) of the hand being built
        self.turn: Seat | None = None
        self.passes = 0  # consecutive passes since the last card (C6)
        self.forced_by: Seat | None = None  # who called 'Play' in this hand (C9)
        self._hand_log: list[HandLog] = []  # the hands completed in this game
        self._hand_records: list[dict[str, Any]] = []  # their records, built so far
        self.deal_hand_points = [0, 0]
        self.deal_results: list[dict[str, Any]] = []
        self.game_scores = [0, 0]
        self.totals = [0, 0]  # equal to game_scores unless this is a match (C23)
        self.games: list[dict[str, Any]] = []  # finished games of a match
        self.final_hands: list[list[Card]] | None = None  # revealed when the game ends
        self._outcome: Outcome | None = None

    # -- whose turn -----------------------------------------------------------
    @property
    def edition(self) -> Edition:
        return self.options.edition

    @property
    def leader(self) -> Seat:
        """The designated leader of the current hand: hand k is led by (dealer + k) % 4."""
        return (self.dealer + self.hand_number) % 4

    def to_move(self) -> list[Seat]:
        return [] if self.turn is None else [self.turn]

    def outcome(self) -> Outcome | None:
        return self._outcome

    def is_over(self) -> bool:
        return self._outcome is not None

    def may_pass(self, seat: Seat) -> bool:
        """Whether the seat on turn may pass — and so also call 'Play' (C6–C8, C12).

        Not on the first card of a hand (the leader must play it), not while a
        'Play' call is being obeyed, not after two consecutive passes, and not
        while the partner has no cards left.
        """
        return (
            bool(self.current)
            and self.forced_by is None
            and self.passes < 2
            and bool(self.hands[PARTNER[seat]])
        )

    # -- the moves in their compact form (the rules); the API's on top ---------
    def legal_actions(self, seat: Seat | None) -> list[Action]:
        """Every legal action of ``seat``: the cards it holds, then pass and force if allowed.

        The hand is held sorted (dealt so, and playing a card keeps the order).
        """
        if seat != self.turn or seat is None:
            return []
        hand = self.hands[seat]
        if (
            self.current
            and self.forced_by is None
            and self.passes < 2
            and self.hands[PARTNER[seat]]
        ):  # may_pass, written out: this is the simulations' hot path
            return hand + PASS_OR_FORCE
        return hand[:]

    def legal_action_ids(self, seat: Seat | None) -> list[int]:
        """The ids of :meth:`legal_actions`, ascending: its cards are the hand, held in the
        reverse of the ids' order (:data:`ACTIONS`), so read from the last; then pass
        and force (the last two ids) when it ends with them."""
        actions = self.legal_actions(seat)
        if actions and actions[-1] == FORCE:
            del actions[-2:]
            return [*map(CARD_IDS.__getitem__, reversed(actions)), *PASS_OR_FORCE_IDS]
        return list(map(CARD_IDS.__getitem__, reversed(actions)))

    def legal_actions_by_kind(self, seat: Seat | None) -> list[list[Action]]:
        """:meth:`legal_actions` grouped by kind: the cards held, then pass and force
        when it ends with them. The seat on turn always holds cards (C11 passes the turn
        to the partner, and a side keeps at least six of its 26 cards).
        """
        actions = self.legal_actions(seat)
        if not actions:
            return []
        if actions[-1] == FORCE:
            del actions[-2:]
            return [actions, [PASS], [FORCE]]
        return [actions]

    def apply_action(self, seat: Seat | None, action: Action) -> None:
        """Apply one action of :meth:`legal_actions`, building no events, with the checks
        of :meth:`apply` in one step (the kit's default would go through the moves).

        Raises:
            GameOver, NotYourTurn, IllegalMove: as :meth:`apply` (state unchanged).
        """
        if seat != self.turn or seat is None:
            raise GameOver() if self.turn is None else NotYourTurn(seat)
        if action in self.hands[seat]:
            self._play(seat, action, None)
        elif action in (PASS, FORCE) and self.may_pass(seat):
            self._act(seat, action, None)
        else:
            move = move_of(action) if isinstance(action, str) and action in ACTION_KINDS else {}
            reason = self._explain_illegal(seat, move) if move else f"{action!r} is not a move"
            raise IllegalMove(reason, self._legal_moves(seat))

    def legal_moves(self, seat: Seat | None) -> list[Move]:
        """The API's form of :meth:`legal_actions`: a fresh dict per move."""
        actions = self.legal_actions(seat)
        if actions and actions[-1] == FORCE:  # the cards held, then pass and force
            moves = [{"type": PLAY, "card": c} for c in actions[:-2]]
            moves += [{"type": PASS}, {"type": FORCE}]
            return moves
        return [{"type": PLAY, "card": c} for c in actions]

    def _legal_moves(self, seat: Seat) -> list[Move]:
        return self.legal_moves(seat)

    def _is_legal(self, seat: Seat, move: Move) -> bool:
        """Exactly ``move in _legal_moves(seat)``, without building the list."""
        if move["type"] == PLAY:
            return move["card"] in self.hands[seat]
        return self.may_pass(seat)

    def normalize_move(self, move: Any) -> Move:
        if type(move) is dict:  # the usual shapes, already canonical, checked at once
            kind, card = move.get("type"), move.get("card")
            if kind == PLAY and type(card) is str and card in DECK and len(move) == 2:
                return move
            if kind in (PASS, FORCE) and len(move) == 1:
                return move
        if not isinstance(move, Mapping):
            raise MalformedMove("a move is an object with a 'type'")
        kind = move.get("type")
        if kind == PLAY:
            card = move.get("card")
            if not (isinstance(card, str) and card in DECK):
                raise MalformedMove(f"{card!r} is not a card (rank then suit, e.g. 'TS')")
            fields = 2
        elif kind in (PASS, FORCE):
            fields = 1
        else:
            raise MalformedMove("move type must be 'play', 'pass' or 'force'")
        if len(move) != fields:
            extra = move.keys() - {"type", "card"} if kind == PLAY else move.keys() - {"type"}
            raise MalformedMove(f"unexpected field(s) in a {kind} move: {', '.join(sorted(extra))}")
        return {"type": PLAY, "card": card} if kind == PLAY else {"type": kind}

    def _explain_illegal(self, seat: Seat, move: Move) -> str:
        if move["type"] == PLAY:
            return f"{move['card']} is not in your hand"
        what = "pass" if move["type"] == PASS else "call 'Play'"
        if not self.current:
            return f"the leader must play the first card of a hand; you may not {what}"
        if self.forced_by is not None:
            return f"your partner called 'Play': you must play; you may not {what}"
        if self.passes >= 2:
            return f"two consecutive passes: you must play; you may not {what}"
        return f"your partner has no cards left: you must play; you may not {what}"

    # -- the moves ------------------------------------------------------------
    # Each rule is written once; ``out`` collects its events, or is None when
    # the caller (a simulation) will not read them and they are not built.
    def _apply(self, seat: Seat, move: Move) -> list[Event]:
        out: list[Event] = []
        self._act(seat, action_of(move), out)
        return out

    def _apply_quietly(self, seat: Seat, move: Move) -> None:
        """``_apply`` building no events: the hot path of ``apply(..., events=False)``."""
        if move["type"] == PLAY:
            self._play(seat, move["card"], None)
        else:
            self._act(seat, move["type"], None)

    def _act(self, seat: Seat, action: Action, out: list[Event] | None) -> None:
        if action == PASS:
            # C6: at most two consecutive passes per card.
            self.passes += 1
            self.turn = PARTNER[seat]
            if out is not None:
                out.append(Event("pass", {"seat": seat, "passes": self.passes}))
        elif action == FORCE:
            # C8/C9: 'Play' makes the partner complete the hand alone.
            self.forced_by = seat
            self.turn = PARTNER[seat]
            if out is not None:
                out.append(Event("force", {"seat": seat, "partner": partner_of(seat)}))
        else:
            self._play(seat, action, out)

    def _play(self, seat: Seat, card: Card, out: list[Event] | None) -> None:
        hands, current = self.hands, self.current
        hands[seat].remove(card)
        current.append((seat, card))
        self.passes = 0
        if out is not None:
            out.append(Event("play", {"seat": seat, "card": card, "hand_number": self.hand_number}))
        if len(current) == CARDS_PER_HAND:
            self._complete_hand(out)
            return
        forced_by = self.forced_by
        if forced_by is not None:
            # C9: the forced partner plays on alone; when out of cards, the caller completes.
            forced = PARTNER[forced_by]
            self.turn = forced if hands[forced] else forced_by
        else:
            # C11: a player with no cards is skipped and the partner must play.
            partner = PARTNER[seat]
            self.turn = partner if hands[partner] else seat

    def _complete_hand(self, out: list[Event] | None) -> None:
        """C13: the hand stays face up before its leader with who played each card."""
        cards = self.current
        combination = category([c for _, c in cards])
        if combination is Combination.FOURS or combination is Combination.STRAIGHT_FLUSH:
            points = self.edition.hand_points(combination, cards)
        else:
            points = BASE_POINTS[combination]
        side = (self.dealer + self.hand_number) % 2  # the leader's side
        self._hand_log.append(
            (self.deal_number, self.hand_number, side, tuple(cards), combination, points)
        )
        self.deal_hand_points[side] += points
        if out is not None:
            out.append(Event("hand_complete", self.completed_hands[-1]))
        if self.hand_number == HANDS_PER_DEAL:
            self._end_deal(out)
            return
        self.hand_number += 1
        self._start_hand()

    @property
    def completed_hands(self) -> list[dict[str, Any]]:
        """The record of every hand completed in this game (C13), built when asked for.

        Each record is built once and then shared: treat them as read-only.
        """
        records, log = self._hand_records, self._hand_log
        for deal, number, side, cards, combination, points in log[len(records) :]:
            records.append(
                {
                    "deal": deal,
                    "number": number,
                    "side": list(seats_of(side)),
                    "leader": cards[0][0],  # C3: who actually played the first card
                    "cards": [{"seat": s, "card": c} for s, c in cards],
                    "combination": combination.wire_name,
                    "points": points,
                }
            )
        return records

    def _start_hand(self) -> None:
        self.current = []
        self.passes = 0
        self.forced_by = None
        leader = (self.dealer + self.hand_number) % 4  # self.leader, written out
        # C11: an empty-handed designated leader is skipped; the partner leads.
        self.turn = leader if self.hands[leader] else partner_of(leader)

    # -- end of a deal ---------------------------------------------------------
    def _end_deal(self, out: list[Event] | None) -> None:
        """Hand scores (C16), then the left-over bonus (C14, C15, C17, C19)."""
        points = self.deal_hand_points
        leftovers = [self.hands[a] + self.hands[b] for a, b in map(seats_of, (0, 1))]
        dealer_side = side_of(self.dealer)
        if points[0] != points[1]:
            winner = 0 if points[0] > points[1] else 1
            loser = 1 - winner
            value, _ = self.edition.leftover_value(leftovers[loser])
            bonus = [0, 0]
            bonus[winner] = 10 * value  # winners are never penalised
            revealed = {loser}
        else:
            bonus, revealed = self.edition.tie_bonus(dealer_side, leftovers)
        for side in (0, 1):
            self.game_scores[side] += points[side] + bonus[side]
            self.totals[side] += points[side] + bonus[side]
        result = {
            "game": self.game_number,
            "deal": self.deal_number,
            "dealer": self.dealer,
            "hand_points": _by_side(points),
            "leftovers": {SIDE_NAMES[s]: sort_hand(leftovers[s]) for s in sorted(revealed)},
            "leftover_bonus": _by_side(bonus),
            "game_bonus": _by_side([0, 0]),
            "scores": None,  # filled in below, after the game bonus
        }
        self.deal_results = [*self.deal_results, result]  # a new list: clones share the old
        if out is not None:
            out.append(Event("deal_end", result))  # its scores are filled in below
        self._end_of_game_checks(result, out)

    def _end_of_game_checks(self, result: dict[str, Any], out: list[Event] | None) -> None:
        """C20–C23, after the deal's scoring (bonuses included)."""
        target, scores = self.options.target, self.game_scores
        reached = [scores[s] >= target for s in (0, 1)]
        game_over = False
        termination = Termination.DEALS_EXHAUSTED
        if reached[0] != reached[1]:
            # C22: exactly one side at target: 100 + 100 per unplayed deal; game ends.
            side = 0 if reached[0] else 1
            bonus = 100 + 100 * (self.options.deals - self.deal_number)
            scores[side] += bonus
            self.totals[side] += bonus
            result["game_bonus"][SIDE_NAMES[side]] = bonus
            game_over, termination = True, Termination.TARGET_REACHED
        elif all(reached):
            game_over, termination = True, Termination.TARGET_REACHED  # C20: no bonus
        elif self.deal_number == self.options.deals:
            game_over = True  # C21: last deal, nobody at target, no bonus
        result["scores"] = _by_side(self.game_scores)

        if game_over:
            self._end_game(out)
        match_target = self.options.match_target
        if match_target is None:
            if game_over:
                self._finish(termination, self.game_scores)
        else:
            # C23: the first side to reach the match target after a deal wins;
            # both at once -> the higher; equal totals play on.
            at = [self.totals[s] >= match_target for s in (0, 1)]
            if any(at) and self.totals[0] != self.totals[1]:
                if self.final_hands is None:
                    self._end_game(out)
                self._finish(Termination.MATCH_TARGET_REACHED, self.totals)
            elif game_over:
                self._new_game()
        self._game_over_or_next_deal(out)

    def _game_over_or_next_deal(self, out: list[Event] | None) -> None:
        if self._outcome is None:
            self._deal()
            if out is not None:
                out += self.deal_events()
        elif out is not None:
            out.append(Event("game_over", self._outcome.to_dict()))

    def _end_game(self, out: list[Event] | None) -> None:
        """A game ends: its unrevealed left-overs become public.

        See docs/rules/concerto.md, "Information".
        """
        self.final_hands = [sort_hand(h) for h in self.hands]
        scores = self.game_scores
        winner = None if scores[0] == scores[1] else SIDE_NAMES[0 if scores[0] > scores[1] else 1]
        record = {
            "game": self.game_number,
            "scores": _by_side(scores),
            "winner": winner,
            "hands": self.final_hands,
        }
        if self.options.match_target is not None:
            game = {k: v for k, v in record.items() if k != "hands"}
            self.games = [*self.games, game]  # a new list: clones share the old
        if out is not None:
            out.append(Event("game_end", record))

    def _finish(self, termination: Termination, side_scores: Sequence[int]) -> None:
        self.turn = None
        if side_scores[0] == side_scores[1]:
            winners: tuple[Seat, ...] = ()
        else:
            winners = seats_of(0 if side_scores[0] > side_scores[1] else 1)
        per_seat = tuple(side_scores[side_of(s)] for s in range(4))
        self._outcome = Outcome(termination, per_seat, winners)

    def _new_game(self) -> None:
        """The next game of a match: game scores restart, the totals carry (C23)."""
        self.game_number += 1
        self.deal_number = 0
        self.game_scores = [0, 0]
        self._hand_log = []
        self._hand_records = []
        self.deal_results = []

    def _new_deal(self) -> list[Event]:
        self._deal()
        return self.deal_events()

    def _deal(self) -> None:
        """Deal the next deal: a preset if one is left, else a seeded shuffle.

        The dealer passes to the left, also across the games of a match (C24).
        """
        if self.deal_index == 0:
            self.dealer = self._first_dealer()
        else:
            self.dealer = (self.dealer + 1) % 4
        if self.deal_index < len(self.presets):
            preset = self.presets[self.deal_index]
            self.dealer = preset["dealer"]
            self.hands = [sort_hand(h) for h in preset["hands"]]
        else:
            # The pack's order is the order hands are held in (sort_hand), so the
            # shuffled indices of the pack, dealt and sorted, are the sorted hands.
            order = shuffled_order(52, derived_rng(self.seed, "deal", self.deal_index))
            self.hands = [
                list(map(PACK.__getitem__, sorted(h)))
                for h in deal_singly(order, 4, first=(self.dealer + 1) % 4)
            ]
        self.deal_index += 1
        self.deal_number += 1
        self.deal_hand_points = [0, 0]
        self.final_hands = None
        self.hand_number = 1
        self._start_hand()

    def opening_events(self) -> list[Event]:
        return self.deal_events()

    def deal_events(self) -> list[Event]:
        """A public header for the deal, and each seat's own cards for that seat only."""
        header = {"game": self.game_number, "deal": self.deal_number, "dealer": self.dealer}
        return [
            Event("deal", header),
            *(
                Event("hand", {"seat": s, "cards": list(self.hands[s])}, frozenset({s}))
                for s in range(4)
            ),
        ]

    def _first_dealer(self) -> Seat:
        if self.options.first_dealer is not None:
            return self.options.first_dealer
        return derived_rng(self.seed, "first_dealer").randrange(4)

    # -- information -----------------------------------------------------------
    def state_view(self, seat: Seat | None = None) -> dict[str, Any]:
        """The public part of the state: identical for every seat and spectators.

        Lists are fresh copies, so a caller appending to them cannot change the
        game; the records inside (completed hands, deal results) are written
        once and shared, and must be treated as read-only.
        """
        return {
            "rules": self.options.rules,
            "game_number": self.game_number,
            "deal_number": self.deal_number,
            "dealer": self.dealer,
            "hand_number": self.hand_number,
            "leader": self.leader,
            "side": list(seats_of(side_of(self.leader))),
            "current_hand": [{"seat": s, "card": c} for s, c in self.current],
            "passes": self.passes,
            "forced": None
            if self.forced_by is None
            else {"by": self.forced_by, "player": partner_of(self.forced_by)},
            "completed_hands": list(self.completed_hands),
            "cards_left": [len(h) for h in self.hands],
            "deal_hand_points": _by_side(self.deal_hand_points),
            "deal_results": list(self.deal_results),
            "game_scores": _by_side(self.game_scores),
            "match_scores": _by_side(self.totals)
            if self.options.match_target is not None
            else None,
            "games": list(self.games),
            "final_hands": _copy_hands(self.final_hands),
        }

    def seat_scores(self) -> list[int]:
        return [self.totals[side_of(s)] for s in range(4)]

    def reveal(self) -> dict[str, Any]:
        return {"seed": self.seed, "hands": [list(h) for h in self.hands]}

    # -- persistence -------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "options": options_dict(self.options),
            "seed": self.seed,
            "presets": [
                {"dealer": p["dealer"], "hands": _copy_hands(p["hands"])} for p in self.presets
            ],
            "deal_index": self.deal_index,
            "game_number": self.game_number,
            "deal_number": self.deal_number,
            "dealer": self.dealer,
            "hands": [list(h) for h in self.hands],
            "hand_number": self.hand_number,
            "current": [list(p) for p in self.current],
            "turn": self.turn,
            "passes": self.passes,
            "forced_by": self.forced_by,
            "completed_hands": list(self.completed_hands),
            "deal_hand_points": list(self.deal_hand_points),
            "deal_results": list(self.deal_results),
            "game_scores": list(self.game_scores),
            "totals": list(self.totals),
            "games": list(self.games),
            "final_hands": _copy_hands(self.final_hands),
            "outcome": None if self._outcome is None else self._outcome.to_dict(),
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> State:
        s = cls(ConcertoOptions(**d["options"]), d["seed"], d["presets"])
        for name in (
            "deal_index", "game_number", "deal_number", "dealer", "hand_number", "turn",
            "passes", "forced_by", "final_hands",
        ):  # fmt: skip
            setattr(s, name, d[name])
        s.hands = [sort_hand(h) for h in d["hands"]]
        s.current = [(seat, card) for seat, card in d["current"]]
        for name in ("deal_hand_points", "deal_results", "game_scores", "totals",
                     "games"):  # fmt: skip
            setattr(s, name, list(d[name]))
        s._hand_records = list(d["completed_hands"])
        s._hand_log = [_log_of(r) for r in s._hand_records]
        s._outcome = None if d["outcome"] is None else Outcome.from_dict(d["outcome"])
        return s

    def clone(self) -> State:
        """A copy that shares only what is never mutated once written.

        The options, presets, outcome, final hands, the deal results and the
        games (lists the rules replace rather than append to, once a deal) are
        shared; every list the rules append to or change is copied. The copy
        builds its own hand records when asked for them.
        """
        s = State.__new__(State)
        s.options, s.seed, s.presets, s._outcome = (
            self.options, self.seed, self.presets, self._outcome
        )  # fmt: skip
        s.deal_index, s.game_number, s.deal_number, s.dealer, s.hand_number = (
            self.deal_index, self.game_number, self.deal_number, self.dealer, self.hand_number
        )  # fmt: skip
        s.turn, s.passes, s.forced_by, s.final_hands = (
            self.turn, self.passes, self.forced_by, self.final_hands
        )  # fmt: skip
        h0, h1, h2, h3 = self.hands
        s.hands = [h0[:], h1[:], h2[:], h3[:]]
        s.current = self.current[:]
        s._hand_log = self._hand_log[:]
        s._hand_records = []
        s.deal_hand_points = self.deal_hand_points[:]
        s.deal_results = self.deal_results
        s.game_scores = self.game_scores[:]
        s.totals = self.totals[:]
        s.games = self.games
        return s

    def determinize(self, seat: Seat, rng: random.Random) -> State:
        """One world ``seat`` cannot tell from this one, for a searching bot.

        The cards of the three other hands are pooled and dealt again, each
        seat keeping its number of cards (public: ``cards_left``); the cards
        played so far are public and stay. The deals still to come are secret
        too (docs/rules/concerto.md, "What each player sees"): the copy gets a seed drawn
        from ``rng`` and no preset deals beyond the current one. Once the game is
        over every hand is public (its final hands) and stays.
        """
        s = self.clone()
        keep = (seat,) if self.final_hands is None else range(4)  # once over, all are public
        s.hands = redeal(self.hands, keep, rng, sort_hand)
        s._hide_the_deals_to_come(rng, self.deal_index)
        return s

    @classmethod
    def _public_from_view(
        cls, options: Mapping[str, Any], view: Mapping[str, Any], seat: Seat
    ) -> State:
        """The kit's :meth:`from_view` before the draw: every public field from the view
        and the options, the seat's hand from ``view["hand"]``, the cards nobody has
        shown dealt to the other seats by ``cards_left`` (once the game is over, its
        final hands are public, and kept). The public records (completed hands, deal
        results, games) are the view's own, shared as :meth:`from_dict` shares its
        input's: treat them as read-only.
        """
        if seat not in range(4):
            raise ValueError(f"not a seat of a concerto game: {seat!r}")
        return cls.from_dict(_dict_of_view(cls.parse_options(options), view, seat))


def _log_of(record: Mapping[str, Any]) -> HandLog:
    """A stored hand record back in the form the rules keep it."""
    return (
        record["deal"],
        record["number"],
        record["side"][0],
        tuple((c["seat"], c["card"]) for c in record["cards"]),
        Combination[record["combination"].upper()],
        record["points"],
    )


def _dict_of_view(options: ConcertoOptions, view: Mapping[str, Any], seat: Seat) -> dict[str, Any]:
    """The stored form (:meth:`State.to_dict`) of a state agreeing with ``view``.

    The cards nobody has shown are dealt in pack order, for determinize to draw
    again. The view does not tell how many deals the earlier games of a match
    had: each counts as one (it had at least one), as only the seed reads the
    count and a world's seed is drawn afresh.
    """
    st = view["state"]
    hand = list(view["hand"])
    if st["final_hands"] is not None:  # the game is over: every hand is public
        hands = [list(h) for h in st["final_hands"]]
    else:
        this_deal = [r for r in st["completed_hands"] if r["deal"] == st["deal_number"]]
        played = [c["card"] for r in this_deal for c in r["cards"]]
        played += [c["card"] for c in st["current_hand"]]
        shown = {*hand, *played}
        unseen = iter([c for c in PACK if c not in shown])
        left = st["cards_left"]
        if len(shown) != len(hand) + len(played) or not shown <= DECK:
            raise ValueError("not a view of a Concerto game: cards repeated or not cards")
        if len(left) != 4 or len(shown) + sum(left) - left[seat] != len(PACK):
            raise ValueError("not a view of a Concerto game: cards_left does not add up")
        hands = [hand if s == seat else list(islice(unseen, n)) for s, n in enumerate(left)]
    forced = st["forced"]
    match_scores = st["match_scores"] or st["game_scores"]
    return {
        "options": vars(options),
        "seed": "",
        "presets": [],
        "deal_index": st["game_number"] - 1 + st["deal_number"],
        **{k: st[k] for k in ("game_number", "deal_number", "dealer", "hand_number", "passes")},
        "hands": hands,
        "current": [(c["seat"], c["card"]) for c in st["current_hand"]],
        "turn": view["to_move"][0] if view["to_move"] else None,
        "forced_by": None if forced is None else forced["by"],
        "completed_hands": st["completed_hands"],
        "deal_hand_points": [st["deal_hand_points"][n] for n in SIDE_NAMES],
        "deal_results": st["deal_results"],
        "game_scores": [st["game_scores"][n] for n in SIDE_NAMES],
        "totals": [match_scores[n] for n in SIDE_NAMES],
        "games": st["games"],
        "final_hands": st["final_hands"],
        "outcome": view["result"],
    }


def _copy_hands(hands: list[list[Card]] | None) -> list[list[Card]] | None:
    return None if hands is None else [list(h) for h in hands]


def _by_side(values: Sequence[int]) -> dict[str, int]:
    return {SIDE_NAMES[0]: values[0], SIDE_NAMES[1]: values[1]}


new_state = State.new

parse_options = State.parse_options
"""Options as a client sent them → the game's options (the kit's one parser)."""


def longest_game(options: Mapping[str, Any]) -> int:
    """A bound on a game's moves: 400 a deal (the longest auction and play, and more), for
    its deals, or :data:`UNBOUNDED_DEALS` in a match to a target.

    >>> longest_game({"deals": 2, "match_target": None}), longest_game({"match_target": 500})
    (800, 400000)
    """
    deals = options["deals"] if options.get("match_target") is None else UNBOUNDED_DEALS
    return 400 * int(deals)


GAME = game_record(
    State,
    title="Concerto",
    seats=(4,),
    options=OPTIONS,
    two_sides=True,
    variant_option="rules",
    house_bots=("concerto_signals", "concerto_greedy"),
    ladder_options={"deals": 1},
    pack=STANDARD.low_to_high(),
    longest_game=longest_game,
    move_of=move_of,
    wire=WIRE,
    option_sets=({"deals": 1}, {"deals": 1, "rules": "penguin"}),  # one deal each
)

"""Hicard, a game that exists only in the tests: the smallest game the engine contract
allows, to show what a new game needs (its rules here, its facts and its wire on its Game
record: the API's spec built with it registered has its views, moves and events).

Two players, a pack of twelve cards (A K Q of each suit), a few rounds of one trick. Each
round deals three cards to each seat from the seed; the leader (seat 0 in the first round,
then in turn) plays any card, the other follows suit if it can; the higher card of the
suit led wins the trick and a point. The two cards each seat did not play are thrown in
unseen. After ``rounds`` rounds the higher score wins; equal scores are a draw.

It is registered only for the tests that ask for it (``tests/testgame/conftest.py``).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from server.games.kit.base import (
    BaseState,
    Event,
    InvalidDeal,
    MalformedMove,
    Move,
    Outcome,
    Seat,
    Termination,
    game_record,
    options_dict,
)
from server.games.kit.cards import Pack, derived_rng, shuffled, sort_hand
from server.games.kit.wire import (
    CARD,
    CARDS,
    GAME_OVER_EVENT,
    HAND_EVENT,
    INTEGER,
    SEAT,
    Wire,
    array,
    record,
)

PACK = Pack("12-card", "AKQ")
SEATS, HAND = 2, 3
PLAY = "play"
OPTIONS = {"rounds": {"default": 3, "min": 1, "max": 9, "doc": "rounds (one trick each)"}}


@dataclass(frozen=True, slots=True)
class HicardOptions:
    rounds: int = 3


def move_of(action: tuple[str, str]) -> Move:
    """The move of an action: ``("play", card)`` is ``{"type": "play", "card": card}``."""
    return {"type": action[0], "card": action[1]}


def longest_game(options: Mapping[str, Any]) -> int:
    """Two moves a round."""
    return SEATS * int(options["rounds"])


class State(BaseState):
    game = "hicard"
    option_specs = OPTIONS
    options_type = HicardOptions
    num_seats = SEATS
    actions: ClassVar[tuple[Any, ...]] = tuple((PLAY, c) for c in PACK.low_to_high())

    def __init__(self, options: HicardOptions, seed: str, presets: list[dict[str, Any]]) -> None:
        self.options, self.seed, self.presets = options, seed, presets
        self.round = 0
        self.hands: list[list[str]] = [[] for _ in range(SEATS)]
        self.trick: list[str] = []
        self.tricks: list[dict[str, Any]] = []
        self.scores = [0] * SEATS
        self._outcome: Outcome | None = None

    @staticmethod
    def parse_deals(raw: Iterable[Any] | None, options: Any) -> list[dict[str, Any]]:
        if raw:
            raise InvalidDeal(["hicard takes no preset deals"])
        return []

    @property
    def leader(self) -> Seat:
        return (self.round - 1) % SEATS

    def _new_deal(self) -> list[Event]:
        self.round += 1
        cards = shuffled(PACK, derived_rng(self.seed, "deal", self.round))
        self.hands = [sort_hand(cards[s * HAND : (s + 1) * HAND], PACK) for s in range(SEATS)]
        return self.opening_events()

    def opening_events(self) -> list[Event]:
        deal = Event("deal", {"round": self.round, "leader": self.leader})
        hands = [
            Event("hand", {"seat": s, "cards": list(self.hands[s])}, frozenset({s}))
            for s in range(SEATS)
        ]
        return [deal, *hands]

    def to_move(self) -> list[Seat]:
        return [] if self._outcome else [(self.leader + len(self.trick)) % SEATS]

    def outcome(self) -> Outcome | None:
        return self._outcome

    def normalize_move(self, move: Any) -> Move:
        if not isinstance(move, Mapping) or move.get("type") != PLAY:
            raise MalformedMove("a move is {'type': 'play', 'card': <a card of the pack>}")
        if not PACK.is_card(move.get("card")):
            raise MalformedMove(f"{move.get('card')!r} is not a card of the {PACK.name} pack")
        return {"type": PLAY, "card": move["card"]}

    def legal_actions(self, seat: Seat | None) -> list[Any]:
        if seat is None or self.is_over() or seat not in self.to_move():
            return []
        hand = self.hands[seat]
        led = [c for c in hand if self.trick and c[1] == self.trick[0][1]]
        return [(PLAY, c) for c in (led or hand)]

    def apply_action(self, seat: Seat | None, action: Any) -> None:
        self.apply(seat, move_of(action), events=False)

    def _legal_moves(self, seat: Seat) -> list[Move]:
        return [move_of(a) for a in self.legal_actions(seat)]

    def _apply(self, seat: Seat, move: Move) -> list[Event]:
        card = move["card"]
        self.hands[seat].remove(card)
        self.trick.append(card)
        events = [Event("play", {"seat": seat, "card": card})]
        if len(self.trick) < SEATS:
            return events
        lead, follow = self.trick
        beaten = follow[1] == lead[1] and PACK.rank_order(follow) > PACK.rank_order(lead)
        winner = (self.leader + beaten) % SEATS
        self.scores[winner] += 1
        record = {"leader": self.leader, "cards": list(self.trick), "winner": winner}
        self.tricks.append(record)
        self.trick = []
        events.append(Event("trick", dict(record)))
        if self.round < self.options.rounds:
            return events + self._new_deal()
        self.hands = [[] for _ in range(SEATS)]
        best = max(self.scores)
        winners = () if self.scores.count(best) > 1 else (self.scores.index(best),)
        self._outcome = Outcome(Termination.DEALS_EXHAUSTED, tuple(self.scores), winners)
        return [*events, Event("game_over", self._outcome.to_dict())]

    def state_view(self, seat: Seat | None = None) -> dict[str, Any]:
        return {
            "round": self.round,
            "rounds": self.options.rounds,
            "leader": self.leader,
            "trick": list(self.trick),
            "tricks": [dict(t, cards=list(t["cards"])) for t in self.tricks],
            "cards_left": [len(h) for h in self.hands],
        }

    def seat_scores(self) -> list[int]:
        return list(self.scores)

    def reveal(self) -> dict[str, Any]:
        return {"hands": [list(h) for h in self.hands], "seed": self.seed}

    def to_dict(self) -> dict[str, Any]:
        return {
            "options": options_dict(self.options),
            "seed": self.seed,
            "presets": list(self.presets),
            "round": self.round,
            "hands": [list(h) for h in self.hands],
            "trick": list(self.trick),
            "tricks": [dict(t, cards=list(t["cards"])) for t in self.tricks],
            "scores": list(self.scores),
            "outcome": None if self._outcome is None else self._outcome.to_dict(),
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> State:
        s = cls(HicardOptions(**d["options"]), d["seed"], list(d["presets"]))
        s.round, s.hands, s.trick = d["round"], [list(h) for h in d["hands"]], list(d["trick"])
        s.tricks = [dict(t, cards=list(t["cards"])) for t in d["tricks"]]
        s.scores = list(d["scores"])
        s._outcome = None if d["outcome"] is None else Outcome.from_dict(d["outcome"])
        return s

    def clone(self) -> State:
        return State.from_dict(self.to_dict())

    def determinize(self, seat: Seat, rng: random.Random) -> State:
        """The other hand drawn again from the cards ``seat`` has not seen."""
        s = self.clone()
        seen = {*self.hands[seat], *self.trick}
        unseen = [c for c in PACK.cards() if c not in seen]
        other = 1 - seat
        s.hands[other] = sort_hand(rng.sample(unseen, len(self.hands[other])), PACK)
        s._hide_the_deals_to_come(rng, self.round)
        return s

    @classmethod
    def _public_from_view(
        cls, options: Mapping[str, Any], view: Mapping[str, Any], seat: Seat
    ) -> State:
        public = view["state"]
        s = cls(cls.parse_options(options), "", [])
        s.round, s.trick = public["round"], list(public["trick"])
        s.tricks = [dict(t, cards=list(t["cards"])) for t in public["tricks"]]
        s.scores = list(view["scores"])
        s._outcome = None if view["result"] is None else Outcome.from_dict(view["result"])
        s.hands[seat] = list(view["hand"])
        unseen = [c for c in PACK.cards() if c not in {*view["hand"], *s.trick}]
        s.hands[1 - seat] = unseen[: public["cards_left"][1 - seat]]
        return s


TRICK = {"leader": SEAT, "cards": CARDS, "winner": SEAT}
"""A trick: its leader, its cards in the order played, its winner."""

WIRE = Wire(
    state=record(
        {
            "round": INTEGER,
            "rounds": INTEGER,
            "leader": SEAT,
            "trick": CARDS,
            "tricks": array(record(TRICK)),
            "cards_left": array(INTEGER),
        },
        description="the public state of a Hicard game (identical for every seat)",
    ),
    moves={"play": "PlayMove"},
    moves_description="Hicard: play a card",
    events={
        "deal": record({"round": INTEGER, "leader": SEAT}, description="a round is dealt"),
        "hand": HAND_EVENT,
        "play": record({"seat": SEAT, "card": CARD}, description="a card played"),
        "trick": record(TRICK, description="a trick is complete"),
        "game_over": GAME_OVER_EVENT,
    },
)
"""What Hicard sends and takes (:class:`~server.games.kit.wire.Wire`)."""

GAME = game_record(
    State,
    title="Hicard (a test game)",
    seats=(SEATS,),
    options=OPTIONS,
    pack=PACK.low_to_high(),
    longest_game=longest_game,
    move_of=move_of,
    wire=WIRE,
)

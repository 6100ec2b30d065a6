"""One harness for every game in ``server.games.REGISTRY``: the contract and hidden information.

The engine contract (``server/games/kit/base.py``) is checked the same way for
every game, at every state of seeded random games (:func:`check_contract`):
``to_move``/``legal_moves``/``outcome`` agree; ``legal_moves`` lists each move
once, every listed move is accepted and every other probe is refused with a
typed error that leaves ``to_dict`` unchanged; a seat not to move gets one
refusal whatever it tries; ``to_dict``/``from_dict`` round-trip exactly through
JSON; clones are equal and independent; the result appears once the game is
over and then every move meets ``GameOver``; each event's audience is a set of
real seats, and a seat's private events (its hand, its draw) go to it alone.

Hidden information, after OpenSpiel's definition of an information state: for
an observer *x*, build a twin by re-dealing everything *x* cannot know (cards
the table knows a seat holds stay in place; counts are kept) and check that
*x* cannot tell the two apart: the same view, the same legal moves, the same
answer to every probe (and, for the moves *x* may make, the same events and
view after), and the same events after the same next move by anyone, up to an
event that turns cards up by rule (:func:`check_indistinguishable`,
:func:`check_next_move`). A scan then checks that no view or visible event
names a card *x* may not know (:class:`Table.view_leaks`,
:class:`Table.event_leaks`).

What each seat is entitled to know is worked out in one place per game: the
``unseen``, ``known`` and ``public`` methods of that game's :class:`Table`,
from the full state and the rules in ``docs/rules/`` (never from the views
being checked).
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from server.games import REGISTRY
from server.games.kit.base import (
    BaseState,
    Event,
    GameError,
    IllegalMove,
    MalformedMove,
    visible,
)
from server.games.kit.cards import DOUBLE_PINOCHLE, PINOCHLE, STANDARD, Pack, sort_hand

from .helpers import SIDE_SEATS

Seat = int
Observer = Seat | None
Path = tuple[Any, ...]
Pins = list[Counter[str]]
Step = tuple[BaseState, Seat, Any, list[Event], BaseState]

STANDARD_PACK = STANDARD.cards()
MALFORMED: list[Any] = [None, "play", {"type": "jump"}, {"type": "play", "card": "XX"}]
"""Moves of no game: each must raise MalformedMove (after the turn checks)."""
MAX_MOVES = 20_000
QUOTED_CARD = re.compile(r'"([AKQJT2-9][SHDC])"')


def jsonish(value: Any) -> Any:
    """``value`` as JSON carries it."""
    return json.loads(json.dumps(value))


def never(path: Path) -> bool:
    return False


def card_paths(
    obj: Any, is_card: Callable[[Any], bool], skip: Callable[[Path], bool] = never
) -> list[tuple[Path, str]]:
    """Every string in a JSON-like value that is a card, with its path; ``skip`` prunes."""
    found: list[tuple[Path, str]] = []
    stack: list[tuple[Path, Any]] = [((), obj)]
    while stack:
        path, value = stack.pop()
        if skip(path):
            continue
        if isinstance(value, str):
            if is_card(value):
                found.append((path, value))
        elif isinstance(value, dict):
            stack += [((*path, k), v) for k, v in value.items()]
        elif isinstance(value, list | tuple):
            stack += [((*path, i), v) for i, v in enumerate(value)]
    return found


def observers(state: BaseState) -> list[Observer]:
    return [*range(state.num_seats), None]


def attempt(
    state: BaseState, seat: Observer, move: Any, legal: list[Any] | None = None
) -> tuple[Any, ...]:
    """What ``seat`` learns by trying ``move``: the error, or the events and a clone after.

    A move not in ``legal`` (the seat's legal moves) is tried on ``state``
    itself: it must be refused, and refusing changes nothing (the contract).
    """
    legal = state.legal_moves(seat) if legal is None else legal
    if move in legal:
        clone = state.clone()
        return "accepted", clone.apply(seat, move), clone
    try:
        state.apply(seat, move)
    except GameError as err:
        return type(err).__name__, str(err), getattr(err, "legal_moves", None)
    raise AssertionError(f"{move!r} accepted for seat {seat} but not legal")


# ---------------------------------------------------------------------------
# Per-game knowledge
# ---------------------------------------------------------------------------


class Table:
    """What the suite needs to know about one game; one subclass per game in REGISTRY.

    The defaults fit a game whose only hidden places are the hands, whose
    cards are unique and played face up.
    """

    game_id: str
    pack: Pack = STANDARD
    configs: list[dict[str, Any]]
    """Option sets that change the dealing or the seats: each is a case of the suite."""
    examples: int = 3
    """Hypothesis examples per case and property (the suite's time bound)."""
    reveals: frozenset[str] = frozenset()
    """Event kinds that turn cards up by rule: comparing twins' events stops there."""
    fresh: frozenset[str] = frozenset({"deal"})
    """Event kinds from which an observer's own cards are the new holdings."""
    sweep_every = 1.0
    """Chance that a state gets the contract's full probe sweep (the time bound)."""
    twin_every = 0.4
    """Chance that a state gets the twin checks of every probe (the time bound)."""

    def wants_twins(self, state: BaseState, rng: random.Random) -> bool:
        """Whether ``state`` gets :func:`check_indistinguishable` in the hidden-info test."""
        return rng.random() < self.twin_every

    @property
    def game(self) -> Any:
        return REGISTRY[self.game_id]

    def options(self, config: dict[str, Any], rng: random.Random) -> dict[str, Any]:
        """The options of one random game of this case (bounded where a game could run long)."""
        return dict(config)

    def probes(self, state: BaseState) -> list[Any]:
        """Well-formed moves of every kind, to try at every state."""
        raise NotImplementedError

    malformed: list[Any] = MALFORMED
    """Moves that are no move of this game: each must raise MalformedMove."""

    probes_cover = True
    """Whether every legal move is among the probes (the completeness check)."""

    def choose(self, state: BaseState, seat: Seat, rng: random.Random) -> Any:
        return rng.choice(state.legal_moves(seat))

    # -- what a seat may know: the one place per game --------------------------
    def unseen(self, state: BaseState, observer: Observer) -> Counter[str]:
        """The cards ``observer`` may not know the place of now (with multiplicity)."""
        if state.is_over():
            return Counter()
        hands = state.to_dict()["hands"]
        return Counter(c for s, h in enumerate(hands) if s != observer for c in h)

    def known(self, state: BaseState) -> Pins:
        """What the whole table knows each seat holds (kept in place when re-dealing)."""
        return [Counter() for _ in range(state.num_seats)]

    def shown_by(self, state: BaseState, seat: Seat, move: Any, events: list[Event]) -> Pins:
        """Cards a move shows to the table, per holder (kept in place for the next move)."""
        pins = self.known(state)
        for card in self.face_up(move):
            pins[seat][card] = max(pins[seat][card], 1)
        return pins

    def public_in_view(self, state: BaseState) -> Callable[[Path], bool]:
        """Where in a view a card may reappear once hidden again (earlier deals' records)."""
        return never

    def face_up(self, move: Any) -> list[str]:
        """The cards a move puts face up on the table (a card played)."""
        if isinstance(move, Mapping) and move.get("type") == "play":
            return [move["card"]]
        return []

    def public_in_event(self, before: BaseState, move: Any, event: Event, path: Path) -> bool:
        """Whether an event may name a hidden card here by rule (a reveal)."""
        return False

    def redeal(
        self, state: BaseState, observer: Observer, rng: random.Random, pins: Pins, reseed: bool
    ) -> BaseState:
        """The unseen cards shuffled among the other hands, counts kept, pins kept in place."""
        d = state.to_dict()  # fresh lists: the twin shares nothing mutable
        redeal_hands(d, state.num_seats, observer, rng, pins, self.pack)
        if reseed:
            d["seed"] = f"other-{rng.getrandbits(32)}"
        return self.game.from_dict(d)

    def twin_move(
        self, twin: BaseState, seat: Seat, move: Any, observer: Observer, rng: random.Random
    ) -> Any:
        """The move ``seat`` makes in ``observer``'s twin: the same, unless it is face down."""
        return move

    # -- leak scans, on top of ``unseen`` -----------------------------------------
    def view_leaks(self, state: BaseState, observer: Observer) -> list[Any]:
        """Cards hidden from the observer named in its view, outside the public records."""
        hidden = self.unseen(state, observer)
        view = state.view(observer)
        if not hidden.keys() & set(QUOTED_CARD.findall(json.dumps(view))):
            return []  # no hidden card anywhere: nothing to place
        found = card_paths(view, self.pack.is_card, self.public_in_view(state))
        return [(path, card) for path, card in found if hidden[card]]

    def event_leaks(
        self,
        before: BaseState,
        move: Any,
        events: list[Event],
        after: BaseState,
        observer: Observer,
    ) -> list[Any]:
        """Cards hidden from the observer named in the events it may see.

        Events up to the first ``fresh`` one are checked against the holdings
        before the move, the rest against those after it.
        """
        hidden = self.unseen(before, observer) - Counter(self.face_up(move))
        leaks = []
        for event in events:
            if event.kind in self.fresh:
                hidden = self.unseen(after, observer)
            if not visible(event, observer):
                continue
            for path, card in card_paths(event.data, self.pack.is_card):
                if hidden[card] and not self.public_in_event(before, move, event, path):
                    leaks.append((event.kind, path, card))
        return leaks

    # -- game-specific invariants ------------------------------------------------
    def check_step(self, step: Step) -> None:
        """Anything the rules say of one move (e.g. counters per deal)."""

    def check_end(self, state: BaseState, options: dict[str, Any]) -> None:
        """Anything the rules say of a finished game."""


def redeal_hands(
    d: dict[str, Any], seats: int, observer: Observer, rng: random.Random, pins: Pins, pack: Pack
) -> None:
    """Shuffle the other seats' unpinned cards among them in ``d``, each keeping its count."""
    others = [s for s in range(seats) if s != observer]
    kept = {s: pins[s] & Counter(d["hands"][s]) for s in others}
    pool = [c for s in others for c in (Counter(d["hands"][s]) - kept[s]).elements()]
    rng.shuffle(pool)
    for s in others:
        need = len(d["hands"][s]) - sum(kept[s].values())
        d["hands"][s] = sort_hand([*kept[s].elements(), *pool[:need]], pack)
        pool = pool[need:]


# ---------------------------------------------------------------------------
# Concerto
# ---------------------------------------------------------------------------


def concerto_revealed_sides(rules: str, result: Mapping[str, Any]) -> set[str]:
    """Whose left-overs a deal's end shows (docs/rules/concerto.md, C14–C17).

    The losers show; on a tie in hand score the dealing side (parlett-2013)
    or both sides (penguin, C17).
    """
    points = result["hand_points"]
    if points["NS"] != points["EW"]:
        return {"EW" if points["NS"] > points["EW"] else "NS"}
    if rules == "penguin":
        return {"NS", "EW"}
    return {"NS" if result["dealer"] % 2 == 0 else "EW"}


class Concerto(Table):
    game_id = "concerto"
    configs = [{"rules": "parlett-2013"}, {"rules": "penguin"}]
    examples = 3
    sweep_every = 0.3
    twin_every = 0.2

    def options(self, config: dict[str, Any], rng: random.Random) -> dict[str, Any]:
        options: dict[str, Any] = {
            **config,
            "first_dealer": rng.choice([None, 0, 1, 2, 3]),
            "deals": rng.randint(1, 4),
            "target": rng.choice([1, 40, 100]),
        }
        if rng.random() < 0.3:
            options["match_target"] = rng.randint(10, 200)
        return options

    def probes(self, state: BaseState) -> list[Any]:
        plays = [{"type": "play", "card": c} for c in STANDARD_PACK]
        return [*plays, {"type": "pass"}, {"type": "force"}]

    def shown_by(self, state: BaseState, seat: Seat, move: Any, events: list[Event]) -> Pins:
        """The card played; the left-overs a deal's end shows; every hand at a game's end."""
        pins = super().shown_by(state, seat, move, events)
        hands = state.to_dict()["hands"]
        rules = state.view(None)["state"]["rules"]
        for event in events:
            if event.kind == "deal_end":
                for side in concerto_revealed_sides(rules, event.data):
                    for s in SIDE_SEATS[side]:
                        pins[s] |= Counter(hands[s])
            elif event.kind == "game_end":
                for s in range(4):
                    pins[s] |= Counter(hands[s])
        return pins

    def public_in_view(self, state: BaseState) -> Callable[[Path], bool]:
        """Earlier deals' completed hands, shown left-overs, a finished game's hands."""
        view = state.view(None)["state"]

        def public(path: Path) -> bool:
            if path[:2] == ("state", "completed_hands") and len(path) == 3:
                return bool(view["completed_hands"][path[2]]["deal"] != view["deal_number"])
            if path[:2] == ("state", "deal_results") and path[3:4] == ("leftovers",):
                result = view["deal_results"][path[2]]
                return len(path) == 5 and path[4] in concerto_revealed_sides(view["rules"], result)
            return path == ("state", "final_hands")

        return public

    def public_in_event(self, before: BaseState, move: Any, event: Event, path: Path) -> bool:
        """Shown left-overs at a deal's end; all hands at a game's end."""
        rules = before.view(None)["state"]["rules"]
        if event.kind == "deal_end" and path[:1] == ("leftovers",):
            return path[1] in concerto_revealed_sides(rules, event.data)
        return event.kind == "game_end" and path[:1] == ("hands",)


# ---------------------------------------------------------------------------
# Seconds
# ---------------------------------------------------------------------------


class Seconds(Table):
    game_id = "seconds"
    configs = [{}, {"winner": "highest", "first_dealer": 2}]
    examples = 2
    sweep_every = 0.25
    twin_every = 0.1

    def probes(self, state: BaseState) -> list[Any]:
        return [{"type": "play", "card": c} for c in STANDARD_PACK]


# ---------------------------------------------------------------------------
# Cowpoke
# ---------------------------------------------------------------------------


class Cowpoke(Table):
    game_id = "cowpoke"
    configs = [
        {"players": 2, "hands": 2},
        {"players": 3, "hands": 2, "suit_order": "SDCH"},
        {"players": 4, "hands": 1},
        {"players": 5, "hands": 1, "first_dealer": 4},
    ]
    examples = 3
    # The reveal turns put-outs up; a new round brings a new private draw from
    # the stack; the showdown shows every hand.
    reveals = frozenset({"reveal", "round", "showdown"})
    fresh = frozenset({"deal", "round"})

    def probes(self, state: BaseState) -> list[Any]:
        moves: list[Any] = [{"type": "call"}, {"type": "pass"}]
        for kind in ("put_out", "take"):
            moves += [{"type": kind, "card": c} for c in STANDARD_PACK]
        return moves

    def unseen(self, state: BaseState, observer: Observer) -> Counter[str]:
        """Other hands less the cards known from exchanges, face-down put-outs, stack, dummy.

        Hands are shown at the final showdown (docs/rules/cowpoke.md).
        """
        d = state.to_dict()
        players = d["options"]["players"]
        face_down = d["phase"] == "put_out"
        unseen: list[str] = []
        if d["phase"] != "over":
            for y in range(players):
                if y == observer:
                    continue
                pool = list(d["hands"][y])
                if face_down and d["put_outs"][y] is not None:
                    pool.append(d["put_outs"][y])
                unseen += [c for c in pool if c not in d["exposed"][y]]
        unseen += d["stack"] + d["dummy_cards"]
        if face_down and players == 2:
            unseen.append(d["put_outs"][2])
        return Counter(unseen)

    def known(self, state: BaseState) -> Pins:
        """A card taken in an exchange is known to be in the taker's hand (``exposed``)."""
        return [Counter(e) for e in state.to_dict()["exposed"]]

    def face_up(self, move: Any) -> list[str]:
        return []  # a put-out is face down; a take is of a card already on the table

    def shown_by(self, state: BaseState, seat: Seat, move: Any, events: list[Event]) -> Pins:
        return self.known(state)

    def public_in_view(self, state: BaseState) -> Callable[[Path], bool]:
        """Earlier deals' showdowns (their cards are dealt again)."""
        results = state.view(None)["state"]["deal_results"]
        deal = state.to_dict()["deal_number"]

        def public(path: Path) -> bool:
            if path[:2] != ("state", "deal_results") or len(path) != 3:
                return False
            return bool(results[path[2]]["deal"] != deal)

        return public

    def public_in_event(self, before: BaseState, move: Any, event: Event, path: Path) -> bool:
        """The reveal turns the put-outs up; the showdown shows every hand."""
        return event.kind in ("reveal", "showdown")

    def redeal(
        self, state: BaseState, observer: Observer, rng: random.Random, pins: Pins, reseed: bool
    ) -> BaseState:
        """Every unseen card (hands, face-down put-outs, stack, dummy) relabelled at random."""
        d = state.to_dict()
        pinned = sum(pins, Counter())
        unseen = [c for c in self.unseen(state, observer) if not pinned[c]]
        shuffled = list(unseen)
        rng.shuffle(shuffled)
        sigma = dict(zip(unseen, shuffled, strict=True))

        def m(card: str | None) -> str | None:
            return None if card is None else sigma.get(card, card)

        d["hands"] = [
            h if y == observer else sort_hand(map(m, h)) for y, h in enumerate(d["hands"])
        ]
        d["stack"] = [m(c) for c in d["stack"]]
        d["dummy_cards"] = [m(c) for c in d["dummy_cards"]]
        d["put_outs"] = [c if o == observer else m(c) for o, c in enumerate(d["put_outs"])]
        d["drawn"] = [c if y == observer else m(c) for y, c in enumerate(d["drawn"])]
        if reseed:
            d["seed"] = f"other-{rng.getrandbits(32)}"
        return self.game.from_dict(d)

    def twin_move(
        self, twin: BaseState, seat: Seat, move: Any, observer: Observer, rng: random.Random
    ) -> Any:
        """Another seat's put-out is face down: in the twin it puts out any card of its hand."""
        if move["type"] != "put_out" or observer == seat:
            return move
        return {"type": "put_out", "card": rng.choice(twin.to_dict()["hands"][seat])}

    def check_end(self, state: BaseState, options: dict[str, Any]) -> None:
        """One point per showdown won (house scoring): the scores sum the deals' points."""
        d = state.to_dict()
        assert len(d["deal_results"]) == options["hands"]
        assert d["scores"] == [
            sum(r["points"][s] for r in d["deal_results"]) for s in range(state.num_seats)
        ]


# ---------------------------------------------------------------------------
# Pinochle
# ---------------------------------------------------------------------------

PINOCHLE_DISTINCT = PINOCHLE.cards()[::2]  # the 24 distinct cards
PINOCHLE_BIDS = [190, 195, 200, 205, 210, 250, 300, 1500, 1510]
# Where a card string may appear in a Pinochle view besides the seat's own hand and moves.
PINOCHLE_PUBLIC_VIEW = {"turn_up", "exchange", "melds", "exposed", "current_trick", "tricks"}
PINOCHLE_CARD_EVENTS = {"deal", "hand", "exchange", "melds", "play", "trick"}


def pinochle_public_holdings(view_state: dict[str, Any], players: int) -> Pins:
    """What the table knows each seat holds, from docs/rules/pinochle.md's information rules.

    Before melds: the dealer holds the turned card. Once shown: each seat's
    melds (a card may serve once per class, so the most of each card any one
    class uses), the exchange (the taker holds the turned card and one dix
    fewer than shown; the dealer the received dix besides its own), or the
    turned card still with the dealer. Every card played since is one fewer.
    """
    known = [Counter[str]() for _ in range(players)]
    dealer, turn_up = view_state["dealer"], view_state["turn_up"]
    exchange = view_state["exchange"]
    if view_state["melds"] is None:
        if turn_up is not None:
            known[dealer][turn_up] += 1
        return known
    for seat, melds in enumerate(view_state["melds"]):
        classes: dict[str, Counter[str]] = {}
        for meld in melds:
            classes.setdefault(meld["class"], Counter()).update(meld["cards"])
        for counts in classes.values():
            known[seat] |= counts
    if exchange is not None:
        taker = exchange["seat"]
        known[taker][exchange["gave"]] -= 1
        known[taker][exchange["took"]] = max(known[taker][exchange["took"]], 1)
        known[dealer][exchange["gave"]] += 1
    elif turn_up is not None:
        known[dealer][turn_up] = max(known[dealer][turn_up], 1)
    plays = [p for t in view_state["tricks"] for p in t["cards"]] + view_state["current_trick"]
    for p in plays:
        if known[p["seat"]][p["card"]] > 0:
            known[p["seat"]][p["card"]] -= 1
    return [+k for k in known]


class Pinochle(Table):
    game_id = "pinochle"
    pack = PINOCHLE
    configs = [
        {"variant": "partnership"},
        {"variant": "partnership", "head_rule": "strict", "count": "simple"},
        {"variant": "partnership", "head_rule": "trump-only"},
        {"variant": "firehouse", "head_rule": "trump-only"},
        {"variant": "check"},
        {"variant": "check", "check_table": "bicycle", "head_rule": "strict"},
        {"variant": "double-deck", "players": 6},
        {"variant": "double-deck", "players": 8, "head_rule": "trump-only"},
    ]
    examples = 2
    sweep_every = 0.5
    twin_every = 0.25
    reveals = frozenset({"melds"})
    probes_cover = False  # the auction lists every bid; the probes try a few

    def options(self, config: dict[str, Any], rng: random.Random) -> dict[str, Any]:
        return {**config, "target": rng.choice([150, 300, 600]), "max_deals": 2}

    def probes(self, state: BaseState) -> list[Any]:
        return [
            *({"type": "play", "card": c} for c in PINOCHLE_DISTINCT),
            {"type": "pass"},
            {"type": "keep"},
            {"type": "exchange_dix"},
            *({"type": "trump", "suit": s} for s in "SHDC"),
            *({"type": "bid", "amount": a} for a in PINOCHLE_BIDS),
        ]

    malformed = [*MALFORMED, {"type": "play", "card": "2S"}, {"type": "meld"}]

    def choose(self, state: BaseState, seat: Seat, rng: random.Random) -> Any:
        """A random legal move, bidding low: uniform over 130 bids sets nearly every
        contract, and a game to the target would then never end."""
        moves = state.legal_moves(seat)
        if state.phase == "auction":
            passes = [m for m in moves if m["type"] == "pass"]
            bids = [m for m in moves if m["type"] == "bid"][:3]
            if passes and (not bids or rng.random() < 0.6):
                return passes[0]
            return rng.choice(bids)
        return rng.choice(moves)

    def wants_twins(self, state: BaseState, rng: random.Random) -> bool:
        """Every state of the auction and the exchange (few, and where the dix hides)."""
        return state.phase != "play" or super().wants_twins(state, rng)

    def known(self, state: BaseState) -> Pins:
        return pinochle_public_holdings(state.view(None)["state"], state.num_seats)

    def shown_by(self, state: BaseState, seat: Seat, move: Any, events: list[Event]) -> Pins:
        """The card played, or the dix given for the turned card."""
        pins = self.known(state)
        shown = {"play": move.get("card"), "exchange_dix": f"9{state.trump}"}.get(move["type"])
        if shown is not None:
            pins[seat][shown] = max(pins[seat][shown], 1)
        return pins

    def redeal(
        self, state: BaseState, observer: Observer, rng: random.Random, pins: Pins, reseed: bool
    ) -> BaseState:
        """Hands re-dealt with the public holdings in place; dix counts follow until shown."""
        d = state.to_dict()
        pack = DOUBLE_PINOCHLE if d["options"]["variant"] == "double-deck" else PINOCHLE
        redeal_hands(d, state.num_seats, observer, rng, pins, pack)
        if d["melds"] is None and d["trump"] is not None:  # dix counts are secret until shown
            d["dixes"] = [h.count("9" + d["trump"]) for h in d["hands"]]
        if reseed:
            d["seed"] = f"other-{rng.getrandbits(32)}"
        return self.game.from_dict(d)

    def view_leaks(self, state: BaseState, observer: Observer) -> list[Any]:
        """Structural, as identical cards make a plain scan useless (``observer`` may hold
        the twin of a hidden card): a card appears only in the seat's own hand and
        moves, or where the rules make it public; ``exposed`` is what the table knows."""
        leaks: list[Any] = []
        view = jsonish(state.view(observer))
        public = self.known(state)
        if [Counter(e) for e in view["state"]["exposed"]] != public:
            leaks.append(("exposed", view["state"]["exposed"], public))
        own = Counter(state.hands[observer]) if observer is not None else Counter()
        public = {("state", key) for key in PINOCHLE_PUBLIC_VIEW}
        for path, card in card_paths(view, PINOCHLE.is_card, public.__contains__):
            if path[:1] not in (("hand",), ("legal_moves",)) or observer is None or not own[card]:
                leaks.append((path, card))
        return leaks

    def event_leaks(
        self,
        before: BaseState,
        move: Any,
        events: list[Event],
        after: BaseState,
        observer: Observer,
    ) -> list[Any]:
        """A hand goes to its seat alone; only card events carry cards; a deal its turn-up."""
        leaks: list[Any] = []
        for event in events:
            if not visible(event, observer):
                continue
            cards = list(card_paths(event.data, PINOCHLE.is_card))
            if event.kind == "hand":
                if not (event.data["seat"] == observer and event.visible_to == {observer}):
                    leaks.append(event.to_dict())
            elif cards and event.kind not in PINOCHLE_CARD_EVENTS:
                leaks.append(event.to_dict())
            if event.kind == "deal" and [p for p, _ in cards] not in ([], [("turn_up",)]):
                leaks.append(event.to_dict())
        return leaks

    def check_step(self, step: Step) -> None:
        """Proofs are true; 250 counters per pack per deal, the last trick included."""
        before, _seat, _move, events, _after = step
        packs = 2 if before.options.variant == "double-deck" else 1
        for seat in range(before.num_seats):  # the state itself, not a to_dict copy of it
            assert Counter(before.exposed[seat]) <= Counter(before.hands[seat])
        for event in events:
            if event.kind == "deal_end":
                assert sum(event.data["counters"]) == 250 * packs
                assert sum(event.data["tricks"]) == before.tricks_per_deal

    def check_end(self, state: BaseState, options: dict[str, Any]) -> None:
        """The scores are the sum of the deals' points; no more deals than the cap."""
        d = state.to_dict()
        for side in (0, 1):
            assert d["scores"][side] == sum(r["points"][side] for r in d["deal_results"])
        assert state.deal_number <= options["max_deals"]


TABLES: dict[str, Table] = {t.game_id: t for t in (Concerto(), Seconds(), Cowpoke(), Pinochle())}
CASES = [(t, config) for t in TABLES.values() for config in t.configs]


def case_id(case: tuple[Table, dict[str, Any]]) -> str:
    table, config = case
    return "-".join([table.game_id, *(str(v) for v in config.values())])


# ---------------------------------------------------------------------------
# Random games
# ---------------------------------------------------------------------------


def playout(table: Table, options: dict[str, Any], seed: int) -> Iterator[Step]:
    """A random game: (a clone of the state before, seat, move, events, the live state)."""
    rng = random.Random(seed)
    state = table.game.new_state(options, f"conformance-{seed}")
    for _ in range(MAX_MOVES):
        if state.is_over():
            return
        seat = rng.choice(state.to_move())
        move = table.choose(state, seat, rng)
        before = state.clone()
        events = state.apply(seat, move)
        yield before, seat, move, events, state
    raise AssertionError("the game did not end")


# ---------------------------------------------------------------------------
# The contract
# ---------------------------------------------------------------------------


def check_events_audience(events: list[Event], seats: int) -> None:
    """Each audience is a set of real seats; a seat's own cards are shown to it alone."""
    for event in events:
        if event.visible_to is not None:
            assert event.visible_to and event.visible_to <= set(range(seats)), event
        if event.kind in ("hand", "draw"):
            assert event.visible_to == {event.data["seat"]}, event
        assert jsonish(event.to_dict()) == event.to_dict()
        assert Event.from_dict(jsonish(event.to_dict())) == event


def check_contract(table: Table, state: BaseState, rng: random.Random, sweep: bool) -> None:
    """The engine contract at one state; ``sweep`` tries every probe (the slow part)."""
    snapshot = state.to_dict()
    again = table.game.from_dict(jsonish(snapshot))
    assert again == state and again.to_dict() == snapshot
    to_move = state.to_move()
    outcome = state.outcome()
    assert (outcome is None) == bool(to_move) == (not state.is_over())
    assert len(set(to_move)) == len(to_move) and set(to_move) <= set(range(state.num_seats))
    for seat in observers(state):
        legal = state.legal_moves(seat)
        assert bool(legal) == (seat in to_move)
        view = state.view(seat)
        assert view["to_move"] == to_move and view["legal_moves"] == legal
        assert view["result"] == (None if outcome is None else outcome.to_dict())
        assert ("hand" in view) == (seat is not None)
        if seat is not None:
            assert view["hand"] == snapshot["hands"][seat]
        assert not sweep or jsonish(view) == view, "a view is not plain JSON"
    probes = [*table.probes(state), *table.malformed]
    if outcome is not None:
        assert len(outcome.scores) == state.num_seats
        assert set(outcome.winners) <= set(range(state.num_seats))
        for seat in observers(state):
            for move in probes[:: 1 if sweep else 9]:
                assert attempt(state, seat, move)[0] == "GameOver"
        assert state.to_dict() == snapshot
        return
    for seat in to_move:
        legal = state.legal_moves(seat)
        keys = [json.dumps(m, sort_keys=True) for m in legal]
        assert len(set(keys)) == len(keys), "a legal move listed twice"
        if table.probes_cover:
            assert all(m in probes for m in legal), "a legal move the probes miss"
        if not sweep:
            sample = [legal[0], rng.choice(legal)]
        elif len(legal) <= 8:
            sample = legal
        else:
            sample = [*legal[:3], *legal[-2:], *rng.sample(legal, 3)]
        for move in sample:
            clone = state.clone()
            assert clone.to_dict() == snapshot
            clone.apply(seat, move)
            assert clone.to_dict() != snapshot == state.to_dict(), "the clone shares state"
        if sweep:
            check_refusals(table, state, seat, snapshot)
    # A seat not to move gets one refusal, whatever it tries and whatever it holds.
    refusals = {
        seat: {attempt(state, seat, move)[:2] for move in probes[:: 1 if sweep else 9]}
        for seat in observers(state)
        if seat not in to_move
    }
    assert all(len(answers) == 1 for answers in refusals.values()), refusals
    assert all(kind == "NotYourTurn" for answers in refusals.values() for kind, _ in answers)
    assert len({answers.pop() for seat, answers in refusals.items() if seat is not None}) <= 1
    assert state.to_dict() == snapshot


def check_refusals(table: Table, state: BaseState, seat: Seat, snapshot: dict[str, Any]) -> None:
    """Every probe not listed is refused, typed, and changes nothing."""
    legal = state.legal_moves(seat)
    for move in [*table.probes(state), *table.malformed]:
        if move in legal:
            continue
        try:
            state.apply(seat, move)
        except IllegalMove as err:
            assert move not in table.malformed, f"{move!r} is no move, yet IllegalMove"
            assert err.legal_moves == legal
        except MalformedMove:
            assert move in table.malformed, f"{move!r} is a move of the game, yet MalformedMove"
        else:  # pragma: no cover - the failure being tested for
            raise AssertionError(f"{move} accepted for seat {seat} but not legal")
        assert state.to_dict() == snapshot, f"refusing {move} changed the state"


# ---------------------------------------------------------------------------
# Hidden information
# ---------------------------------------------------------------------------


def seen_until_reveal(
    table: Table, events: list[Event], observer: Observer
) -> tuple[list[Any], bool]:
    """The events the observer sees, up to one that turns cards up by rule.

    A new deal is dealt alike in both (same seed): after one, keep comparing.
    """
    out: list[Any] = []
    new_deal = False
    for event in events:
        new_deal |= event.kind == "deal"
        if event.kind in table.reveals and not new_deal:
            return out, True
        if visible(event, observer):
            out.append(event.to_dict())
    return out, False


def check_move_seen_alike(
    table: Table, step: Step, observer: Observer, rng: random.Random, pins: Pins
) -> bool:
    """A move in a twin of ``observer``'s: the same events and view after, up to a reveal.

    The move itself may tell the table something (a card not followed shows
    a void), so only twins in which it is legal count: a few are drawn.
    Returns whether such a twin was found.
    """
    before, seat, move, events, after = step
    for _ in range(30):
        twin = table.redeal(before, observer, rng, pins, reseed=False)
        twin_move = table.twin_move(twin, seat, move, observer, rng)
        if twin_move in twin.legal_moves(seat):
            break
    else:
        return False
    theirs = twin.apply(seat, twin_move)
    mine, revealed = seen_until_reveal(table, events, observer)
    assert mine == seen_until_reveal(table, theirs, observer)[0], (observer, seat, move)
    if not revealed:
        assert after.view(observer) == twin.view(observer), (observer, seat, move)
    return True


def check_indistinguishable(table: Table, state: BaseState, rng: random.Random) -> bool:
    """Each observer's view, legal moves and every probe's answer survive a re-deal.

    Each move the observer may make then looks the same from its seat in a
    twin (:func:`check_move_seen_alike`). Returns whether any re-deal changed
    the state (so the check is not vacuous).
    """
    changed = False
    pins = table.known(state)
    probes = [*table.probes(state), *table.malformed]
    for observer in observers(state):
        twin = table.redeal(state, observer, rng, pins, reseed=True)
        changed |= twin.to_dict() != state.to_dict()
        assert twin.view(observer) == state.view(observer), observer
        assert twin.legal_moves(observer) == state.legal_moves(observer), observer
        legal = state.legal_moves(observer)
        for move in probes:
            mine, theirs = (
                attempt(state, observer, move, legal),
                attempt(twin, observer, move, legal),
            )
            assert mine[0] == theirs[0], (observer, move)
            if mine[0] != "accepted":
                assert mine == theirs, (observer, move)
            else:
                assert observer is not None
                step = (state, observer, move, mine[1], mine[2])
                shown = table.shown_by(state, observer, move, mine[1])
                assert check_move_seen_alike(table, step, observer, rng, shown)
    return changed


def check_next_move(table: Table, step: Step, rng: random.Random) -> None:
    """The move just made, in a twin of every observer's (the mover's too): seen alike."""
    before, seat, move, events, _after = step
    pins = table.shown_by(before, seat, move, events)
    for observer in observers(before):
        check_move_seen_alike(table, step, observer, rng, pins)


def check_no_leaks(table: Table, step: Step) -> None:
    """No view or visible event names a card its observer may not know."""
    before, _seat, move, events, after = step
    for observer in observers(after):
        assert not table.view_leaks(after, observer), (observer, table.view_leaks(after, observer))
        leaks = table.event_leaks(before, move, events, after, observer)
        assert not leaks, (observer, leaks)

"""Hidden information: nothing a seat receives may depend on cards it cannot see.

Straight from OpenSpiel's definition of an information state (STYLE.md I):
for a state and a seat *s*, re-deal the cards *s* cannot see (the other seats'
unplayed cards, shuffled among those seats keeping each seat's count, and the
secret seed), keep everything public, and check that *s* cannot tell the two
states apart: the same view, the same legal moves, the same error for every
move it might try, and the same events (filtered for *s*) when the same next
move is applied to both. A brute scan then checks that no view and no event
*s* may see contains a card string another seat still holds unplayed, except
where the rules make it public.

The tests are parametrised by :class:`GameUnderTest`; adding a game means
writing its adapter (how to re-deal, what a move reveals, where old cards
legitimately reappear) and appending it to ``GAMES``.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.games import concerto
from server.games.kit.base import BaseState, Event, GameError, visible
from server.games.kit.cards import sort_hand

from .helpers import PACK, SIDE_SEATS

Seat = int
Observer = Seat | None
Path = tuple[Any, ...]
Pins = Mapping[Seat, set[str]]


@dataclass(frozen=True)
class GameUnderTest:
    """What the hidden-information tests need to know about one game."""

    name: str
    seats: int
    random_state: Callable[[random.Random], BaseState]
    """A new game with random options and seed."""
    redeal: Callable[[BaseState, Observer, random.Random, Pins, bool], BaseState]
    """``redeal(state, observer, rng, pins, reseed)``: a state the observer cannot tell
    apart: others' unseen cards shuffled among them (counts kept, ``pins`` kept in
    place) and, when ``reseed``, a different secret seed."""
    revealed_by: Callable[[BaseState, Seat, Any, list[Event]], dict[Seat, set[str]]]
    """Cards that applying ``move`` makes public, per holder: pinned when re-dealing."""
    hidden_from: Callable[[BaseState, Observer], set[str]]
    """Card strings held by others that the observer may not see now."""
    public_path: Callable[[BaseState], Callable[[Path], bool]]
    """Where in a view an old (public) card string may legitimately reappear."""
    event_leaks: Callable[[BaseState, Any, list[Event], BaseState, Observer], list[str]]
    """Hidden cards named in the events the observer may see."""
    probe_moves: Sequence[Any]
    """Moves every seat tries, to compare error messages."""


# ---------------------------------------------------------------------------
# Generic machinery
# ---------------------------------------------------------------------------


def card_strings(obj: Any, path: Path = ()) -> Iterator[tuple[Path, str]]:
    """Every string in a JSON-like value that is a card, with its path."""
    if isinstance(obj, str):
        if obj in PACK:
            yield path, obj
    elif isinstance(obj, Mapping):
        for key, value in obj.items():
            yield from card_strings(value, (*path, key))
    elif isinstance(obj, list | tuple):
        for i, value in enumerate(obj):
            yield from card_strings(value, (*path, i))


def seen(events: list[Event], observer: Observer) -> list[dict[str, Any]]:
    """The events the observer may see, as JSON would carry them."""
    return json.loads(json.dumps([e.to_dict() for e in events if visible(e, observer)]))


def attempt(state: BaseState, seat: Observer, move: Any) -> tuple[Any, ...]:
    """What ``seat`` learns by trying ``move`` on a copy: accepted, or the error it gets."""
    try:
        state.clone().apply(seat, move)
    except GameError as e:
        return type(e).__name__, str(e), getattr(e, "legal_moves", None)
    return ("accepted",)


def observers(game: GameUnderTest) -> list[Observer]:
    return [*range(game.seats), None]


def random_walk(
    game: GameUnderTest, rng: random.Random
) -> Iterator[tuple[BaseState, Seat, Any, list[Event], BaseState]]:
    """A random game, move by move: (state before, seat, move, events, state after).

    The state before is a clone, so checks may use it freely.
    """
    state = game.random_state(rng)
    for _ in range(20_000):
        if state.outcome() is not None:
            return
        (seat,) = state.to_move()
        move = rng.choice(state.legal_moves(seat))
        before = state.clone()
        events = state.apply(seat, move)
        yield before, seat, move, events, state
    raise AssertionError("game did not end")


def check_indistinguishable(game: GameUnderTest, state: BaseState, rng: random.Random) -> bool:
    """view, legal_moves and every probe's answer agree after re-dealing the unseen.

    Returns whether any re-deal actually changed the state (so the test is
    not vacuous).
    """
    changed = False
    for observer in observers(game):
        other = game.redeal(state, observer, rng, {}, True)
        changed |= other.to_dict() != state.to_dict()
        assert other.view(observer) == state.view(observer), observer
        assert other.legal_moves(observer) == state.legal_moves(observer), observer
        for move in game.probe_moves:
            assert attempt(other, observer, move) == attempt(state, observer, move), (
                observer,
                move,
            )
    return changed


def check_next_move(
    game: GameUnderTest, state: BaseState, seat: Seat, move: Any, rng: random.Random
) -> None:
    """The same next move on a re-dealt state gives every observer the same events and view."""
    after = state.clone()
    events = after.apply(seat, move)
    pins = game.revealed_by(state, seat, move, events)
    for observer in observers(game):
        other = game.redeal(state, observer, rng, pins, False).clone()
        assert seen(other.apply(seat, move), observer) == seen(events, observer), observer
        assert other.view(observer) == after.view(observer), observer


def check_no_leaks(
    game: GameUnderTest, before: BaseState, move: Any, events: list[Event], after: BaseState
) -> None:
    """No view or event an observer may see names a card another seat still hides."""
    public = game.public_path(after)
    for observer in observers(game):
        hidden = game.hidden_from(after, observer)
        view = json.loads(json.dumps(after.view(observer)))
        leaks = [
            (path, card) for path, card in card_strings(view) if card in hidden and not public(path)
        ]
        assert not leaks, (observer, leaks)
        assert not game.event_leaks(before, move, events, after, observer), observer


# ---------------------------------------------------------------------------
# Concerto's adapter
# ---------------------------------------------------------------------------


def concerto_random_state(rng: random.Random) -> BaseState:
    options: dict[str, Any] = {
        "rules": rng.choice(["parlett-2013", "penguin"]),
        "first_dealer": rng.choice([None, 0, 1, 2, 3]),
        "deals": rng.randint(1, 4),
        "target": rng.choice([1, 40, 100]),
    }
    if rng.random() < 0.3:
        options["match_target"] = rng.randint(10, 200)
    return concerto.new_state(options, f"seed-{rng.getrandbits(32)}")


def concerto_redeal(
    state: BaseState, observer: Observer, rng: random.Random, pins: Pins, reseed: bool
) -> BaseState:
    d = json.loads(json.dumps(state.to_dict()))
    others = [s for s in range(4) if s != observer]
    kept = {s: [c for c in d["hands"][s] if c in pins.get(s, set())] for s in others}
    pool = [c for s in others for c in d["hands"][s] if c not in pins.get(s, set())]
    rng.shuffle(pool)
    for s in others:
        n = len(d["hands"][s]) - len(kept[s])
        d["hands"][s] = sort_hand(kept[s] + pool[:n])
        pool = pool[n:]
    if reseed:
        d["seed"] = f"other-{rng.getrandbits(32)}"
    return concerto.State.from_dict(d)


def revealed_sides(rules: str, result: Mapping[str, Any]) -> set[str]:
    """Whose left-overs a deal's end makes public, from RULES.md §1 (not from the engine).

    The losers reveal; on a tie in hand score the dealing side (parlett-2013)
    or both sides (penguin, C17).
    """
    points = result["hand_points"]
    if points["NS"] != points["EW"]:
        return {"EW" if points["NS"] > points["EW"] else "NS"}
    if rules == "penguin":
        return {"NS", "EW"}
    return {"NS" if result["dealer"] % 2 == 0 else "EW"}


def concerto_revealed_by(
    state: BaseState, seat: Seat, move: Any, events: list[Event]
) -> dict[Seat, set[str]]:
    """The card played; the left-overs a deal's end reveals (C14–C17); all hands at game end."""
    hands = state.to_dict()["hands"]
    rules = state.view(None)["state"]["rules"]
    pins: dict[Seat, set[str]] = {s: set() for s in range(4)}
    if move["type"] == "play":
        pins[seat].add(move["card"])
    for event in events:
        if event.kind == "deal_end":
            for side in revealed_sides(rules, event.data):
                for s in SIDE_SEATS[side]:
                    pins[s] |= set(hands[s])
        elif event.kind == "game_end":
            for s in range(4):
                pins[s] |= set(hands[s])
    return pins


def concerto_hidden_from(state: BaseState, observer: Observer) -> set[str]:
    """Other seats' unplayed cards; none once the game is over (everything is revealed)."""
    if state.outcome() is not None:
        return set()
    hands = state.to_dict()["hands"]
    return {c for s in range(4) if s != observer for c in hands[s]}


def concerto_public_path(state: BaseState) -> Callable[[Path], bool]:
    """Old cards reappear in earlier deals' completed hands and revealed left-overs."""
    view = state.view(None)["state"]
    deal = view["deal_number"]

    def public(path: Path) -> bool:
        if path[:2] == ("state", "completed_hands"):
            return view["completed_hands"][path[2]]["deal"] != deal
        if path[:2] == ("state", "deal_results") and path[3] == "leftovers":
            return path[4] in revealed_sides(view["rules"], view["deal_results"][path[2]])
        return path[:2] == ("state", "final_hands")

    return public


def concerto_event_leaks(
    before: BaseState, move: Any, events: list[Event], after: BaseState, observer: Observer
) -> list[str]:
    """Events up to a new deal are checked against the old holdings, the rest against the new.

    A deal's end reveals left-overs and a game's end all hands (RULES.md §1
    Information), so those two places may name cards that were hidden.
    """
    old = before.to_dict()["hands"]
    old_hidden = {c for s in range(4) if s != observer for c in old[s]}
    if move["type"] == "play":
        old_hidden.discard(move["card"])
    new_hidden = concerto_hidden_from(after, observer)
    rules = before.view(None)["state"]["rules"]
    hidden, leaks = old_hidden, []
    for event in events:
        if event.kind == "deal":
            hidden = new_hidden
        if not visible(event, observer):
            continue
        for path, card in card_strings(event.to_dict()["data"]):
            revealed = (
                event.kind == "deal_end"
                and path[:1] == ("leftovers",)
                and path[1] in revealed_sides(rules, event.data)
            ) or (event.kind == "game_end" and path[:1] == ("hands",))
            if card in hidden and not revealed:
                leaks.append(f"{event.kind}{list(path)}: {card}")
    return leaks


CONCERTO = GameUnderTest(
    name="concerto",
    seats=4,
    random_state=concerto_random_state,
    redeal=concerto_redeal,
    revealed_by=concerto_revealed_by,
    hidden_from=concerto_hidden_from,
    public_path=concerto_public_path,
    event_leaks=concerto_event_leaks,
    probe_moves=[{"type": "play", "card": c} for c in PACK]
    + [{"type": "pass"}, {"type": "force"}, {"type": "play", "card": "XX"}, {"type": "jump"}],
)

GAMES = [CONCERTO]

HI_SETTINGS = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# ---------------------------------------------------------------------------
# The tests
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
@HI_SETTINGS
@given(walk_seed=st.integers(0, 2**32 - 1), every=st.integers(15, 60))
def test_unseen_cards_change_nothing_a_seat_sees(
    game: GameUnderTest, walk_seed: int, every: int
) -> None:
    """Re-dealing the unseen cards: same view, legal moves, errors, and next-move events."""
    rng = random.Random(walk_seed)
    changed = False
    for step, (before, seat, move, _events, _after) in enumerate(random_walk(game, rng)):
        if step % every == 0:
            changed |= check_indistinguishable(game, before, rng)
        check_next_move(game, before, seat, move, rng)
    assert changed, "no re-deal ever differed: the test would prove nothing"


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
@HI_SETTINGS
@given(walk_seed=st.integers(0, 2**32 - 1))
def test_no_view_or_event_names_a_hidden_card(game: GameUnderTest, walk_seed: int) -> None:
    """Brute scan of every view and every visible event along a random game."""
    for before, _seat, move, events, after in random_walk(game, random.Random(walk_seed)):
        check_no_leaks(game, before, move, events, after)


def test_the_scan_itself_catches_a_leak() -> None:
    """Guard the guard: a partner's hand in a view or in a public event must be flagged."""
    game = CONCERTO
    state = concerto.new_state({"first_dealer": 3}, "guard")
    hidden = game.hidden_from(state, 0)
    partner_hand = state.view(2)["hand"]
    assert set(partner_hand) <= hidden
    leaky = state.view(0)
    leaky["state"]["current_hand"] = [{"seat": 2, "card": partner_hand[0]}]
    public = game.public_path(state)
    assert [card for path, card in card_strings(leaky) if card in hidden and not public(path)]
    move = state.legal_moves(0)[0]
    after = state.clone()
    events = after.apply(0, move)
    assert not game.event_leaks(state, move, events, after, 0)
    shout = Event("hand", {"seat": 2, "cards": after.view(2)["hand"]}, None)
    assert game.event_leaks(state, move, [*events, shout], after, 0)

"""Random-play invariants and hidden information for Seconds and Cowpoke.

Invariants checked at every step of seeded random games (STYLE.md §I):
``to_dict``/``from_dict`` round trip (through JSON), clone equality and
independence, ``legal_moves`` non-empty exactly for the seats to move, the
set of moves ``apply`` accepts equal to ``legal_moves`` (every other
candidate raises and leaves the state unchanged), outcome iff nobody moves,
and games end.

Hidden information, after OpenSpiel's definition: for a seat ``x`` build a
twin state by re-dealing every card ``x`` cannot see (other hands except cards
publicly known to be there, the stack, put-outs not yet turned up, the dummy's
face-down cards) through a random permutation ``σ``. Then ``x``'s view, legal
moves, error messages for every candidate move, and the events ``x`` may see
after each move (``σ`` applied to another seat's put-out) must be identical in
both, up to the first event that turns cards up by rule. A brute scan checks
that no view or event for ``x`` names a card ``x`` cannot see.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.games import cowpoke, seconds
from server.games.kit.base import BaseState, Event, GameError, IllegalMove, NotYourTurn, visible
from server.games.kit.cards import sort_hand

PACK = [r + s for s in "SHDC" for r in "AKQJT98765432"]
CARD = re.compile(r'"([AKQJT2-9][SHDC])"')
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# ---------------------------------------------------------------------------
# Per-game knowledge the tests need: candidate moves and the unseen cards
# ---------------------------------------------------------------------------


def seconds_candidates(state: BaseState) -> list[dict[str, Any]]:
    return [{"type": "play", "card": c} for c in PACK]


def cowpoke_candidates(state: BaseState) -> list[dict[str, Any]]:
    moves: list[dict[str, Any]] = [{"type": "call"}, {"type": "pass"}]
    for kind in ("put_out", "take"):
        moves += [{"type": kind, "card": c} for c in PACK]
    return moves


def seconds_unseen(d: dict[str, Any], seat: int | None) -> list[str]:
    """Cards in other hands: Seconds has no other hidden place."""
    return [c for y, hand in enumerate(d["hands"]) if y != seat for c in hand]


def cowpoke_unseen(d: dict[str, Any], seat: int | None) -> list[str]:
    """Other hands (less the cards known from exchanges), hidden put-outs, stack, dummy."""
    players = d["options"]["players"]
    hidden_put_outs = d["phase"] == "put_out"
    unseen: list[str] = []
    if d["phase"] != "over":  # hands are shown at the final showdown
        for y in range(players):
            if y == seat:
                continue
            pool = list(d["hands"][y])
            if hidden_put_outs and d["put_outs"][y] is not None:
                pool.append(d["put_outs"][y])
            unseen += [c for c in pool if c not in d["exposed"][y]]
    unseen += d["stack"] + d["dummy_cards"]
    if hidden_put_outs and players == 2:
        unseen.append(d["put_outs"][2])
    return unseen


def remap(d: dict[str, Any], seat: int | None, sigma: dict[str, str]) -> dict[str, Any]:
    """``d`` with σ applied to every hidden place of every seat but ``seat``."""
    d = json.loads(json.dumps(d))
    m = lambda c: sigma.get(c, c)  # noqa: E731

    d["hands"] = [h if y == seat else sort_hand(map(m, h)) for y, h in enumerate(d["hands"])]
    if d["game"] == "cowpoke":
        d["stack"] = [m(c) for c in d["stack"]]
        d["dummy_cards"] = [m(c) for c in d["dummy_cards"]]
        d["put_outs"] = [c if o == seat or c is None else m(c) for o, c in enumerate(d["put_outs"])]
        d["drawn"] = [c if y == seat or c is None else m(c) for y, c in enumerate(d["drawn"])]
    return d


GAMES: dict[str, dict[str, Any]] = {
    "seconds": {
        "module": seconds,
        "candidates": seconds_candidates,
        "unseen": seconds_unseen,
        # Another seat's play turns its card up by rule; nothing else does.
        "reveals": {"play"},
        "own_reveals": set(),
        # Another seat's only move turns its card up at once: nothing to compare.
        "other_movers": False,
    },
    "cowpoke": {
        "module": cowpoke,
        "candidates": cowpoke_candidates,
        "unseen": cowpoke_unseen,
        # The reveal turns put-outs up; a new round brings a new private draw;
        # the showdown shows every hand.
        "reveals": {"reveal", "round", "showdown"},
        "own_reveals": {"reveal", "round", "showdown"},
        # Put-outs are simultaneous: another seat's face-down card must tell nothing.
        "other_movers": True,
    },
}


# ---------------------------------------------------------------------------
# Invariants
# ---------------------------------------------------------------------------


def outcome_of(state: BaseState, seat: int | None, move: Any) -> tuple[Any, ...]:
    """What applying ``move`` for ``seat`` on a clone does: events, or the error."""
    clone = state.clone()
    try:
        events = clone.apply(seat, move)
    except IllegalMove as err:
        return ("IllegalMove", str(err), err.legal_moves)
    except GameError as err:
        return (type(err).__name__, str(err))
    return ("ok", events, clone)


def check_invariants(state: BaseState, game: dict[str, Any]) -> None:
    module = game["module"]
    snapshot = state.to_dict()
    # Round trip through JSON, exactly.
    again = module.State.from_dict(json.loads(json.dumps(snapshot)))
    assert again == state and again.to_dict() == snapshot
    # Outcome iff nobody is to move; legal moves exactly for the seats to move.
    to_move = state.to_move()
    assert (state.outcome() is None) == bool(to_move)
    for seat in range(state.num_seats):
        assert bool(state.legal_moves(seat)) == (seat in to_move)
    assert state.legal_moves(None) == []
    for seat in (*range(state.num_seats), None):
        view = state.view(seat)
        assert view["to_move"] == to_move and view["legal_moves"] == state.legal_moves(seat)
    candidates = game["candidates"](state)
    for seat in to_move:
        legal = state.legal_moves(seat)
        assert all(m in candidates for m in legal)
        for move in candidates:
            if move in legal:
                # Clone independence: the clone equals, then diverges alone.
                clone = state.clone()
                assert clone == state
                clone.apply(seat, move)
                assert state.to_dict() == snapshot
            else:
                try:
                    state.apply(seat, move)
                except IllegalMove:
                    pass
                else:  # pragma: no cover - the failure being tested for
                    raise AssertionError(f"{move} accepted for seat {seat} but not legal")
        assert state.to_dict() == snapshot, "an illegal move changed the state"
    for seat in range(state.num_seats):
        if seat not in to_move:
            kind = outcome_of(state, seat, candidates[0])[0]
            assert kind in ("NotYourTurn", "GameOver")
    assert state.to_dict() == snapshot


def play(
    game_id: str,
    options: dict[str, Any],
    seed: int,
    on_state: Callable[[BaseState, random.Random], None],
    max_steps: int = 3000,
) -> BaseState:
    """Play a random game to the end, calling ``on_state`` before every move."""
    game = GAMES[game_id]
    rng = random.Random(seed)
    state = game["module"].new_state(options, f"prop-{seed}")
    for _ in range(max_steps):
        on_state(state, rng)
        if state.is_over():
            return state
        seat = rng.choice(state.to_move())
        state.apply(seat, rng.choice(state.legal_moves(seat)))
    raise AssertionError("the game did not end")


CONFIGS = [
    ("seconds", {}),
    ("seconds", {"winner": "highest", "first_dealer": 2}),
    ("cowpoke", {"players": 2, "hands": 2}),
    ("cowpoke", {"players": 3, "hands": 2, "suit_order": "SDCH"}),
    ("cowpoke", {"players": 4, "hands": 1}),
    ("cowpoke", {"players": 5, "hands": 1, "first_dealer": 4}),
]


@SETTINGS
@given(config=st.sampled_from(CONFIGS), seed=st.integers(0, 2**32))
def test_random_play_invariants(config: tuple[str, dict[str, Any]], seed: int) -> None:
    game_id, options = config
    game = GAMES[game_id]
    final = play(game_id, options, seed, lambda state, _: check_invariants(state, game))
    outcome = final.outcome()
    assert outcome is not None and final.to_move() == []
    assert len(outcome.scores) == final.num_seats


# ---------------------------------------------------------------------------
# Hidden information
# ---------------------------------------------------------------------------


def twin(state: BaseState, seat: int | None, rng: random.Random, game: dict[str, Any]):
    """The state re-dealt for ``seat`` through a random σ, and σ itself."""
    d = state.to_dict()
    unseen = game["unseen"](d, seat)
    shuffled = list(unseen)
    rng.shuffle(shuffled)
    sigma = dict(zip(unseen, shuffled, strict=True))
    return game["module"].State.from_dict(remap(d, seat, sigma)), sigma


def seen_events(events: list[Event], seat: int | None, reveals: set[str]) -> list[dict]:
    """The events ``seat`` may see, up to the first one that turns cards up by rule."""
    out = []
    for e in events:
        if e.kind in reveals:
            break
        if visible(e, seat):
            out.append(e.to_dict())
    return out


def scan(value: Any, forbidden: set[str]) -> set[str]:
    return set(CARD.findall(json.dumps(value))) & forbidden


def view_for_scan(state: BaseState, seat: int | None) -> dict[str, Any]:
    """The view, less earlier deals' records (their card strings repeat in a new deal)."""
    view = state.view(seat)
    deal = view["state"]["deal_number"]
    view["state"]["deal_results"] = [r for r in view["state"]["deal_results"] if r["deal"] == deal]
    return view


def check_hidden_information(state: BaseState, rng: random.Random, game: dict[str, Any]) -> None:
    candidates = game["candidates"](state)
    for seat in (*range(state.num_seats), None):
        other, sigma = twin(state, seat, rng, game)
        assert other.view(seat) == state.view(seat)
        assert other.legal_moves(seat) == state.legal_moves(seat)
        # Brute scan: nothing the seat may not see appears in its view.
        forbidden = set(game["unseen"](state.to_dict(), seat))
        assert not scan(view_for_scan(state, seat), forbidden)
        # Every move the seat could try: same acceptance, errors, events, view after.
        for move in candidates:
            a, b = outcome_of(state, seat, move), outcome_of(other, seat, move)
            assert a[0] == b[0], (seat, move)
            if a[0] != "ok":
                assert a == b
                continue
            reveals = game["own_reveals"]
            assert seen_events(a[1], seat, reveals) == seen_events(b[1], seat, reveals)
            if not any(e.kind in reveals for e in a[1]):
                assert a[2].view(seat) == b[2].view(seat)
        # Other seats' moves, σ-mapped in the twin: what the seat sees must not differ.
        for mover in state.to_move() if game["other_movers"] else []:
            if mover == seat:
                continue
            for move in state.legal_moves(mover):
                mapped = (
                    {**move, "card": sigma.get(move["card"], move["card"])}
                    if ("card" in move)
                    else move
                )
                a, b = outcome_of(state, mover, move), outcome_of(other, mover, mapped)
                assert a[0] == b[0] == "ok", (mover, move, a[:2], b[:2])
                reveals = game["reveals"]
                assert seen_events(a[1], seat, reveals) == seen_events(b[1], seat, reveals)
                if not any(e.kind in reveals for e in a[1]):
                    assert a[2].view(seat) == b[2].view(seat)


def check_events_leak(state: BaseState, events: list[Event], game: dict[str, Any]) -> None:
    """No event a seat may see names a card it still cannot see after the move."""
    d = state.to_dict()
    starts = [i for i, e in enumerate(events) if e.kind == "deal"]
    tail = events[starts[-1] :] if starts else events  # earlier deals' cards repeat
    for seat in (*range(state.num_seats), None):
        forbidden = set(game["unseen"](d, seat))
        seen = [e.to_dict() for e in tail if visible(e, seat)]
        assert not scan(seen, forbidden), (seat, [e.kind for e in tail])


@SETTINGS
@given(config=st.sampled_from(CONFIGS), seed=st.integers(0, 2**32))
def test_hidden_information(config: tuple[str, dict[str, Any]], seed: int) -> None:
    game_id, options = config
    game = GAMES[game_id]
    rng = random.Random(seed)
    module = game["module"]
    state = module.new_state(options, f"hidden-{seed}")
    check_events_leak(state, module.GAME.opening_events(state), game)
    # Twin checks on a sample of states (Seconds games are 364 moves long).
    chance = 0.1 if game_id == "seconds" else 0.4
    for _ in range(3000):
        if state.is_over():
            break
        if rng.random() < chance:
            check_hidden_information(state, rng, game)
        seat = rng.choice(state.to_move())
        events = state.apply(seat, rng.choice(state.legal_moves(seat)))
        check_events_leak(state, events, game)
    assert state.is_over()
    check_hidden_information(state, rng, game)


def test_spectators_and_non_movers_get_the_same_refusal() -> None:
    """NotYourTurn never depends on what the seat holds."""
    state = cowpoke.new_state({"players": 3}, "refusal")
    state.apply(1, {"type": "put_out", "card": state.hands[1][0]})
    for move in ({"type": "put_out", "card": "AS"}, {"type": "take", "card": "KD"}):
        for seat in (1, None):
            try:
                state.apply(seat, move)
            except NotYourTurn as err:
                assert str(err) in ("it is not your turn", "spectators cannot move")
            else:  # pragma: no cover
                raise AssertionError("accepted a move out of turn")

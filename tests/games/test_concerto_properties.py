"""Property tests over random seeded Concerto games, both editions.

Each example plays a whole game (or match) with seeded random legal moves and
checks invariants that hold whatever the cards: games end, every deal plays
20 cards per side and leaves 6, the scores are the sum of what deal_results
shows, persistence and clones are exact, and ``legal_moves`` is exactly the
set of moves ``apply`` accepts. Example counts are bounded to keep this file
to a few seconds.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.games import concerto
from server.games.kit.base import Event, IllegalMove, MalformedMove, NotYourTurn

from .helpers import PACK, SIDE_SEATS

SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
MAX_MOVES = 20_000  # far beyond any real game: hitting it means a game that never ends

OPTIONS = st.fixed_dictionaries(
    {
        "rules": st.sampled_from(["parlett-2013", "penguin"]),
        "first_dealer": st.none() | st.integers(0, 3),
        "deals": st.integers(1, 4),
        "target": st.sampled_from([1, 30, 100]),
    },
    optional={"match_target": st.integers(10, 250)},
)
SEEDS = st.text(min_size=1, max_size=8)
POLICY = st.integers(0, 2**32 - 1)

EVERY_MOVE: list[Any] = [{"type": "play", "card": c} for c in PACK] + [
    {"type": "pass"},
    {"type": "force"},
]
MALFORMED: list[Any] = [
    None,
    {"type": "play"},
    {"type": "play", "card": "1S"},
    {"type": "lead", "card": "AS"},
    {"type": "pass", "why": "x"},
]


def playout(
    state: concerto.State, rng: random.Random
) -> Iterator[tuple[int, dict[str, Any], list[Event]]]:
    """Play random legal moves on ``state`` to the end; yield (seat, move, events) per move."""
    for _ in range(MAX_MOVES):
        if state.outcome() is not None:
            return
        (seat,) = state.to_move()
        move = rng.choice(state.legal_moves(seat))
        events = state.apply(seat, move)
        yield seat, move, events
    raise AssertionError(f"no outcome after {MAX_MOVES} moves")


@SETTINGS
@given(options=OPTIONS, seed=SEEDS, policy=POLICY)
def test_games_end_and_the_books_balance(options: dict[str, Any], seed: str, policy: int) -> None:
    """Every game ends; 20 cards per side per deal, 6 left; scores add up."""
    state = concerto.new_state(options, seed)
    dealt: dict[int, list[str]] = {s: state.view(s)["hand"] for s in range(4)}
    played: Counter[int] = Counter()
    totals = [0, 0]  # the carried match totals, from finished games
    deals_seen = 1
    for _seat, _move, events in playout(state, random.Random(policy)):
        for event in events:
            if event.kind == "play":
                played[event.data["seat"] % 2] += 1
            elif event.kind == "deal_end":
                # A deal: each side plays 20 of its 26 cards (4 hands of 5) and keeps 6.
                assert played == {0: 20, 1: 20}
                result = event.data
                for side, six in result["leftovers"].items():
                    a, b = SIDE_SEATS[side]
                    assert len(six) == 6
                    assert set(six) <= set(dealt[a]) | set(dealt[b])
                # The deal's hand points are its completed hands' (a match's next
                # game starts a fresh completed_hands, so only check within a game).
                if result["game"] == state.game_number:
                    hands = [h for h in state.completed_hands if h["deal"] == result["deal"]]
                    for i, side in enumerate(("NS", "EW")):
                        by_side = [h["points"] for h in hands if h["side"][0] % 2 == i]
                        assert len(by_side) == 4
                        assert sum(by_side) == result["hand_points"][side]
                played.clear()
            elif event.kind == "game_end":
                final = event.data["hands"]
                for side, (a, b) in SIDE_SEATS.items():
                    assert len(final[a]) + len(final[b]) == 6, side
                for s in range(4):
                    assert set(final[s]) <= set(dealt[s])
                totals = [totals[i] + event.data["scores"][n] for i, n in enumerate(("NS", "EW"))]
            elif event.kind == "deal":
                deals_seen += 1
            elif event.kind == "hand":
                assert event.visible_to == frozenset({event.data["seat"]})
                dealt[event.data["seat"]] = list(event.data["cards"])
                if event.data["seat"] == 3:
                    all_cards = [c for s in range(4) for c in dealt[s]]
                    assert sorted(all_cards) == sorted(PACK)
                    assert all(len(dealt[s]) == 13 for s in range(4))
        view = state.view(None)["state"]
        # Each side's game score is the sum of its deal results (hands + bonuses).
        for side in ("NS", "EW"):
            assert view["game_scores"][side] == sum(
                r["hand_points"][side] + r["leftover_bonus"][side] + r["game_bonus"][side]
                for r in view["deal_results"]
            )
        # A deal's running hand points are the sum of its completed hands.
        current = [h for h in view["completed_hands"] if h["deal"] == view["deal_number"]]
        if state.outcome() is None:
            for i, side in enumerate(("NS", "EW")):
                assert view["deal_hand_points"][side] == sum(
                    h["points"] for h in current if h["side"][0] % 2 == i
                )
    outcome = state.outcome()
    assert outcome is not None and state.to_move() == []
    view = state.view(None)
    scores = view["scores"]
    assert list(outcome.scores) == scores and scores[0] == scores[2] and scores[1] == scores[3]
    if scores[0] == scores[1]:
        assert outcome.winners == ()
    else:
        assert outcome.winners == ((0, 2) if scores[0] > scores[1] else (1, 3))
    if "match_target" not in options:
        game = view["state"]["game_scores"]
        assert scores == [game["NS"], game["EW"], game["NS"], game["EW"]]
        assert len(view["state"]["deal_results"]) == deals_seen <= options["deals"]
    else:
        match = view["state"]["match_scores"]
        assert scores == [match["NS"], match["EW"], match["NS"], match["EW"]]
        assert max(scores) >= options["match_target"]


@SETTINGS
@given(options=OPTIONS, seed=SEEDS, policy=POLICY)
def test_round_trip_and_clone_at_every_step(
    options: dict[str, Any], seed: str, policy: int
) -> None:
    """``from_dict(to_dict(s)) == s`` through JSON; clones are equal and independent."""
    state = concerto.new_state(options, seed)
    rng = random.Random(policy)
    for _ in playout(state, rng):
        stored = json.loads(json.dumps(state.to_dict()))  # what Redis would hold
        restored = concerto.State.from_dict(stored)
        assert restored == state
        assert restored.to_dict() == state.to_dict() == stored
        assert restored.view(0) == state.view(0) and restored.view(None) == state.view(None)
        assert restored.legal_moves(restored.to_move()[0] if restored.to_move() else 0) == (
            state.legal_moves(state.to_move()[0] if state.to_move() else 0)
        )
        copy = state.clone()
        assert copy == state
        if copy.outcome() is None:
            before = state.to_dict()
            (seat,) = copy.to_move()
            copy.apply(seat, rng.choice(copy.legal_moves(seat)))
            assert state.to_dict() == before  # the clone moved on alone
            assert copy != state
            # ... and the original moving on leaves the clone alone too.
            copy_before = copy.to_dict()
            other = state.clone()
            other.apply(seat, other.legal_moves(seat)[0])
            assert copy.to_dict() == copy_before


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(options=OPTIONS, seed=SEEDS, policy=POLICY)
def test_legal_moves_are_exactly_what_apply_accepts(
    options: dict[str, Any], seed: str, policy: int
) -> None:
    """At every step: legal_moves(seat) is non-empty iff seat is to move, and apply
    accepts exactly those moves; everything else raises and changes nothing."""
    state = concerto.new_state(options, seed)
    rng = random.Random(policy)

    def check(state: concerto.State) -> None:
        to_move = state.to_move()
        assert (state.outcome() is None) == bool(to_move)
        for seat in range(4):
            assert bool(state.legal_moves(seat)) == (seat in to_move)
        assert state.legal_moves(None) == []
        if not to_move:
            return
        (seat,) = to_move
        legal = state.legal_moves(seat)
        assert len({json.dumps(m, sort_keys=True) for m in legal}) == len(legal)
        assert all(m in EVERY_MOVE for m in legal)
        before = state.to_dict()
        for move in EVERY_MOVE:
            if move in legal:
                state.clone().apply(seat, move)  # must not raise
            else:
                try:
                    state.apply(seat, move)
                except IllegalMove as e:
                    assert e.reason and e.legal_moves == legal
                else:  # pragma: no cover - the failure being tested for
                    raise AssertionError(f"{move} accepted but not in legal_moves")
        for move in MALFORMED:
            try:
                state.apply(seat, move)
            except MalformedMove:
                pass
            else:  # pragma: no cover
                raise AssertionError(f"{move!r} accepted")
        other = rng.choice([s for s in (0, 1, 2, 3, None) if s != seat])
        try:
            state.apply(other, rng.choice(EVERY_MOVE))
        except NotYourTurn:
            pass
        else:  # pragma: no cover
            raise AssertionError("a move out of turn was accepted")
        assert state.to_dict() == before

    check(state)
    for _ in playout(state, rng):
        check(state)

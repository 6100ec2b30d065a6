"""The search door (``moves`` and ``play``) is the same rules as the API's door.

Seconds, Cowpoke and Pinochle give bots that search compact moves and an
``apply`` without events. These tests play random games through both doors
side by side: at every step the compact moves, shown as dicts, must be exactly
``legal_moves`` (same moves, same order), and ``play`` must leave the state
exactly as ``apply`` does, so the two doors cannot drift apart.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from server.games import REGISTRY, seconds
from server.games.pinochle import state as pinochle_state
from tests.per_game import check_covers

DOOR_CASES: dict[str, list[dict[str, Any]]] = {
    "concerto": [{"rules": "parlett-2013"}, {"rules": "penguin"}],
    "seconds": [{}],
    "cowpoke": [{"players": 2}, {"players": 5}],
    "pinochle": [
        {},
        {"variant": "firehouse", "max_deals": 3},
        {"variant": "check", "max_deals": 3},
        {"variant": "double-deck", "players": 6, "max_deals": 2},
    ],
}
"""Each game's option sets played through both doors. Concerto's actions are checked
grouped by kind only (its ``apply_action`` is ``apply``: there is one door)."""
ONE_DOOR = {"concerto"}
CASES = [(g, o) for g, sets in DOOR_CASES.items() if g not in ONE_DOOR for o in sets]
QUIET_CASES = [(g, o) for g, sets in DOOR_CASES.items() if g not in ONE_DOOR for o in sets[:2]]
BY_KIND_CASES = [(g, o) for g, sets in DOOR_CASES.items() for o in sets]


def test_every_game_has_its_door_cases() -> None:
    check_covers(DOOR_CASES, "DOOR_CASES")


@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_both_doors_play_the_same_game(game_id: str, options: dict[str, Any]) -> None:
    as_dict = REGISTRY[game_id].move_of
    for seed in ("a", "b"):
        api = REGISTRY[game_id].new_state(options, seed)
        sim = api.clone()
        rng = random.Random(seed)
        steps = 0
        while not api.is_over():
            seat = rng.choice(api.to_move())
            compact = sim.legal_actions(seat)  # type: ignore[attr-defined]
            assert [as_dict(m) for m in compact] == api.legal_moves(seat), f"step {steps}"
            i = rng.randrange(len(compact))
            api.apply(seat, api.legal_moves(seat)[i])
            sim.apply_action(seat, compact[i])  # type: ignore[attr-defined]
            assert sim.to_dict() == api.to_dict(), f"step {steps}: the doors diverged"
            steps += 1
        assert sim.is_over() and sim.outcome() == api.outcome()
        assert steps > 0


@pytest.mark.parametrize(("game_id", "options"), QUIET_CASES)
def test_quiet_hooks_agree_with_the_list(game_id: str, options: dict[str, Any]) -> None:
    """``_is_legal`` says what ``legal_moves`` says, for legal and illegal moves alike, and
    ``_apply_quietly`` leaves the state as ``apply`` does (the kit's quiet ``apply`` uses both)."""
    api = REGISTRY[game_id].new_state(options, "quiet")
    quiet = api.clone()
    rng = random.Random(3)
    probes = [
        {"type": "play", "card": "AS"},
        {"type": "take", "card": "2C"},
        {"type": "pass"},
        {"type": "bid", "amount": 210},
        {"type": "keep"},
        {"type": "put_out", "card": "KD"},
    ]
    while not api.is_over():
        seat = rng.choice(api.to_move())
        legal = api.legal_moves(seat)
        for move in [*legal, *probes]:
            try:
                normal = api.normalize_move(move)
            except Exception:  # noqa: BLE001, S112 - a move of another game: not a probe here
                continue
            assert quiet._is_legal(seat, normal) == (normal in legal), move  # type: ignore[attr-defined]
        move = rng.choice(legal)
        api.apply(seat, move)
        quiet._apply_quietly(seat, quiet.normalize_move(move))  # type: ignore[attr-defined]
        assert quiet.to_dict() == api.to_dict()


def test_compact_moves_are_shared_tuples() -> None:
    """A search builds no move objects: the same tuple comes back for the same move."""
    state = seconds.new_state({}, "shared")
    seat = state.to_move()[0]
    assert state.legal_actions(seat)[0] is state.clone().legal_actions(seat)[0]
    p = pinochle_state.new_state({"variant": "firehouse"}, "shared")
    seat = p.to_move()[0]
    assert p.legal_actions(seat)[-1] is p.clone().legal_actions(seat)[-1]


@pytest.mark.parametrize(("game_id", "options"), BY_KIND_CASES)
def test_actions_by_kind_are_the_legal_moves_grouped_by_type(
    game_id: str, options: dict[str, Any]
) -> None:
    """``legal_actions_by_kind`` lists every legal move once, grouped by its ``type``: the
    types in the order they first appear in ``legal_moves``, each group in that order."""
    as_dict = REGISTRY[game_id].move_of
    kinds_seen: set[str] = set()
    for seed in ("a", "b"):
        state = REGISTRY[game_id].new_state(options, seed)
        rng = random.Random(seed)
        while not state.is_over():
            seat = rng.choice(state.to_move())
            expected: dict[str, list[dict[str, Any]]] = {}
            for move in state.legal_moves(seat):
                expected.setdefault(move["type"], []).append(move)
            groups = state.legal_actions_by_kind(seat)  # type: ignore[attr-defined]
            assert [[as_dict(a) for a in group] for group in groups] == list(expected.values())
            kinds_seen.update(expected)
            group = rng.choice(groups)  # a kind first, as the naive simulator's policy
            action = rng.choice(group)
            group.clear()  # the lists are the caller's: clearing one changes nothing
            state.apply_action(seat, action)  # type: ignore[attr-defined]
    if game_id != "seconds":  # Seconds has plays only; each other game more kinds
        assert len(kinds_seen) > 1

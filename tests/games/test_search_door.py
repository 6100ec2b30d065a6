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

from server.games import REGISTRY, cowpoke, pinochle, seconds
from server.games.pinochle import state as pinochle_state

AS_DICT = {
    "seconds": seconds.as_dict,
    "cowpoke": cowpoke.as_dict,
    "pinochle": pinochle_state.as_dict,
}

CASES = [
    ("seconds", {}),
    ("cowpoke", {"players": 2}),
    ("cowpoke", {"players": 5}),
    ("pinochle", {}),
    ("pinochle", {"variant": "firehouse", "max_deals": 3}),
    ("pinochle", {"variant": "check", "max_deals": 3}),
    ("pinochle", {"variant": "double-deck", "players": 6, "max_deals": 2}),
]


@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_both_doors_play_the_same_game(game_id: str, options: dict[str, Any]) -> None:
    as_dict = AS_DICT[game_id]
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


@pytest.mark.parametrize(("game_id", "options"), CASES[:5])
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
    assert state.moves(seat)[0] is state.clone().moves(seat)[0]
    p = pinochle.new_state({"variant": "firehouse"}, "shared")
    seat = p.to_move()[0]
    assert p.moves(seat)[-1] is p.clone().moves(seat)[-1]

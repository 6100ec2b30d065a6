"""Today's engines replay the golden traces exactly, move by move.

Each trace (``tests/games/golden``) is a game recorded once from the engines
by a seeded random policy. Replaying its moves must give, after every move,
the same view for every seat and the spectator, the same legal moves, the same
events and the same scores; the registry's records and the refusals of bad
options and preset deals must be unchanged too. This is the safety net for
rewriting an engine: a failure names the first step where a game diverged.
Re-record (``python -m tests.games.golden.record``) only after an intended
change of the rules.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from server.games import REGISTRY

from .golden.record import refusal, registry
from .golden.trace import STATIC, WIDTH, canonical, part_names, read_traces, snapshot

TRACES = list(read_traces())


def _label(trace: dict[str, Any]) -> str:
    return f"{trace['game']} {json.dumps(trace['options'])} seed={trace['seed']!r}"


def _first_divergence(trace: dict[str, Any]) -> str | None:
    """None if the engine replays ``trace`` exactly, else where and how it first differs."""
    game = REGISTRY[trace["game"]]
    state = game.new_state(trace["options"], trace["seed"], trace["deals"])
    names = part_names(state.num_seats)

    def compare(where: str, got: tuple[str, list[int]], want: list[Any]) -> str | None:
        digests, scores = got
        for i, name in enumerate(names):
            if digests[i * WIDTH : (i + 1) * WIDTH] != want[0][i * WIDTH : (i + 1) * WIDTH]:
                return f"{where}: the {name} differs"
        if len(digests) != len(want[0]):
            return f"{where}: {len(digests) // WIDTH} digests, recorded {len(want[0]) // WIDTH}"
        if scores != want[1]:
            return f"{where}: scores {scores}, recorded {want[1]}"
        return None

    problem = compare("at the start", snapshot(state, game.opening_events(state)), trace["start"])
    if problem:
        return problem
    for number, (seat, move, *want) in enumerate(trace["steps"], start=1):
        where = f"after move {number} (seat {seat} plays {move})"
        if state.is_over():
            return f"{where}: the game is already over"
        try:
            events = state.apply(seat, move)
        except Exception as error:  # noqa: BLE001 - any refusal is a divergence to report
            return f"{where}: refused with {type(error).__name__}: {error}"
        problem = compare(where, snapshot(state, events), want)
        if problem:
            return problem
    outcome = state.outcome()
    got = None if outcome is None else outcome.to_dict()
    if got != trace["outcome"]:
        return f"at the end: outcome {got}, recorded {trace['outcome']}"
    return None


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_traces_replay_exactly(game_id: str) -> None:
    traces = [t for t in TRACES if t["game"] == game_id]
    assert traces, f"no golden traces for {game_id}"
    failures = []
    for trace in traces:
        problem = _first_divergence(trace)
        if problem:
            failures.append(f"{_label(trace)} policy={trace['policy']}: {problem}")
    assert not failures, f"{len(failures)} of {len(traces)} traces diverge:\n" + "\n".join(
        failures[:10]
    )


def test_registry_records_are_unchanged() -> None:
    recorded = json.loads(STATIC.read_text())["registry"]
    assert json.loads(json.dumps(registry())) == recorded


def test_refusals_are_unchanged() -> None:
    """Bad options and presets are refused with the same error and every problem named."""
    for case in json.loads(STATIC.read_text())["rejections"]:
        got = json.loads(json.dumps(refusal(case["game"], case["options"], case["deals"])))
        assert got == case["refusal"], f"{case['game']} {case['options']}"


@pytest.mark.parametrize(
    "obj",
    [
        {"b": 1, "a": [1, 2, {"z": None, "y": True}], "c": "10♠ − AS"},
        {1: "int keys", 2: [0.1, 1e16, -0.0]},
        {"big": 2**70, "small": -(2**63), "float": 2.5e-7, "text": 'é\n"q"'},
    ],
)
def test_canonical_json_is_the_standard_library_s(obj: Any) -> None:
    """The digests hash exactly what ``json.dumps`` with sorted keys and no spaces writes
    (the traces were recorded so), whichever encoder wrote the bytes."""
    assert canonical(obj) == json.dumps(obj, sort_keys=True, separators=(",", ":")).encode()

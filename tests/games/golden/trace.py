"""Golden traces: what a game looked like after every move, as short digests.

A trace is one game played by a seeded random policy: the options, seed and
preset deals it was created with, then for every move the seat and move, a
digest string and the scores. The digest string is the concatenation of
fixed-width digests, in this order: the view of each seat, the spectator's
view, the legal moves of every seat to move, and the events the move caused
(the opening events for the start). A digest is the first
:data:`DIGEST_BYTES` bytes of the SHA-256 of the canonical JSON (sorted keys,
no spaces), so any change in what anyone may see, may do, or is told shows up.

:mod:`.record` writes the traces; ``tests/games/test_golden_traces.py``
replays them through the current engines.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import random
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import orjson

from server.games import REGISTRY, BaseState, Event

HERE = Path(__file__).parent
TRACES = HERE / "traces.jsonl.gz"
STATIC = HERE / "static.json"
DIGEST_BYTES = 6
WIDTH = 2 * DIGEST_BYTES  # hex characters per digest


def canonical(obj: Any) -> bytes:
    """``json.dumps(obj, sort_keys=True, separators=(",", ":"))``, encoded.

    orjson writes the same bytes for what the engines show (str keys, ints, ASCII
    text) several times faster, and views late in a game are tens of kilobytes: when
    its output is ASCII it is used, else (text json would escape, keys it refuses)
    the standard library writes it. Every recorded trace replaying to its digests
    shows the two agree on what the games produce.
    """
    try:
        fast = orjson.dumps(obj, option=orjson.OPT_SORT_KEYS)
    except TypeError:  # orjson.JSONEncodeError too: non-str keys, integers past 64 bits
        fast = b"\x80"
    if fast.isascii():
        return fast
    return json.dumps(obj, sort_keys=True, separators=(",", ":")).encode()


def digest(obj: Any) -> str:
    return hashlib.sha256(canonical(obj)).hexdigest()[:WIDTH]


def part_names(num_seats: int) -> list[str]:
    """What each digest of a step's digest string is of, in order."""
    seats = [f"view of seat {s}" for s in range(num_seats)]
    return [*seats, "spectator view", "legal moves of the seats to move", "events"]


def snapshot(state: BaseState, events: list[Event]) -> tuple[str, list[int]]:
    """The digest string of ``state`` just after ``events``, and the scores."""
    seats: list[int | None] = [*range(state.num_seats), None]
    views = [state.view(s) for s in seats]
    legal = [[s, state.legal_moves(s)] for s in state.to_move()]
    parts = [*map(digest, views), digest(legal), digest([e.to_dict() for e in events])]
    return "".join(parts), list(views[-1]["scores"])


def play(
    game_id: str, options: Mapping[str, Any], seed: str, deals: Any, policy: int
) -> dict[str, Any]:
    """Play one game with a policy uniform over the legal moves, recording every step."""
    game = REGISTRY[game_id]
    state = game.new_state(options, seed, deals)
    start = snapshot(state, game.opening_events(state))
    rng = random.Random(policy)
    steps = []
    while not state.is_over():
        seat = rng.choice(state.to_move())
        move = rng.choice(state.legal_moves(seat))
        events = state.apply(seat, move)
        steps.append([seat, move, *snapshot(state, events)])
    outcome = state.outcome()
    return {
        "game": game_id,
        "options": dict(options),
        "seed": seed,
        "deals": deals,
        "policy": policy,
        "start": list(start),
        "steps": steps,
        "outcome": None if outcome is None else outcome.to_dict(),
    }


def read_traces() -> Iterator[dict[str, Any]]:
    with gzip.open(TRACES, "rt", encoding="utf-8") as f:
        for line in f:
            yield json.loads(line)

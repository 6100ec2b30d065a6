"""Records built when asked for are the records built at once.

Cowpoke's showdown records and Pinochle's meld records are kept compact
during play and written out the first time a view, an event or ``to_dict``
asks. Clones share the compact forms, so these tests take clones at random
steps, read some of them (and the original) early, others only at the end, and
require every copy to end with exactly the state of a game played through the
API with its events, where each record is built as it happens.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from server.games import REGISTRY

CASES = [
    ("cowpoke", {"players": 3}),
    ("cowpoke", {"players": 2}),
    ("pinochle", {}),
    ("pinochle", {"variant": "check", "max_deals": 3}),
]


@pytest.mark.parametrize(("game_id", "options"), CASES)
@pytest.mark.parametrize("seed", ["lazy-1", "lazy-2"])
def test_records_built_late_match_those_built_at_once(
    game_id: str, options: dict[str, Any], seed: str
) -> None:
    new_state = REGISTRY[game_id].new_state
    eager = new_state(options, seed)  # apply with events: every record built as it happens
    quiet = new_state(options, seed)
    clones: list[Any] = [quiet.clone()]
    rng = random.Random(seed)
    showdowns = 0
    while to_move := eager.to_move():
        seat = to_move[0]
        moves = eager.legal_moves(seat)
        i = rng.randrange(len(moves))
        events = eager.apply(seat, moves[i])
        for event in events:
            if event.kind in ("showdown", "melds"):
                showdowns += 1
        action = quiet.legal_actions(seat)[i]  # type: ignore[attr-defined]
        for state in (quiet, *clones):
            state.apply_action(seat, action)
        if rng.random() < 0.05:
            clones.append(quiet.clone())
        if rng.random() < 0.05:
            rng.choice([quiet, *clones]).view(None)  # some records built now, in one copy
    assert showdowns > 1 and len(clones) > 1
    expected = eager.to_dict()
    assert quiet.to_dict() == expected
    for state in clones:
        assert state.to_dict() == expected
        assert state.view(None) == eager.view(None)

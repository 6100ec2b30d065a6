"""Each game's fixed action space lives on the engine (``Game.actions``), and each
state gives the ids of its legal actions directly (``legal_action_ids``): the ids never
move (trained policies and the observation tensor depend on them), and the fast ids of
every game and option set the suites judge are exactly the engine's legal actions,
numbered and sorted, in random games and in worlds drawn from them."""

from __future__ import annotations

import random
from typing import Any

import pytest

from server.games import REGISTRY, BaseState
from tests.per_game import check_covers
from tests.train.option_sets import OPTION_SETS, ids

GAMES_PER_SET = 2
"""Random games per option set (each step checks every seat)."""

_CARDS = [r + s for s in "CDHS" for r in "23456789TJQKA"]
_PINOCHLE_CARDS = [r + s for s in "CDHS" for r in "9JQKTA"]
IDS_AS_TRAINED: dict[str, list[Any]] = {
    "concerto": [*_CARDS, "pass", "force"],
    "seconds": [("play", c) for c in _CARDS],
    "cowpoke": [("call",), ("pass",)]
    + [("put_out", c) for c in _CARDS]
    + [("take", c) for c in _CARDS],
    "pinochle": [("pass",), *[("bid", a) for a in range(200, 1510, 10)]]
    + [("trump", s) for s in "CDHS"]
    + [("exchange_dix",), ("keep",)]
    + [("play", c) for c in _PINOCHLE_CARDS],
}
"""The action spaces as the SDK first published them, written out: the ids policies
were trained on."""


def test_the_action_ids_are_those_policies_were_trained_on():
    check_covers(IDS_AS_TRAINED, "IDS_AS_TRAINED (a new game: its Game.actions written out)")
    for game_id, game in REGISTRY.items():
        assert list(game.actions) == IDS_AS_TRAINED[game_id], game_id
        state_class = type(game.new_state({}, "ids"))
        assert dict(state_class.action_ids) == {a: i for i, a in enumerate(IDS_AS_TRAINED[game_id])}


def _check(state: BaseState, where: str) -> None:
    """Every seat's fast ids are its legal actions' ids, sorted, and decode to them."""
    actions, action_ids = type(state).actions, type(state).action_ids
    move_of = REGISTRY[state.game].move_of  # the game's own action -> move
    for seat in [None, *range(len(state.seat_scores()))]:
        legal = state.legal_actions(seat)
        fast = state.legal_action_ids(seat)
        assert fast == sorted(action_ids[a] for a in legal), (where, seat)
        assert [actions[i] for i in fast] == sorted(legal, key=action_ids.__getitem__)
        if seat in state.to_move():  # the API's moves (a seat not to move has none)
            assert {tuple(sorted(m.items())) for m in state.legal_moves(seat)} == {
                tuple(sorted(state.normalize_move(move_of(a)).items()))
                for a in (actions[i] for i in fast)
            }, (where, seat)


@pytest.mark.parametrize(("game_id", "options"), OPTION_SETS, ids=ids())
def test_fast_legal_ids_are_the_engines_legal_actions_sorted(game_id, options):
    game = REGISTRY[game_id]
    rng = random.Random(f"ids-{game_id}-{options}")
    for g in range(GAMES_PER_SET):
        state = game.new_state(options, f"ids-{g}")
        step = 0
        while not state.is_over():
            _check(state, f"game {g} step {step}")
            seat = state.to_move()[0]
            if step % 17 == 5:  # a world drawn for a search holds its hands too
                _check(state.determinize(seat, random.Random(step)), f"world at step {step}")
            legal = state.legal_actions(seat)
            state.apply_action(seat, legal[rng.randrange(len(legal))])
            step += 1
        _check(state, f"game {g} over")

"""Every registered game's wire (its Game record's ``wire``, server/games/kit/wire.py) says
what the game really sends and takes: the spec (openapi.yaml) is built from it.

For each game of the registry, with the option sets the third-party suites judge
(tests/train/option_sets.py: every edition, variant and table size), the move of every
action of its action space is one of its declared moves, each move type it declares is one
of them, and a few random games are played: every legal move at every turn validates
against its ``<Game>Move``, the seat to move's and a spectator's ``state`` (at turns
ever further apart; every seat's at the end) against its ``<Game>State``, and every event
against its kind's declared ``data`` (jsonschema, the draft OpenAPI 3.1 uses); every kind
it declares is emitted. Bounded: seconds a game.
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Iterable, Iterator
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from server.games import REGISTRY
from server.games.kit.wire import COMPONENTS, Wire
from tests.train.option_sets import OPTION_SETS

GAMES_PLAYED = 2
"""Random games per option set."""


def view_turns() -> Iterator[int]:
    """The turns at which the view of the seat to move and a spectator's are checked
    (every seat's at the end): the first few, then ever further apart (a late view is long
    to validate, and holds what the earlier ones did).

    >>> list(itertools.islice(view_turns(), 12))
    [0, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48]
    """
    yield from (0, 1)
    for power in itertools.count(1):
        yield from (2**power, 3 * 2 ** (power - 1))


class Checks:
    """Validators of one game's declared schemas, the named shapes resolved among the
    game's components (as in the spec)."""

    def __init__(self, game: str) -> None:
        wire: Wire = REGISTRY[game].wire
        self.wire = wire
        self.prefix = game.capitalize()
        self.document = {"components": {"schemas": wire.components(self.prefix)}}
        self.state = self.of({"$ref": f"{COMPONENTS}{self.prefix}State"})
        self.move = self.of({"$ref": f"{COMPONENTS}{self.prefix}Move"})
        self.events = {kind: self.of(data) for kind, data in wire.events.items()}
        self.moves_seen: set[str] = set()

    def of(self, schema: dict[str, Any]) -> Draft202012Validator:
        validator = Draft202012Validator({**self.document, **schema})
        validator.check_schema(validator.schema)
        return validator

    def check_move(self, move: Any, where: str) -> None:
        """``move`` is one of the game's declared moves (each distinct move checked once)."""
        key = json.dumps(move, sort_keys=True)
        if key not in self.moves_seen:
            assert move["type"] in self.wire.moves, f"{where}: undeclared move {move['type']}"
            _valid(self.move, move, where)
            self.moves_seen.add(key)

    def check_event(self, event: Any, where: str) -> str:
        assert event.kind in self.events, f"{where}: undeclared event kind {event.kind!r}"
        _valid(self.events[event.kind], event.data, f"{where}, a {event.kind} event")
        return str(event.kind)


def _valid(validator: Draft202012Validator, value: Any, where: str) -> None:
    error = next(iter(validator.iter_errors(value)), None)
    assert error is None, f"{where}: {error.message} at {list(error.absolute_path)}: {value}"


def check_wire(game: str, option_sets: Iterable[dict[str, Any]]) -> None:
    """Random games of ``game`` (:data:`GAMES_PLAYED` of each option set) hold to its wire."""
    record, checks = REGISTRY[game], Checks(game)
    action_moves = [record.move_of(action) for action in record.actions]
    for move in action_moves:
        checks.check_move(move, f"{game}'s action space")
    assert {m["type"] for m in action_moves} == set(checks.wire.moves), "declared moves"
    kinds: set[str] = set()
    for options in option_sets:
        for n in range(GAMES_PLAYED):
            rng = random.Random(f"{game}{options}{n}")
            state = record.new_state(options, f"wire-{n}")
            where = f"{game} {options} game {n}"
            kinds |= {checks.check_event(e, where) for e in state.opening_events()}
            turn, views = 0, view_turns()
            view_at = next(views)
            while not state.is_over():
                seat = rng.choice(state.to_move())
                if turn == view_at:
                    for who in (None, seat):
                        _valid(checks.state, state.state_view(who), f"{where} turn {turn}, {who}")
                    view_at = next(views)
                legal = state.legal_moves(seat)
                for move in legal:
                    checks.check_move(move, f"{where} turn {turn}")
                for event in state.apply(seat, rng.choice(legal)):
                    kinds.add(checks.check_event(event, f"{where} turn {turn}"))
                turn += 1
            for who in [None, *range(state.num_seats)]:
                _valid(checks.state, state.state_view(who), f"{where} at the end, {who}")
    assert kinds == set(checks.wire.events), f"{game}: declared kinds never emitted"


@pytest.mark.parametrize("game", list(REGISTRY))
def test_every_game_sends_and_takes_what_its_wire_declares(game: str) -> None:
    option_sets = [options for g, options in OPTION_SETS if g == game]
    assert option_sets, f"OPTION_SETS: no entry for {game} (add one)"
    check_wire(game, option_sets)


def test_a_wire_that_names_an_unknown_shape_or_a_wrong_move_is_refused() -> None:
    state = {"type": "object", "properties": {"lead": {"$ref": f"{COMPONENTS}Lead"}}}
    with pytest.raises(ValueError, match=r"state refers to Lead, not a shape"):
        Wire(state=state, moves={"play": "PlayMove"}, moves_description="", events={})
    with pytest.raises(ValueError, match=r"move 'bid': PlayMove is not a move of type 'bid'"):
        Wire(state={}, moves={"bid": "PlayMove"}, moves_description="", events={})
    with pytest.raises(ValueError, match=r"Card is a shape of the kit's"):
        Wire(state={}, moves={}, moves_description="", events={}, shapes={"Card": {}})

"""Every game in the registry, every option set that changes the deal or the seats.

The engine contract and hidden information along seeded random games (the
harness and each game's knowledge are in ``tests/games/conformance.py``),
then the few properties the rules state of one game only.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.games import REGISTRY
from server.games.kit.base import Event, NotYourTurn
from tests.per_game import check_covers

from .conformance import (
    CASES,
    TABLES,
    Table,
    case_id,
    check_contract,
    check_events_audience,
    check_indistinguishable,
    check_next_move,
    check_no_leaks,
    playout,
)


def over_seeds(examples: int, check: Callable[[int], None]) -> None:
    """Run ``check`` on ``examples`` seeds drawn by Hypothesis (shrunk on failure)."""
    run = settings(
        max_examples=examples,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow],
    )(given(seed=st.integers(0, 2**32 - 1))(check))
    run()


def test_every_registered_game_has_a_table_and_every_seat_count_is_played() -> None:
    check_covers(TABLES, "TABLES (tests/games/conformance.py: a Table for each game)")
    for game_id, table in TABLES.items():
        seats = {table.game.new_state(c, "seats").num_seats for c in table.configs}
        assert seats == set(REGISTRY[game_id].seats), game_id


# each game's variant and table-size options that list their choices (from the registry)
CHOICES = [
    (game_id, option)
    for game_id, game in REGISTRY.items()
    for option in (game.variant_option, game.seat_option)
    if option is not None and "choices" in game.options[option]
]


@pytest.mark.parametrize(("game_id", "option"), CHOICES)
def test_every_choice_that_changes_the_deal_is_a_case(game_id: str, option: str) -> None:
    choices = {c for c in REGISTRY[game_id].options[option]["choices"]}
    played = {
        table.game.new_state(c, "x").public_options()[option]
        for table, c in CASES
        if table.game_id == game_id
    }
    assert choices <= played


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_the_engine_contract_along_random_games(case: tuple[Table, dict[str, Any]]) -> None:
    table, config = case

    def check(seed: int) -> None:
        rng = random.Random(seed)
        options = table.options(config, rng)
        start = table.game.new_state(options, f"conformance-{seed}")
        check_events_audience(table.game.opening_events(start), start.num_seats)
        last, game_over = start, []
        for step in playout(table, options, seed):
            before, _seat, _move, events, last = step
            assert not before.is_over()
            check_contract(table, before, rng, sweep=rng.random() < table.sweep_every)
            check_events_audience(events, before.num_seats)
            table.check_step(step)
            game_over += [(e, last.is_over()) for e in events if e.kind == "game_over"]
        check_contract(table, last, rng, sweep=True)
        outcome = last.outcome()
        assert outcome is not None
        # The result comes once, with the move that ends the game.
        ((event, ended),) = game_over
        assert ended and outcome.to_dict().items() <= event.data.items()
        table.check_end(last, options)

    over_seeds(table.examples, check)


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_no_seat_learns_a_card_it_may_not_know(case: tuple[Table, dict[str, Any]]) -> None:
    table, config = case

    def check(seed: int) -> None:
        rng = random.Random(seed)
        options = table.options(config, rng)
        start = table.game.new_state(options, f"conformance-{seed}")
        opening = table.game.opening_events(start)
        for observer in (*range(start.num_seats), None):
            assert not table.event_leaks(start, None, opening, start, observer), observer
        changed, last = False, start
        for step in playout(table, options, seed):
            if table.wants_twins(step[0], rng):
                changed |= check_indistinguishable(table, step[0], rng)
            check_next_move(table, step, rng)
            check_no_leaks(table, step)
            last = step[4]
        check_indistinguishable(table, last, rng)
        assert changed, "no re-deal ever differed: the check would prove nothing"

    over_seeds(table.examples, check)


# ---------------------------------------------------------------------------
# Guards: the scans catch what they are for
# ---------------------------------------------------------------------------


def test_the_scan_catches_a_concerto_event_leak() -> None:
    """A partner's hand in a public event, or in one shown to the wrong seat, is flagged."""
    table = TABLES["concerto"]
    state = table.game.new_state({"first_dealer": 3}, "guard")
    assert not table.view_leaks(state, 0)
    move = state.legal_moves(0)[0]
    after = state.clone()
    events = after.apply(0, move)
    assert not table.event_leaks(state, move, events, after, 0)
    shout = Event("hand", {"seat": 2, "cards": after.view(2)["hand"]}, None)
    assert table.event_leaks(state, move, [*events, shout], after, 0)
    whisper = Event("hand", {"seat": 2, "cards": after.view(2)["hand"]}, frozenset({0}))
    assert table.event_leaks(state, move, [whisper], after, 0)
    assert not table.event_leaks(state, move, [whisper], after, 1)


def test_the_scan_catches_a_concerto_view_leak() -> None:
    """A partner's card in the view is flagged, except in the partner's own view."""
    table = TABLES["concerto"]
    state = table.game.new_state({"first_dealer": 3}, "guard")

    class Leaky(type(state)):  # type: ignore[misc]
        def view(self, seat):
            view = super().view(seat)
            view["state"]["current_hand"] = [{"seat": 2, "card": self.hands[2][0]}]
            return view

    leaky = Leaky.from_dict(state.to_dict())
    assert table.view_leaks(leaky, 0) and not table.view_leaks(leaky, 2)


def test_the_leak_checks_catch_pinochle_leaks() -> None:
    """A false proof, a public hand or a card in a bid is flagged."""
    table = TABLES["pinochle"]
    state = table.game.new_state({"variant": "check", "first_dealer": 0}, "guard")
    assert not table.view_leaks(state, 0)
    bad = state.clone()
    bad.exposed[2] = [bad.hands[2][0]]  # claims a hidden card is known
    assert table.view_leaks(bad, 0)
    shout = Event("hand", {"seat": 2, "cards": state.hands[2]})
    assert table.event_leaks(state, None, [shout], state, 0)
    bid = Event("bid", {"seat": 1, "card": state.hands[1][0]})
    assert table.event_leaks(state, None, [bid], state, 0)


def test_the_cowpoke_scan_catches_a_face_down_card() -> None:
    """Another seat's put-out, named before the reveal, is flagged; one's own is not."""
    table = TABLES["cowpoke"]
    state = table.game.new_state({"players": 3}, "guard")
    card = state.hands[1][0]
    move = {"type": "put_out", "card": card}
    after = state.clone()
    events = after.apply(1, move)
    assert not table.event_leaks(state, move, events, after, 0)
    told = Event("put_out", {"seat": 1, "card": card})
    assert table.event_leaks(state, move, [told], after, 0)
    assert not table.event_leaks(state, move, [told], after, 1)


# ---------------------------------------------------------------------------
# One game's rules
# ---------------------------------------------------------------------------


def test_a_cowpoke_seat_that_has_put_out_is_refused_alike_whatever_it_names() -> None:
    """Put-outs are simultaneous: a seat done for the round is not to move, and its
    refusal does not depend on the card it names (held, put out, or elsewhere)."""
    state = REGISTRY["cowpoke"].new_state({"players": 3}, "refusal")
    put_out = state.hands[1][0]
    state.apply(1, {"type": "put_out", "card": put_out})
    assert 1 not in state.to_move() and {0, 2} <= set(state.to_move())
    held, elsewhere = state.hands[1][0], state.hands[0][0]
    answers = set()
    for card in (put_out, held, elsewhere):
        for kind in ("put_out", "take"):
            with pytest.raises(NotYourTurn) as err:
                state.apply(1, {"type": kind, "card": card})
            assert err.value.seat == 1
            answers.add(str(err.value))
    assert len(answers) == 1
    assert not {put_out, held, elsewhere} & set(answers.pop().split())
    with pytest.raises(NotYourTurn) as spectator:
        state.apply(None, {"type": "put_out", "card": held})
    assert spectator.value.seat is None


PINOCHLE = TABLES["pinochle"]


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config=st.sampled_from(PINOCHLE.configs), seed=st.integers(0, 2**32 - 1))
def test_pinochle_games_to_the_target_end(config: dict[str, Any], seed: int) -> None:
    """No deal cap: a game to 500 ends with a winning side over it."""
    state = None
    for *_, state in playout(PINOCHLE, {**config, "target": 500}, seed):  # noqa: B007
        pass
    assert state is not None
    outcome = state.outcome()
    assert outcome is not None and outcome.winners
    assert state.scores[outcome.winners[0] % 2] >= 500


def test_pinochle_counters_total_in_every_deal_of_many_games() -> None:
    """250 per pack in every deal, in the tricks as in the deal's result."""
    for i, config in enumerate(PINOCHLE.configs * 2):
        packs = 2 if config["variant"] == "double-deck" else 1
        deals, in_tricks = 0, 0
        for _, _, _, events, _ in playout(
            PINOCHLE, {**config, "target": 100000, "max_deals": 4}, i
        ):
            for event in events:
                if event.kind == "trick":
                    in_tricks += event.data["counters"]
                if event.kind == "deal_end":
                    deals += 1
                    assert sum(event.data["counters"]) == in_tricks == 250 * packs
                    in_tricks = 0
        assert deals == 4

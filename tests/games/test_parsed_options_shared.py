"""New states share their parsed options when the raw options are the same."""

from __future__ import annotations

import pytest

from server.games import REGISTRY, InvalidOptions


def test_states_with_the_same_options_share_the_parsed_options() -> None:
    new_state = REGISTRY["pinochle"].new_state
    a, b = new_state({"target": 1500}, "a"), new_state({"target": 1500}, "b")
    assert a.options is b.options
    assert new_state({"target": 1000}, "c").options.target == 1000
    assert new_state({}, "d").options is new_state(None, "e").options


def test_a_value_of_another_type_is_parsed_again() -> None:
    new_state = REGISTRY["cowpoke"].new_state
    assert new_state({"players": 3}, "a").num_seats == 3
    with pytest.raises(InvalidOptions):
        new_state({"players": 3.0}, "b")  # equal to 3, but not an integer
    new_state({"first_dealer": 1}, "c")
    with pytest.raises(InvalidOptions):
        new_state({"first_dealer": True}, "d")  # equal to 1, but a boolean


def test_unhashable_options_are_still_checked() -> None:
    with pytest.raises(InvalidOptions):
        REGISTRY["seconds"].new_state({"first_dealer": [1]}, "a")


def test_options_still_shared_once_many_others_were_seen() -> None:
    """The cache holds a bounded number of option sets: once full, the oldest makes
    room, so options seen now are shared still (a full cache once stopped sharing)."""
    new_state = REGISTRY["concerto"].new_state
    for target in range(1, 600):  # more option sets than the cache holds
        new_state({"target": target}, "x")
    assert new_state({"target": 9999}, "a").options is new_state({"target": 9999}, "b").options

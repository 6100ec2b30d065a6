"""Each Game record's facts hold: the rest of the server trusts them instead of naming games.

The records name house bots by their entry-point names only (the engines import no
bot), so a misspelt name would only show as a bot pool that cannot start: this test
holds every name to the ``parlour.bots`` entry points pyproject.toml installs.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from server.games import ANY_GAME_BOTS, REGISTRY

ROOT = Path(__file__).resolve().parents[2]


def entry_points() -> set[str]:
    with open(ROOT / "pyproject.toml", "rb") as f:
        return set(tomllib.load(f)["project"]["entry-points"]["parlour.bots"])


@pytest.mark.parametrize("game", sorted(REGISTRY))
def test_a_record_s_facts_hold(game: str) -> None:
    record = REGISTRY[game]
    assert record.house_bots, "every game has a house bot of its own"
    assert set(record.bots()) <= entry_points()
    assert record.bots()[: len(record.house_bots)] == record.house_bots  # best first
    assert record.bots()[-len(ANY_GAME_BOTS) :] == ANY_GAME_BOTS
    assert list(record.seats) == sorted(set(record.seats))
    for seats in record.seats:
        options = {record.seat_option: seats} if record.seat_option else {}
        state = record.new_state(options, "records")
        assert state.num_seats == seats
        side = record.side_size(seats)
        assert seats % side == 0 and seats // side >= 2
        assert (side > 1) == record.two_sides  # partners only in two-sided games
    if record.variant_option is not None:
        assert record.options[record.variant_option]["choices"]


def test_the_sides_of_the_big_pinochle_tables_are_its_two_teams() -> None:
    """Double-deck for six or eight: two teams seated alternately (pinochle.md P2)."""
    pinochle = REGISTRY["pinochle"]
    assert [pinochle.side_size(n) for n in pinochle.seats] == [2, 3, 4]
    assert REGISTRY["concerto"].side_size(4) == 2
    assert REGISTRY["seconds"].side_size(4) == REGISTRY["cowpoke"].side_size(5) == 1

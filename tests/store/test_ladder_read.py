"""A ladder is read in three round trips, whatever it holds (the scheduler reads every
ladder on every pass, ten times a second in ``parlour serve``)."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
import redis
from redis.connection import AbstractConnection

from server.store import ladders as store


@pytest.fixture
def round_trips(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """How many times this test's thread sent a command (or a pipeline of them) to Redis:
    a server an earlier test left running in this worker (a session's live server, its
    scheduler) sends its own from other threads."""
    sent = [0]
    real = AbstractConnection.send_packed_command
    mine = threading.get_ident()

    def counted(self: AbstractConnection, command: object, check_health: bool = True) -> None:
        if threading.get_ident() == mine:
            sent[0] += 1
        real(self, command, check_health)

    monkeypatch.setattr(AbstractConnection, "send_packed_command", counted)
    yield sent


def test_a_ladder_with_open_matches_is_read_in_three_round_trips(
    redis_client: redis.Redis, round_trips: list[int]
) -> None:
    store.create(redis_client, "L1", {"table_size": 2}, now=1.0)
    for p in ("a", "b", "c", "d"):
        store.join(redis_client, "L1", p, now=1.0)
    two = [{"sides": [["a"], ["b"]], "tables": [["a", "b"]]},
           {"sides": [["c"], ["d"]], "tables": [["c", "d"], ["d", "c"]]}]  # fmt: skip
    assert store.put_matches(redis_client, "L1", lambda record: two) == 2
    store.set_games(redis_client, "L1", {store.slot(0, 0): "g0", store.slot(1, 1): "g2"})
    store.put_results(redis_client, "L1", {store.slot(0, 0): {"ended": 2.0}})

    round_trips[0] = 0
    record = store.read(redis_client, "L1")
    assert round_trips[0] == 3
    assert record is not None and record.matches_count == 2
    assert record.entries == {p: {"joined": 1.0} for p in "abcd"}
    assert record.open == {0: two[0], 1: two[1]}
    assert record.games == {"0:0": "g0", "1:1": "g2"}
    assert record.results == {"0:0": {"ended": 2.0}}


def test_a_missing_ladder_is_one_round_trip(
    redis_client: redis.Redis, round_trips: list[int]
) -> None:
    assert store.read(redis_client, "nope") is None
    assert round_trips[0] == 1

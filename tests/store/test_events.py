"""An organiser's changes in the store (server/store/events.py), on the real Redis: a
void strikes results once and keeps the old game ids; swiss and knockout void only the
last round; a round paired from results voided meanwhile is not stored; a withdrawal
marks a running entry once."""

from __future__ import annotations

import orjson
import pytest

from server.store import events, keys
from server.store import tournaments as store

TID = "t0rg"


def running(r, rounds: int) -> None:
    """A running tournament of two entries with ``rounds`` rounds of one finished table."""
    store.create(r, TID, {"format": "swiss"}, 0.0)
    r.hset(keys.tournament(TID), "status", "running")
    entries = {e: orjson.dumps({"players": [p]}) for e, p in (("e1", "a"), ("e2", "b"))}
    r.hset(keys.tournament_entries(TID), mapping=entries)
    for i in range(rounds):
        store.put_round(r, TID, {"index": i, "tables": [], "byes": []})
        store.set_games(r, TID, {f"{i}:0": f"g{i}"})
        store.put_results(r, TID, {f"{i}:0": {"scores": [1, 0], "winners": [0]}})


def test_a_void_strikes_the_result_and_keeps_the_game_id(redis_client) -> None:
    running(redis_client, 2)
    with pytest.raises(events.NotVoidable, match="last round"):
        events.void(redis_client, TID, 0, [0], last_only=True)
    assert events.void(redis_client, TID, 1, [0], last_only=True) == ["g1"]
    record = store.read(redis_client, TID)
    assert record is not None and "1:0" not in record.results and "1:0" not in record.games
    assert record.voids == {"1:0": ["g1"]} and record.results["0:0"]
    with pytest.raises(events.NotVoidable, match="not over"):  # struck: nothing to void
        events.void(redis_client, TID, 1, [0], last_only=True)
    assert events.void(redis_client, TID, 0, [0], last_only=False) == ["g0"]  # round robin


def test_no_round_is_paired_from_a_result_voided_meanwhile(redis_client) -> None:
    running(redis_client, 1)
    seen = store.read(redis_client, TID)
    assert seen is not None
    events.void(redis_client, TID, 0, [0], last_only=True)
    assert not store.put_round(redis_client, TID, {"index": 1}, seen.voids)  # stale
    now = store.read(redis_client, TID)
    assert now is not None and len(now.rounds) == 1
    assert not store.put_round(redis_client, TID, {"index": 0}, now.voids)  # HSETNX: once


def test_a_withdrawal_marks_a_running_entry_once(redis_client) -> None:
    running(redis_client, 1)
    assert events.withdraw(redis_client, TID, "e2") == "withdrawn"
    with pytest.raises(events.AlreadyWithdrawn):
        events.withdraw(redis_client, TID, "e2")
    with pytest.raises(events.EntryMissing):
        events.withdraw(redis_client, TID, "e9")
    record = store.read(redis_client, TID)
    assert record is not None and record.withdrawn == {"e2": 1}
    assert [e for e, _ in record.entries] == ["e1", "e2"]  # it stays in the standings

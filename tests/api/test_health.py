"""``/healthz`` and ``/v1/_ping_redis``: the benchmark's ceiling and the floor under a move."""

from __future__ import annotations

import pytest

from tests.api.helpers import assert_error


def pings(redis_client) -> int:
    return redis_client.info("commandstats").get("cmdstat_ping", {}).get("calls", 0)


@pytest.mark.parametrize("trips", [1, 2, 4])
def test_ping_waits_on_redis_as_many_times_as_asked(client, redis_client, trips):
    before = pings(redis_client)
    reply = client.get(f"/v1/_ping_redis?round_trips={trips}")
    assert reply.status_code == 200 and reply.get_json() == {"ok": True}
    assert pings(redis_client) - before == trips


def test_ping_is_one_round_trip_by_default(client, redis_client):
    before = pings(redis_client)
    assert client.get("/v1/_ping_redis").status_code == 200
    assert pings(redis_client) - before == 1


@pytest.mark.parametrize("trips", ["0", "5", "two"])
def test_ping_refuses_other_counts(api, trips):
    reply = api.get("/v1/_ping_redis", round_trips=trips)
    assert "round_trips" in assert_error(reply, 400, "invalid_request")

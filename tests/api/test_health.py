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


def test_ping_pads_its_reply_to_the_size_asked(client):
    reply = client.get("/v1/_ping_redis?round_trips=2&reply_bytes=5000")
    assert reply.status_code == 200
    assert reply.get_json() == {"ok": True, "padding": "." * 5000}


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("round_trips", "0"),
        ("round_trips", "5"),
        ("round_trips", "two"),
        ("reply_bytes", "-1"),
        ("reply_bytes", "65537"),
    ],
)
def test_ping_refuses_what_it_does_not_do(api, field, value):
    reply = api.get("/v1/_ping_redis", **{field: value})
    assert field in assert_error(reply, 400, "invalid_request")

"""``GET /metrics``: what was served, counted right, in a text format Prometheus reads.

The counts across several worker processes are checked in
``tests/faults/test_scale_out.py`` (two ``parlour serve`` processes, one Redis).
"""

from __future__ import annotations

import re
import threading
import time
from collections import defaultdict

from tests.api.helpers import Api

LINE = re.compile(r'^([a-z_:][a-z0-9_:]*)(\{([a-z_]+="(?:[^"\\]|\\.)*",?)*\})? (\S+)$')


def scrape(client) -> dict[str, float]:
    """Series -> value; fails on any line that is not a comment or a sample."""
    reply = client.get("/metrics")
    assert reply.status_code == 200
    assert reply.content_type.startswith("text/plain; version=0.0.4")
    samples = {}
    for line in reply.get_data(as_text=True).splitlines():
        if line.startswith("# "):
            assert line.split()[1] in ("HELP", "TYPE"), line
            continue
        found = LINE.match(line)
        assert found, line
        name, value = line.rsplit(" ", 1)
        samples[name] = float(value)
    return samples


def test_metrics_count_what_was_served(client, players, app):
    api = Api(client=client)
    four = players.many(4)
    game = api.create("admin", [p.id for p in four], options={"deals": 1})
    seat = game["to_move"][0]
    mine = api.get(f"/v1/games/{game['id']}", four[seat], seat=seat).body
    assert api.move(game["id"], four[seat], mine["legal_moves"][0], 0).status == 200
    assert api.move(game["id"], four[seat], mine["legal_moves"][0], 0).status == 200  # a retry
    assert api.move(game["id"], four[seat], {"type": "pass"}, 7).status == 409
    assert api.get("/v1/games/nope").status == 404
    assert api.post("/v1/players", raw="{").status == 400

    got = scrape(client)
    moves = 'method="POST",route="/v1/games/<game_id>/moves"'
    assert got[f'parlour_http_requests_total{{{moves},status="200"}}'] == 2
    assert got[f'parlour_http_requests_total{{{moves},status="409"}}'] == 1
    assert got["parlour_moves_total"] == 2
    assert got['parlour_http_errors_total{status="409",code="stale_version"}'] == 1
    assert got['parlour_http_errors_total{status="404",code="not_found"}'] == 1
    assert got['parlour_http_errors_total{status="400",code="invalid_request"}'] == 1
    assert got['parlour_http_requests_total{method="POST",route="/v1/players",status="201"}'] == 4
    assert got["parlour_games_live"] == 1
    assert got["parlour_long_polls_waiting"] == 0
    assert got["parlour_api_workers"] == 1

    # each histogram: cumulative buckets, the last one (+Inf) equal to the count
    buckets = defaultdict(list)
    for name, value in got.items():
        if name.startswith("parlour_http_request_duration_seconds_bucket"):
            series, le = re.match(r".*\{(.*),le=\"([^\"]+)\"\}", name).groups()
            buckets[series].append((float(le), value))
    assert moves in buckets
    for series, values in buckets.items():
        counts = [v for _, v in sorted(values)]
        assert len(counts) == 13 and counts == sorted(counts)
        total = got[f"parlour_http_request_duration_seconds_count{{{series}}}"]
        assert counts[-1] == total
    assert 0 < got[f"parlour_http_request_duration_seconds_sum{{{moves}}}"] < 10

    assert scrape(client)["parlour_moves_total"] == 2  # counted once, however often scraped


def test_waiting_bots_are_counted_while_they_wait(client, players, app):
    waiter = players.register("idle")
    done = threading.Event()

    def wait() -> None:
        app.test_client().get("/v1/me/turns?wait=1.5", headers=waiter.headers)
        done.set()

    thread = threading.Thread(target=wait)
    thread.start()
    deadline = time.monotonic() + 3
    while scrape(client)["parlour_long_polls_waiting"] != 1:
        assert time.monotonic() < deadline and not done.is_set()
        time.sleep(0.02)
    thread.join(10)
    assert scrape(client)["parlour_long_polls_waiting"] == 0

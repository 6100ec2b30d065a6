"""Metrics series stay bounded: a client cannot create label values at will.

Unknown HTTP methods fold into ``method="other"`` and unmatched paths into
``route="unmatched"``, both in ``/metrics`` and in the Redis hash behind it.
"""

from __future__ import annotations

from server.store import keys


def test_unknown_methods_and_paths_fold_into_one_label_each(client, redis_client):
    for i in range(5):
        client.open(f"/nope/{i}", method=f"ZZPROBE{i}")
        client.get(f"/probe-{i}")
    text = client.get("/metrics").get_data(as_text=True)
    stored = b" ".join(redis_client.hkeys(keys.metrics_counters())).decode()
    for seen in (text, stored):
        assert "ZZPROBE" not in seen
        assert "probe-" not in seen and "/nope" not in seen
    line = 'parlour_http_requests_total{method="other",route="unmatched",status="404"}'
    assert f"{line} 5" in text, text
    assert 'parlour_http_requests_total{method="GET",route="unmatched",status="404"} 5' in text

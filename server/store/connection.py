"""One client for a Redis server or a Redis Cluster, chosen by the URL (docs/operations.md).

``REDIS_URL`` forms:

* ``redis://host:port/db``, ``rediss://...``, ``unix:///path/to/socket``: one server;
* ``redis+cluster://host:port`` (or ``rediss+cluster://``): a Redis Cluster. Any
  node will do; the client learns the slot map from it. Several seed nodes may be
  given, comma-separated (``redis+cluster://h1:6379,h2:6379``), so that a start
  does not depend on one node being up. Credentials go before the hosts as usual
  (``redis+cluster://user:secret@h1:6379,h2:6379``).

Nothing else changes on a cluster: the keys of one game, player, tournament or
rating pool share a hash tag (:mod:`server.store.keys`), so every Lua script and
MULTI/EXEC touches one slot, and the pipelines that span slots are plain
(non-transactional) batches, which the cluster client splits by node.
"""

from __future__ import annotations

from typing import Any, cast

from redis import Redis
from redis.cluster import ClusterNode, RedisCluster

CLUSTER_SCHEMES = {"redis+cluster": "redis", "rediss+cluster": "rediss"}
"""URL scheme of a cluster -> the scheme of one of its nodes."""


def is_cluster_url(url: str) -> bool:
    """Whether ``url`` names a Redis Cluster.

    >>> is_cluster_url("redis+cluster://127.0.0.1:7000"), is_cluster_url("redis://h:1/0")
    (True, False)
    """
    return url.partition("://")[0].lower() in CLUSTER_SCHEMES


def cluster_nodes(url: str) -> tuple[str, list[tuple[str, int]], str | None, str | None]:
    """Split a cluster URL into its node scheme, seed nodes and credentials.

    >>> cluster_nodes("redis+cluster://u:pw@a:7000,b:7001")
    ('redis', [('a', 7000), ('b', 7001)], 'u', 'pw')
    >>> cluster_nodes("redis+cluster://127.0.0.1")
    ('redis', [('127.0.0.1', 6379)], None, None)
    """
    scheme, _, rest = url.partition("://")
    netloc = rest.split("/", 1)[0]
    userinfo, _, hosts = netloc.rpartition("@")
    user = password = None
    if userinfo:
        user, _, password = userinfo.partition(":")
        user, password = user or None, password or None
    nodes = []
    for host in hosts.split(","):
        name, _, port = host.strip().rpartition(":") if ":" in host else (host.strip(), "", "")
        nodes.append((name.strip("[]"), int(port) if port else 6379))
    return CLUSTER_SCHEMES[scheme.lower()], nodes, user, password


def connect(url: str, *, max_connections: int = 4000, block_timeout: float = 30.0) -> Redis:
    """A client for ``url`` (a server or a cluster, see the module doc) sized for long-polls.

    Typed as :class:`Redis` for the store's functions: a :class:`RedisCluster`
    serves every command they send (each script and transaction stays in one slot).

    Why these settings (docs/operations.md): redis-py 8 caps a pool at 100
    connections, and every long-poll holds one connection for its whole wait,
    so a few hundred waiting bots would make the next request fail at once.
    Its default socket timeout would also cut a blocking ``XREAD`` short and
    silently re-send it on a new connection, losing events in between; the
    socket timeout here is longer than the longest block the API allows.

    Args:
        url: ``redis://host:port/db``, ``unix:///path/to/socket`` or
            ``redis+cluster://host:port[,host:port...]``.
        max_connections: pool size per process (per node on a cluster).
        block_timeout: the longest ``BLOCK`` any call will use, in seconds.
    """
    common: dict[str, Any] = {
        "max_connections": max_connections,
        "socket_timeout": block_timeout + 10.0,
        "socket_connect_timeout": 5.0,
        "socket_read_size": 4096,
        "decode_responses": False,
    }
    if not is_cluster_url(url):
        return Redis.from_url(url, **common)
    scheme, nodes, user, password = cluster_nodes(url)
    cluster: RedisCluster[bytes] = RedisCluster(
        startup_nodes=[ClusterNode(host, port) for host, port in nodes],
        username=user,
        password=password,
        ssl=scheme == "rediss",
        **common,
    )
    return cast(Redis, cluster)


def ping(r: Redis) -> None:
    """One round trip to Redis (raises when it does not answer)."""
    r.ping()

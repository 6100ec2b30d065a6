"""Redis: keys, Lua scripts, the atomic compare-and-set of a game, event streams, wake-ups.

Everything that talks to Redis lives in this package; the service layer calls
its functions and never builds a key or a command itself.
"""

from __future__ import annotations

from redis import Redis


def connect(url: str, *, max_connections: int = 4000, block_timeout: float = 30.0) -> Redis:
    """A client for ``url`` sized for long-polls.

    Why these settings (DESIGN.md "Pitfalls"): redis-py 8 caps a pool at 100
    connections, and every long-poll holds one connection for its whole wait,
    so a few hundred waiting bots would make the next request fail at once.
    Its default socket timeout would also cut a blocking ``XREAD`` short and
    silently re-send it on a new connection, losing events in between; the
    socket timeout here is longer than the longest block the API allows.

    Args:
        url: ``redis://host:port/db`` or ``unix:///path/to/socket``.
        max_connections: pool size per process.
        block_timeout: the longest ``BLOCK`` any call will use, in seconds.
    """
    return Redis.from_url(
        url,
        max_connections=max_connections,
        socket_timeout=block_timeout + 10.0,
        socket_connect_timeout=5.0,
        socket_read_size=4096,
        decode_responses=False,
    )

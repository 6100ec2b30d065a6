"""Redis: keys, Lua scripts, the atomic compare-and-set of a game, event streams, wake-ups.

Everything that talks to Redis lives in this package: one module per record
(games, players, tournaments, ladders, ratings, apps, webhooks, invitations,
clocks, the lobby's indexes, visitors, rate windows, stream slots, metrics), every
key name built by :mod:`server.store.keys`, the Lua scripts in ``lua/``. The
services, the scheduler and the webhook deliverer call its functions; none of them
builds a key or sends a Redis command itself (tests/store/test_keys.py checks both).
"""

from __future__ import annotations

from .connection import connect, is_cluster_url

__all__ = ["connect", "is_cluster_url"]

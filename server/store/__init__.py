"""Redis: keys, Lua scripts, the atomic compare-and-set of a game, event streams, wake-ups.

Everything that talks to Redis lives in this package: one module per record
(games, players, tournaments, ladders, ratings, apps, webhooks, callbacks,
invitations, clocks, the lobby's indexes, visitors, rate windows, stream slots,
metrics; a game's events read back in ``game_events``, the archive's reads in
``archive``), every key name built by :mod:`server.store.keys`, the Lua scripts in
``lua/``. Only the services call its functions (the processes reach it through them:
a contract, docs/architecture.md); nothing outside this package builds a key or sends
a Redis command (tests/store/test_keys.py checks both).
"""

from __future__ import annotations

from .connection import connect, is_cluster_url

__all__ = ["connect", "is_cluster_url"]

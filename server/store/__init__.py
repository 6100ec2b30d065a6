"""Redis: keys, Lua scripts, the atomic compare-and-set of a game, event streams, wake-ups.

Everything that talks to Redis lives in this package; the service layer calls
its functions and never builds a key or a command itself.
"""

from __future__ import annotations

from .connection import connect, is_cluster_url

__all__ = ["connect", "is_cluster_url"]

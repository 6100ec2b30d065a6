"""The Lua scripts, loaded once from ``lua/*.lua`` and registered once per client.

Each script's header lists its KEYS, ARGV and return codes; the store modules
turn those codes into typed exceptions (:mod:`server.store.errors`). Script text
is constant: configuration is never formatted into it.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from functools import cache
from pathlib import Path

from redis import Redis
from redis.commands.core import Script

_LUA = Path(__file__).with_name("lua")


@cache
def source(name: str) -> str:
    """The text of ``lua/<name>.lua``."""
    return (_LUA / f"{name}.lua").read_text(encoding="utf-8")


@dataclass(frozen=True)
class Scripts:
    """The scripts registered on one client (redis-py reloads them on NOSCRIPT)."""

    commit_move: Script
    join_seat: Script
    leave_seat: Script
    arm_clock: Script
    commit_timeout: Script
    add_entry: Script
    start_tournament: Script
    apply_rating: Script
    wake_committed: Script
    reserve_sent: Script
    put_invitation: Script
    queue_callbacks: Script
    rotate_callback: Script
    swap_player_token: Script
    swap_app_token: Script

    @classmethod
    def register(cls, r: Redis) -> Scripts:
        return cls(**{f.name: r.register_script(source(f.name)) for f in fields(cls)})

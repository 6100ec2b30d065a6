"""Every Redis key name Parlour uses, built here and nowhere else (DESIGN.md "Redis layout").

The keys of one game share the hash tag ``{<game_id>}`` and the keys of one
player share ``{<player_id>}``, so every multi-key operation (a Lua script, a
MULTI/EXEC) stays inside one cluster slot and the code runs unchanged against
a Redis Cluster. Lua scripts receive these names in ``KEYS``; they never build
one themselves.

>>> game_state("abc")
'g:{abc}:game'
>>> player_wake("p1")
'p:{p1}:wake'
"""

from __future__ import annotations


def game_state(game_id: str) -> str:
    """Hash: ``version``, ``state`` (engine JSON), ``meta`` (JSON), ``status``, ``seq``."""
    return f"g:{{{game_id}}}:game"


def game_seats(game_id: str) -> str:
    """Hash: seat number -> JSON ``{"player_id", "name"}``; open seats are absent."""
    return f"g:{{{game_id}}}:seats"


def game_events(game_id: str) -> str:
    """Stream of the game's events; entry ``0-<n>`` is event number ``n`` (1-based)."""
    return f"g:{{{game_id}}}:events"


def game_moves(game_id: str) -> str:
    """Hash: version a move was accepted at -> JSON ``{"seat", "move"}`` (safe retries)."""
    return f"g:{{{game_id}}}:moves"


def player(player_id: str) -> str:
    """Hash: ``name``, ``token_sha256``, ``created``."""
    return f"p:{{{player_id}}}"


def player_games(player_id: str) -> str:
    """Set of the ids of games the player is seated in and that are not finished."""
    return f"p:{{{player_id}}}:games"


def player_wake(player_id: str) -> str:
    """Stream of wake-ups for the player's ``/me/turns`` long-poll (a hint, never the truth)."""
    return f"p:{{{player_id}}}:wake"


def server_secret() -> str:
    """String: the secret deal seeds are derived from (with the game id)."""
    return "parlour:secret"

"""The Redis keys of the bots the server plays elsewhere: a player's callback URL and its
queue (server/services/callbacks.py), a player's own bots, their hosted turns and the
sandbox hosts (server/store/bots.py says what each holds). Re-exported by
:mod:`server.store.keys`, where every key is looked up."""

from __future__ import annotations

__all__ = [
    "bot",
    "bot_failing",
    "bot_identities",
    "bot_version",
    "callback_players",
    "callback_queued",
    "callback_turns",
    "game_bots",
    "hosted_players",
    "hosted_queued",
    "hosted_turns",
    "player_bots",
    "player_callback",
    "player_callback_failures",
    "player_callback_latency",
    "player_callback_stats",
    "sandbox_hosts",
]


# -- callbacks: bots played through a URL (server/services/callbacks.py) ------------------
def player_callback(player_id: str) -> str:
    """Hash: the player's callback: ``url``, ``secret`` (kept as given: it signs),
    ``since`` (epoch seconds of the last PUT)."""
    return f"p:{{{player_id}}}:callback"


def player_callback_stats(player_id: str) -> str:
    """Hash: the player's callback counters (``calls``, ``timeouts``, ``errors``,
    ``refused_moves``, ``stale``, ``moves``)."""
    return f"p:{{{player_id}}}:cbstats"


def player_callback_latency(player_id: str) -> str:
    """List: the latest answer times of the player's callback, in ms (newest first)."""
    return f"p:{{{player_id}}}:cblatency"


def player_callback_failures(player_id: str) -> str:
    """List: JSON of the latest failures of the player's callback (newest first)."""
    return f"p:{{{player_id}}}:cbfailures"


def callback_players() -> str:
    """Set: the ids of players with a callback (looked up at each commit)."""
    return "cb:{q}:players"


def callback_turns() -> str:
    """Stream: turns to dispatch (``game``, ``version``, ``seat``, ``player``), read by the
    dispatchers' consumer group; an entry is acked once its turn is answered or stale."""
    return "cb:{q}:turns"


def callback_queued(game_id: str, version: int, seat: int) -> str:
    """String: this turn (the seat's, at this version of the game) was queued (a repeated
    step after a commit, or the dispatchers' sweep, queues it once); expires after a day."""
    return f"cb:{{q}}:queued:{game_id}:{version}:{seat}"


# player bots, their hosted turns and sandbox hosts: server/store/bots.py says each key
def player_bots(owner_id: str) -> str:
    return f"p:{{{owner_id}}}:bots"


def bot(bot_id: str) -> str:
    return f"bt:{{{bot_id}}}:bot"


def bot_failing(bot_id: str) -> str:
    """Hash: the bot's hosted turns failed in a row (``count``) and the last one's
    ``kind``, ``game`` and ``seat``; dropped by a turn played well or a resume."""
    return f"bt:{{{bot_id}}}:failing"


def bot_version(bot_id: str, version: int) -> str:
    return f"bt:{{{bot_id}}}:v:{version}"


def bot_identities() -> str:
    return "hb:{q}:identities"


def hosted_players() -> str:
    return "hb:{q}:players"


def hosted_turns() -> str:
    return "hb:{q}:turns"


def hosted_queued(game_id: str, version: int, seat: int) -> str:
    return f"hb:{{q}}:queued:{game_id}:{version}:{seat}"


def sandbox_hosts() -> str:
    return "hb:{q}:hosts"


def game_bots(game_id: str) -> str:
    return f"g:{{{game_id}}}:bots"

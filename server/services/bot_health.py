"""A player bot's health sweep: the turns of a bot played for it by the server (hosted
code in a sandbox, :mod:`server.services.hosted`; a callback URL,
:mod:`server.services.callback_dispatch`) that fail :data:`FAILED_TURNS` times in a
row pause it (:func:`server.store.bots.pause`): its ladder entries are not matched and
its ladder games under way are played out by the clock's policy
(:mod:`server.services.ladder_play`) until its owner resumes it
(:meth:`server.services.player_bots.PlayerBots.resume`). One turn played well ends the
run. The reason names the last failure's kind, game and seat, never what the bot
printed or answered (that could tell its cards while the game is played).
"""

from __future__ import annotations

import time

from redis import Redis

from server.store import bots as store

FAILED_TURNS = 5
"""A bot's turns failed in a row that pause it (docs/tutorials/hosted-bot.md)."""


def failed(
    r: Redis, bot_id: str, kind: str, game_id: str, seat: int, now: float | None = None
) -> bool:
    """One more turn of the bot failed (``kind``, in that game's seat); whether the bot
    is paused by it (the :data:`FAILED_TURNS`-th in a row; an earlier pause stays)."""
    streak = store.turn_failed(r, bot_id, kind, game_id, seat)
    if streak < FAILED_TURNS:
        return False
    reason = (
        f"failing: {streak} failed turns in a row (last: {kind}, "
        f"game {game_id} seat {seat}; its log shows once that game is over)"
    )
    return store.pause(r, bot_id, reason, time.time() if now is None else now)


def played(r: Redis, bot_id: str) -> None:
    """A turn of the bot played without failing: its run of failed turns ends."""
    store.turn_played(r, bot_id)

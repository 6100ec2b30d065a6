"""Bot seats: a seat given as ``"bot:<name>"`` is played by the server's bot pool.

The pool (:mod:`server.processes.botpool`) registers its identities per bot
name; here such seats become those identities, or the request is refused.
"""

from __future__ import annotations

from redis import Redis

from server.services.errors import UnknownBot
from server.store import apps as app_store

BOT_SEAT = "bot:"
"""A seat given as ``"bot:<name>"`` is played by the bot pool's ``<name>``."""


def resolve_bots(r: Redis, game: str, seats: list[str | None] | None) -> list[str | None] | None:
    """Replace every ``"bot:<name>"`` seat by a pool identity of that bot.

    Several seats of the same bot get distinct identities (a player holds one
    seat per game), taken in the pool's order.

    Raises:
        UnknownBot: a name the pool does not play, or not for ``game``, or more
            seats of it than it has identities.
    """
    if not seats or not any(s and s.startswith(BOT_SEAT) for s in seats):
        return seats
    pool = app_store.bot_pool(r)
    used: dict[str, int] = {}
    problems: dict[str, str] = {}
    out: list[str | None] = []
    for i, seat in enumerate(seats):
        if not (seat and seat.startswith(BOT_SEAT)):
            out.append(seat)
            continue
        name = seat[len(BOT_SEAT) :]
        bot = pool.get(name)
        n = used.get(name, 0)
        if bot is None:
            problems[str(i)] = f"no bot {name!r}; the pool plays {sorted(pool) or 'none'}"
        elif bot["games"] is not None and game not in bot["games"]:
            problems[str(i)] = f"bot {name!r} plays only {bot['games']}"
        elif n >= len(bot["players"]):
            problems[str(i)] = f"the pool has {len(bot['players'])} of bot {name!r}"
        else:
            out.append(bot["players"][n])
            used[name] = n + 1
            continue
        out.append(None)
    if problems:
        raise UnknownBot(problems)
    return out

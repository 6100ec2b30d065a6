"""Bot seats: a seat given as ``"bot:<name>"`` is played by the server's bot pool.

The pool (:mod:`server.processes.botpool`) registers its identities per bot
name; here such seats become those identities, or the request is refused. Each
seat takes the identity of its bot seated in the fewest unfinished games
(:func:`least_busy`), so games spread over the pool instead of all queueing for
its first identity.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from redis import Redis

from server.services.errors import UnknownBot
from server.store import apps as app_store
from server.store import players as player_store

BOT_SEAT = "bot:"
"""A seat given as ``"bot:<name>"`` is played by the bot pool's ``<name>``."""


def resolve_bots(r: Redis, game: str, seats: list[str | None] | None) -> list[str | None] | None:
    """Replace every ``"bot:<name>"`` seat by a pool identity of that bot.

    Several seats of the same bot get distinct identities (a player holds one
    seat per game), the least busy first (:func:`least_busy`).

    Raises:
        UnknownBot: a name the pool does not play, or not for ``game``, or more
            seats of it than it has identities.
    """
    if not seats or not any(s and s.startswith(BOT_SEAT) for s in seats):
        return seats
    pool = app_store.bot_pool(r)
    named = {s[len(BOT_SEAT) :] for s in seats if s and s.startswith(BOT_SEAT)}
    loads = player_store.game_counts(r, [p for n in named & set(pool) for p in pool[n]["players"]])
    order = {n: least_busy(pool[n]["players"], loads) for n in named & set(pool)}
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
            out.append(order[name][n])
            used[name] = n + 1
            continue
        out.append(None)
    if problems:
        raise UnknownBot(problems)
    return out


def least_busy(player_ids: Sequence[str], loads: dict[str, int]) -> list[str]:
    """``player_ids``, those seated in the fewest unfinished games (``loads``) first,
    ties in a random order (so no identity is everyone's first).

    >>> least_busy(["a", "b", "c"], {"a": 2, "b": 0, "c": 1})
    ['b', 'c', 'a']
    """
    shuffled = random.sample(list(player_ids), len(player_ids))
    return sorted(shuffled, key=lambda p: loads.get(p, 0))

"""Bot seats: a seat given as ``"bot:<name>"`` is played by the server's bot pool.

The pool (:mod:`server.processes.botpool`) registers its identities per bot
name; here such seats become those identities, or the request is refused. Each
seat takes the identity of its bot seated in the fewest unfinished games
(:func:`least_busy`), so games spread over the pool instead of all queueing for
its first identity.

The pool's capacity is the operator's to size, not one player's to hold: the games
players make seating only house bots (bots playing bots, as fast as they can) are
capped, per player and in all (:class:`HouseGames`), so they leave the pool's
identities, and the server's time, to the visitors and the games people play.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

from redis import Redis

from server.services import views
from server.services.errors import Forbidden, RateLimited, UnknownBot
from server.store import apps as app_store
from server.store import games as game_store
from server.store import players as player_store
from server.store import visitors as house_store

LIVE_STATUSES = ("waiting", "active")

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


def unfinished(r: Redis, game_ids: Sequence[str]) -> set[str]:
    """The games among ``game_ids`` not over yet: the truth behind the live indexes of
    the house bots' tables (:mod:`server.store.visitors`), read from the records."""
    return {g.id for g in game_store.read_many(r, game_ids) if g.status in LIVE_STATUSES}


def least_busy(player_ids: Sequence[str], loads: dict[str, int]) -> list[str]:
    """``player_ids``, those seated in the fewest unfinished games (``loads``) first,
    ties in a random order (so no identity is everyone's first).

    >>> least_busy(["a", "b", "c"], {"a": 2, "b": 0, "c": 1})
    ['b', 'c', 'a']
    """
    shuffled = random.sample(list(player_ids), len(player_ids))
    return sorted(shuffled, key=lambda p: loads.get(p, 0))


class HouseBusy(RateLimited):
    """The server runs as many games of house bots only as it allows (429, in a minute)."""

    def __init__(self, limit: int) -> None:
        super().__init__(60)
        self.message = (
            f"the house bots already play {limit} games among themselves, as many as this "
            "server allows; try again in a minute, or seat a bot of your own"
        )


class HouseGames:
    """The caps on games seating only house bots that players make (the admin's and
    apps' games are not counted): ``per_player`` unfinished at once per player (403
    beyond) and ``max_live`` in all (429 beyond); 0 turns a cap off. Soft caps: two
    requests at the same instant may both pass."""

    def __init__(self, r: Redis, *, per_player: int = 2, max_live: int = 4) -> None:
        self.r = r
        self.per_player = per_player
        self.max_live = max_live

    @staticmethod
    def house_only(seats: Sequence[str | None] | None) -> bool:
        """Whether every seat is given, each to a house bot."""
        return bool(seats) and all(views.is_house(p) for p in seats or [])

    def admit(self, creator: str) -> None:
        """Refuse a new house-only game of ``creator`` over either cap (nothing written
        but the index pruned of games that ended).

        Raises:
            Forbidden: ``creator`` has ``per_player`` unfinished ones (``details``:
                ``limit``, ``live``).
            HouseBusy: the server has ``max_live``.
        """
        if not (self.per_player or self.max_live):
            return
        games = house_store.house_live(self.r)
        if len(games) >= min(n for n in (self.per_player, self.max_live) if n):
            live = unfinished(self.r, [g for _, g in games])
            gone = [(c, g) for c, g in games if g not in live]
            house_store.house_drop(self.r, gone)
            games = [(c, g) for c, g in games if g in live]
        mine = sum(1 for c, _ in games if c == creator)
        if self.per_player and mine >= self.per_player:
            raise Forbidden(
                f"you have {mine} games seating only the house bots unfinished; "
                f"at most {self.per_player} at once",
                {"limit": self.per_player, "live": mine},
            )
        if self.max_live and len(games) >= self.max_live:
            raise HouseBusy(self.max_live)

    def add(self, creator: str, game_id: str) -> None:
        """Count a house-only game ``creator`` made."""
        house_store.house_add(self.r, creator, game_id, time.time())

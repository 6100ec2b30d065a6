"""Visitors: a person with no account plays one game against the server's bots.

``POST /v1/visitors/games`` (see docs/web.md) is the web lobby's **Play against
bots** button. It makes a game the way an app makes one
(:mod:`server.services.apps`): the visitor's seat goes to a guest, a player made
for that seat alone whose token works only for that game, and every other seat
to an identity of the bot pool (:mod:`server.processes.botpool`), which plays
it over HTTP. The visitor's browser keeps the guest token in ``sessionStorage``.

Three limits keep this cheap for the operator, who may also turn it off:

* per client, ``per_client`` games per ``period`` seconds; a client is its address,
  an IPv6 one counted by its /64 (:func:`~server.services.ratelimit.client_key`);
* at most ``max_live`` visitor games unfinished at once (a soft cap: two
  requests at the same instant may both pass it);
* a visitor game is clocked: each seat has ``idle`` seconds per move, and the seat
  that lets them pass forfeits (the game is ``aborted``, its view's result says
  ``"termination": "forfeit"``), so an abandoned game frees its table. The scheduler
  applies the forfeit when it is due; a visitor who finds every table taken applies
  those already due first.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from typing import Any

from server.games import REGISTRY, GameError
from server.services import names
from server.services.bots import least_busy, unfinished
from server.services.callers import sha256
from server.services.clocks import Clocks
from server.services.core import Core
from server.services.errors import Forbidden, InvalidRequest, RateLimited
from server.services.games import Games
from server.services.ratelimit import client_key
from server.services.wire import iso
from server.store import apps as app_store
from server.store import players as player_store
from server.store import ratelimit as ratelimit_store
from server.store import visitors as visitor_store
from server.store.apps import GUEST_PREFIX, GuestBinding
from server.store.players import PlayerRecord

VISITOR_APP = "visitors"
"""The app id visitor games and their guests carry (an app with no record and no webhook)."""

IDLE_POLICY = {"kind": "forfeit", "after": 1}
"""A visitor game's timeout policy: the first seat to let its move time pass forfeits."""


class VisitorsOff(Forbidden):
    """The operator turned visitor games off (403)."""


class TablesFull(RateLimited):
    """Every guest table is taken (429, retry after a minute)."""

    def __init__(self, max_live: int) -> None:
        super().__init__(60)
        self.message = (
            f"all {max_live} guest tables are in use; try again in a minute, "
            "or register a player and play with your own token"
        )


class Visitors:
    """The visitor use case, over the shared :class:`Core` and the game use cases.

    Args:
        core: the shared core (Redis, callers).
        games: the game use cases (a visitor's game is created like an app's).
        clocks: the move clocks (an idle visitor game is forfeited by them).
        enabled: whether visitors may create games at all.
        max_live: visitor games unfinished at once, at most.
        per_client: games one client address may create per ``period`` seconds.
        period: the rate window, in seconds.
        idle: seconds each seat of a visitor game has per move before it forfeits.
        guest_ttl: seconds a visitor's guest token stays valid at most.
        guest_grace: seconds it may still read its game once the game ended.
    """

    def __init__(
        self,
        core: Core,
        games: Games,
        clocks: Clocks,
        *,
        enabled: bool = True,
        max_live: int = 50,
        per_client: int = 10,
        period: float = 3600.0,
        idle: float = 600.0,
        guest_ttl: float = 86400.0,
        guest_grace: float = 3600.0,
    ) -> None:
        self.core = core
        self.games = games
        self.clocks = clocks
        self.r = core.r
        self.enabled = enabled
        self.max_live = max_live
        self.per_client = per_client
        self.period = period
        self.idle = idle
        self.guest_ttl = guest_ttl
        self.guest_grace = guest_grace

    def configure(
        self,
        *,
        enabled: bool,
        max_live: int,
        per_client: int,
        period: float,
        idle: float | None = None,
    ) -> None:
        """The operator's settings (``PARLOUR_VISITORS`` etc., read by the app factory);
        ``idle`` None keeps the one set."""
        self.enabled, self.max_live = enabled, max_live
        self.per_client, self.period = per_client, period
        if idle is not None:
            self.idle = idle

    def settings(self) -> dict[str, Any]:
        """What the lobby needs to offer the button: on or off, and what fills the seats."""
        pool = app_store.bot_pool(self.r)
        return {
            "enabled": self.enabled,
            "bots": {
                game: sum(
                    len(b["players"])
                    for b in pool.values()
                    if b["games"] is None or game in b["games"]
                )
                for game in REGISTRY
            },
        }

    def play_against_bots(
        self, client: str, game: str, options: dict[str, Any] | None, name: str | None = None
    ) -> dict[str, Any]:
        """A new game: the visitor in seat 0 (named ``name``, else "Visitor"), the pool's
        bots in every other seat.

        Returns:
            ``{"game": the spectator's view, "seat": 0, "token": the guest token,
            "expires": ISO time}``.

        Raises:
            VisitorsOff: the operator turned visitors off.
            InvalidRequest: unknown game, bad options, or not enough bots.
            RateLimited: this client made too many games lately.
            TablesFull: every guest table is taken.
        """
        if not self.enabled:
            raise VisitorsOff("playing against bots without an account is turned off here")
        shown = "Visitor"  # what everyone sees; the visitor's own table says "You are …"
        if name is not None:
            pool = app_store.bot_pool(self.r)
            shown = names.clean_player_name(name, pool, max_length=names.MAX_VISITOR_LENGTH)
        options = dict(options or {})
        seats = self._seat_count(game, options)
        bots = self._bots(game, seats - 1)
        self.core.admit_house_bots("visitors", bots)
        now = time.time()
        self._make_room(now)  # first: a refusal for a full house costs no rate
        self._limit(client)
        game_id = secrets.token_hex(8)
        guest_id = GUEST_PREFIX + secrets.token_hex(8)
        token = f"{guest_id}.{secrets.token_urlsafe(32)}"
        expires = now + self.guest_ttl
        record = PlayerRecord(guest_id, shown, sha256(token.partition(".")[2]))
        app_store.create_guests(
            self.r, [(record, GuestBinding(guest_id, game_id, 0, VISITOR_APP, expires))]
        )
        view = self.games.create_app_game(
            game_id=game_id,
            game=game,
            options=options,
            seats=[guest_id, *bots],
            app={"id": VISITOR_APP, "guest_grace": self.guest_grace},
            clock={"move_seconds": self.idle, "timeout_policy": IDLE_POLICY},
        )
        visitor_store.add(self.r, game_id, now)
        return {"game": view, "seat": 0, "token": token, "expires": iso(expires)}

    # -- helpers -------------------------------------------------------------------------
    @staticmethod
    def _seat_count(game: str, options: dict[str, Any]) -> int:
        engine = REGISTRY.get(game)
        if engine is None:
            raise InvalidRequest("unknown game", {"game": [f"one of {sorted(REGISTRY)}"]})
        try:
            return int(engine.new_state(dict(options), "visitor-probe").num_seats)
        except GameError as exc:
            raise InvalidRequest("invalid options", {"options": [str(exc)]}) from exc

    def _bots(self, game: str, count: int) -> list[str]:
        """``count`` distinct pool identities that play ``game``: the game's house bots,
        the best first (its :attr:`Game.house_bots <server.games.Game.house_bots>`, then
        those of every game), then any other pool bot that plays it; of each bot, its
        identities seated in the fewest games first (:func:`~server.services.bots.least_busy`)."""
        pool = app_store.bot_pool(self.r)
        names = [n for n in REGISTRY[game].bots() if n in pool]
        names += sorted(n for n in pool if n not in names)
        names = [n for n in names if pool[n]["games"] is None or game in pool[n]["games"]]
        loads = player_store.game_counts(self.r, [p for n in names for p in pool[n]["players"]])
        found: list[str] = []
        for name in names:
            found += [p for p in least_busy(pool[name]["players"], loads) if p not in found]
        if len(found) < count:
            raise InvalidRequest(
                "the server's bot pool cannot fill this table",
                {"game": [f"needs {count} bots; the pool has {len(found)} for {game}"]},
            )
        return found[:count]

    def _limit(self, client: str) -> None:
        if not self.per_client:
            return
        subject = "visitor-" + hashlib.sha256(client_key(client).encode()).hexdigest()[:24]
        wait = ratelimit_store.hit(self.r, subject, self.per_client, self.period, time.time())
        if wait is not None:
            raise RateLimited(wait)

    def _make_room(self, now: float) -> None:
        """Forget ended and expired visitor games, forfeit those whose move time has
        passed (the scheduler may not have yet); refuse when the rest fill every table."""
        ids = visitor_store.live(self.r, now - self.guest_ttl)
        if len(ids) < self.max_live:
            return
        for game_id in self.clocks.due_among(ids, now):
            self.clocks.timeout(game_id, now)
        live = unfinished(self.r, ids)
        gone = [i for i in ids if i not in live]
        visitor_store.drop(self.r, gone)
        if len(ids) - len(gone) >= self.max_live:
            raise TablesFull(self.max_live)

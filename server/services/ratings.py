"""Ratings: a game's leaderboard, and rating one game exactly once (for the scheduler).

Only games every rated player consented to change ratings: a tournament's
games are rated only if it started with every entry accepted by all its
players (``consented``, :mod:`server.services.invitations`); any other event
is marked done without touching a rating.

Ratings are openskill's (:mod:`server.tournaments.ratings`), one pool per game;
a player's own ratings are on its profile (:mod:`server.services.players`). Every
rating shown says how sure it is (``provisional``, the 95% interval ``low``..``high``:
:func:`server.services.views.rating_out`), and each player's rating after each rated
game is kept, its latest 500 (:meth:`Ratings.history`). Ratings are public, as the
leaderboard is.
"""

from __future__ import annotations

import random
import time
from typing import Any

import orjson

from server.games import REGISTRY
from server.services import views
from server.services.core import Core
from server.services.errors import Contention, NotFound
from server.services.views import rating_out
from server.services.wire import iso
from server.store import invitations as invitation_store
from server.store import players as player_store
from server.store import ratings as rating_store
from server.store.ratings import RatingChanged
from server.tournaments import ratings as rating_model

RATE_RETRIES = 10


def event_games(results: dict[str, dict[str, Any]], key: str) -> tuple[str, ...]:
    """The game a tournament's rating event ``r<round>:t<table>`` rated, from the
    tournament's stored results (``<round>:<table>`` -> result with its ``game_id``); a
    duplicate board's direction (``r<round>:b<board>:p<position>``) names none.

    >>> event_games({"0:1": {"game_id": "g1"}}, "r0:t1"), event_games({}, "r0:b0:p1")
    (('g1',), ())
    """
    head, _, table = key.partition(":t")
    game_id = results.get(f"{head[1:]}:{table}", {}).get("game_id") if table else None
    return (str(game_id),) if game_id else ()


class Ratings:
    """Leaderboards and rating updates, over the shared :class:`Core`."""

    def __init__(self, core: Core) -> None:
        self.core = core
        self.r = core.r
        self.scripts = core.scripts

    def leaderboard(self, game: str) -> dict[str, Any]:
        """A game's rating leaderboard, best first by ordinal (mu - 3 sigma).

        Raises:
            NotFound: no such game.
        """
        if game not in REGISTRY:
            raise NotFound("no such game", {"game": game})
        pool = rating_store.pool(self.r, game)
        found = player_store.get_many(self.r, pool)
        rows = rating_model.leaderboard({p: (v["mu"], v["sigma"]) for p, v in pool.items()})
        return {
            "game": game,
            "leaderboard": [
                {
                    "rank": row.rank,
                    "player_id": row.player,
                    "name": rec.name if (rec := found.get(row.player)) else None,
                    **views.house(row.player),
                    **rating_out(pool[row.player]),
                }
                for row in rows
            ],
        }

    def history(self, game: str, player_id: str) -> dict[str, Any]:
        """A player's rating in ``game`` after each rated game, newest first (its latest
        :data:`~server.store.ratings.HISTORY_LIMIT`), each row with its 95% interval and
        whether it was provisional then, under its current rating.

        Raises:
            NotFound: no such game, or the player has no rating in it.
        """
        if game not in REGISTRY:
            raise NotFound("no such game", {"game": game})
        got = rating_store.of_player(self.r, [game], player_id) if len(player_id) <= 64 else {}
        if game not in got:
            raise NotFound("no rating in this game", {"game": game, "player_id": player_id})
        rows = rating_store.history(self.r, game, player_id, rating_store.HISTORY_LIMIT)
        found = player_store.get_many(self.r, [player_id]).get(player_id)
        return {
            "game": game,
            "player_id": player_id,
            "name": found.name if found else None,
            **views.house(player_id),
            "rating": rating_out(got[game]),
            "history": [
                {
                    "at": iso(row["at"]),
                    "event": row["event"],
                    "game_ids": row["game_ids"],
                    **{k: v for k, v in rating_out(row).items() if k not in ("games",)},
                }
                for row in rows
            ],
        }

    def applied(self, pool: str, event_ids: list[str]) -> list[bool]:
        """Whether each rating event of the pool was applied already (one round trip)."""
        return rating_store.applied(self.r, pool, event_ids)

    def rate(
        self,
        game: str,
        event_id: str,
        teams: tuple[tuple[str, ...], ...],
        ranks: tuple[int, ...],
        *,
        consented: bool | None = None,
        keep_after: bool = False,
        game_ids: tuple[str, ...] = (),
    ) -> bool:
        """Apply one rated game to ``game``'s pool exactly once.

        ``event_id`` is ``<tournament id>:<event key>``. Only games every rated
        player agreed to are rated: ``consented`` says so when the caller knows
        (a ladder's entries joined it themselves); left out, the tournament must be
        recorded as consented. Otherwise the event is marked done, nothing rated.

        Reads the players' ratings, computes the new ones (openskill), and
        writes them with a compare-and-set that also marks ``event_id`` applied
        (``store.ratings.apply``). Lost races are retried a few times with
        jitter; an event already applied is left alone. With ``keep_after`` the
        ratings written are also recorded as the event's, in the same write
        (``store.ratings.after``: a ladder entry's rating over time). Each player's
        history gains the new rating, with the time, the event and ``game_ids`` (the
        games the event rated, where the caller names them).

        Returns:
            True if this call applied it (False: applied already, or skipped).

        Raises:
            Contention: the ratings kept changing under every retry.
        """
        if consented is None:
            tournament_id = event_id.partition(":")[0]
            consented = invitation_store.tournament_consented(self.r, tournament_id)
        if not consented:
            rating_store.skip(self.r, game, event_id)
            return False
        players = [p for team in teams for p in team]
        for attempt in range(RATE_RETRIES):
            raw = rating_store.read(self.r, game, players)
            stored = {p: orjson.loads(b) for p, b in zip(players, raw, strict=True) if b}
            new = rating_model.rate_teams(
                {p: (v["mu"], v["sigma"]) for p, v in stored.items()}, teams, ranks
            )
            values = [
                {
                    "mu": new[p].mu,
                    "sigma": new[p].sigma,
                    "games": stored.get(p, {}).get("games", 0) + 1,
                }
                for p in players
            ]
            try:
                return rating_store.apply(
                    self.r,
                    self.scripts,
                    game,
                    event_id,
                    players,
                    raw,
                    values,
                    keep_after,
                    at=time.time(),
                    game_ids=game_ids,
                )
            except RatingChanged:
                time.sleep(random.uniform(0, 0.005 * (attempt + 1)))
        raise Contention("ratings kept changing; the scheduler will try again", {"event": event_id})

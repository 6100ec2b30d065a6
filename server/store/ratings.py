"""Rating pools in Redis: one per game, each rated game applied exactly once.

Layout (under the hash tag ``{<game>}``, names from :mod:`keys`):

* ``r:{game}:ratings`` hash player id -> JSON ``{"mu", "sigma", "games"}``;
* ``r:{game}:applied`` set of the ids of the rated games already applied;
* ``r:{game}:after``   hash event id -> JSON ``{player: {"mu", "sigma"}}``, the ratings
  an event wrote, for pools that keep them (a ladder's: its entries' rating over time);
* ``r:{game}:history:<player>`` list, oldest first, of JSON ``{"at", "mu", "sigma",
  "event", "game_ids"}``: the player's rating after each rated game, the latest
  :data:`HISTORY_LIMIT` kept (every pool).

An update is a compare-and-set (``lua/apply_rating.lua``): the new ratings are
computed in Python from the ratings read, and written only if those are still
the stored ones and the event is not yet applied, so two schedulers rating
the same game apply it once, and two events for the same players never lose
an update. The ratings an event wrote, and each player's history row, are
written by the same script, so no later event of the same players can slip in
between and a history never holds an event twice.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import orjson
from redis import Redis

from . import keys
from .errors import StoreError
from .replies import text
from .scripts import Scripts

HISTORY_LIMIT = 500
"""Rows kept per player and pool: its latest 500 rated games (about 60 kB)."""


class RatingChanged(StoreError):
    """A rating moved between the read and the write; read again and recompute."""

    def __init__(self) -> None:
        super().__init__("a rating changed while it was being updated")


def read(r: Redis, game: str, players: Sequence[str]) -> list[bytes | None]:
    """The stored ratings (raw JSON, for the compare-and-set) of ``players``, in order."""
    raw: list[Any] = r.hmget(keys.ratings(game), list(players))
    return raw


def apply(
    r: Redis,
    scripts: Scripts,
    game: str,
    event_id: str,
    players: Sequence[str],
    read_back: Sequence[bytes | None],
    new: Sequence[dict[str, Any]],
    keep_after: bool = False,
    *,
    at: float = 0.0,
    game_ids: Sequence[str] = (),
) -> bool:
    """Write ``new`` ratings and mark ``event_id`` applied, if nothing moved since the read;
    with ``keep_after``, also record them as the event's (:func:`after`), in the same step.
    Each player's history (:func:`history`) gains a row: ``at`` (epoch seconds), its new
    ``mu`` and ``sigma``, ``event_id`` and the ``game_ids`` the event rated.

    Returns:
        True if applied now, False if the event had been applied already.

    Raises:
        RatingChanged: a rating changed since ``read_back`` was read; nothing written.
    """
    n = len(players)
    args: list[Any] = [event_id, n, *players, *[b or b"" for b in read_back]]
    args += [orjson.dumps(x) for x in new]
    names = [keys.ratings(game), keys.ratings_applied(game), keys.ratings_after(game)]
    names += [keys.rating_history(game, p) for p in players]
    kept = {p: {"mu": x["mu"], "sigma": x["sigma"]} for p, x in zip(players, new, strict=True)}
    args.append(orjson.dumps(kept) if keep_after else b"")
    for x in new:
        row = {"at": at, "mu": x["mu"], "sigma": x["sigma"], "event": event_id}
        args.append(orjson.dumps(row | {"game_ids": list(game_ids)}))
    args.append(HISTORY_LIMIT)
    code = scripts.apply_rating(keys=names, args=args, client=r)
    if code == -1:
        raise RatingChanged()
    return code == 1


def applied(r: Redis, game: str, event_ids: Sequence[str]) -> list[bool]:
    """Whether each rating event was applied already (one round trip)."""
    if not event_ids:
        return []
    return [bool(x) for x in r.smismember(keys.ratings_applied(game), list(event_ids))]


def after(r: Redis, game: str, event_ids: Sequence[str]) -> dict[str, dict[str, Any]]:
    """The ratings each of ``event_ids`` wrote, where recorded (``apply(keep_after=True)``)."""
    if not event_ids:
        return {}
    raw = r.hmget(keys.ratings_after(game), list(event_ids))
    return {e: orjson.loads(v) for e, v in zip(event_ids, raw, strict=True) if v}


def history(r: Redis, game: str, player_id: str, limit: int) -> list[dict[str, Any]]:
    """The player's latest ``limit`` history rows in ``game``'s pool, newest first."""
    raw = r.lrange(keys.rating_history(game, player_id), -limit, -1)
    return [orjson.loads(b) for b in reversed(raw)]


def pool(r: Redis, game: str) -> dict[str, dict[str, Any]]:
    """Every rated player of ``game``: id -> ``{"mu", "sigma", "games"}``."""
    return {text(k): orjson.loads(v) for k, v in r.hgetall(keys.ratings(game)).items()}


def of_player(r: Redis, games: Iterable[str], player_id: str) -> dict[str, dict[str, Any]]:
    """The player's rating in each of ``games`` where it has one (one round trip)."""
    names = list(games)
    pipe = r.pipeline(transaction=False)
    for game in names:
        pipe.hget(keys.ratings(game), player_id)
    return {g: orjson.loads(v) for g, v in zip(names, pipe.execute(), strict=True) if v}


def skip(r: Redis, game: str, event_id: str) -> None:
    """Mark ``event_id`` done without rating it (a game not every player consented to)."""
    r.sadd(keys.ratings_applied(game), event_id)

"""The archive: finished games' replays in bulk, a page at a time, to train on.

A ladder's games, a tournament's, or every game that ended in a period, each as
``GET /v1/games/{id}/replay`` shows it (:meth:`Replays.shown`), oldest first
by the list's order. Only finished games (not aborted ones, not games still
played) and never a table of a duplicate board that is not over
(:func:`boards.in_play_among`, the rule of the replay endpoint), for anyone,
the admin included: an archive is for training, not for watching a board.

Pages: a cursor stands for the last game looked at. A ladder's or a tournament's
games go in game id order, a period's in end-time order (ties by id). A request
looks at :data:`SCAN` games at most, so a page may hold fewer than ``limit``
replays (even none) and still have a next one; only the last page has no cursor.
A game ending, or a board becoming over, after the walk passed its place is not
in that walk: a later export finds it.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable
from typing import Any

from server.services import boards, wire
from server.services.core import Core
from server.services.errors import InvalidRequest, NotFound
from server.services.replays import Replays
from server.store import archive as archive_store
from server.store import games as game_store

PAGE = 20
"""Replays per page unless asked otherwise."""
MAX_PAGE = 50
"""At most this many replays per page (a replay is tens of kilobytes)."""
SCAN = 500
"""At most this many games are looked at per request."""

Candidates = Callable[[Any, int], list[tuple[Any, str]]]
"""``(after, count)`` -> up to ``count`` ``(key, game id)`` after the key ``after``."""


class Archive:
    """Finished replays of a ladder, a tournament or a period, page by page."""

    def __init__(self, core: Core, replays: Replays) -> None:
        self.core = core
        self.r = core.r
        self.replays = replays

    def page(
        self,
        *,
        ladder: str | None = None,
        tournament: str | None = None,
        since: float | None = None,
        until: float | None = None,
        cursor: str | None = None,
        limit: int = PAGE,
    ) -> dict[str, Any]:
        """One page: ``{"replays": [...], "next_cursor": str | None}``.

        Exactly one of ``ladder``, ``tournament``, ``since`` (epoch seconds; a
        period is ``since <= end < until``, ``until`` open without it).

        Raises:
            InvalidRequest: not exactly one selection, ``until`` without ``since`` or
                not after it, a limit out of ``1..MAX_PAGE``, a cursor this list did
                not give.
            NotFound: no such ladder or tournament.
        """
        chosen = [n for n, v in (("ladder", ladder), ("tournament", tournament),
                                 ("since", since)) if v is not None]  # fmt: skip
        if len(chosen) != 1:
            raise InvalidRequest(
                "choose the games by exactly one of ladder, tournament, since",
                {"_schema": [f"given: {', '.join(chosen) or 'none'}"]},
            )
        if until is not None and (since is None or until <= since):
            raise InvalidRequest(
                "until needs since, and must come after it", {"until": ["after since"]}
            )
        if not 1 <= limit <= MAX_PAGE:
            raise InvalidRequest("limit out of range", {"limit": [f"1..{MAX_PAGE}"]})
        if since is not None:
            return self._walk(self._period(since, until), wire.cursor_key(cursor), limit)
        if ladder is not None:
            ids = archive_store.ladder_game_ids(self.r, ladder)
            if ids is None:
                raise NotFound("no such ladder", {"ladder_id": ladder[:64]})
        else:
            assert tournament is not None
            ids = archive_store.tournament_game_ids(self.r, tournament)
            if ids is None:
                raise NotFound("no such tournament", {"tournament_id": tournament[:64]})
        return self._walk(_listed(ids), cursor, limit)

    def _period(self, since: float, until: float | None) -> Candidates:
        def candidates(after: Any, count: int) -> list[tuple[Any, str]]:
            rows = archive_store.ended_between(self.r, since, until, after, count)
            return [((at, gid), gid) for at, gid in rows]

        return candidates

    def _walk(self, candidates: Candidates, after: Any, limit: int) -> dict[str, Any]:
        """Look at candidates after ``after`` until ``limit`` replays or :data:`SCAN` games."""
        out: list[dict[str, Any]] = []
        looked = 0
        done = False
        while len(out) < limit and looked < SCAN:
            want = min(max(2 * limit, 20), SCAN - looked)
            batch = candidates(after, want)
            records = {g.id: g for g in game_store.read_many(self.r, [gid for _, gid in batch])}
            sealed = boards.in_play_among(self.core, records.values())
            full = False
            for key, gid in batch:
                looked += 1
                after = key
                record = records.get(gid)
                if record is not None and record.status == "finished" and gid not in sealed:
                    out.append(self.replays.shown(record))
                    if len(out) == limit:
                        full = True
                        break
            if not full and len(batch) < want:  # every candidate looked at
                done = True
                break
        return {"replays": out, "next_cursor": None if done else _cursor(after)}


def _listed(ids: list[str]) -> Candidates:
    """Candidates from a sorted list of ids: the key is the id itself."""

    def candidates(after: Any, count: int) -> list[tuple[Any, str]]:
        start = 0 if after is None else bisect.bisect_right(ids, after)
        return [(gid, gid) for gid in ids[start : start + count]]

    return candidates


def _cursor(key: Any) -> str | None:
    """The cursor of a key: a game id, or ``<end time>_<id>`` for a period."""
    if key is None:
        return None
    if isinstance(key, tuple):
        return wire.cursor(*key)
    return str(key)

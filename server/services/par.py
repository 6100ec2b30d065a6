"""Each finished game's par (:func:`server.games.analysis.par_of`), computed once.

Par replays the whole record (Concerto: a double-dummy search of every deal), which
costs far more than reading a replay. So it is computed where a game finishes
(:meth:`server.services.core.Core.after_commit`) and stored with the game's record
(:func:`server.store.archive.keep_par`); a replay, and the archive's every line,
reads it back. A game finished before par was stored gets it computed on its first
read, and stored then.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from redis import Redis

from server.games.analysis import par_of
from server.store import archive as archive_store
from server.store import game_events as event_store
from server.store.games import GameRecord


def settle(
    r: Redis, record: GameRecord, events: Iterable[tuple[int, Mapping[str, Any]]] | None = None
) -> Any:
    """Compute the finished game's par from its events (read here unless given) and store
    it; the par stored (another request's, if it stored one first)."""
    stored = event_store.all_events(r, record.id) if events is None else events
    par = par_of(record.meta["game"], record.meta["options"], [e for _, e in stored])
    return archive_store.keep_par(r, record.id, par)


def of(r: Redis, record: GameRecord, events: Iterable[tuple[int, Mapping[str, Any]]]) -> Any:
    """The finished game's par: the stored one, else computed from ``events`` and stored."""
    found, par = archive_store.stored_par(r, record.id)
    return par if found else settle(r, record, events)

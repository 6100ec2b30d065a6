"""A ladder's public pages: the list of ladders, one ladder with its entries, its
leaderboard, and one entry with its games (anyone may read them).

Each entry's state, health, results and history come from
:class:`server.services.ladder_stats.LadderStats`, which shows nothing of a duplicate
board's tables until the board is over (a table's end would tell of the deal its twin
plays). Names need not be unique, so the leaderboard tells rows of the same name apart
by the player id's tail (:func:`label`).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from server.services import views
from server.services.core import Core
from server.services.errors import NotFound
from server.services.ladder_entries import pool, read
from server.services.ladder_stats import LadderStats
from server.services.wire import iso
from server.store import ladders as store
from server.store import ratings as rating_store
from server.store.ladders import LadderRecord
from server.tournaments import ratings as rating_model


def label(name: str | None, player_id: str, shared: bool) -> str:
    """A leaderboard row's name, told apart by the player id's tail when another row
    has the same name (names need not be unique; ids are).

    >>> label("mybot", "9f3e1c77aa01b2c4", True), label("ann", "b2c4", False)
    ('mybot #b2c4', 'ann')
    """
    shown = name if name is not None else player_id
    return f"{shown} #{player_id[-4:]}" if shared else shown


class LadderPages:
    """The ladders as shown, over the shared :class:`Core` and the entries' state."""

    def __init__(self, core: Core, stats: LadderStats) -> None:
        self.core = core
        self.r = core.r
        self.stats = stats

    def list_ladders(self) -> dict[str, Any]:
        return {
            "ladders": [
                self.summary(rec) for i in store.ids(self.r) if (rec := store.read(self.r, i))
            ]
        }

    def show(self, ladder_id: str) -> dict[str, Any]:
        """The ladder's settings and its entries with their state (playing, paused…)."""
        record = read(self.r, ladder_id)
        stats = self.stats.stats(record)
        return self.summary(record) | {
            "entries": [stats[p] for p in sorted(record.entries)],
        }

    def leaderboard(self, ladder_id: str) -> dict[str, Any]:
        """Entries best first by ordinal (mu - 3 sigma), each with its 95% interval; a row is
        provisional while its sigma is not below ``SIGMA_SURE`` or it has fewer than the
        ladder's ``provisional_games`` rated contests."""
        record = read(self.r, ladder_id)
        stats = self.stats.stats(record)
        ratings = rating_store.pool(self.r, pool(ladder_id))
        rows = rating_model.leaderboard({p: (v["mu"], v["sigma"]) for p, v in ratings.items()})
        names = self.stats.names(list(ratings))
        counts = Counter(names.get(p) for p in ratings)
        board = []
        for row in rows:
            s = stats.get(row.player) or self._blank(record, row.player)
            low, high = rating_model.interval((row.mu, row.sigma))
            games = ratings[row.player].get("games", 0)
            board.append(
                {
                    "rank": row.rank,
                    "player_id": row.player,
                    "name": names.get(row.player),
                    "label": label(
                        names.get(row.player), row.player, counts[names.get(row.player)] > 1
                    ),
                    **views.house(row.player),
                    "ordinal": round(row.ordinal, 3),
                    "mu": round(row.mu, 3),
                    "sigma": round(row.sigma, 3),
                    "low": round(low, 3),
                    "high": round(high, 3),
                    "games": games,
                    "provisional": rating_model.provisional(row.sigma)
                    or games < record.meta["provisional_games"],
                    "results": s["results"],
                    "last_played": s["last_played"],
                    "on_ladder": row.player in record.entries,
                }
            )
        return {"ladder_id": ladder_id, "leaderboard": board}

    def entry(self, ladder_id: str, player_id: str) -> dict[str, Any]:
        """One entry: state, health, rating and its games (newest first), with replay links."""
        record = read(self.r, ladder_id)
        stats = self.stats.stats(record, history_of=player_id)
        if player_id not in stats:
            raise NotFound("never on this ladder", {"player_id": player_id})
        return stats[player_id]

    def _blank(self, record: LadderRecord, player: str) -> dict[str, Any]:
        return {"results": {"won": 0, "drawn": 0, "lost": 0}, "last_played": None}

    @staticmethod
    def summary(record: LadderRecord) -> dict[str, Any]:
        """The ladder's settings and counts, as every page shows them."""
        meta = record.meta
        return {
            "id": record.id,
            "name": meta["name"],
            "game": meta["game"],
            "options": meta["options"],
            "table_size": meta["table_size"],
            "side_size": meta["side_size"],
            "sides": meta.get("sides", "solo"),
            "duplicate": meta["duplicate"],
            "clock": meta["clock"],
            "timeout_policy": meta["timeout_policy"],
            "max_games": meta["max_games"],
            "provisional_games": meta["provisional_games"],
            "pause_after": meta["pause_after"],
            "pause_seconds": meta["pause_seconds"],
            "seen_seconds": meta["seen_seconds"],
            "rematch_seconds": meta.get("rematch_seconds", 0.0),
            "validation": bool(meta.get("validation", False)),
            "created": iso(record.created),
            "entries_count": len(record.entries),
            "matches": record.matches_count,
        }

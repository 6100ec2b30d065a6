"""A ladder's matchmaking plan: the matches to start now among its available entries.

The matchmaking is pure (:mod:`server.tournaments.ladder`); :meth:`Matchmaker.plan`
feeds it what Redis holds: who was seen waiting lately, who is validated, who is at
its cap, who is paused (:mod:`server.services.ladder_stats`), the ratings, each
entry's last match (rematch avoidance) and how long each has been idle. The
scheduler's pass asks for the plan (:meth:`server.services.ladder_play.LadderPlay.advance`,
through :meth:`server.services.ladders.Ladders.plan`) and writes the matches.

Caps: an entry plays at most ``max_games`` of the ladder's games at once (the
ladder's, or its own lower one); house bots have no cap, so one entry that stalls
its games holds only its own share of theirs, and a validated newcomer is matched
at the next passes however busy they are.

Sides: solo entries are paired into partnerships board by board; on a ladder of
fixed pairs only an accepted pair (:func:`server.services.ladder_entries.pair_of`)
is matched, both members free, always as one side.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from server.services import views
from server.services.core import Core
from server.services.ladder_entries import fixed, pair_of, pool, validated
from server.services.ladder_stats import LadderStats
from server.store import ladders as store
from server.store import ratings as rating_store
from server.store.ladders import LadderRecord
from server.tournaments import ladder as matching
from server.tournaments import ratings as rating_model

RECENT_MATCHES = 64
"""How far back the scheduler looks for each entry's last match (rematch avoidance)."""


class Matchmaker:
    """A ladder's matches planned, over the shared :class:`Core` and the entries' state."""

    def __init__(self, core: Core, stats: LadderStats) -> None:
        self.core = core
        self.r = core.r
        self.stats = stats

    def plan(self, record: LadderRecord, now: float) -> list[dict[str, Any]]:
        """The matches to start now among the available entries (see the module doc)."""
        meta = record.meta
        busy: dict[str, int] = defaultdict(int)
        for n, match in record.open.items():
            for t, seats in enumerate(match["tables"]):
                if store.slot(n, t) not in record.results:
                    for p in seats:
                        busy[p] += 1
        seen = store.last_seen(self.r, list(record.entries), enrol=True)
        free = [
            p
            for p in record.entries
            if seen.get(p, 0) >= now - meta["seen_seconds"]
            and validated(record.entries[p])
            and busy[p] < self._cap(record, p)
        ]
        if len(free) < meta["table_size"]:
            return []  # nobody to match: spare the reading of every result
        tally = self.stats.tally(record, None, sealed=True)
        stats = self.stats.stats(record, seen=seen, now=now, tally=tally)
        ratings = rating_store.pool(self.r, pool(record.id))
        candidates = [
            matching.Candidate(p, *self._rating(ratings, p))
            for p in free
            if stats[p]["status"] != "paused"
        ]
        idle = {p: now - t for p, t in tally.last.items()}
        found: list[tuple[matching.Match, bool]] = []
        if meta["duplicate"]:  # boards first; whoever is left plays an ordinary game
            boards = self._match(record, candidates, idle, teams=True)
            found += [(match, True) for match in boards]
            used = {p for match in boards for side in match for p in side}
            candidates = [c for c in candidates if c.player not in used]
        if len(candidates) >= meta["table_size"]:
            found += [(match, False) for match in self._match(record, candidates, idle)]
        return [
            {
                "sides": [list(side) for side in match],
                "tables": matching.tables(match, duplicate_board=board),
                "created": now,
            }
            for match, board in found
        ]

    @staticmethod
    def _cap(record: LadderRecord, player: str) -> float:
        """How many of the ladder's games at once ``player`` may be at: the ladder's
        ``max_games``, or the entry's own lower cap. House bots have none: the server
        sizes their play, and each opponent holds at most its own cap of their games,
        so one entry that stalls its games cannot keep the others from them."""
        if views.is_house(player):
            return float("inf")
        return min(record.meta["max_games"], record.entries[player].get("max_games") or 1e9)

    def _match(
        self,
        record: LadderRecord,
        candidates: list[matching.Candidate],
        idle: dict[str, float],
        *,
        teams: bool = False,
    ) -> list[matching.Match]:
        """Solo entries paired per board, or accepted fixed pairs (both members free).

        ``teams``: a duplicate board's sides are teams of two sides each (twice the
        players; see :func:`server.tournaments.ladder.tables`)."""
        meta = record.meta
        sides = meta["table_size"] // meta["side_size"]
        per_side = 2 if teams else 1
        recent, partners = self._recent(record)
        wait = meta.get("rematch_seconds", 0.0)
        if not fixed(record):
            return matching.make_matches(
                candidates,
                sides=sides,
                seats_per_side=meta["side_size"] * per_side,
                recent=recent,
                partners=partners,
                idle=idle,
                rematch_wait=wait,
            )
        by_player = {c.player: c for c in candidates}
        pairs = [
            (c, by_player[q])
            for c in candidates
            if (q := pair_of(record, c.player)) in by_player and c.player < q
        ]
        return matching.make_pair_matches(
            pairs,
            sides=sides,
            pairs_per_side=per_side,
            recent=recent,
            idle=idle,
            rematch_wait=wait,
        )

    @staticmethod
    def _rating(ratings: dict[str, dict[str, Any]], player: str) -> tuple[float, float]:
        got = ratings.get(player)
        return (
            (got["mu"], got["sigma"])
            if got
            else (rating_model.DEFAULT.mu, rating_model.DEFAULT.sigma)
        )

    def _recent(
        self, record: LadderRecord
    ) -> tuple[dict[str, frozenset[str]], dict[str, frozenset[str]]]:
        """Each player's companions (everyone) and partners in its last match."""
        first = max(0, record.matches_count - RECENT_MATCHES)
        met: dict[str, frozenset[str]] = {}
        partners: dict[str, frozenset[str]] = {}
        found = store.matches(self.r, record.id, list(range(first, record.matches_count)))
        for n in sorted(found):
            players = [p for side in found[n]["sides"] for p in side]
            for side in found[n]["sides"]:
                for p in side:
                    met[p] = frozenset(players) - {p}
                    partners[p] = frozenset(side) - {p}
        return met, partners

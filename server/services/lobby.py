"""The lobby: the list of live and ended games, and the rules of every game."""

from __future__ import annotations

import re
import time
from typing import Any

from server.games import REGISTRY
from server.services import boards, views
from server.services.core import Core
from server.services.wire import iso
from server.store import games as game_store
from server.store import lobby as lobby_store
from server.store.games import GameRecord

PER_CREATOR = 5
"""Live games of one player the lobby's list shows at most (``PARLOUR_LOBBY_PER_CREATOR``)."""
SCAN = 2000
"""Live index rows one listing reads at most while it skips a creator's surplus."""
_PLAYER_ID = re.compile(r"[0-9a-f]{16}")


def capped(creator: str | None) -> bool:
    """Whether the lobby caps ``creator``'s rows: a registered player's games (not the
    admin's, the scheduler's, an app's or the visitors', which many people share)."""
    return creator is not None and _PLAYER_ID.fullmatch(creator) is not None


class Lobby:
    """What anyone may read about the server as a whole, over the shared :class:`Core`.

    Args:
        per_creator: at most this many live games of one player in the lobby's list
            (the rest are listed with ``created_by``).
    """

    def __init__(self, core: Core, *, per_creator: int = PER_CREATOR) -> None:
        self.core = core
        self.r = core.r
        self.per_creator = per_creator

    @staticmethod
    def rules() -> dict[str, Any]:
        """Every registered game with its seat counts, variants and options (with defaults)."""
        return {
            "games": [
                {
                    "id": game.id,
                    "title": game.title,
                    "seats": list(game.seats),
                    "variants": (
                        list(game.options[game.variant_option]["choices"])
                        if game.variant_option
                        else []
                    ),
                    "options": {name: dict(spec) for name, spec in game.options.items()},
                }
                for game in REGISTRY.values()
            ]
        }

    def list_games(
        self, status: str = "live", limit: int = 50, created_by: str | None = None
    ) -> dict[str, Any]:
        """The lobby's list: the newest live (waiting or active) or ended games.

        Fair to everyone: the live list shows at most ``per_creator`` games of any
        one player (so one player's burst of games cannot fill it); ``created_by``
        lists that creator's live games only, all of them up to ``limit``.

        Public parts only, what any spectator's view shows: seats, whose turn,
        scores, the result (a duplicate board's table in play shows only that it
        exists: none of these, nor its version or times).
        The index is a hint; each game's own status decides, and a game found
        ended in the live index is moved on the way.

        Args:
            status: ``live`` or ``finished`` (finished or aborted).
            limit: at most this many games, newest first.
            created_by: only this creator's games (live only).
        """
        if status == "live":
            indexed = self._fair_live(limit, created_by)
        else:
            indexed = lobby_store.games(self.r, status, limit)
        records = {g.id: g for g in game_store.read_many(self.r, [gid for gid, _ in indexed])}
        sealed = boards.in_play_among(self.core, records.values())
        ended: list[tuple[str, float]] = []
        gone: list[str] = []
        out = []
        for gid, at in indexed:
            record = records.get(gid)
            if record is None:
                gone.append(gid)
                continue
            over = record.status in ("finished", "aborted")
            if over and status == "live":
                ended.append((gid, time.time()))
                continue
            out.append(self._entry(record, at, over, sealed=record.id in sealed))
        lobby_store.settle(self.r, ended, gone)
        return {"status": status, "games": out}

    def _fair_live(self, limit: int, created_by: str | None) -> list[tuple[str, float]]:
        """The newest live games, at most ``per_creator`` of any one player (or only
        ``created_by``'s); reads at most :data:`SCAN` index rows."""
        picked: list[tuple[str, float]] = []
        shown: dict[str, int] = {}
        batch = max(limit * 4, 100)
        for start in range(0, SCAN, batch):
            rows = lobby_store.live_page(self.r, start, batch)
            for gid, at, creator in rows:
                if created_by is not None:
                    if creator != created_by:
                        continue
                elif capped(creator):
                    assert creator is not None
                    if shown.get(creator, 0) >= self.per_creator:
                        continue
                    shown[creator] = shown.get(creator, 0) + 1
                picked.append((gid, at))
                if len(picked) >= limit:
                    return picked
            if len(rows) < batch:
                break
        return picked

    def _entry(
        self, record: GameRecord, at: float, over: bool, *, sealed: bool = False
    ) -> dict[str, Any]:
        """One game of the list: its public parts, and when it was created or ended.

        The options (public in every view too) let the lobby name the variant:
        Pinochle's ``variant``, Concerto's edition (``rules``).

        A table of a duplicate board in play (``sealed``) shows nobody whose turn it
        is, its scores, its result, its version or when it was created or ended:
        they tell of the deal its twin is playing (its pace, how long the bidding
        ran). ``tournament`` names a tournament's table (``id``) or a ladder's
        (``ladder``).
        """
        state = views.state_of(record)
        public = {} if sealed else state.view(None)
        clock = self.core.clock(record) if record.status == "aborted" else None
        tournament = record.meta.get("tournament")
        return {
            "id": record.id,
            "game": record.meta["game"],
            "options": record.meta["options"],
            "status": record.status,
            "version": None if sealed else record.version,
            "seats": views.seats(record),
            "to_move": public["to_move"] if record.status == "active" and public else [],
            "scores": public.get("scores"),
            "result": None if sealed else views.result(record, state, clock),
            "created": None if over or sealed else iso(at),
            "ended": iso(at) if over and not sealed else None,
            "tournament": None
            if tournament is None
            else {
                "id": tournament.get("id"),
                "ladder": tournament.get("ladder"),
                "round": tournament.get("round"),
                "table": tournament.get("table"),
            },
        }

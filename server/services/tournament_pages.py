"""A tournament as shown: one tournament with its entries, rounds and standings, the
standings alone, the sheets (standings, cross-table, games; also as CSV), and the
lobby's list of the newest tournaments.

Public (anyone may read them): pairings, results, names and game ids only, never a
card; each game's own view decides what a caller may see of it. What is shown is
read off the stored tournament by :mod:`server.services.brackets` (the snapshot the
pure formats rank, the rounds' tables); this module reads the records and the names.
"""

from __future__ import annotations

from typing import Any

from redis import Redis

from server.services import brackets, crosstable, views
from server.services.core import Core
from server.services.errors import NotFound
from server.services.lobby import PER_CREATOR, capped
from server.services.wire import iso
from server.store import lobby as lobby_store
from server.store import players as player_store
from server.store import tournaments as store
from server.store.tournaments import TournamentRecord
from server.tournaments.formats import Format


def read(r: Redis, tournament_id: str) -> TournamentRecord:
    """The tournament as stored.

    Raises:
        NotFound: no such tournament.
    """
    record = store.read(r, tournament_id)
    if record is None:
        raise NotFound("no such tournament", {"tournament_id": tournament_id})
    return record


def player_names(r: Redis, record: TournamentRecord) -> dict[str, str]:
    """The names of the tournament's players, by id (a player removed since is left out)."""
    ids = [p for _, players in record.entries for p in players]
    return {p: rec.name for p, rec in player_store.get_many(r, ids).items() if rec}


class TournamentPages:
    """The tournaments as shown, over the shared :class:`Core`."""

    def __init__(self, core: Core, *, per_creator: int = PER_CREATOR) -> None:
        self.core = core
        self.r = core.r
        self.per_creator = per_creator

    def show(self, tournament_id: str) -> dict[str, Any]:
        """The tournament: settings, entries, rounds with their games and results, standings.

        Raises:
            NotFound.
        """
        record = read(self.r, tournament_id)
        names = player_names(self.r, record)
        snap = brackets.snapshot(record)
        meta = record.meta
        return {
            "id": record.id,
            "name": meta["name"],
            "game": meta["game"],
            "options": meta["options"],
            "format": meta["format"],
            "status": record.status,
            "created_by": meta["created_by"],
            "clock": meta["clock"],
            "timeout_policy": meta["timeout_policy"],
            "seats_per_entry": record.seats_per_entry,
            "table_size": (
                meta["num_seats"] // record.seats_per_entry if record.seats_per_entry else None
            ),
            "min_table_size": meta.get("min_table_size"),
            "rounds_planned": brackets.rounds_planned(snap, meta),
            "boards_per_match": meta.get("boards_per_match"),
            "created": iso(record.created),
            "started": iso(record.started),
            "finished": iso(record.finished),
            "error": record.error,
            "consented": record.consented,
            "progress": {
                "rounds": len(record.rounds),
                "games_planned": record.games_planned,
                "games_started": len(record.games),
                "games_finished": len(record.results),
            },
            "registration": "closed" if record.registration_closed else "open",
            "join_code": record.join_code is not None,
            "entries": [
                {
                    "id": eid,
                    "seed": i + 1,
                    "name": record.entry_names.get(eid),
                    "reference": eid in record.reference,
                    "withdrawn": eid in record.withdrawn,
                    "players": [{"id": p, "name": names.get(p)} | views.house(p) for p in players],
                    "pending": list(record.pending.get(eid, ())),
                }
                for i, (eid, players) in enumerate(record.entries)
            ],
            "rounds": [brackets.round_out(record, data) for data in record.rounds],
            "tiebreaks": list(crosstable.TIEBREAKS[Format(meta["format"])]),
            "standings": brackets.standings_out(snap, names, record),
        }

    def list_tournaments(self, limit: int = 20) -> dict[str, Any]:
        """The lobby's list: the newest tournaments, each with its leader(s) once one has played.

        Public like :meth:`show` (names, points, game ids; never a card). Fair like the
        games' list: at most ``per_creator`` tournaments of any one player, read from
        at most three times ``limit`` of the newest.
        """
        out: list[dict[str, Any]] = []
        shown: dict[str, int] = {}
        for tournament_id in lobby_store.tournaments(self.r, limit * 3):
            if len(out) >= limit:
                break
            record = store.read(self.r, tournament_id)
            if record is None:
                continue
            creator = str(record.meta.get("created_by", ""))
            if capped(creator):
                if shown.get(creator, 0) >= self.per_creator:
                    continue
                shown[creator] = shown.get(creator, 0) + 1
            names = player_names(self.r, record)
            table = brackets.standings_out(brackets.snapshot(record), names)
            out.append(
                {
                    "id": record.id,
                    "name": record.meta["name"],
                    "game": record.meta["game"],
                    "format": record.meta["format"],
                    "status": record.status,
                    "created": iso(record.created),
                    "entries": len(record.entries),
                    "rounds": len(record.rounds),
                    "leaders": [
                        row
                        for row in table  # nobody leads before a table is played
                        if row["rank"] == 1 and (row["played"] or row["byes"])
                    ],
                }
            )
        return {"tournaments": out}

    def standings(self, tournament_id: str) -> dict[str, Any]:
        """The standings alone (best first, ties fully broken; see ``formats.standings``).

        Raises:
            NotFound.
        """
        record = read(self.r, tournament_id)
        return {
            "id": record.id,
            "status": record.status,
            "tiebreaks": list(crosstable.TIEBREAKS[Format(record.meta["format"])]),
            "standings": brackets.standings_out(
                brackets.snapshot(record), player_names(self.r, record), record
            ),
        }

    def sheets(self, tournament_id: str) -> dict[str, Any]:
        """What people read and export: the standings with the tie-breaks in the order
        applied, the cross-table in the standings' order, and every game
        (:mod:`server.services.crosstable`).

        Raises:
            NotFound.
        """
        record = read(self.r, tournament_id)
        names = player_names(self.r, record)
        table = brackets.standings_out(brackets.snapshot(record), names, record)
        rounds = [brackets.round_out(record, data) for data in record.rounds]
        shown = {row["entry"]: row["name"] for row in table}
        return {
            "id": record.id,
            "name": record.meta["name"],
            "game": record.meta["game"],
            "format": record.meta["format"],
            "status": record.status,
            "progress": {
                "rounds": len(record.rounds),
                "games_planned": record.games_planned,
                "games_started": len(record.games),
                "games_finished": len(record.results),
            },
            "tiebreaks": list(crosstable.TIEBREAKS[Format(record.meta["format"])]),
            "standings": table,
            "crosstable": crosstable.crosstable(table, rounds, Format(record.meta["format"])),
            "games": crosstable.game_rows(rounds, shown, record.voids),
        }

    def sheet_csv(self, tournament_id: str, part: str) -> str:
        """One of :meth:`sheets`' parts (``standings``, ``crosstable``, ``games``) as CSV."""
        sheets = self.sheets(tournament_id)
        if part == "standings":
            return crosstable.standings_csv(sheets["standings"])
        if part == "crosstable":
            shown = {row["entry"]: row["name"] for row in sheets["standings"]}
            return crosstable.crosstable_csv(sheets["crosstable"], shown)
        return crosstable.games_csv(sheets["games"])

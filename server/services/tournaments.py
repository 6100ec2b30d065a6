"""Tournament and rating use cases: create, enter, start, show, standings, leaderboards.

Like :mod:`server.services.games`, this layer knows no HTTP: plain values in, plain
dicts out, typed errors that ``server/api/errors.py`` maps to statuses. The
scheduler (:mod:`server.processes.scheduler`) drives a started tournament; this
module holds what it shares with the API: reading a tournament into a
:class:`~server.tournaments.formats.TournamentSnapshot`, and rating a game
exactly once (:meth:`Tournaments.rate`).

Who may do what:

* create a tournament: any registered player, or the admin;
* enter: the tournament's creator or the admin may enter any players; a
  player may enter an entry it is part of (e.g. itself with its partner);
* start: the creator or the admin;
* read a tournament, its standings and the leaderboards: anyone. They show
  pairings, results and game ids only — never a card; each game's own view
  decides what a caller may see of it.

An entry is one player per seat of a side (Concerto: two players). The number
of players per entry is fixed when the tournament is created
(``seats_per_entry``), or else by its first entry; a table seats
``num_seats / seats_per_entry`` entries.
"""

from __future__ import annotations

import random
import secrets
import time
from dataclasses import replace
from typing import Any

import orjson

from server.games import REGISTRY
from server.services.games import (
    Forbidden,
    InvalidRequest,
    NotFound,
    Service,
    ServiceError,
    rating_out,
)
from server.store import lobby as lobby_store
from server.store import players as player_store
from server.store import ratings as rating_store
from server.store import tournaments as store
from server.store.ratings import RatingChanged
from server.store.tournaments import EntriesChanged, TournamentRecord
from server.tournaments import ratings as rating_model
from server.tournaments.clock import iso
from server.tournaments.formats import (
    Entry,
    Format,
    PlayedRound,
    TableResult,
    TournamentSnapshot,
    next_round,
    standings,
)
from server.tournaments.pairing.tables import PairingError, Round

DEFAULT_CLOCK = {"move_seconds": 60.0}
DEFAULT_POLICY = {"kind": "default_move"}
RATE_RETRIES = 10


class CannotStart(ServiceError):
    """The tournament cannot start as entered (409): too few entries, or no pairing."""


class Contention(ServiceError):
    """A rating kept changing under a compare-and-set after every retry (503-like; the
    scheduler simply tries again on its next pass)."""


def round_rng(tournament_id: str, index: int) -> random.Random:
    """The randomness of round ``index``: seeded by the tournament and the round, so every
    scheduler that pairs that round gets the same tables."""
    return random.Random(f"{tournament_id}:{index}")


def snapshot(record: TournamentRecord) -> TournamentSnapshot | None:
    """The tournament as the pure formats see it (None before the first entry)."""
    spe = record.seats_per_entry
    if spe is None:
        return None
    meta = record.meta
    rounds = []
    for data in record.rounds:
        rnd = Round.from_dict(data)
        results = tuple(
            TableResult.from_dict(record.results[name]) if name in record.results else None
            for name in (store.slot(rnd.index, t) for t in range(len(rnd.tables)))
        )
        rounds.append(PlayedRound(rnd, results))
    return TournamentSnapshot(
        format=Format(meta["format"]),
        entries=tuple(Entry(eid, players) for eid, players in record.entries),
        rounds=tuple(rounds),
        table_size=meta["num_seats"] // spe,
        min_table_size=meta.get("min_table_size"),
        seats_per_entry=spe,
        total_rounds=meta.get("rounds"),
        boards_per_match=meta.get("boards_per_match") or 1,
    )


def planned_games(snap: TournamentSnapshot, first: Round) -> int | None:
    """How many games the tournament will play, known at its start (for progress bars).

    Round robin and duplicate pairings do not depend on results, so their
    rounds are paired ahead; a swiss round always has the first round's
    tables; a knockout table eliminates exactly one entry.
    """
    fmt = snap.format
    if fmt is Format.KNOCKOUT:
        return len(snap.entries) - 1
    planned = snap.planned_rounds()
    if planned is None:
        return None
    if fmt is Format.SWISS:
        return planned * len(first.tables)
    total, ahead = 0, snap
    for _ in range(planned):
        rnd = next_round(ahead, random.Random(0))
        if rnd is None:
            break
        total += len(rnd.tables)
        blank = tuple(TableResult((0,) * len(t.entries)) for t in rnd.tables)
        ahead = replace(ahead, rounds=(*ahead.rounds, PlayedRound(rnd, blank)))
    return total


class Tournaments:
    """The tournament use cases over a :class:`~server.services.games.Service` (same Redis)."""

    def __init__(self, service: Service) -> None:
        self.service = service
        self.r = service.r
        self.scripts = service.scripts

    # -- create, enter, start ------------------------------------------------------
    def create(
        self,
        token: str | None,
        *,
        game: str,
        format: str,
        options: dict[str, Any] | None = None,
        rounds: int | None = None,
        boards_per_match: int | None = None,
        seats_per_entry: int | None = None,
        min_table_size: int | None = None,
        clock: dict[str, Any] | None = None,
        timeout_policy: dict[str, Any] | None = None,
        name: str | None = None,
    ) -> dict[str, Any]:
        """Create an open tournament and return it (see the module docstring for who may).

        Raises:
            Unauthorized; InvalidRequest (unknown game, options the game refuses,
            a geometry the game cannot seat); the engine's InvalidOptions.
        """
        caller = self.service.caller(token)
        engine = REGISTRY.get(game)
        if engine is None:
            raise InvalidRequest("unknown game", {"game": [f"one of {sorted(REGISTRY)}"]})
        options = dict(options or {})
        num_seats = engine.new_state(options, "probe").num_seats  # checks the options
        try:
            fmt = Format(format)
        except ValueError:
            raise InvalidRequest(
                "unknown format", {"format": [f"one of {[f.value for f in Format]}"]}
            ) from None
        problems: dict[str, list[str]] = {}
        if rounds is not None and fmt is Format.KNOCKOUT:
            problems["rounds"] = ["a knockout ends by itself: leave rounds out"]
        if boards_per_match is not None and fmt is not Format.DUPLICATE:
            problems["boards_per_match"] = ["only for the duplicate format"]
        if seats_per_entry is not None:
            problem = _entry_problem(fmt, num_seats, seats_per_entry)
            if problem:
                problems["seats_per_entry"] = [problem]
        if min_table_size is not None:
            seats_per_entry = seats_per_entry or 1
            problem = self._min_table_problem(
                engine, options, fmt, num_seats, seats_per_entry, min_table_size
            )
            if problem:
                problems["min_table_size"] = [problem]
        if problems:
            raise InvalidRequest("this tournament cannot be held", problems)
        tournament_id = secrets.token_hex(8)
        meta = {
            "name": name or f"{engine.title} {fmt.value.replace('_', ' ')}",
            "game": engine.id,
            "options": options,
            "format": fmt.value,
            "rounds": rounds,
            "boards_per_match": (boards_per_match or 1) if fmt is Format.DUPLICATE else None,
            "seats_per_entry": seats_per_entry,
            "min_table_size": min_table_size,
            "num_seats": num_seats,
            "clock": {"move_seconds": float((clock or DEFAULT_CLOCK)["move_seconds"])},
            "timeout_policy": dict(timeout_policy or DEFAULT_POLICY),
            "created_by": caller.player.id if caller.player else "admin",
        }
        now = time.time()
        store.create(self.r, tournament_id, meta, now)
        lobby_store.add_tournament(self.r, tournament_id, now)
        return self.show(tournament_id)

    @staticmethod
    def _min_table_problem(engine, options, fmt, num_seats, spe, low) -> str | None:
        if not engine.seat_option:
            return f"{engine.id} always seats {num_seats}: tables cannot be smaller"
        if fmt not in (Format.ROUND_ROBIN, Format.SWISS):
            return "only round_robin and swiss tables may be smaller"
        if not 2 <= low <= num_seats // spe:
            return f"must be 2..{num_seats // spe} entries"
        if not _accepts(engine, options, low * spe):
            return f"{engine.id} cannot be played with {low * spe} seats"
        return None

    def enter(self, token: str | None, tournament_id: str, players: list[str]) -> dict[str, Any]:
        """Enter one entry (one player per seat of a side) while the tournament is open.

        Raises:
            Unauthorized, Forbidden (see the module docstring), NotFound (the
            tournament or a player), InvalidRequest (a player twice, a size the
            game cannot seat), and the store's EntriesClosed, AlreadyEntered,
            WrongEntrySize (409).
        """
        caller = self.service.caller(token)
        record = self._record(tournament_id)
        mine = caller.player is not None and (
            caller.player.id == record.meta["created_by"] or caller.player.id in players
        )
        if not (caller.is_admin or mine):
            raise Forbidden("you may enter yourself, or anyone in a tournament you created")
        if len(set(players)) != len(players):
            raise InvalidRequest(
                "a player may hold one seat of an entry", {"players": ["a player appears twice"]}
            )
        problem = _entry_problem(
            Format(record.meta["format"]), record.meta["num_seats"], len(players)
        )
        if problem:
            raise InvalidRequest("this entry cannot be seated", {"players": [problem]})
        found = player_store.get_many(self.r, players)
        missing = {str(i): "no such player" for i, p in enumerate(players) if found[p] is None}
        if missing:
            raise NotFound("no such player", {"players": missing})
        entry_id = store.add_entry(self.r, self.scripts, tournament_id, players)
        return {
            "id": entry_id,
            "seed": int(entry_id[1:]),
            "players": [{"id": p, "name": found[p].name} for p in players],
        }

    def start(self, token: str | None, tournament_id: str) -> dict[str, Any]:
        """Close the entries and hand the tournament to the scheduler.

        The first round is paired here once, as a check (the scheduler pairs
        it again, identically, from the same data): a tournament that cannot
        be paired is refused now rather than stuck later.

        Raises:
            Unauthorized, Forbidden (only the creator or the admin), NotFound,
            CannotStart, and the store's EntriesClosed (409).
        """
        caller = self.service.caller(token)
        for _ in range(3):
            record = self._record(tournament_id)
            if not (
                caller.is_admin
                or (caller.player is not None and caller.player.id == record.meta["created_by"])
            ):
                raise Forbidden("only the tournament's creator or the admin may start it")
            if record.status != "open":
                raise store.EntriesClosed(record.status)
            snap = snapshot(record)
            if snap is None or len(snap.entries) < 2:
                raise CannotStart(
                    "a tournament needs at least two entries", {"entries": len(record.entries)}
                )
            try:
                first = next_round(snap, round_rng(tournament_id, 0))
            except PairingError as exc:
                raise CannotStart(f"the first round cannot be paired: {exc}") from None
            if first is None or not first.tables:
                raise CannotStart("the first round has no table")
            try:
                store.start(
                    self.r,
                    self.scripts,
                    tournament_id,
                    entries=len(record.entries),
                    now=time.time(),
                    games_planned=planned_games(snap, first),
                )
            except EntriesChanged:
                continue  # an entry arrived meanwhile: check again with it
            return self.show(tournament_id)
        raise CannotStart("entries keep arriving: try again")

    # -- reading -------------------------------------------------------------------
    def show(self, tournament_id: str) -> dict[str, Any]:
        """The tournament: settings, entries, rounds with their games and results, standings.

        Raises:
            NotFound.
        """
        record = self._record(tournament_id)
        names = self._names(record)
        snap = snapshot(record)
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
            "rounds_planned": _rounds_planned(snap, meta),
            "boards_per_match": meta.get("boards_per_match"),
            "created": iso(record.created),
            "started": iso(record.started),
            "finished": iso(record.finished),
            "error": record.error,
            "progress": {
                "rounds": len(record.rounds),
                "games_planned": record.games_planned,
                "games_started": len(record.games),
                "games_finished": len(record.results),
            },
            "entries": [
                {
                    "id": eid,
                    "seed": i + 1,
                    "players": [{"id": p, "name": names.get(p)} for p in players],
                }
                for i, (eid, players) in enumerate(record.entries)
            ],
            "rounds": [self._round_out(record, data) for data in record.rounds],
            "standings": self._standings(snap, names),
        }

    def list_tournaments(self, limit: int = 20) -> dict[str, Any]:
        """The lobby's list: the newest tournaments, each with its leader(s) once one has played.

        Public like :meth:`show` (names, points, game ids; never a card).
        """
        out = []
        for tournament_id in lobby_store.tournaments(self.r, limit):
            record = store.read(self.r, tournament_id)
            if record is None:
                continue
            names = self._names(record)
            table = self._standings(snapshot(record), names)
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
        record = self._record(tournament_id)
        return {
            "id": record.id,
            "status": record.status,
            "standings": self._standings(snapshot(record), self._names(record)),
        }

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
                    "name": found[row.player].name if found.get(row.player) else None,
                    **rating_out(pool[row.player]),
                }
                for row in rows
            ],
        }

    # -- ratings (the scheduler) ------------------------------------------------------
    def rate(
        self, game: str, event_id: str, teams: tuple[tuple[str, ...], ...], ranks: tuple[int, ...]
    ) -> bool:
        """Apply one rated game to ``game``'s pool exactly once.

        Reads the players' ratings, computes the new ones (openskill), and
        writes them with a compare-and-set that also marks ``event_id`` applied
        (``store.ratings.apply``). Lost races are retried a few times with
        jitter; an event already applied is left alone.

        Returns:
            True if this call applied it.

        Raises:
            Contention: the ratings kept changing under every retry.
        """
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
                    self.r, self.scripts, game, event_id, players, raw, values
                )
            except RatingChanged:
                time.sleep(random.uniform(0, 0.005 * (attempt + 1)))
        raise Contention("ratings kept changing; the scheduler will try again", {"event": event_id})

    # -- helpers -------------------------------------------------------------------------
    def _record(self, tournament_id: str) -> TournamentRecord:
        record = store.read(self.r, tournament_id)
        if record is None:
            raise NotFound("no such tournament", {"tournament_id": tournament_id})
        return record

    def _names(self, record: TournamentRecord) -> dict[str, str]:
        ids = [p for _, players in record.entries for p in players]
        return {p: rec.name for p, rec in player_store.get_many(self.r, ids).items() if rec}

    @staticmethod
    def _round_out(record: TournamentRecord, data: dict[str, Any]) -> dict[str, Any]:
        rnd = Round.from_dict(data)
        tables = []
        for t, table in enumerate(rnd.tables):
            name = store.slot(rnd.index, t)
            game_id = record.games.get(name)
            stored = record.results.get(name)
            result = None
            if stored is None:
                status = "playing" if game_id else "pending"
            else:
                status = "forfeited" if stored.get("forfeit") else "finished"
                result = {
                    "scores": stored["scores"],
                    "winners": stored["winners"],
                    "ranks": list(TableResult.from_dict(stored).ranks()),
                    "forfeit": stored.get("forfeit"),
                }
            tables.append(
                {
                    "table": t,
                    "entries": list(table.entries),
                    "seats": list(table.seats),
                    "board": table.board,
                    "game_id": game_id,
                    "status": status,
                    "result": result,
                }
            )
        return {"index": rnd.index, "byes": list(rnd.byes), "tables": tables}

    @staticmethod
    def _standings(snap: TournamentSnapshot | None, names: dict[str, str]) -> list[dict]:
        if snap is None:
            return []
        players = {e.id: e.players for e in snap.entries}
        return [
            {
                "rank": s.rank,
                "entry": s.entry,
                "players": list(players[s.entry]),
                "names": [names.get(p) for p in players[s.entry]],
                "points": s.points,
                "played": s.played,
                "byes": s.byes,
                "head_to_head": s.head_to_head,
                "score_difference": s.score_difference,
                "buchholz": s.buchholz,
                "eliminated_in": s.eliminated_in,
            }
            for s in standings(snap)
        ]


def _rounds_planned(snap: TournamentSnapshot | None, meta: dict[str, Any]) -> int | None:
    """The rounds a tournament plays, or the ``rounds`` it was created with (None: not
    known yet). A round robin's length depends on its entries, and is unknown while
    too few are in to seat one table (``planned_rounds`` refuses to pair them)."""
    if snap is None:
        return meta.get("rounds")
    try:
        return snap.planned_rounds()
    except PairingError:
        return meta.get("rounds")


def _entry_problem(fmt: Format, num_seats: int, size: int) -> str | None:
    """Why an entry of ``size`` players cannot be seated at this game's tables, or None."""
    if size < 1 or num_seats % size or num_seats // size < 2:
        return (
            f"an entry holds a whole side: {num_seats} seats cannot be split into "
            f"two or more entries of {size}"
        )
    if fmt in (Format.KNOCKOUT, Format.DUPLICATE) and num_seats // size != 2:
        return f"{fmt.value} is played between two entries: an entry needs {num_seats // 2} players"
    return None


def _accepts(engine, options: dict[str, Any], seats: int) -> bool:
    """Whether the engine accepts a table of ``seats`` (its seat option set to that)."""
    try:
        engine.new_state({**options, engine.seat_option: seats}, "probe")
    except ValueError:
        return False
    return True

"""What the tournament use cases read off a stored tournament: its snapshot for the pure
formats, each round's randomness, the plan, the tables and standings as shown, and the
format a tournament created without one gets.

No Redis here: plain functions of a :class:`~server.store.tournaments.TournamentRecord`
and of :mod:`server.tournaments`, shared by :mod:`server.services.tournaments` and the
scheduler's use case (:mod:`server.services.rounds`).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from server.games import Game
from server.games.analysis import sprt
from server.services.views import is_house
from server.store import tournaments as store
from server.store.tournaments import TournamentRecord
from server.tournaments.formats import (
    Entry,
    Format,
    PlayedRound,
    TableResult,
    TournamentSnapshot,
    contests,
    next_round,
    standings,
)
from server.tournaments.pairing.tables import PairingError, Round


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


def min_table_problem(
    engine: Game, options: dict[str, Any], fmt: Format, num_seats: int, spe: int, low: int
) -> str | None:
    """Why tables of ``low`` entries (of ``spe`` players) cannot be played, or None."""
    if not engine.seat_option:
        return f"{engine.id} always seats {num_seats}: tables cannot be smaller"
    if fmt not in (Format.ROUND_ROBIN, Format.SWISS):
        return "only round_robin and swiss tables may be smaller"
    if not 2 <= low <= num_seats // spe:
        return f"must be 2..{num_seats // spe} entries"
    if not accepts(engine, options, low * spe):
        return f"{engine.id} cannot be played with {low * spe} seats"
    return None


def round_out(record: TournamentRecord, data: dict[str, Any]) -> dict[str, Any]:
    """One round as shown: its byes, and each table with its game, status and result.

    A table of a duplicate board shows its result only once every table of its
    board is over: until then its scores tell of the deal the others are playing
    (docs/api.md#duplicate-boards), so it is shown ``finished`` (even when
    forfeited) with ``result`` null.
    """
    rnd = Round.from_dict(data)
    open_boards = {
        table.board
        for t, table in enumerate(rnd.tables)
        if table.board is not None and store.slot(rnd.index, t) not in record.results
    }
    tables = []
    for t, table in enumerate(rnd.tables):
        name = store.slot(rnd.index, t)
        game_id = record.games.get(name)
        stored = record.results.get(name)
        result = None
        if stored is None:
            status = "playing" if game_id else "pending"
        elif table.board in open_boards:
            status = "finished"
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


def standings_out(
    snap: TournamentSnapshot | None,
    names: dict[str, str],
    record: TournamentRecord | None = None,
    intervals: Mapping[str, Mapping[str, float]] | None = None,
) -> list[dict]:
    """The standings as shown (best first), with the entries' players and their names
    (``"house": true`` on an entry with a house bot), each entry's ``name`` (its team
    name, else its players' names joined), whether it ``withdrew``, whether it is a
    ``reference`` entry, its ``interval`` (``{"low", "high"}``: the 95% interval of its
    points per game, from its games' placing points; null below two games) and ``next``
    (how sure its place above the next row is: :func:`order_odds`; null on the last row).
    ``intervals`` replaces the computed ones where a caller passes them."""
    if snap is None:
        return []
    intervals, odds = {**points_intervals(snap), **(intervals or {})}, order_odds(snap)
    players = {e.id: e.players for e in snap.entries}
    teams = record.entry_names if record else {}
    gone = record.withdrawn if record else {}
    reference = record.reference if record else set()
    return [
        {
            "rank": s.rank,
            "entry": s.entry,
            "name": teams.get(s.entry) or " & ".join(names.get(p) or "?" for p in players[s.entry]),
            "withdrawn": s.entry in gone,
            "reference": s.entry in reference,
            "interval": dict(intervals[s.entry]) if s.entry in intervals else None,
            "next": odds.get(s.entry),
            "players": list(players[s.entry]),
            "names": [names.get(p) for p in players[s.entry]],
            "points": s.points,
            "played": s.played,
            "byes": s.byes,
            "head_to_head": s.head_to_head,
            "score_difference": s.score_difference,
            "buchholz": s.buchholz,
            "eliminated_in": s.eliminated_in,
            **({"house": True} if any(is_house(p) for p in players[s.entry]) else {}),
        }
        for s in standings(snap)
    ]


def _points_per_game(snap: TournamentSnapshot) -> dict[str, list[float]]:
    """Each entry's placing points in every game that counts (1 a win, 0 a loss, ½ a
    draw; at bigger tables the share of the others it placed above)."""
    out: dict[str, list[float]] = {e.id: [] for e in snap.entries}
    for contest in contests(snap):
        for i, entry in enumerate(contest.entries):
            out[entry].append(float(contest.points(i)))
    return out


def points_intervals(snap: TournamentSnapshot) -> dict[str, dict[str, float]]:
    """Each entry's 95% interval of its points per game (:func:`sprt.standing_intervals`,
    ``mean ± 1.96·s/√n``), for entries with two games or more."""
    return {
        s.entry: {"low": s.low, "high": s.high}
        for s in sprt.standing_intervals(_points_per_game(snap))
        if s.boards >= 2
    }


def order_odds(snap: TournamentSnapshot) -> dict[str, dict[str, Any]]:
    """For each entry but the last of the standings, how sure its place above the next
    is: ``p_order_right`` (the chance its true points per game are higher, from the two
    means and their standard errors) and ``more_games`` (about how many more games each
    would make that 95%; 0 settled, null when no number would). The order compared is
    the standings' own (:func:`sprt.neighbour_odds`)."""
    per_game = _points_per_game(snap)
    by_entry = {s.entry: s for s in sprt.standing_intervals(per_game)}
    ranked = [by_entry[s.entry] for s in standings(snap)]
    return {
        o.upper: {"p_order_right": round(o.p_order_right, 4), "more_games": o.more_boards}
        for o in sprt.neighbour_odds(ranked)
    }


def rounds_planned(snap: TournamentSnapshot | None, meta: dict[str, Any]) -> int | None:
    """The rounds a tournament plays, or the ``rounds`` it was created with (None: not
    known yet). A round robin's length depends on its entries, and is unknown while
    too few are in to seat one table (``planned_rounds`` refuses to pair them)."""
    if snap is None:
        return meta.get("rounds")
    try:
        return snap.planned_rounds()
    except PairingError:
        return meta.get("rounds")


def entry_problem(fmt: Format, num_seats: int, size: int) -> str | None:
    """Why an entry of ``size`` players cannot be seated at this game's tables, or None."""
    if size < 1 or num_seats % size or num_seats // size < 2:
        return (
            f"an entry holds a whole side: {num_seats} seats cannot be split into "
            f"two or more entries of {size}"
        )
    if fmt in (Format.KNOCKOUT, Format.DUPLICATE) and num_seats // size != 2:
        return f"{fmt.value} is played between two entries: an entry needs {num_seats // 2} players"
    return None


def accepts(engine: Game, options: dict[str, Any], seats: int) -> bool:
    """Whether the engine accepts a table of ``seats`` (its seat option set to that)."""
    key: Any = engine.seat_option  # None for fixed tables: the probe then refuses
    try:
        engine.new_state({**options, key: seats}, "probe")
    except ValueError:
        return False
    return True


def default_format(two_sides: bool) -> Format:
    """The format of a tournament created without one: duplicate for a game of two
    fixed sides (a partnership game: the same cards at both tables of a board take the
    deal's luck out of the comparison), a round robin otherwise."""
    return Format.DUPLICATE if two_sides else Format.ROUND_ROBIN

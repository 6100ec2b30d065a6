"""What people read of a tournament beyond its standings: the tie-breaks in the order
they are applied, the cross-table (each entry's results against each other entry), every
game as a row, and the three as CSV.

Plain functions of what :mod:`server.services.brackets` shows (a round's tables with
the results that may be shown: a duplicate board's only once all its tables are over),
so nothing here tells more than ``GET /v1/tournaments/{id}`` does.

A cross-table cell counts the games two entries played at one table: 1 for each game
the row's entry finished above the column's, ½ level, 0 below (at a table of more than
two entries each pair of them is compared by their places). A row's ``byes`` are its
bye points (:data:`server.tournaments.formats.BYE_POINTS` for each bye: ½ in a round robin
or duplicate, 1 in swiss, 0 in a knockout) and its ``total`` is the standings' points, so
the two sheets agree; at tables of two outside duplicate that is the cells' sum plus the
byes (a duplicate entry is scored against those that held its cards, a bigger table's
game by the share of the others it placed above: there the cells count head to head).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from server.tournaments.formats import BYE_POINTS, Format

TIEBREAKS: dict[Format, tuple[str, ...]] = {
    Format.ROUND_ROBIN: ("points", "head_to_head", "score_difference", "seed"),
    Format.SWISS: ("points", "buchholz", "head_to_head", "score_difference", "seed"),
    Format.KNOCKOUT: ("round_reached", "points", "head_to_head", "score_difference", "seed"),
    Format.DUPLICATE: ("points", "head_to_head", "score_difference", "seed"),
}
"""Per format, the keys the standings are ordered by, first to last
(:func:`server.tournaments.formats.standings`); ``round_reached`` is shown as
``eliminated_in``."""


def entry_name(players: Sequence[str | None], team: str | None) -> str:
    """How an entry is shown: its team name, else its players' names joined by `` & ``.

    >>> entry_name(["ann", "bob"], None), entry_name(["ann", "bob"], "Owls")
    ('ann & bob', 'Owls')
    """
    return team or " & ".join(n or "?" for n in players)


def _mark(points: Fraction) -> str:
    return {Fraction(1): "1", Fraction(1, 2): "½", Fraction(0): "0"}[points]


def crosstable(
    standings: Sequence[Mapping[str, Any]], rounds: Sequence[Mapping[str, Any]], fmt: Format
) -> list[dict[str, Any]]:
    """One row per standings row (in their order), with a cell for every other entry:
    games played together, the row entry's points from them, and each game's mark
    (``1``, ``½``, ``0``) with its round and game id, from the tables' shown results;
    then the row's bye points and its total (the standings' points).

    >>> rounds = [{"index": 0, "tables": [{"entries": ["e1", "e2"], "game_id": "g",
    ...     "result": {"ranks": [1, 0]}}]}]
    >>> rows = [{"entry": "e2", "points": 1.5, "byes": 1}, {"entry": "e1", "points": 0.5,
    ...     "byes": 1}]
    >>> row = crosstable(rows, rounds, Format.ROUND_ROBIN)[0]
    >>> cell = row["cells"][0]
    >>> cell["opponent"], cell["games"], cell["points"], cell["results"][0]["mark"]
    ('e1', 1, 1.0, '1')
    >>> row["byes"], row["total"]
    (0.5, 1.5)
    """
    order = [row["entry"] for row in standings]
    cells: dict[tuple[str, str], list[tuple[int, str | None, Fraction]]] = {}
    for rnd in rounds:
        for table in rnd["tables"]:
            result = table.get("result")
            if result is None:
                continue
            ranks, entries = result["ranks"], table["entries"]
            for i, a in enumerate(entries):
                for j, b in enumerate(entries):
                    if i == j:
                        continue
                    points = (
                        Fraction(1)
                        if ranks[i] < ranks[j]
                        else Fraction(1, 2)
                        if ranks[i] == ranks[j]
                        else Fraction(0)
                    )
                    cells.setdefault((a, b), []).append((rnd["index"], table["game_id"], points))
    out = []
    for row in standings:
        a = row["entry"]
        out.append(
            {
                "entry": a,
                "cells": [
                    {
                        "opponent": b,
                        "games": len(games := cells.get((a, b), [])),
                        "points": float(sum((p for _, _, p in games), Fraction(0))),
                        "results": [
                            {"round": r, "game_id": g, "mark": _mark(p)} for r, g, p in games
                        ],
                    }
                    for b in order
                    if b != a
                ],
                "byes": float(row["byes"] * BYE_POINTS[fmt]),
                "total": row["points"],
            }
        )
    return out


def game_rows(
    rounds: Sequence[Mapping[str, Any]],
    shown: Mapping[str, str],
    voids: Mapping[str, Sequence[str]],
) -> list[dict[str, Any]]:
    """Every table of every round as one row: its entries (and how they are shown), its
    game, status, scores and places by table position, and the games voided before it."""
    out = []
    for rnd in rounds:
        for table in rnd["tables"]:
            result = table.get("result") or {}
            out.append(
                {
                    "round": rnd["index"],
                    "table": table["table"],
                    "board": table["board"],
                    "game_id": table["game_id"],
                    "status": table["status"],
                    "entries": list(table["entries"]),
                    "names": [shown.get(e, e) for e in table["entries"]],
                    "scores": result.get("scores"),
                    "ranks": result.get("ranks"),
                    "forfeit": result.get("forfeit"),
                    "voided": list(voids.get(f"{rnd['index']}:{table['table']}", ())),
                }
            )
    return out


def _csv(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return buffer.getvalue()


def _cell(value: Any) -> Any:
    """A CSV cell: empty for None, ``yes``/``no`` for a flag, a list space-separated."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return " ".join(str(v) for v in value)
    return value


STANDINGS_COLUMNS = (
    "rank", "entry", "name", "players", "points", "played", "byes", "buchholz",
    "head_to_head", "score_difference", "eliminated_in", "withdrawn", "reference",
    "interval_low", "interval_high", "p_order_right", "more_games",
)  # fmt: skip
"""The standings CSV's columns: the interval of points per game (empty below two games)
and how sure the place above the next row is (empty on the last row)."""


def standings_csv(rows: Sequence[Mapping[str, Any]]) -> str:
    """The standings as CSV (:data:`STANDINGS_COLUMNS`), best first."""
    out = []
    for row in rows:
        interval = row.get("interval") or {}
        line = {
            **row,
            "players": " & ".join(n or "?" for n in row["names"]),
            "interval_low": interval.get("low"),
            "interval_high": interval.get("high"),
            **(row.get("next") or {}),
        }
        out.append([_cell(line.get(c)) for c in STANDINGS_COLUMNS])
    return _csv(STANDINGS_COLUMNS, out)


def crosstable_csv(rows: Sequence[Mapping[str, Any]], shown: Mapping[str, str]) -> str:
    """The cross-table as CSV: a row per entry, a column per entry (in the standings'
    order), each cell the row entry's points against the column's (empty: never met;
    ``x`` the diagonal), then its bye points and its total (the standings' points)."""
    order = [row["entry"] for row in rows]
    header = ["entry", "name", *(shown.get(e, e) for e in order), "byes", "total"]
    lines = []
    for row in rows:
        by = {c["opponent"]: c for c in row["cells"]}
        marks = [
            "x" if e == row["entry"] else (f"{by[e]['points']:g}" if by[e]["games"] else "")
            for e in order
        ]
        name = shown.get(row["entry"], row["entry"])
        lines.append([row["entry"], name, *marks, f"{row['byes']:g}", f"{row['total']:g}"])
    return _csv(header, lines)


GAME_COLUMNS = (
    "round", "table", "board", "game_id", "status", "entries", "names", "scores", "ranks",
    "forfeit", "voided",
)  # fmt: skip


def games_csv(rows: Sequence[Mapping[str, Any]]) -> str:
    """Every game as CSV (:data:`GAME_COLUMNS`; lists space-separated, names by `` | ``)."""
    return _csv(
        GAME_COLUMNS,
        [
            [" | ".join(row[c]) if c == "names" else _cell(row[c]) for c in GAME_COLUMNS]
            for row in rows
        ],
    )

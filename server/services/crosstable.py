"""What people read of a tournament beyond its standings: the tie-breaks in the order
they are applied, the cross-table (each entry's results against each other entry), every
game as a row, and the three as CSV.

Plain functions of what :mod:`server.services.brackets` shows (a round's tables with
the results that may be shown: a duplicate board's only once all its tables are over),
so nothing here tells more than ``GET /v1/tournaments/{id}`` does.

A cross-table cell counts the games two entries played at one table: 1 for each game
the row's entry finished above the column's, ½ level, 0 below (at a table of more than
two entries each pair of them is compared by their places).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from server.tournaments.formats import Format

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


def crosstable(order: Sequence[str], rounds: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """One row per entry of ``order`` (the standings' order), with a cell for every other
    entry: games played together, the row entry's points from them, and each game's mark
    (``1``, ``½``, ``0``) with its round and game id, from the tables' shown results.

    >>> rounds = [{"index": 0, "tables": [{"entries": ["e1", "e2"], "game_id": "g",
    ...     "result": {"ranks": [1, 0]}}]}]
    >>> cell = crosstable(["e2", "e1"], rounds)[0]["cells"][0]
    >>> cell["opponent"], cell["games"], cell["points"], cell["results"][0]["mark"]
    ('e1', 1, 1.0, '1')
    """
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
    return [
        {
            "entry": a,
            "cells": [
                {
                    "opponent": b,
                    "games": len(games := cells.get((a, b), [])),
                    "points": float(sum((p for _, _, p in games), Fraction(0))),
                    "results": [{"round": r, "game_id": g, "mark": _mark(p)} for r, g, p in games],
                }
                for b in order
                if b != a
            ],
        }
        for a in order
    ]


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
    "interval_low", "interval_high",
)  # fmt: skip
"""The standings CSV's columns; the interval's two are empty (no interval is computed)."""


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
        }
        out.append([_cell(line.get(c)) for c in STANDINGS_COLUMNS])
    return _csv(STANDINGS_COLUMNS, out)


def crosstable_csv(rows: Sequence[Mapping[str, Any]], shown: Mapping[str, str]) -> str:
    """The cross-table as CSV: a row per entry, a column per entry (in the standings'
    order), each cell the row entry's points against the column's (empty: never met;
    ``x`` the diagonal), then its total."""
    order = [row["entry"] for row in rows]
    header = ["entry", "name", *(shown.get(e, e) for e in order), "total"]
    lines = []
    for row in rows:
        by = {c["opponent"]: c for c in row["cells"]}
        marks = [
            "x" if e == row["entry"] else (f"{by[e]['points']:g}" if by[e]["games"] else "")
            for e in order
        ]
        total = sum(c["points"] for c in row["cells"])
        lines.append([row["entry"], shown.get(row["entry"], row["entry"]), *marks, f"{total:g}"])
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

"""A leaderboard as a text table that lines up in a terminal, whatever the names.

Widths are display columns, not characters: an East Asian wide or fullwidth
character (``unicodedata.east_asian_width`` ``W`` or ``F``) takes two columns, a
combining mark none. A control or format character (an escape, a bidi override) is
shown as ``?``, so a name can neither move the cursor nor reorder the line. Names
wider than :data:`MAX_NAME` columns are cut, ending in ``…``.

>>> print(leaderboard_table({"leaderboard": [
...     {"rank": 1, "name": "ann", "mu": 27.5, "sigma": 3.0, "ordinal": 18.5, "games": 40,
...      "low": 21.62, "high": 33.38, "provisional": False},
...     {"rank": 2, "name": "棋士ボット", "mu": 27.6, "sigma": 8.1, "ordinal": 3.4, "games": 1,
...      "low": 11.8, "high": 43.4, "provisional": True}]}))
  # player      ordinal      mu   sigma  95% interval  games
  1 ann            18.5    27.5     3.0   21.6 – 33.4     40
  2 棋士ボット      3.4?   27.6     8.1   11.8 – 43.4      1
? provisional: sigma not yet below 4.17, too few games to trust
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from typing import Any

MAX_NAME = 32
"""The widest a name column gets, in display columns."""

LEGEND = "? provisional: sigma not yet below 4.17, too few games to trust"


def clean(text: str) -> str:
    """``text`` with each control, format or line/paragraph separator character as ``?``.

    >>> clean("a\\x1b[2Jb\\u202ec")
    'a?[2Jb?c'
    """
    return "".join("?" if unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp") else c for c in text)


def width(text: str) -> int:
    """Display columns of ``text`` (already :func:`clean`): 2 a wide or fullwidth
    character, 0 a combining mark, else 1.

    >>> width("ann"), width("棋士"), width("e\\u0301")
    (3, 4, 1)
    """
    return sum(
        0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1
        for c in text
    )


def fit(text: str, columns: int) -> str:
    """``text`` cleaned and padded with spaces to ``columns`` display columns, cut with
    ``…`` if wider.

    >>> fit("棋士ボット", 6) + "|", fit("ab", 4) + "|"
    ('棋士… |', 'ab  |')
    """
    text = clean(text)
    if width(text) > columns:
        out = ""
        for c in text:
            if width(out + c) > columns - 1:
                break
            out += c
        text = out + "…"
    return text + " " * (columns - width(text))


def leaderboard_table(board: Mapping[str, Any], top: int | None = None) -> str:
    """A leaderboard (``GET /v1/ratings/{game}`` or a ladder's) as a text table, best
    first, each player by its ``label`` where the rows have one (names told apart).

    The ordinal (mu - 3 sigma, a conservative estimate) is marked ``?`` on a
    provisional row, and a legend says so below the table; the 95% interval
    (``low`` to ``high``) is shown where the rows carry it.
    """
    rows = list(board["leaderboard"][:top])
    names = [str(row.get("label") or row.get("name") or row.get("player_id", "?")) for row in rows]
    names = [clean(n) for n in names]
    column = min(MAX_NAME, max([width("player"), *(width(n) for n in names)]))
    lines = [
        f"{'#':>3} {fit('player', column)} {'ordinal':>8}  {'mu':>6} {'sigma':>7}"
        f"  {'95% interval':>12} {'games':>6}"
    ]
    marked = False
    for row, name in zip(rows, names, strict=True):
        mark = "?" if row.get("provisional") else " "
        marked = marked or bool(row.get("provisional"))
        low, high = row.get("low"), row.get("high")
        interval = f"{low:.1f} – {high:.1f}" if low is not None and high is not None else "-"
        lines.append(
            f"{row['rank']:>3} {fit(name, column)} {row['ordinal']:>8.1f}{mark} "
            f"{row['mu']:>6.1f} {row['sigma']:>7.1f}  {interval:>12} {row['games']:>6}"
        )
    if marked:
        lines.append(LEGEND)
    return "\n".join(lines)

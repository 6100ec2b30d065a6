"""``leaderboard_table`` lines up whatever the names: long ones, East Asian wide ones,
combining marks, and hostile ones (escapes, bidi overrides) shown harmlessly."""

from __future__ import annotations

import unicodedata

from client_sdk.leaderboard import LEGEND, MAX_NAME, leaderboard_table, width


def _row(rank: int, name: str, provisional: bool = False) -> dict[str, object]:
    return {
        "rank": rank, "name": name, "mu": 25.0, "sigma": 5.0, "ordinal": 10.0, "games": 3,
        "low": 15.2, "high": 34.8, "provisional": provisional,
    }  # fmt: skip


HOSTILE = [
    "a_name_of_exactly_twenty",  # longer than the old 14 columns
    "棋士ボット",  # five wide characters: ten columns
    "ｆｕｌｌｗｉｄｔｈ",  # fullwidth Latin: two columns each
    "e\u0301e\u0301",  # e + combining acute: two columns
    "evil\x1b[2J\x1b[31m",  # terminal escapes
    "\u202eevil",  # a right-to-left override
    "ok",
    "x" * 80,  # longer than the column: cut
]


def test_every_column_starts_at_the_same_display_column():
    table = leaderboard_table({"leaderboard": [_row(i + 1, n) for i, n in enumerate(HOSTILE)]})
    lines = table.splitlines()
    assert len(lines) == 1 + len(HOSTILE)  # no provisional row: no legend
    assert all(unicodedata.category(c) not in ("Cc", "Cf") for c in table if c != "\n")
    widths = {width(line) for line in lines}
    assert len(widths) == 1, lines
    # the name column is the widest name up to MAX_NAME; "a_name_of_exactly_twenty" is 24
    header = lines[0]
    assert header.index("ordinal") == 4 + MAX_NAME + 1 + 1  # "  # " name " " " ordinal"
    # the row's ordinal ends where the header's does, in display columns
    end = 4 + MAX_NAME + 1 + 8
    for line in lines[1:]:
        cut, seen = "", 0
        for c in line:
            if seen >= end:
                break
            cut += c
            seen = width(cut)
        assert cut.endswith("10.0"), line
    assert "x" * (MAX_NAME - 1) + "…" in lines[-1]


def test_provisional_rows_are_marked_and_the_legend_says_what_the_mark_means():
    table = leaderboard_table({"leaderboard": [_row(1, "sure"), _row(2, "new", True)]})
    lines = table.splitlines()
    assert lines[-1] == LEGEND and "4.17" in LEGEND  # 25/6 = 4.1667
    assert "10.0?" in lines[2] and "10.0?" not in lines[1]
    assert "15.2 – 34.8" in lines[1]  # 25 -+ 1.96 * 5 = 25 -+ 9.8
    assert "ordinal" in lines[0] and "95% interval" in lines[0]


def test_short_names_keep_a_narrow_table():
    table = leaderboard_table({"leaderboard": [_row(1, "ann")]})
    assert table.splitlines()[0].startswith("  # player  ordinal")

"""The option sets the third-party suites judge: every game of the registry, every
rule edition, variant and seat count, and the options that change how a game is
played (Seconds' winner, Pinochle's head rule, count and check table). Deals are
bounded (one where the game has a choice) so that each check takes seconds."""

from __future__ import annotations

from typing import Any

OPTION_SETS: list[tuple[str, dict[str, Any]]] = [
    ("concerto", {"deals": 1}),
    ("concerto", {"deals": 1, "rules": "penguin"}),
    ("seconds", {}),
    ("seconds", {"winner": "highest"}),
    *[("cowpoke", {"players": n, "hands": 1}) for n in (2, 3, 4, 5)],
    ("cowpoke", {"players": 3, "hands": 1, "suit_order": "SHDC"}),
    ("pinochle", {"variant": "partnership", "max_deals": 1}),
    ("pinochle", {"variant": "firehouse", "max_deals": 1}),
    ("pinochle", {"variant": "check", "max_deals": 1}),
    ("pinochle", {"variant": "check", "max_deals": 1, "check_table": "bicycle"}),
    ("pinochle", {"variant": "double-deck", "players": 6, "max_deals": 1}),
    ("pinochle", {"variant": "double-deck", "players": 8, "max_deals": 1}),
    (
        "pinochle",
        {"variant": "partnership", "max_deals": 1, "head_rule": "strict", "count": "simple"},
    ),  # fmt: skip
    ("pinochle", {"variant": "firehouse", "max_deals": 1, "head_rule": "trump-only"}),
]


def ids() -> list[str]:
    return [
        f"{g}-{'-'.join(f'{k}={v}' for k, v in o.items()) or 'defaults'}" for g, o in OPTION_SETS
    ]

"""Re-record the golden traces. Run only after an intended change of the rules or views.

    .venv/bin/python -m tests.games.golden.record

The traces pin today's behaviour of every engine: each game and every option
that changes play, several seeds each, played by a seeded policy uniform over
the legal moves (:func:`.trace.play`). ``static.json`` pins the registry's
game records and the exact refusals of bad options and preset deals.
Re-recording accepts whatever the engines do now, so first make sure the
change is the intended one: ``tests/games/test_golden_traces.py`` names the
first step where a game diverged.
"""

from __future__ import annotations

import gzip
import json
import random
from itertools import product
from typing import Any

from server.games import REGISTRY, GameError
from server.games.kit.cards import DOUBLE_PINOCHLE, PINOCHLE, STANDARD, Pack

from .trace import STATIC, TRACES, play

Config = tuple[str, dict[str, Any], Any]  # game, options, preset deals (or None)


def _pack(pack: Pack, seed: str) -> list[str]:
    cards = pack.cards()
    random.Random(seed).shuffle(cards)
    return cards


def _split(cards: list[str], players: int) -> list[list[str]]:
    size = len(cards) // players
    return [cards[i * size : (i + 1) * size] for i in range(players)]


def concerto_configs() -> list[Config]:
    configs: list[Config] = []
    for rules in ("parlett-2013", "penguin"):
        for extra in (
            {},
            {"first_dealer": 2},
            {"deals": 1},
            {"deals": 6, "target": 160},
            {"target": 30},
            {"deals": 2, "match_target": 150},
        ):
            configs.append(("concerto", {"rules": rules, **extra}, None))
        presets = [
            {"dealer": d, "hands": _split(_pack(STANDARD, f"concerto {rules} {d}"), 4)}
            for d in (3, 1)
        ]
        configs.append(("concerto", {"rules": rules, "deals": 3}, presets))
    return configs


def seconds_configs() -> list[Config]:
    configs: list[Config] = [
        ("seconds", {"first_dealer": d, "winner": w}, None)
        for d, w in product(range(4), ("second-highest", "highest"))
    ]
    presets: list[dict[str, Any]] = [{"hands": _split(_pack(STANDARD, "seconds 0"), 4)}]
    presets.append({"dealer": 2, "hands": _split(_pack(STANDARD, "seconds 1"), 4)})
    configs.append(("seconds", {"first_dealer": 1}, presets))
    return configs


def cowpoke_configs() -> list[Config]:
    configs: list[Config] = []
    for players in (2, 3, 4, 5):
        configs.append(("cowpoke", {"players": players}, None))
        configs.append(("cowpoke", {"players": players, "hands": 3, "first_dealer": 1}, None))
        configs.append(("cowpoke", {"players": players, "suit_order": "SDHC", "hands": 2}, None))
        cards = _pack(STANDARD, f"cowpoke {players}")
        preset: dict[str, Any] = {"hands": [[c] for c in cards[:players]]}
        rest = cards[players:]
        if players == 2:
            preset["dummy"], rest = rest[0], rest[1:]
        preset["stack"] = rest
        configs.append(("cowpoke", {"players": players, "hands": 2}, [preset]))
    return configs


def pinochle_configs() -> list[Config]:
    short = {"max_deals": 2}
    configs: list[Config] = [
        ("pinochle", {}, None),
        ("pinochle", {"variant": "partnership", "target": 400}, None),
        ("pinochle", {"first_dealer": 3, "count": "simple", **short}, None),
        ("pinochle", {"variant": "firehouse", **short}, None),
        ("pinochle", {"variant": "firehouse", "target": 300, "max_deals": 6}, None),
        ("pinochle", {"variant": "check", **short}, None),
        (
            "pinochle",
            {"variant": "check", "check_table": "bicycle", "count": "traditional", **short},
            None,
        ),  # fmt: skip
        ("pinochle", {"variant": "double-deck", **short}, None),
        ("pinochle", {"players": 8, "max_deals": 1}, None),
        (
            "pinochle",
            {"variant": "double-deck", "players": 8, "head_rule": "strict", "max_deals": 1},
            None,
        ),  # fmt: skip
        (
            "pinochle",
            {"double_marriage": 500, "twelve_kings": 1, "variant": "double-deck", "max_deals": 1},
            None,
        ),  # fmt: skip
        ("pinochle", {"head_rule": "strict", **short}, None),
        ("pinochle", {"head_rule": "trump-only", **short}, None),
        (
            "pinochle",
            {"variant": "firehouse", "head_rule": "trump-only", "count": "simple", **short},
            None,
        ),  # fmt: skip
        ("pinochle", {"double_pinochle": 900, "eight_aces": 2000, **short}, None),
    ]
    hands = _split(_pack(PINOCHLE, "pinochle"), 4)
    configs.append(
        ("pinochle", {"max_deals": 2}, [{"dealer": 1, "hands": hands, "turn_up": hands[1][0]}])
    )
    configs.append(("pinochle", {"variant": "check", "max_deals": 2}, [{"hands": hands}]))
    double = _split(_pack(DOUBLE_PINOCHLE, "double"), 6)
    configs.append(("pinochle", {"players": 6, "max_deals": 1}, [{"dealer": 4, "hands": double}]))
    # A turned dix: melds are shown at once, with no exchange.
    dix = [h[:] for h in hands]
    holder, at = next((s, i) for s, h in enumerate(dix) for i, c in enumerate(h) if c[0] == "9")
    dix[holder][at], dix[0][-1] = dix[0][-1], dix[holder][at]
    configs.append(("pinochle", {"max_deals": 1}, [{"dealer": 0, "hands": dix}]))
    return configs


SEEDS = {"concerto": 2, "seconds": 1, "cowpoke": 3, "pinochle": 2}


def all_configs() -> list[Config]:
    return [*concerto_configs(), *seconds_configs(), *cowpoke_configs(), *pinochle_configs()]


def rejections() -> list[tuple[str, Any, Any]]:
    """Bad options and preset deals, each refused with every problem named."""
    pack = STANDARD.cards()
    four = _split(pack, 4)
    pin = _split(PINOCHLE.cards(), 4)
    return [
        ("concerto", {"rules": "x", "deals": 0, "bogus": 1}, None),
        ("concerto", {"first_dealer": True, "target": "100"}, None),
        ("concerto", {}, [{"dealer": 5, "hands": four}]),
        ("concerto", {}, [{"dealer": 0, "hands": four[:3]}]),
        ("concerto", {}, [{"dealer": 0, "hands": [four[0], four[0], four[2], four[3]]}]),
        ("concerto", {}, [{"dealer": 0, "hands": [four[0][:12], four[1], four[2], four[3]]}]),
        ("concerto", {}, [{"dealer": 0, "hands": [[*four[0][:12], "ZZ"], *four[1:]]}]),
        ("concerto", {}, ["nope", {"hands": four}]),
        ("seconds", {"winner": "lowest", "first_dealer": 4}, None),
        ("seconds", {}, [{"hands": four}] * 8),
        ("seconds", {"first_dealer": 1}, [{"dealer": 0, "hands": four, "x": 1}]),
        ("seconds", {}, [{"hands": [four[0], four[0], four[2], four[3]]}, 3]),
        ("seconds", {}, [{"hands": "abc"}]),
        ("cowpoke", {"players": 6, "suit_order": "CCCC"}, None),
        ("cowpoke", {"players": 3, "first_dealer": 4}, None),
        ("cowpoke", {"players": 2}, [{"hands": [[pack[0]], [pack[1]]], "stack": pack[2:]}]),
        (
            "cowpoke",
            {"players": 3},
            [{"hands": [[pack[0]], [pack[1]], [pack[2]]], "dummy": "AS", "stack": pack[3:]}],
        ),  # fmt: skip
        (
            "cowpoke",
            {"players": 3, "hands": 1},
            [
                {"hands": [[pack[0]], [pack[1], pack[2]], []], "stack": pack[3:-1], "dealer": 2},
                {"hands": [[pack[0]]], "stack": "x", "y": 1},
            ],
        ),  # fmt: skip
        ("cowpoke", {"players": 4}, [{"hands": [[c] for c in pack[:4]], "stack": pack[:10]}]),
        ("cowpoke", {}, [7]),
        ("pinochle", {"variant": "firehouse", "players": 6, "check_table": "bicycle"}, None),
        ("pinochle", {"players": 4, "first_dealer": 6, "head_rule": "x"}, None),
        ("pinochle", {"variant": "bogus", "players": 5}, None),
        ("pinochle", {}, [{"dealer": 9, "hands": pin, "extra": 0}]),
        ("pinochle", {}, [{"hands": pin, "turn_up": pin[0][0]}]),
        ("pinochle", {}, [{"dealer": 0, "hands": pin, "turn_up": pin[1][0]}]),
        ("pinochle", {"variant": "check"}, [{"dealer": 0, "hands": pin, "turn_up": pin[0][0]}]),
        ("pinochle", {}, [{"dealer": 0, "hands": [pin[0], pin[0], pin[0], pin[3]]}]),
        ("pinochle", {}, [{"dealer": 0, "hands": [pin[0][:11], *pin[1:]]}, "x"]),
        ("pinochle", {"players": 6}, [{"hands": pin}]),
    ]


def refusal(game_id: str, options: Any, deals: Any) -> dict[str, Any]:
    try:
        REGISTRY[game_id].new_state(options, "refused", deals)
    except GameError as error:
        problems = getattr(error, "problems", None)
        return {"error": type(error).__name__, "message": str(error), "problems": problems}
    return {"error": None}


def registry() -> dict[str, Any]:
    return {
        g.id: {
            "title": g.title,
            "seats": list(g.seats),
            "options": g.options,
            "seat_option": g.seat_option,
        }  # fmt: skip
        for g in REGISTRY.values()
    }


def main() -> None:
    lines = []
    for game_id, options, deals in all_configs():
        for n in range(SEEDS[game_id]):
            trace = play(game_id, options, f"golden-{n}", deals, policy=n)
            lines.append(json.dumps(trace, separators=(",", ":")))
    with gzip.GzipFile(TRACES, "wb", mtime=0) as f:
        f.write(("\n".join(lines) + "\n").encode())
    static = {
        "registry": registry(),
        "rejections": [
            {"game": g, "options": o, "deals": d, "refusal": refusal(g, o, d)}
            for g, o, d in rejections()
        ],
    }
    STATIC.write_text(json.dumps(static, indent=1, sort_keys=True) + "\n")
    print(f"{len(lines)} traces, {TRACES.stat().st_size} bytes; {STATIC.stat().st_size} bytes")


if __name__ == "__main__":
    main()

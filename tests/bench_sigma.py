"""``python -m tests.bench sigma``: how many rated games until sigma is below 25/6.

Eight players at 25 +- 25/3, each seed picks random tables and random places
(results of evenly matched players: the fastest sigma can fall); per table kind,
the games each player took for its sigma to go below
:data:`server.tournaments.ratings.SIGMA_SURE`. docs/ladder.md (*How sure a rating
is*) quotes these figures. Then real engine games: 40 of Seconds, two of its
strategy bots against two random ones (``parlour-bot play``), rated as a
tournament's table is (the winners first, the rest sharing the next place). About
20 seconds in all.
"""

from __future__ import annotations

import random
import subprocess
import sys
import tempfile
from pathlib import Path

import orjson

from server.tournaments.ratings import DEFAULT, SIGMA_SURE, Rating, rate_teams

KINDS = {"two players": (2, 1), "four players": (4, 1), "two against two": (2, 2)}
SEEDS, GAMES, PLAYERS = 30, 600, 8


def games_to_sure(teams: int, size: int, seed: int) -> list[int]:
    """Games each player of one run took to be sure (those that got there)."""
    rng = random.Random(seed)
    pool: dict[str, Rating] = {f"p{i}": DEFAULT for i in range(PLAYERS)}
    games = dict.fromkeys(pool, 0)
    first: dict[str, int] = {}
    for _ in range(GAMES):
        seated = rng.sample(sorted(pool), teams * size)
        sides = [seated[i * size : (i + 1) * size] for i in range(teams)]
        ranks = list(range(teams))
        rng.shuffle(ranks)
        new = rate_teams(pool, sides, ranks)
        pool.update(new)
        for p in seated:
            games[p] += 1
            if p not in first and new[p].sigma < SIGMA_SURE:
                first[p] = games[p]
    return list(first.values())


def real_seconds(games: int = 40) -> dict[str, int | None]:
    """Games each seat of ``games`` real Seconds games took to be sure (None: never)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "games.jsonl"
        bots = ["bots.seconds:SecondsBot", "bots.uniform:RandomBot"]
        command = [sys.executable, "-m", "client_sdk.cli", "play", "seconds", *bots]
        command += ["--seed", "7", "--games", str(games), "--out", str(out)]
        subprocess.run(command, check=True, capture_output=True)
        played = [orjson.loads(line) for line in out.read_text().splitlines()]
    pool: dict[str, Rating] = {}
    first: dict[str, int | None] = {}
    for n, game in enumerate(played, 1):
        ids = [f"{s['name']} at seat {s['seat']}" for s in game["seats"]]
        winners = set(game["result"]["winners"])
        ranks = [0 if i in winners else 1 for i in range(len(ids))]
        pool.update(rate_teams(pool, [[p] for p in ids], ranks))
        for p in ids:
            first.setdefault(p, None)
            if first[p] is None and pool[p].sigma < SIGMA_SURE:
                first[p] = n
    return first


def main() -> None:
    for name, (teams, size) in KINDS.items():
        got = sorted(n for seed in range(SEEDS) for n in games_to_sure(teams, size, seed))
        print(
            f"sigma below 25/6, {name}: median {got[len(got) // 2]} games, "
            f"{got[0]} to {got[-1]} ({len(got)} players over {SEEDS} seeds)",
            flush=True,
        )
    for who, n in real_seconds().items():
        print(f"sigma below 25/6, real Seconds games, {who}: {n} games", flush=True)


if __name__ == "__main__":
    main()

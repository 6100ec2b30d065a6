"""``python -m tests.bench sigma``: how many rated games until sigma is below 25/6.

Eight players at 25 +- 25/3, each seed picks random tables and random places
(results of evenly matched players: the fastest sigma can fall); per table kind,
the games each player took for its sigma to go below
:data:`server.tournaments.ratings.SIGMA_SURE`. docs/ladder.md (*How sure a rating
is*) quotes these figures. About 6 seconds.
"""

from __future__ import annotations

import random

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


def main() -> None:
    for name, (teams, size) in KINDS.items():
        got = sorted(n for seed in range(SEEDS) for n in games_to_sure(teams, size, seed))
        print(
            f"sigma below 25/6, {name}: median {got[len(got) // 2]} games, "
            f"{got[0]} to {got[-1]} ({len(got)} players over {SEEDS} seeds)",
            flush=True,
        )


if __name__ == "__main__":
    main()

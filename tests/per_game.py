"""The per-game lists of the tests follow the registry: each is keyed by game id, and a
test asserts its games are exactly ``REGISTRY``'s, so that a new game fails there, by
name, until the list covers it (it is not silently left out of what the list checks).
``tests/testgame/`` registers a game the lists do not know and sees each of them fail."""

from __future__ import annotations

from collections.abc import Iterable

from server.games import REGISTRY


def check_covers(games: Iterable[str], what: str) -> None:
    """``games`` (a list's keys) are every registered game, and only those.

    >>> check_covers(["concerto", "seconds", "cowpoke", "pinochle"], "a list")
    >>> try:
    ...     check_covers(["concerto", "chess"], "L")
    ... except AssertionError as e:
    ...     print(e)
    L: no entry for seconds, cowpoke, pinochle (add one); an entry for chess, not a registered game
    """
    have = set(games)
    missing = [g for g in REGISTRY if g not in have]
    extra = sorted(have - REGISTRY.keys())
    problems = [f"no entry for {', '.join(missing)} (add one)"] if missing else []
    problems += [f"an entry for {', '.join(extra)}, not a registered game"] if extra else []
    if problems:
        raise AssertionError(f"{what}: " + "; ".join(problems))

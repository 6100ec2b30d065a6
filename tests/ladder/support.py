"""Helpers for the ladder tests: house bots played in-process through the services."""

from __future__ import annotations

import random
import secrets
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from client_sdk.bot import Bot
from server.games import GameError
from server.processes.scheduler import Runner
from server.services.bundle import Services
from server.services.errors import ServiceError
from server.services.ladders import pool
from server.store import keys
from server.store.errors import StoreError


class HouseBots:
    """Players each driven by a house bot: every :meth:`step` each awake player asks for
    its turns (``/me/turns`` without waiting, which marks it seen waiting) and moves.

    ``step(only_due=True)`` asks only the players who may have a turn: those whose last
    answer held turns, and those a move just made was handed to (the ``to_move`` of the
    view a move returns). Everyone else's answer would be empty, so the moves made, and
    their order, are those of a full step; a round played so costs a third of the polls.
    """

    def __init__(
        self,
        service: Services,
        players: Sequence[dict[str, str]],
        makers: Sequence[Callable[[random.Random], Bot]],
        seed: int = 0,
    ) -> None:
        self.service = service
        self.players = list(players)
        self.bots = {
            p["id"]: make(random.Random(f"{seed}/{i}"))
            for i, (p, make) in enumerate(zip(players, makers, strict=True))
        }
        self.asleep: set[str] = set()
        self.silent: set[str] = set()
        self.moves = 0
        self.refused = 0
        self.due: set[str] = set()  # who may have a turn (see the class doc)

    def step(self, only_due: bool = False) -> int:
        made = 0
        due, self.due = self.due, set()
        for p in self.players:
            if p["id"] in self.asleep or (only_due and p["id"] not in due):
                continue
            turns: list[dict[str, Any]] = self.service.feeds.turns(p["token"])["turns"]
            if turns:
                self.due.add(p["id"])  # asked again next step, whether it moves or not
            if p["id"] in self.silent:
                continue  # polls, never moves: its clock runs out
            for turn in turns:
                move = self.bots[p["id"]].choose_move(turn["view"])
                try:
                    shown = self.service.games.move(
                        p["token"], turn["game_id"], move, turn["version"], turn["seat"]
                    )
                    made += 1
                except (ServiceError, StoreError, GameError):
                    self.refused += 1
                    continue
                handed = {shown["seats"][s]["player_id"] for s in shown["to_move"]}
                due |= handed  # later in this pass: asked now, as a full step would
                self.due |= handed
        self.moves += made
        return made


def seeded_ids(monkeypatch: pytest.MonkeyPatch, seed: str) -> None:
    """Make the ids the services draw (players, ladders) come from a seeded generator, so a
    test's player ids, hence the scheduler's choices among them (ties are broken by id),
    and the ladder id the deals are derived from, are the same on every run."""
    rng = random.Random(seed)
    monkeypatch.setattr(
        secrets, "token_hex", lambda n=32: rng.getrandbits(8 * n).to_bytes(n, "big").hex()
    )


def play_rounds(runner: Runner, bots: HouseBots, done: Callable[[], bool]) -> None:
    """Drive a ladder in rounds: a scheduler pass (results, ratings, new matches), then,
    unless ``done()``, the bots play until no game has a move left, and again.

    Every pass thus finds every entry free, and the matches it makes depend on the
    ratings only, never on which game happened to end first: the run is a function of
    its seeds. (Run with ``rematch_seconds=0``: nobody is left over to wait for.)
    """
    bots.step()  # every entry seen waiting before the first pass
    while True:
        runner.tick()
        if done():
            return
        if not bots.step():
            raise AssertionError("a scheduler pass started no game")
        while bots.step(only_due=True) or bots.step():  # a full step ends the round
            pass


def rated_per_player(r: Any, ladder_id: str, matches: dict[int, dict[str, Any]]) -> Counter:
    """How many of ``matches`` each player was rated in (the rating pool's applied marks)."""
    applied = {x.decode() for x in r.smembers(keys.ratings_applied(pool(ladder_id)))}
    return Counter(
        p
        for n, m in matches.items()
        if f"{ladder_id}:{n}" in applied
        for side in m["sides"]
        for p in side
    )

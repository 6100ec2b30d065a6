"""Helpers for the ladder tests: house bots played in-process through the services."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from client_sdk.bot import Bot
from server.games import GameError
from server.services.bundle import Services
from server.services.errors import ServiceError
from server.store.errors import StoreError


class HouseBots:
    """Players each driven by a house bot: every :meth:`step` each awake player asks for
    its turns (``/me/turns`` without waiting, which marks it seen waiting) and moves."""

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

    def step(self) -> int:
        made = 0
        for p in self.players:
            if p["id"] in self.asleep:
                continue
            turns: list[dict[str, Any]] = self.service.feeds.turns(p["token"])["turns"]
            if p["id"] in self.silent:
                continue  # polls, never moves: its clock runs out
            for turn in turns:
                move = self.bots[p["id"]].choose_move(turn["view"])
                try:
                    self.service.games.move(
                        p["token"], turn["game_id"], move, turn["version"], turn["seat"]
                    )
                    made += 1
                except (ServiceError, StoreError, GameError):
                    self.refused += 1
        self.moves += made
        return made

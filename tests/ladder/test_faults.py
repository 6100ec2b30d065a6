"""The ladder pass killed at any step boundary (:meth:`Runner.checkpoint`), over and over:
the next runner carries on from what Redis holds, and nothing is done twice."""

from __future__ import annotations

import contextlib
import random
import time
from collections import Counter

from bots import uniform
from server.processes.scheduler import Runner
from server.services.bundle import Services
from server.services.ladders import pool
from server.services.rounds import table_game_id
from server.store import games as game_store
from server.store import keys
from server.store import ladders as ladder_store
from server.store import ratings as rating_store
from tests.conftest import ADMIN_TOKEN
from tests.ladder.support import HouseBots, rated_per_player
from tests.ladder.test_ladder import make_ladder, rated
from tests.scheduler.support import all_game_ids, register


class Killed(BaseException):
    """Not an Exception: nothing in the runner may catch it, like a real kill."""


class DyingRunner(Runner):
    """Dies at the first boundary of each kind, then at about one in four."""

    def __init__(self, service: Services, rng: random.Random, kills: Counter[str]) -> None:
        super().__init__(service)
        self.rng, self.kills = rng, kills

    def checkpoint(self, step: str) -> None:
        if step not in self.kills or self.rng.random() < 0.25:
            self.kills[step] += 1
            raise Killed(step)


def test_killed_at_random_steps_over_and_over(service):
    players = register(service, 8)
    ladder_id = make_ladder(service, players, clock={"move_seconds": 5})
    bots = HouseBots(service, players, [uniform.make_bot] * 8, seed=5)
    rng = random.Random(11)
    kills: Counter[str] = Counter()
    deadline = time.monotonic() + 30
    while rated(service, ladder_id) < 8:
        assert time.monotonic() < deadline, "timed out"
        with contextlib.suppress(Killed):
            DyingRunner(service, rng, kills).tick()
        # the players who may have a turn, else everyone: the moves of a full step
        # (HouseBots.step), for a fraction of the polls
        bots.step(only_due=True) or bots.step()
    assert {"match", "create", "games", "results", "rate", "close"} <= set(kills), kills
    # The pass that rated the eighth match may have gone on to start new ones and been
    # killed between creating their games and recording them: the next pass carries on
    # from what Redis holds, as a restarted scheduler's would. Run it, unkilled.
    Runner(service).tick()

    r = service.core.r
    matches = ladder_store.all_matches(r, ladder_id)
    games, _ = ladder_store.all_results(r, ladder_id)
    for name, game_id in games.items():
        n, t = map(int, name.split(":"))
        assert game_id == table_game_id(f"ladder:{ladder_id}", n, t)
        # as the admin: a table of a board still in play is closed to anyone else
        version = service.games.view(ADMIN_TOKEN, game_id)["version"]
        assert r.hlen(keys.game_moves(game_id)) == version
    # no game of this ladder outside a match's tables (the worker's Redis is shared: the
    # other tests' games are not this ladder's; a game stored without its record counts
    # as this ladder's, it is not told apart)
    records = {g: game_store.read(r, g).game for g in all_game_ids(r)}
    metas = {g: None if rec is None else rec.meta for g, rec in records.items()}
    ours = {
        g
        for g, meta in metas.items()
        if meta is None or (meta.get("tournament") or {}).get("ladder") == ladder_id
    }
    assert ours == set(games.values()), {g: metas.get(g) for g in ours ^ set(games.values())}
    per_player = rated_per_player(r, ladder_id, matches)
    still_open = (ladder_store.read(r, ladder_id) or ladder_store.LadderRecord("", {}, 0)).open
    closed = [n for n in matches if n not in still_open]
    after = rating_store.after(r, pool(ladder_id), [f"{ladder_id}:{n}" for n in closed])
    assert len(after) == len(closed)  # a rated match always has its ratings after
    for n in closed:
        assert set(after[f"{ladder_id}:{n}"]) == {p for s in matches[n]["sides"] for p in s}
    board = service.ladders.leaderboard(ladder_id)["leaderboard"]
    assert {row["player_id"]: row["games"] for row in board} == dict(per_player)

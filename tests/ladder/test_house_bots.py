"""The ladder tests' house bots (tests/ladder/support.py): a step that asks only the players
a move was handed to makes the moves a full step makes, with fewer questions."""

from __future__ import annotations

from typing import Any

from bots import uniform
from server.services.bundle import Services
from server.store import connect
from tests.conftest import ADMIN_TOKEN
from tests.ladder.support import HouseBots
from tests.scheduler.support import register


def _play(service: Services, only_due: bool) -> tuple[list[tuple[str, Any]], int]:
    """Two one-deal Concerto games of eight players, seeded alike; every move made (by whom,
    what) and how many times a player was asked for its turns."""
    players = register(service, 8)
    for table, seed in enumerate(("house-a", "house-b")):
        seated = [p["id"] for p in players[4 * table : 4 * table + 4]]
        service.games.create_game(ADMIN_TOKEN, game="concerto", options={"deals": 1},
                                  seats=seated, seed=seed)  # fmt: skip
    bots = HouseBots(service, players, [uniform.make_bot] * 8, seed=1)
    names = {p["token"]: p["name"] for p in players}
    moves: list[tuple[str, Any]] = []
    asked = 0
    turns, move = service.feeds.turns, service.games.move

    def counted_turns(token: str, *args: Any, **kwargs: Any) -> dict[str, Any]:
        nonlocal asked
        asked += 1
        return turns(token, *args, **kwargs)

    def recorded_move(token: str, game_id: str, chosen: Any, *args: Any) -> dict[str, Any]:
        moves.append((names[token], chosen))
        return move(token, game_id, chosen, *args)

    service.feeds.turns = counted_turns  # type: ignore[method-assign]
    service.games.move = recorded_move  # type: ignore[method-assign]
    assert bots.step()  # the first step asks everyone, as after a scheduler pass
    while bots.step(only_due=only_due) or (only_due and bots.step()):
        pass
    return moves, asked


def test_asking_only_the_due_makes_the_same_moves_with_fewer_questions(redis_client, redis_server):
    full = _play(Services(connect(redis_server.url), admin_token=ADMIN_TOKEN), only_due=False)
    redis_client.flushdb()
    due = _play(Services(connect(redis_server.url), admin_token=ADMIN_TOKEN), only_due=True)
    assert len(full[0]) > 80  # two whole deals of 52 cards (and the passes)
    assert due[0] == full[0]
    assert due[1] < full[1], (due[1], full[1])  # measured: 134 against 192

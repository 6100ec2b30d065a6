"""The play hook (``Core.subscribe``): the play code tells its subscribers of a move
refused, a clocked move accepted and a player waiting, naming no feature; the ladders
(``LadderPlay``, subscribed by ``Services``) keep books of their own games only."""

from __future__ import annotations

import secrets
from typing import Any

import pytest

from server.games import GameError
from server.services.bundle import Services
from server.services.ladder_play import LadderPlay
from server.store.games import GameRecord
from tests.scheduler.support import register


class Recorder:
    """A subscriber that writes down what it is told."""

    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []

    def waiting(self, player_id: str, until: float) -> None:
        self.calls.append(("waiting", player_id))

    def moved(self, record: GameRecord, player_id: str, seconds: float) -> None:
        assert 0 <= seconds < 30  # the response time, within the clock
        self.calls.append(("moved", record.id, player_id))

    def refused(self, record: GameRecord, player_id: str) -> None:
        self.calls.append(("refused", record.id, player_id))


def ladder_books(service: Services) -> dict[str, Any]:
    """Every ladder key with its value (the response times and refused moves among them)."""
    r = service.core.r
    found = sorted(k.decode() for k in r.scan_iter(match="L:*"))
    return {k: r.dump(k) for k in found}


def test_play_tells_the_hook_and_a_game_off_the_ladders_leaves_their_books(service):
    assert any(isinstance(h, LadderPlay) for h in service.core.hooks)  # the ladders subscribe
    recorder = Recorder()
    service.core.subscribe(recorder)
    players = register(service, 4, prefix=f"hook{secrets.token_hex(2)}")
    game_id = secrets.token_hex(8)
    service.games.create_tournament_game(
        game_id=game_id,
        game="concerto",
        options={"deals": 1},
        seats=[p["id"] for p in players],
        seed=None,
        clock={"move_seconds": 30, "timeout_policy": {"kind": "default_move"}},
        tournament={"id": None, "round": 0, "table": 0, "board": None},
    )
    before = ladder_books(service)

    turns = [(p, t) for p in players for t in service.feeds.turns(p["token"])["turns"]]
    assert [c for c in recorder.calls if c[0] == "waiting"] == [
        ("waiting", p["id"]) for p in players
    ]
    ((mover, turn),) = turns
    with pytest.raises(GameError):
        service.games.move(mover["token"], game_id, {"type": "hop"}, turn["version"])
    assert recorder.calls[-1] == ("refused", game_id, mover["id"])
    move = turn["view"]["legal_moves"][0]
    service.games.move(mover["token"], game_id, move, turn["version"])
    assert recorder.calls[-1] == ("moved", game_id, mover["id"])
    assert ladder_books(service) == before  # not a ladder's game: nothing kept

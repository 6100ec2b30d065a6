"""Conflicting moves for the same turn, sent at once by many threads over real sockets.

Exactly one is accepted per turn, the version goes up by exactly one, and the
event stream has no duplicates and no gaps.
"""

from __future__ import annotations

import threading
from collections import Counter

import pytest
import requests

from tests.conftest import Player

THREADS = 12
TURNS = 8


def _race(url: str, player: Player, moves: list[dict], version: int | None) -> list[tuple]:
    """Post each move from its own thread, all released at once; return (status, code)s."""
    barrier = threading.Barrier(len(moves))
    results: list[tuple] = [()] * len(moves)

    def send(i: int) -> None:
        body = {"move": moves[i]} | ({} if version is None else {"version": version})
        with requests.Session() as s:
            barrier.wait()
            r = s.post(url, json=body, headers=player.headers, timeout=30)
        code = r.json().get("error", {}).get("code") if r.status_code != 200 else "ok"
        results[i] = (r.status_code, code)

    threads = [threading.Thread(target=send, args=(i,)) for i in range(len(moves))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    return results


@pytest.mark.parametrize("with_version", [True, False])
def test_exactly_one_conflicting_move_wins(live_api, live_players, with_version):
    four = live_players.many(4)
    gid = live_api.create("admin", [p.id for p in four])["id"]
    url = f"{live_api.base_url}/v1/games/{gid}/moves"
    for turn in range(TURNS):
        view = live_api.view(gid)
        assert view["version"] == turn
        seat = view["to_move"][0]
        legal = live_api.view(gid, four[seat])["legal_moves"]
        # Distinct moves (a repeated move with the same version would be a safe retry).
        moves = [legal[i % len(legal)] for i in range(min(THREADS, len(legal)))]
        results = _race(url, four[seat], moves, turn if with_version else None)
        outcome = Counter(results)
        assert outcome[(200, "ok")] == 1, outcome
        losers = {code for status, code in results if status != 200}
        allowed = (
            {"stale_version"}
            if with_version
            else {"stale_version", "not_your_turn", "illegal_move"}
        )
        assert losers <= allowed, outcome
        assert live_api.view(gid)["version"] == turn + 1
    events = live_api.get(f"/v1/games/{gid}/events", four[0]).body["events"]
    numbers = [e["seq"] for e in events]
    assert numbers == sorted(set(numbers))
    moves_seen = [e for e in events if e["kind"] in ("play", "pass", "force")]
    assert [e["version"] for e in moves_seen] == list(range(1, TURNS + 1))
    replay = live_api.get(f"/v1/games/{gid}/replay").body["events"]
    assert [e["seq"] for e in replay] == sorted({e["seq"] for e in replay})

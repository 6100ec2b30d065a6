"""Callback dispatchers under faults: two ``parlour dispatch`` processes at once, and one
killed with SIGKILL mid-call. Every game finishes, every version has exactly one
accepted move (none the clock's), and no turn is submitted twice: the calls per turn
and the moves each player's books counted are checked against the games' records.

The games' clocks are long (nobody enforces them here): a lost turn would leave its
game unfinished, and the test would fail waiting for it.
"""

from __future__ import annotations

import time
from collections import Counter
from typing import Any

import orjson
import pytest

from server.services.bundle import Services
from server.store import callbacks as callback_store
from server.store import keys
from tests.callbacks.support import Bot, clocked_game, first_legal, serving, wait_for
from tests.conftest import ADMIN_TOKEN
from tests.faults.procs import DispatchProc, running

SETTINGS = {
    "PARLOUR_WEBHOOK_ALLOW": "127.0.0.0/8",
    "PARLOUR_CALLBACK_TIMEOUT": "1",  # a dead dispatcher's turns are claimed after 3 s
    "PARLOUR_DISPATCH_CONCURRENCY": "8",
}


@pytest.fixture
def svc(redis_client) -> Services:
    return Services(redis_client, admin_token=ADMIN_TOKEN)


def _games(svc: Services, bot: Bot, players, n: int) -> list[str]:
    for p in players:
        secret = f"cbs_{p.id}"
        callback_store.put(svc.core.r, p.id, bot.url(), secret, 1.0)
        bot.secrets[p.id] = secret
    return [
        clocked_game(svc, [players[i % len(players)].id, players[(i + 1) % len(players)].id], 60)
        for i in range(n)
    ]


def _finished(svc: Services, game_ids: list[str]) -> bool:
    return all((g := svc.core.game(gid)) is not None and g.status == "finished" for gid in game_ids)


def _check(svc: Services, bot: Bot, game_ids: list[str], players) -> dict[str, Any]:
    """Every version of every game has one accepted move, made by a dispatcher."""
    versions = 0
    for gid in game_ids:
        record = svc.core.game(gid)
        assert record is not None and record.status == "finished"
        moves = {
            int(k): orjson.loads(v) for k, v in svc.core.r.hgetall(keys.game_moves(gid)).items()
        }
        assert sorted(moves) == list(range(record.version)), gid  # no version lost
        assert not any(m.get("timeout") for m in moves.values())  # all answered by the bots
        versions += record.version
    books = svc.callbacks.health([p.id for p in players])
    assert bot.bad_signatures == 0
    assert callback_store.pending(svc.core.r) == 0
    return {"versions": versions, "books": books, "per_turn": bot.per_turn()}


def _reading(svc: Services) -> int:
    """Connections whose last command was a read of the turns (a blocked dispatcher)."""
    return sum(c.get("cmd") == "xreadgroup" for c in svc.core.r.client_list())


def _consumers(svc: Services) -> list[dict[str, Any]]:
    return svc.core.r.xinfo_consumers(keys.callback_turns(), callback_store.GROUP)


def test_two_dispatchers_share_the_turns_and_call_each_once(svc, players, tmp_path, redis_server):
    people = players.many(4, "cb")
    with serving(Bot()) as bot:
        a = DispatchProc(redis_server.url, tmp_path, SETTINGS, "a").start()
        b = DispatchProc(redis_server.url, tmp_path, SETTINGS, "b").start()
        with running(a, b):
            # both waiting on the stream before the first turn: on a loaded machine one
            # that started late could find every game over, and share nothing
            wait_for(lambda: _reading(svc) == 2, 15, "both dispatchers to read")
            game_ids = _games(svc, bot, people, 6)
            wait_for(lambda: _finished(svc, game_ids), 25, "every game to finish")
    got = _check(svc, bot, game_ids, people)
    assert set(got["per_turn"].values()) == {1}  # no turn called by both
    assert sum(h["moves"] for h in got["books"].values()) == got["versions"]
    assert len(_consumers(svc)) == 2


def test_a_dispatcher_killed_mid_call_loses_no_turn(svc, players, tmp_path, redis_server):
    people = players.many(4, "cb")

    def slow(call: dict[str, Any]) -> tuple[int, bytes, float]:
        status, body, _ = first_legal(call)
        return status, body, 0.15

    with serving(Bot(behave=slow)) as bot:
        game_ids = _games(svc, bot, people, 4)
        first = DispatchProc(redis_server.url, tmp_path, SETTINGS, "first").start()
        second = DispatchProc(redis_server.url, tmp_path, SETTINGS, "second")
        with running(first, second):
            wait_for(lambda: len(bot.calls) >= 10 and bot.in_flight > 0, 15, "calls in flight")
            first.kill9()  # mid-call: its turns stay pending, unacked
            killed_at = time.monotonic()
            # Calls the dead process sent may still be in the bot's socket buffer: let
            # them land, then every call so far is the first dispatcher's. With 8 calls
            # at a time, the ones it died in are among its last 8.
            wait_for(lambda: bot.in_flight == 0, 5, "the dead dispatcher's calls to end")
            time.sleep(0.2)
            in_flight = {(c["game_id"], c["version"], c["seat"]) for c in bot.calls[-8:]}
            second.start()
            wait_for(lambda: _finished(svc, game_ids), 25, "every game to finish")
            took = time.monotonic() - killed_at
    got = _check(svc, bot, game_ids, people)
    twice = [turn for turn, n in got["per_turn"].items() if n == 2]
    assert max(got["per_turn"].values()) <= 2
    assert twice and set(twice) <= in_flight  # the killed call, called again by the other
    # a turn the killed dispatcher submitted but did not record counts nowhere: never more
    moves = sum(h["moves"] for h in got["books"].values())
    assert got["versions"] - len(twice) <= moves <= got["versions"]
    assert took < 25
    assert Counter(n for n in got["per_turn"].values())[1] > 10

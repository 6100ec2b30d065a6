"""The dispatcher over real sockets: callback bots play whole games, and each way a bot
fails (too slow, 500, garbage, an illegal move) is retried once while time is left,
then left to the clock's default move, and counted in the bot's health.

The bots are tiny WSGI servers in threads (tests/callbacks/support.py) on 127.0.0.1,
which ``allow`` (the operator's ``PARLOUR_WEBHOOK_ALLOW``) lets the dispatcher reach.
"""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import orjson
import pytest

from client_sdk.endpoint import make_server
from server.games import REGISTRY
from server.games.kit.base import IllegalMove, MalformedMove
from server.processes.dispatch import Dispatcher
from server.services import views
from server.services.bundle import Services
from server.store import callbacks as callback_store
from server.store import games as game_store
from server.store import keys
from server.store import players as player_store
from tests.api.helpers import Api, cards_in
from tests.callbacks.support import (
    Bot,
    clock_running,
    clocked_game,
    dispatching,
    first_legal,
    serving,
    wait_for,
)
from tests.conftest import ADMIN_TOKEN

LOCAL = "127.0.0.0/8"


@pytest.fixture
def svc(redis_client) -> Services:
    return Services(redis_client, admin_token=ADMIN_TOKEN)


def _callback(svc: Services, bot: Bot, player_id: str, url: str | None = None) -> None:
    """Register the bot as the player's callback (as PUT /v1/me/callback stores it)."""
    secret = f"cbs_test_{player_id}"
    callback_store.put(svc.core.r, player_id, url or bot.url(), secret, 1.0)
    bot.secrets[player_id] = secret


def _moves(svc: Services, game_id: str) -> dict[int, dict[str, Any]]:
    """Version -> the move accepted at it (the game's own record)."""
    raw = svc.core.r.hgetall(keys.game_moves(game_id))
    return {int(k): orjson.loads(v) for k, v in raw.items()}


def _health(svc: Services, player_id: str) -> dict[str, Any]:
    return svc.callbacks.health([player_id])[player_id]


def test_a_game_played_to_the_end_by_callback_bots(svc, players):
    a, b = players.many(2, "cb")
    with serving(Bot()) as bot:
        for p in (a, b):
            _callback(svc, bot, p.id)
        game_id = clocked_game(svc, [a.id, b.id], move_seconds=10)
        with dispatching(Dispatcher(svc.dispatch, consumer="d1", timeout=5, allow=LOCAL)):
            record = wait_for(
                lambda: (g := svc.core.game(game_id)) and g.status == "finished" and g,
                20,
                "the game to finish",
            )
    moves = _moves(svc, game_id)
    assert sorted(moves) == list(range(record.version))  # one move per version, none lost
    assert not any(m.get("timeout") for m in moves.values())
    # one call per turn, each signed, each with a fresh id, each the seat's own view
    assert set(bot.per_turn().values()) == {1}
    assert bot.bad_signatures == 0
    assert len({c["id"] for c in bot.calls}) == len(bot.calls)
    for call in bot.calls:
        assert {"id", "game_id", "seat", "version", "view"} <= set(call)
        assert call["view"]["you"] == call["seat"] and call["view"]["version"] == call["version"]
        assert call["host"] == f"127.0.0.1:{bot.port}"
    # Cowpoke's seats draw at once: of two answers at one version one commits, and the
    # other is stale (the compare-and-set), called again at the next version
    health = {p.id: _health(svc, p.id) for p in (a, b)}
    assert sum(h["moves"] for h in health.values()) == record.version
    assert sum(h["calls"] for h in health.values()) == len(bot.calls)
    for h in health.values():
        assert h["calls"] == h["moves"] + h["stale"] and h["timeouts"] == h["errors"] == 0
        assert h["latency_p50_ms"] is not None and h["latency_samples"] == h["calls"]
    assert callback_store.pending(svc.core.r) == 0  # every turn acked


def test_no_call_shows_hidden_cards(svc, players, redis_client):
    """A Concerto deal played by four callback bots: each call, scanned for card strings
    against the true state at its version, carries none of another seat's unplayed
    cards (the hidden-information check of tests/api/test_hidden_info.py, on this path)."""
    four = players.many(4, "cb")
    concerto = REGISTRY["concerto"]
    checked: list[int] = []
    leaks: list[tuple[int, set[str]]] = []

    def scan(call: dict[str, Any]) -> tuple[int, bytes, float]:
        record = game_store.read(redis_client, call["game_id"]).game
        if record is not None and record.version == call["version"]:
            state = concerto.from_dict(record.state)
            hands = [set(state.view(s)["hand"]) for s in range(4)]
            hidden = set().union(*hands) - hands[call["seat"]]
            shown = cards_in(json.dumps(call)) & hidden
            checked.append(call["version"])
            if shown:
                leaks.append((call["version"], shown))
        return first_legal(call)

    with serving(Bot(behave=scan)) as bot:
        for p in four:
            _callback(svc, bot, p.id)
        game_id = clocked_game(svc, [p.id for p in four], move_seconds=10, game="concerto")
        with dispatching(Dispatcher(svc.dispatch, consumer="d1", timeout=5, allow=LOCAL)):
            wait_for(
                lambda: (g := svc.core.game(game_id)) and g.status == "finished",
                25,
                "the deal to finish",
            )
    assert leaks == []
    assert len(checked) >= 30  # every turn of the deal was scanned (the last may be moot)
    assert bot.bad_signatures == 0


def _slow(call):
    return 200, json.dumps({"move": call["view"]["legal_moves"][0]}).encode(), 1.5


def _error(call):
    return 500, b'{"error": "boom"}', 0.0


def _garbage(call):
    return 200, b"<html>not json</html>", 0.0


def _no_move(call):
    return 200, b'{"mvoe": 1}', 0.0


def _illegal(call):
    return 200, json.dumps({"move": {"type": "no-such-move"}}).encode(), 0.0


def _huge(call):
    return 200, b'{"move": "' + b"x" * 70_000 + b'"}', 0.0


@pytest.mark.parametrize(
    ("behave", "kind", "counter", "calls"),
    [
        (_slow, "timeout", "timeouts", 1),  # no time left for a retry
        (_error, "status", "errors", 2),
        (_garbage, "not_a_move", "errors", 2),
        (_no_move, "not_a_move", "errors", 2),
        (_huge, "too_large", "errors", 2),
        (_illegal, "refused_move", "refused_moves", 2),
    ],
)
def test_a_failing_bot_gets_the_default_move_and_it_counts(
    svc, players, behave, kind, counter, calls
):
    a, b = players.many(2, "cb")
    with serving(Bot(behave=behave)) as bot:
        _callback(svc, bot, a.id)
        game_id = clocked_game(svc, [a.id, b.id], move_seconds=1.0)
        with (
            clock_running(svc),
            dispatching(Dispatcher(svc.dispatch, consumer="d1", timeout=5, allow=LOCAL)),
        ):
            moved = wait_for(
                lambda: [v for v, m in _moves(svc, game_id).items() if m["seat"] == 0],
                6,
                "seat 0's first move",
            )
            wait_for(lambda: _health(svc, a.id)[counter], 3, "the failure counted")
    assert _moves(svc, game_id)[moved[0]]["timeout"] is True  # the clock's default move
    first = (game_id, 0, 0)
    assert bot.per_turn()[first] == calls
    assert len({c["id"] for c in bot.calls if c["version"] == 0}) == calls  # a new id per try
    health = _health(svc, a.id)
    assert health[counter] >= 1 and health["moves"] == 0
    failure = health["last_failures"][0]
    assert failure["kind"] == kind and failure["game_id"] == game_id and failure["seat"] == 0
    assert "no-such-move" not in str(failure) and "boom" not in str(failure)  # our words only
    if kind == "refused_move":  # named as the move endpoint names it: not a move of the game
        assert failure["detail"] == "invalid_request"


def test_a_name_that_resolves_inside_is_refused_at_dispatch(svc, players):
    a, b = players.many(2, "cb")
    with serving(Bot()) as bot:
        _callback(svc, bot, a.id, url=f"http://bot.rebind.test:{bot.port}/bot")
        clocked_game(svc, [a.id, b.id], move_seconds=5)
        dispatcher = Dispatcher(
            svc.dispatch, consumer="d1", timeout=2, allow="", resolve=lambda h, p: ["127.0.0.1"]
        )
        with dispatching(dispatcher):
            wait_for(lambda: _health(svc, a.id)["errors"] >= 2, 5, "two refused attempts")
    assert bot.calls == []  # nothing reached it
    health = _health(svc, a.id)
    assert health["calls"] == 0 and {f["kind"] for f in health["last_failures"]} == {
        "refused_address"
    }
    assert all(f["detail"] is None for f in health["last_failures"])  # no address shown


def test_the_connection_goes_to_the_checked_address_with_the_urls_host(svc, players):
    a, b = players.many(2, "cb")
    with serving(Bot()) as bot:
        _callback(svc, bot, a.id, url=f"http://bot.rebind.test:{bot.port}/bot")
        clocked_game(svc, [a.id, b.id], move_seconds=5)
        dispatcher = Dispatcher(
            svc.dispatch, consumer="d1", timeout=2, allow=LOCAL, resolve=lambda h, p: ["127.0.0.1"]
        )
        with dispatching(dispatcher):
            wait_for(lambda: _health(svc, a.id)["moves"], 5, "a move played")
    assert bot.calls[0]["host"] == f"bot.rebind.test:{bot.port}"


def test_a_move_made_by_the_player_first_makes_the_callbacks_answer_stale(svc, players):
    """The player's other paths keep working; the dispatcher's submit then fails the
    version's compare-and-set harmlessly and counts as stale."""
    a, b = players.many(2, "cb")
    submitted: dict[str, Any] = {}

    def race(call):
        if call["version"] == 0 and call["seat"] == 0 and not submitted:
            submitted["view"] = svc.games.move(
                a.token, call["game_id"], call["view"]["legal_moves"][-1], version=0, seat=0
            )
        return 200, json.dumps({"move": call["view"]["legal_moves"][0]}).encode(), 0.0

    with serving(Bot(behave=race)) as bot:
        _callback(svc, bot, a.id)
        game_id = clocked_game(svc, [a.id, b.id], move_seconds=5)
        with dispatching(Dispatcher(svc.dispatch, consumer="d1", timeout=2, allow=LOCAL)):
            wait_for(lambda: _health(svc, a.id)["stale"], 5, "the stale answer counted")
    assert submitted
    assert [m for v, m in _moves(svc, game_id).items() if v == 0][0]["seat"] in (0, 1)
    assert bot.per_turn()[(game_id, 0, 0)] == 1


def test_removing_the_callback_stops_the_calls(svc, players):
    a, b = players.many(2, "cb")
    with serving(Bot()) as bot:
        _callback(svc, bot, a.id)
        callback_store.delete(svc.core.r, a.id)
        clocked_game(svc, [a.id, b.id], move_seconds=5)
        with dispatching(Dispatcher(svc.dispatch, consumer="d1", timeout=2, allow=LOCAL)):
            wait_for(lambda: callback_store.pending(svc.core.r) == 0, 3, "nothing pending")
    assert bot.calls == []
    assert svc.core.r.xlen(keys.callback_turns()) == 0


def test_an_unclocked_game_of_players_is_played_through_their_callbacks(svc, players, client):
    """A game a player made and another joined (no clock): the callbacks play it out, with
    the turns queued by the commits themselves (the movers woken in the commit)."""
    a, b = players.many(2, "cb")
    api = Api(client=client)
    with serving(Bot()) as bot:
        for p in (a, b):
            _callback(svc, bot, p.id)
        game = api.create(a, [a.id, None], game="cowpoke", options={"players": 2, "hands": 1})
        with dispatching(Dispatcher(svc.dispatch, consumer="d1", timeout=2, allow=LOCAL)):
            assert api.post(f"/v1/games/{game['id']}/join", {}, b).status == 200
            record = wait_for(
                lambda: (g := svc.core.game(game["id"])) and g.status == "finished" and g,
                15,
                "the game to finish",
            )
    moves = _moves(svc, game["id"])
    assert sorted(moves) == list(range(record.version))
    assert set(bot.per_turn().values()) == {1}
    assert sum(_health(svc, p.id)["moves"] for p in (a, b)) == record.version


def test_a_callback_set_while_its_turn_waits_is_called(svc, players, redis_client):
    """The step after a commit queues nothing for a player with no callback; once one is
    set, the dispatchers' sweep finds the waiting turn; a turn both the sweep and a
    commit queue is queued, and called, once."""
    a, b = players.many(2, "cb")
    with serving(Bot()) as bot:
        game_id = clocked_game(svc, [a.id, b.id], move_seconds=10)
        assert redis_client.xlen(keys.callback_turns()) == 0  # nobody had a callback
        _callback(svc, bot, a.id)
        _callback(svc, bot, b.id)
        with dispatching(Dispatcher(svc.dispatch, consumer="d1", timeout=2, allow=LOCAL)):
            wait_for(lambda: bot.calls, 5, "the waiting turns called")
            wait_for(
                lambda: (g := svc.core.game(game_id)) and g.status == "finished",
                15,
                "the game to finish",
            )
    assert set(bot.per_turn().values()) == {1}


class _Drip(Bot):
    """Sends its headers at once, then the body a byte at a time, too slowly."""

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        environ["wsgi.input"].read(int(environ.get("CONTENT_LENGTH") or 0))
        with self.lock:
            self.calls.append({"dripped": True})
        start_response("200 OK", [("Content-Type", "application/json")])

        def body():
            for byte in b'{"move": {"type": "draw"}}':
                time.sleep(0.3)
                yield bytes([byte])

        return body()


def test_an_answer_dripped_past_the_deadline_is_a_timeout(svc, players):
    a, b = players.many(2, "cb")
    with serving(_Drip()) as bot:
        _callback(svc, bot, a.id)
        clocked_game(svc, [a.id, b.id], move_seconds=0.8)
        with dispatching(Dispatcher(svc.dispatch, consumer="d1", timeout=2, allow=LOCAL)):
            wait_for(lambda: _health(svc, a.id)["timeouts"], 5, "the timeout counted")
    assert _health(svc, a.id)["last_failures"][0]["kind"] == "timeout"


def test_the_next_checked_address_is_tried_when_one_refuses(svc, players):
    """The name resolves to two checked addresses; nothing listens on the first."""
    a, b = players.many(2, "cb")
    with serving(Bot()) as bot:
        _callback(svc, bot, a.id, url=f"http://bot.two.test:{bot.port}/bot")
        clocked_game(svc, [a.id, b.id], move_seconds=5)
        dispatcher = Dispatcher(
            svc.dispatch,
            consumer="d1",
            timeout=2,
            allow=LOCAL,
            resolve=lambda h, p: ["127.0.0.2", "127.0.0.1"],
        )
        with dispatching(dispatcher):
            wait_for(lambda: _health(svc, a.id)["moves"], 5, "a move played")
    assert _health(svc, a.id)["errors"] == 0


def test_calls_to_one_bot_host_share_kept_alive_connections(svc, players):
    """Served as ``parlour-bot serve`` serves a bot (its server keeps connections), the
    turns of a game, called one after another, reuse the connection the last call left
    (its answer read to the end) instead of opening one each."""
    a, b = players.many(2, "cb")
    bot = Bot()
    server = make_server(bot, "127.0.0.1", 0)
    bot.port = server.server_port
    connections: list[tuple[str, int]] = []  # each connection the server accepted
    accept = server.process_request
    server.process_request = lambda request, peer: (connections.append(peer), accept(request, peer))  # type: ignore[method-assign]
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}).start()
    try:
        for p in (a, b):
            _callback(svc, bot, p.id)
        game_id = clocked_game(svc, [a.id, b.id], move_seconds=10)
        with dispatching(Dispatcher(svc.dispatch, consumer="d1", timeout=5, allow=LOCAL)):
            wait_for(
                lambda: (g := svc.core.game(game_id)) and g.status == "finished",
                20,
                "the game to finish",
            )
    finally:
        server.shutdown()
        server.server_close()
    assert len(bot.calls) >= 4 and bot.bad_signatures == 0
    assert len(connections) <= 2  # one connection, or two where calls overlapped


def test_a_turn_answered_another_way_after_its_call_was_prepared_is_stale(svc, players):
    """The move is submitted over the game as read before the call: if the player moved
    another way meanwhile, the answer is refused by the version's compare-and-set
    (``stale``), or is the same move (accepted once: ``moved``); one move per version."""
    a, b = players.many(2, "cb")
    bot = Bot()
    for p in (a, b):
        _callback(svc, bot, p.id, url="http://127.0.0.1:9/bot")
    game_id = clocked_game(svc, [a.id, b.id], move_seconds=30)
    svc.dispatch.start()
    jobs = svc.dispatch.take("t1", 100, 100)
    job = next(j for j in jobs if j.game_id == game_id)
    for other in jobs:  # the other seat's, and the turns earlier tests left
        if other is not job:
            svc.dispatch.ack(other)
    call = svc.dispatch.prepare(job, 10)
    assert call is not None and call != "later"
    legal = call.turn["view"]["legal_moves"]
    assert len(legal) >= 2
    svc.games.move_as(job.player_id, game_id, legal[0], job.version, job.seat)
    assert svc.dispatch.submit(call, legal[1]) == ("stale", None)
    assert svc.dispatch.submit(call, legal[0]) == ("moved", None)  # the same move: a retry
    moves = _moves(svc, game_id)
    assert moves[job.version]["move"] == legal[0]
    assert svc.core.game(game_id).version == job.version + 1


def test_the_sweep_queues_each_waiting_turn_once_and_forgets_finished_games(svc, players):
    """The sweep reads no turn it need not: a turn is queued once however often it runs,
    only callback players' turns are, and a finished game left in a player's list (a
    cleanup cut short) is dropped from it."""
    a, b, c = players.many(3, "cb")
    bot = Bot()
    _callback(svc, bot, a.id)  # b has no callback
    game_id = clocked_game(svc, [a.id, b.id], move_seconds=30)
    done_id = clocked_game(svc, [a.id, c.id], move_seconds=30)
    svc.core.r.hset(keys.game_state(done_id), "status", "finished")
    r = svc.core.r
    before = r.xlen(keys.callback_turns())
    to_move = views.state_of(svc.core.game(game_id)).to_move()
    record = svc.core.game(game_id)
    mine = [s for s in to_move if record.seats[s]["player_id"] == a.id]
    assert mine and set(to_move) - set(mine)  # both to move (cowpoke: antes at once)
    queued = svc.dispatch.sweep()
    assert r.xlen(keys.callback_turns()) - before == queued <= len(mine)
    assert svc.dispatch.sweep() == 0  # queued already (by the commit or the first sweep)
    assert r.xlen(keys.callback_turns()) - before == queued
    for seat in mine:
        assert r.exists(keys.callback_queued(game_id, record.version, seat))
    assert done_id not in player_store.games(r, a.id) and game_id in player_store.games(r, a.id)
    for seat in set(to_move) - set(mine):  # b's turn: b has no callback
        assert not r.exists(keys.callback_queued(game_id, record.version, seat))


def test_a_refused_answer_is_named_by_the_api_s_own_code():
    """The books' detail for a refused answer is the code the move endpoint answers with
    (the dispatcher reads the API's table): a move that is not one of the game's
    (MalformedMove) is ``invalid_request`` there, not a word of the dispatcher's own."""
    from server.processes.dispatch import refusal_code

    assert refusal_code(MalformedMove("no such card")) == "invalid_request"
    assert refusal_code(IllegalMove("not now", legal_moves=[])) == "illegal_move"
    assert refusal_code(None) is None

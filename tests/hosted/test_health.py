"""A player bot's health (``health`` on ``GET /v1/me/bots/{id}``, ``POST .../resume``):
a hosted bot whose turns keep failing is paused on its ladders until its owner resumes
it; a connected bot whose ladder games run out their clocks shows the same shape.

No sandbox runs: the failures are recorded through :meth:`HostedTurns.log`, the call
the sandbox worker makes after each turn, on a seat pinned as its first turn pins it."""

from __future__ import annotations

import time

from server.games import REGISTRY
from server.services import targets, views
from server.services.bundle import Services
from server.services.callback_dispatch import Job as CallJob
from server.services.hosted import FAILED_TURNS, Job
from server.store import bots as bot_store
from server.store import connect
from server.store import ladders as ladder_store
from server.tournaments import clock as clock_policy
from tests.api.helpers import Api, assert_error
from tests.conftest import ADMIN_TOKEN

from .support import sh_bot

SECRET = "my cards are AS KS"
"""A line of the bot's stderr: never in a reason anyone sees while games are played."""


def _two_seat_game() -> str:
    return next(g for g, spec in REGISTRY.items() if 2 in spec.seats)


def _setup(api: Api, players, redis_server) -> tuple[Services, dict, dict, str]:
    services = Services(connect(redis_server.url), admin_token=ADMIN_TOKEN)
    services.hosted.heartbeat("a host", True, "", 0)  # bots may be made; none plays here
    ladder = services.ladders.create(ADMIN_TOKEN, game=_two_seat_game(), table_size=2)["id"]
    owner = players.register("owner")
    made = api.post("/v1/me/bots", {"name": "shaky", "kind": "hosted", "bundle": sh_bot()}, owner)
    assert made.status == 201, made.body
    entered = api.post(f"/v1/me/bots/{made.body['id']}/ladders", {"ladder_id": ladder}, owner)
    assert entered.status == 200 and entered.body["status"] != "paused", entered.body
    return services, owner, made.body, ladder


def _fail(services: Services, bot: dict, game_id: str, seat: int, kind: str = "crash") -> None:
    services.hosted.log(Job("0-1", game_id, 3, seat, bot["identities"][0]), SECRET + "\n", kind)


def test_a_hosted_bot_that_keeps_failing_is_paused_until_its_owner_resumes_it(
    api: Api, players, redis_server
):
    services, owner, bot, ladder = _setup(api, players, redis_server)
    r, first = services.core.r, bot["identities"][0]
    for game, seat in (("gh-one", 0), ("gh-two", 1)):  # two games: the count is the bot's
        assert bot_store.pin(r, game, seat, bot["id"], 1) == 1  # as its first turn pins it
    # one short of the threshold, over two games and two kinds: still ok
    for n in range(FAILED_TURNS - 1):
        _fail(services, bot, "gh-two" if n % 2 else "gh-one", n % 2, "timeout" if n else "crash")
    shown = api.get(f"/v1/me/bots/{bot['id']}", owner).body["health"]
    assert shown["status"] == "ok" and shown["failed_turns_in_a_row"] == FAILED_TURNS - 1
    # a turn played well ends the run: as many again still do not pause it
    services.hosted.played(bot["id"])
    for _ in range(FAILED_TURNS - 1):
        _fail(services, bot, "gh-one", 0)
    assert api.get(f"/v1/me/bots/{bot['id']}", owner).body["health"]["status"] == "ok"
    # the next failure is the fifth in a row: paused, on the bot and on its ladder entry
    before = time.time()
    _fail(services, bot, "gh-two", 1, "garbage")
    shown = api.get(f"/v1/me/bots/{bot['id']}", owner).body["health"]
    assert shown["status"] == "paused" and shown["failed_turns_in_a_row"] == FAILED_TURNS
    assert f"{FAILED_TURNS} failed turns in a row" in shown["reason"]
    assert "garbage" in shown["reason"] and "gh-two seat 1" in shown["reason"]
    assert SECRET not in shown["reason"]  # the stderr waits for the game's end
    assert shown["since"] is not None and shown["ladders"] == [
        {"ladder_id": ladder, "player_id": first, "reason": shown["reason"]}
    ]
    entry = api.get(f"/v1/ladders/{ladder}/entries/{first}").body
    assert entry["status"] == "paused" and entry["paused_reason"] == shown["reason"]
    record = ladder_store.read(r, ladder)
    assert record is not None
    stats = services.ladders.stats.stats(record)  # what the matchmaking reads
    assert stats[first]["status"] == "paused"
    # more failures keep the first pause's time
    _fail(services, bot, "gh-one", 0)
    again = api.get(f"/v1/me/bots/{bot['id']}", owner).body["health"]
    assert again["since"] == shown["since"]
    assert bot_store.get(r, bot["id"])["paused_since"] >= before  # type: ignore[index]
    # only its owner resumes it
    other = players.register("other")
    assert_error(api.post(f"/v1/me/bots/{bot['id']}/resume", None, other), 404, "not_found")
    assert api.get(f"/v1/me/bots/{bot['id']}", owner).body["health"]["status"] == "paused"
    resumed = api.post(f"/v1/me/bots/{bot['id']}/resume", None, owner)
    assert resumed.status == 200, resumed.body
    assert resumed.body["health"] == {
        "status": "ok", "reason": None, "since": None, "failed_turns_in_a_row": 0, "ladders": []
    }  # fmt: skip
    entry = api.get(f"/v1/ladders/{ladder}/entries/{first}").body
    assert entry["status"] != "paused" and entry["paused_reason"] is None


def test_a_connected_bot_that_times_out_shows_the_same_health_and_is_resumed(
    api: Api, players, redis_server
):
    services = Services(connect(redis_server.url), admin_token=ADMIN_TOKEN)
    ladder = services.ladders.create(ADMIN_TOKEN, game=_two_seat_game(), table_size=2)["id"]
    owner = players.register("runner")
    bot = api.post("/v1/me/bots", {"name": "runner", "kind": "connected"}, owner).body
    first = bot["identities"][0]
    assert api.post(f"/v1/me/bots/{bot['id']}/ladders", {"ladder_id": ladder}, owner).status == 200
    rival = players.register("rival")
    services.ladders.join(rival.token, ladder)
    r = services.core.r
    record = ladder_store.read(r, ladder)
    assert record is not None
    pause_after = record.meta["pause_after"]
    # its last pause_after games each ran out its clock (as the scheduler records them)
    now = time.time()
    sides = [[first], [rival.id]]
    ladder_store.put_matches(
        r, ladder, lambda rec: [{"sides": sides, "tables": [[first, rival.id]], "created": now}]
        * pause_after,
    )  # fmt: skip
    ladder_store.put_results(
        r,
        ladder,
        {
            ladder_store.slot(n, 0): {"scores": [0, 1], "winners": [1], "forfeit": None,
                                     "game_id": f"gc-{n}", "ended": now, "timeouts": {"0": 1}}
            for n in range(pause_after)
        },
    )  # fmt: skip
    shown = api.get(f"/v1/me/bots/{bot['id']}", owner).body["health"]
    assert shown["status"] == "paused" and shown["failed_turns_in_a_row"] is None
    assert f"timed out in its last {pause_after} games" in shown["reason"]
    assert shown["ladders"] == [
        {"ladder_id": ladder, "player_id": first, "reason": shown["reason"]}
    ]
    assert shown["since"] is not None
    # the owner resumes it: the timeouts before now no longer pause it
    resumed = api.post(f"/v1/me/bots/{bot['id']}/resume", None, owner).body["health"]
    assert resumed["status"] == "ok" and resumed["ladders"] == []
    assert api.get(f"/v1/ladders/{ladder}/entries/{first}").body["status"] != "paused"


def test_a_paused_bots_ladder_games_are_played_out_so_nobody_waits_on_it(
    api: Api, players, redis_server
):
    services, owner, bot, ladder = _setup(api, players, redis_server)
    r, first = services.core.r, bot["identities"][0]
    rival = players.register("rival")
    services.ladders.join(rival.token, ladder)
    now = time.time()
    for p in (first, rival.id):
        ladder_store.seen(r, p, now)  # both wait for a game: the ladder matches them
    assert services.ladder_play.advance(ladder) == 1
    record = ladder_store.read(r, ladder)
    assert record is not None and len(record.games) == 1
    (game_id,) = record.games.values()
    seat = record.open[0]["tables"][0].index(first)
    assert services.core.game(game_id).status == "active"  # type: ignore[union-attr]
    services.ladder_play.advance(ladder)  # not paused: its turns wait for it
    assert services.core.game(game_id).status == "active"  # type: ignore[union-attr]
    bot_store.pin(r, game_id, seat, bot["id"], 1)
    before = ladder_store.read(r, ladder)
    assert before is not None
    for _ in range(FAILED_TURNS):
        _fail(services, bot, game_id, seat)
    # paused: each pass gives its turns the clock's policy at once (the rival plays its
    # own turns): it never holds the turn after a pass
    for _ in range(20):
        game = services.core.game(game_id)
        assert game is not None and game.status == "active"
        state = views.state_of(game)
        if 1 - seat in state.to_move():
            move = clock_policy.default_move(state.legal_moves(1 - seat))
            services.games.move_as(rival.id, game_id, move, game.version, 1 - seat)
        services.ladder_play.advance(ladder)
        game = services.core.game(game_id)
        assert game is not None
        if game.status != "active":
            break
        assert seat not in views.state_of(game).to_move()
    # each of its turns was a timeout of its seat, as its clock would have made it
    assert services.ladder_play.clocks.timeouts([game_id])[game_id][str(seat)] >= 20
    # and it is not matched again while paused (the matchmaking skips a paused entry)
    assert services.ladders.entry(ladder, first)["status"] == "paused"
    for p in (first, rival.id):
        ladder_store.seen(r, p, time.time())
    services.ladder_play.advance(ladder)
    record = ladder_store.read(r, ladder)
    assert record is not None
    matched = ladder_store.all_matches(r, ladder)
    assert all(first not in m["tables"][0] for n, m in matched.items() if n >= before.matches_count)


def test_a_callback_bot_whose_turns_keep_failing_is_paused_the_same_way(
    api: Api, players, redis_server
):
    services = Services(connect(redis_server.url), admin_token=ADMIN_TOKEN)
    services.player_bots.allow = targets.allowlist("127.0.0.0/8")  # a URL here is fine
    owner = players.register("caller")
    bot = services.player_bots.create(owner.token, "hook", "callback", url="http://127.0.0.1:9/t")
    first = bot["identities"][0]

    def turn(outcome: str, n: int) -> None:  # a turn's end, as the dispatcher books it
        last = {"called": True, "outcome": outcome, "latency_ms": 5, "detail": "HTTP 500"}
        services.dispatch.finish(CallJob(f"0-{n}", "gb-one", n, 0, first), last)

    for n in range(FAILED_TURNS - 1):
        turn("status" if n % 2 else "timeout", n)
    turn("stale", 90)  # neither: a turn someone else played
    turn("moved", 91)  # ends the run
    assert services.player_bots.show(owner.token, bot["id"])["health"]["status"] == "ok"
    for n in range(FAILED_TURNS):
        turn("unreachable", 100 + n)
    shown = services.player_bots.show(owner.token, bot["id"])["health"]
    assert shown["status"] == "paused", shown
    assert f"{FAILED_TURNS} failed turns in a row (last: unreachable" in shown["reason"]
    assert shown["failed_turns_in_a_row"] == FAILED_TURNS
    services.player_bots.resume(owner.token, bot["id"])
    assert services.player_bots.show(owner.token, bot["id"])["health"]["status"] == "ok"

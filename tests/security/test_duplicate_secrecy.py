"""A duplicate board's deal stays secret until both of its tables are over.

The two tables of a board hold the same cards in the same seats and seat
different players (docs/api.md#duplicate-boards): while either is played, a
bot seated at one must learn nothing of the other from the server. Spectators and other players
are refused (403 ``board_in_play``) on every resource of either table, a table
over before its twin shows even its own players only its result, and the
lobby lists it without scores or result. The admin sees everything, and once
the board is over so does everyone.
"""

from __future__ import annotations

import json
import random

from tests.api.helpers import assert_error, cards_in
from tests.security.support import DECK, play_out, seated, snapshot, start_board, step

RESOURCES = ("", "/events", "/stream", "/replay", "/replay/0")


def _refused(api, gid: str, who) -> None:
    for tail in RESOURCES:
        reply = api.get(f"/v1/games/{gid}{tail}", who)
        details = assert_error(reply, 403, "board_in_play")
        assert gid in details["tables"] and len(details["tables"]) == 2
        assert "over" in reply.body["error"]["message"]  # says when it opens
        assert cards_in(reply.text) == set()


def test_spectators_and_other_players_are_refused_a_board_in_play(api, app, players, redis_client):
    people = players.many(9)
    x, y = start_board(api, app, people[:8])
    step(api, x, people, random.Random(1))
    at_x, at_y = seated(api, x, people), seated(api, y, people)
    assert not {p.id for p in at_x} & {p.id for p in at_y}  # nobody at both tables
    before = snapshot(redis_client, [x, y])
    for gid, others in ((x, at_y), (y, at_x)):
        _refused(api, gid, None)  # no token
        _refused(api, gid, people[8])  # a player seated at neither table
        for p in others:  # a player of the other table: it holds these very cards there
            _refused(api, gid, p)
    assert snapshot(redis_client, [x, y]) == before  # a refusal changes nothing
    # seated players still play and see their own seat; the admin sees everything
    mine = api.view(x, at_x[0])
    assert mine["you"] is not None and len(mine["hand"]) > 0
    assert api.get(f"/v1/games/{x}/events", at_x[0]).status == 200
    assert api.view(x, "admin")["state"]["completed_hands"] == []


def test_a_table_over_before_its_twin_shows_its_players_only_the_result(api, app, players):
    people = players.many(8)
    x, y = start_board(api, app, people)
    rng = random.Random(2)
    step(api, y, people, rng)
    last = play_out(api, x, people, rng)
    # the reply to the move that ended it: the result, nothing of the deal
    assert last["status"] == "finished" and last["result"] is not None
    assert last["state"] is None and "hand" not in last and cards_in(json.dumps(last)) == set()
    for p in seated(api, x, people):
        view = api.view(x, p)
        assert view["state"] is None and view["result"] == last["result"]
        assert cards_in(json.dumps(view)) == set()
        for tail in RESOURCES[1:]:
            assert_error(api.get(f"/v1/games/{x}{tail}", p), 403, "board_in_play")
    _refused(api, x, None)
    for p in seated(api, y, people):  # the other table's players: not even the result
        _refused(api, x, p)
    admin = api.view(x, "admin")
    assert len(admin["state"]["final_hands"]) == 4 and admin["state"]["completed_hands"]
    # the twin ends: the whole board is public, as for any game
    play_out(api, y, people, rng)
    for gid in (x, y):
        shown = api.view(gid)
        assert shown["state"]["completed_hands"] and shown["state"]["final_hands"] is not None
        replay = api.get(f"/v1/games/{gid}/replay").body
        assert cards_in(json.dumps(replay)) == DECK
        assert api.get(f"/v1/games/{gid}/replay/0").status == 200
        assert api.get(f"/v1/games/{gid}/events").status == 200


def test_the_lobby_lists_a_table_in_play_without_scores_or_result(api, app, players):
    people = players.many(8)
    x, y = start_board(api, app, people)
    rng = random.Random(3)
    step(api, y, people, rng)
    play_out(api, x, people, rng)

    def entry(status: str, gid: str) -> dict:
        listed = api.get("/v1/games", status=status).body["games"]
        return next(g for g in listed if g["id"] == gid)

    ended, live = entry("finished", x), entry("live", y)
    assert ended["result"] is None and ended["scores"] is None
    assert live["to_move"] == [] and live["scores"] is None and live["result"] is None
    play_out(api, y, people, rng)
    assert entry("finished", x)["result"] is not None
    assert entry("finished", y)["scores"] is not None

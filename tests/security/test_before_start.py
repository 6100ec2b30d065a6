"""Nobody sees a card of a deal before every seat of it is final (docs/api.md, Before the start).

An outside probe read every hand of a waiting game: the cards are dealt at
creation and a waiting game's seat view showed that seat's hand, so one player
stood up and sat down round the table, reading each seat, and knew the cards of
the three players who joined after. Here, over random sequences of seat changes
before the start (create, join, leave, rejoin, several seats at once), every
answer any caller gets (the views of every seat, the events, the game stream, the
turns, the replay, the lobby, the answers of the seat changes themselves) is
scanned for the cards only a seat may see; once the last seat is taken, each seat
sees exactly its own hand (the scan is not blind). Guests are bound to their seat.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from server.games import REGISTRY
from server.store import games as game_store
from tests.api.helpers import Api, Reply, assert_error, cards_in
from tests.embed.conftest import app_game, make_app, register_bots
from tests.embed.test_guests import guest

# One option set a game, with the seat count the probe used.
GAMES = [
    ("concerto", {"deals": 1}, 4),
    ("seconds", {}, 4),
    ("cowpoke", {"players": 3}, 3),
    ("pinochle", {"variant": "partnership"}, 4),
]
ROUNDS = 3
"""Random seat-change sequences a game, every answer scanned after each step."""
STEPS = 8
"""Steps in which a holder may stand up; the seats are then filled."""


def _private_cards(redis_client, gid: str) -> tuple[Any, list[set[str]], set[str]]:
    """The true state, each seat's own cards, and the cards only some seat may see."""
    record = game_store.read(redis_client, gid).game
    state = REGISTRY[record.meta["game"]].from_dict(record.state)
    public = cards_in(json.dumps(state.view(None)))
    own = [cards_in(json.dumps(state.view(s))) - public for s in range(state.num_seats)]
    return state, own, set().union(*own)


def _scan(api: Api, gid: str, callers: list, seats: int) -> list[Reply]:
    """Every read any of ``callers`` (and a spectator) can make of the game."""
    replies = []
    for who in [*callers, None]:
        replies += [
            api.get(f"/v1/games/{gid}", who),
            api.get(f"/v1/games/{gid}/events", who),
            api.get(f"/v1/games/{gid}/stream", who),
            api.get(f"/v1/games/{gid}/replay", who),
            api.get("/v1/games", who),
        ]
        if who is not None:
            replies.append(api.get("/v1/me/turns", who))
            replies += [api.get(f"/v1/games/{gid}", who, seat=s) for s in range(seats)]
            replies += [api.get(f"/v1/games/{gid}/events", who, seat=s) for s in range(seats)]
    return replies


def _no_private_card(replies: list[Reply], private: set[str]) -> None:
    for reply in replies:
        assert reply.status < 500, reply.text
        leaked = cards_in(reply.text) & private
        assert not leaked, (reply.status, sorted(leaked), reply.text[:300])


@pytest.mark.parametrize(("game", "options", "seats"), GAMES, ids=[g[0] for g in GAMES])
def test_seat_changes_before_the_start_show_no_card(
    api, players, redis_client, game, options, seats
):
    rng = random.Random(f"before-start-{game}")
    for _ in range(ROUNDS):
        people = players.many(seats + 1, prefix=f"{game[:3]}")
        hopper = people[0]
        multiple = rng.random() < 0.5
        first = [hopper.id] * (seats - 1) + [None] if multiple else [hopper.id]
        first += [None] * (seats - len(first))
        body = {"game": game, "options": options, "seats": first}
        if multiple:
            body["allow_multiple_seats"] = True
        created = api.post("/v1/games", body, hopper)
        assert created.status == 201, created.body
        gid = created.body["id"]
        _, own, private = _private_cards(redis_client, gid)
        seen = [created]  # every answer is scanned with the reads after it
        holder = dict(enumerate(first))
        steps = 0
        while None in holder.values():
            steps += 1
            taken = [s for s, p in holder.items() if p is not None]
            open_ = [s for s, p in holder.items() if p is None]
            if taken and steps <= STEPS and rng.random() < 0.5 and len(open_) < seats:
                seat = rng.choice(taken)  # the holder stands up (the admin, now and then)
                who = "admin" if rng.random() < 0.2 else _player(people, holder[seat])
                reply = api.delete(f"/v1/games/{gid}/seats/{seat}", who)
                assert reply.status == 200, reply.body
                holder[seat] = None
            else:
                seat = rng.choice(open_)
                sitting = {p for p in holder.values() if p is not None}
                free = [p for p in people if p.id not in sitting]
                who = hopper if (multiple or hopper.id not in sitting) else rng.choice(free)
                reply = api.post(f"/v1/games/{gid}/join", {"seat": seat}, who)
                assert reply.status == 200, reply.body
                holder[seat] = who.id
            if None not in holder.values():  # the last seat is taken: the game has started,
                _no_private_card([reply], private - own[seat])  # the joiner sees its own
                break
            _no_private_card([*seen, reply, *_scan(api, gid, people, seats)], private)
            seen = []
        _each_seat_sees_its_own(api, gid, people, holder, own, redis_client)


def _player(people, pid):
    return next(p for p in people if p.id == pid)


def _each_seat_sees_its_own(api, gid, people, holder, own, redis_client) -> None:
    """Started: each seat's view holds its own cards (dealt at creation, unchanged); what
    the others may not see of an active game is tests/api/test_hidden_info.py's."""
    assert game_store.read(redis_client, gid).game.status == "active"
    for seat, pid in holder.items():
        view = api.get(f"/v1/games/{gid}", _player(people, pid), seat=seat)
        assert view.status == 200, view.body
        shown = cards_in(view.text)
        assert own[seat] <= shown, (seat, own[seat] - shown)


def test_the_probe_hopping_round_the_table_learns_nothing(api, players, redis_client):
    """The probe's sequence exactly: create alone, stand up, sit at 1, 2, 3, back at 0."""
    hopper, *others = players.many(4, prefix="hop")
    gid = api.create(hopper, [hopper.id, None, None, None], options={"deals": 1})["id"]
    _, own, private = _private_cards(redis_client, gid)
    learnt: set[str] = set()
    for seat in (1, 2, 3, 0):
        assert api.delete(f"/v1/games/{gid}/seats/{(seat - 1) % 4}", hopper).status == 200
        joined = api.post(f"/v1/games/{gid}/join", {"seat": seat}, hopper)
        assert joined.status == 200 and joined.body["you"] == seat
        assert "hand" not in joined.body and joined.body["legal_moves"] == []
        learnt |= cards_in(joined.text) | cards_in(api.get(f"/v1/games/{gid}", hopper).text)
        learnt |= cards_in(api.get(f"/v1/games/{gid}/events", hopper).text)
    assert not learnt & private
    for seat, player in zip((1, 2, 3), others, strict=True):
        assert api.post(f"/v1/games/{gid}/join", {"seat": seat}, player).status == 200
    started = api.get(f"/v1/games/{gid}", hopper)
    assert started.body["status"] == "active" and set(started.body["hand"]) == own[0]


def test_the_events_held_back_while_waiting_come_at_the_start(api, players, redis_client):
    """The feed stops before the seats' cards while waiting, and resumes there: nothing lost."""
    a, b = players.many(2, prefix="ev")
    gid = api.create(a, [a.id, None, a.id, a.id], allow_multiple_seats=True)["id"]
    _, own, _ = _private_cards(redis_client, gid)
    waiting = api.get(f"/v1/games/{gid}/events", a).body
    assert [e["kind"] for e in waiting["events"]] == ["deal"]
    assert api.get(f"/v1/games/{gid}/events", a, after=waiting["last"]).body["events"] == []
    assert api.post(f"/v1/games/{gid}/join", {"seat": 1}, b).status == 200
    resumed = api.get(f"/v1/games/{gid}/events", b, after=waiting["last"])
    hands = [e for e in resumed.body["events"] if e["kind"] == "hand"]
    assert [e["data"]["seat"] for e in hands] == [1] and set(hands[0]["data"]["cards"]) == own[1]


def test_guests_are_bound_to_their_seat(api, players, redis_client):
    """A guest takes back its own seat only; no other guest, and no stranger, takes it."""
    register_bots(api)
    app = make_app(api)
    invitee, stranger = players.many(2, prefix="gst")
    made = app_game(api, app, [None, None, invitee.id, "bot:concerto_signals"])
    gid = made["game"]["id"]
    assert made["game"]["status"] == "waiting"  # the invited player has not accepted yet
    ann, bea = (guest(i) for i in made["invitations"])
    _, _, private = _private_cards(redis_client, gid)
    _no_private_card(_scan(api, gid, [ann, bea], 4), private)
    before = game_store.read(redis_client, gid).game
    assert api.delete(f"/v1/games/{gid}/seats/0", ann).status == 200
    for who in (bea, stranger):
        assert_error(api.post(f"/v1/games/{gid}/join", {"seat": 0}, who), 403, "forbidden")
    assert_error(api.post(f"/v1/games/{gid}/join", {}, stranger), 403, "forbidden")
    assert_error(api.post(f"/v1/games/{gid}/join", {"seat": 1}, ann), 403, "forbidden")
    after = game_store.read(redis_client, gid).game
    assert (after.version, after.status, 0 in after.seats) == (before.version, "waiting", False)
    back = api.post(f"/v1/games/{gid}/join", {}, ann)
    assert back.status == 200 and back.body["you"] == 0
    assert not cards_in(back.text) & private

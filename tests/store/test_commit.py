"""The store's atomic operations against a real Redis: the move CAS and the seat join."""

from __future__ import annotations

import threading

import orjson
import pytest
from redis.crc import key_slot

from server.games import REGISTRY
from server.store import game_events, games, keys, players
from server.store.errors import AlreadySeated, NoOpenSeat, SeatTaken, StaleVersion
from server.store.games import GameRecord
from server.store.players import PlayerRecord
from server.store.scripts import Scripts


@pytest.fixture
def scripts(redis_client):
    return Scripts.register(redis_client)


def _new_game(r, game_id: str = "g1", seats: dict | None = None) -> GameRecord:
    state = REGISTRY["concerto"].new_state({}, "store-test")
    record = GameRecord(
        id=game_id,
        version=0,
        status="active" if seats else "waiting",
        state=state.to_dict(),
        meta={"game": "concerto", "num_seats": 4},
        seats=seats or {},
    )
    events = [e.to_dict() | {"version": 0} for e in REGISTRY["concerto"].opening_events(state)]
    record.seq = games.create(r, record, events)
    return record


def test_game_keys_share_one_cluster_slot():
    game_keys = [
        keys.game_state("x1"),
        keys.game_seats("x1"),
        keys.game_events("x1"),
        keys.game_moves("x1"),
    ]
    assert len({key_slot(k.encode()) for k in game_keys}) == 1
    player_keys = [keys.player("p9"), keys.player_games("p9"), keys.player_wake("p9")]
    assert len({key_slot(k.encode()) for k in player_keys}) == 1


def test_commit_lua_takes_every_key_from_keys():
    from server.store.scripts import source

    for name in ("commit_move", "join_seat"):
        body = "\n".join(line for line in source(name).splitlines() if not line.startswith("--"))
        assert "g:" not in body and "p:" not in body


def test_racing_commits_from_one_version_exactly_one_wins(redis_client, scripts):
    _new_game(redis_client)
    read = games.read(redis_client, "g1").game
    state = REGISTRY["concerto"].from_dict(read.state)
    seat = state.to_move()[0]
    legal = state.legal_moves(seat)
    n = min(10, len(legal))
    barrier = threading.Barrier(n)
    outcomes: list[object] = [None] * n

    def attempt(i: int) -> None:
        mine = REGISTRY["concerto"].from_dict(read.state)
        events = [e.to_dict() | {"version": 1} for e in mine.apply(seat, legal[i])]
        barrier.wait()
        try:
            outcomes[i] = games.commit(
                redis_client,
                scripts,
                "g1",
                expected_version=0,
                state=mine.to_dict(),
                status="active",
                move={"seat": seat, "move": legal[i]},
                events=events,
            )
        except StaleVersion as exc:
            outcomes[i] = exc

    threads = [threading.Thread(target=attempt, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    winners = [i for i, o in enumerate(outcomes) if isinstance(o, tuple)]
    assert len(winners) == 1
    assert all(
        isinstance(o, StaleVersion) and o.current == 1 for o in outcomes if not isinstance(o, tuple)
    )
    after = games.read(redis_client, "g1", accepted_at=0)
    assert after.game.version == 1
    assert after.accepted == {"seat": seat, "move": legal[winners[0]]}
    played = REGISTRY["concerto"].from_dict(after.game.state).state_view()["current_hand"]
    assert played == [{"seat": seat, "card": legal[winners[0]]["card"]}]
    stream = game_events.all_events(redis_client, "g1")
    assert [n for n, _ in stream] == list(range(1, read.seq + 2))
    assert after.game.seq == read.seq + 1


def test_stale_commit_writes_nothing(redis_client, scripts):
    _new_game(redis_client)
    before = redis_client.hgetall(keys.game_state("g1"))
    with pytest.raises(StaleVersion) as caught:
        games.commit(
            redis_client,
            scripts,
            "g1",
            expected_version=3,
            state={"x": 1},
            status="active",
            move={"seat": 0, "move": {}},
            events=[{"kind": "x"}],
        )
    assert caught.value.current == 0 and caught.value.accepted is None
    assert redis_client.hgetall(keys.game_state("g1")) == before
    assert redis_client.xlen(keys.game_events("g1")) == int(before[b"seq"])
    assert not redis_client.exists(keys.game_moves("g1"))


def test_join_races_for_one_seat(redis_client, scripts):
    _new_game(redis_client)
    people = [PlayerRecord(f"p{i}", f"n{i}", "x") for i in range(8)]
    barrier = threading.Barrier(len(people))
    outcomes: list[object] = [None] * len(people)

    def attempt(i: int) -> None:
        barrier.wait()
        try:
            outcomes[i] = games.join(
                redis_client,
                scripts,
                "g1",
                seat=2,
                player=people[i],
                allow_multiple=False,
                num_seats=4,
            )
        except SeatTaken as exc:
            outcomes[i] = exc

    threads = [threading.Thread(target=attempt, args=(i,)) for i in range(len(people))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sum(isinstance(o, tuple) for o in outcomes) == 1
    assert games.read(redis_client, "g1").game.seats.keys() == {2}


def test_join_fills_then_starts(redis_client, scripts):
    _new_game(redis_client)
    alice = PlayerRecord("pa", "alice", "x")
    assert games.join(
        redis_client, scripts, "g1", seat=None, player=alice, allow_multiple=True, num_seats=4
    ) == (0, "waiting")
    with pytest.raises(AlreadySeated):
        games.join(
            redis_client, scripts, "g1", seat=None, player=alice, allow_multiple=False, num_seats=4
        )
    for expected in (1, 2):
        assert games.join(
            redis_client, scripts, "g1", seat=None, player=alice, allow_multiple=True, num_seats=4
        ) == (expected, "waiting")
    assert games.join(
        redis_client, scripts, "g1", seat=None, player=alice, allow_multiple=True, num_seats=4
    ) == (3, "active")
    with pytest.raises(NoOpenSeat):
        games.join(
            redis_client, scripts, "g1", seat=None, player=alice, allow_multiple=True, num_seats=4
        )
    assert games.read(redis_client, "g1").game.status == "active"


def test_wake_ups_are_hints_kept_short(redis_client):
    last, ids = players.turn_snapshot(redis_client, "pz")
    assert (last, ids) == (b"0-0", [])
    for _ in range(100):
        players.wake(redis_client, ["pz"], "g1")
    assert redis_client.xlen(keys.player_wake("pz")) < 100
    assert players.wait_wake(redis_client, "pz", last, 100)
    newest, _ = players.turn_snapshot(redis_client, "pz")
    assert not players.wait_wake(redis_client, "pz", newest, 100)


def _first_move_waking(r, scripts, read: GameRecord, move: dict) -> tuple[int, int]:
    """Commit ``move`` of the seat to move at version 0, waking player ``next`` with
    turns that name the move (so a test sees which move a push came from)."""
    state = REGISTRY["concerto"].from_dict(read.state)
    seat = state.to_move()[0]
    events = [e.to_dict() | {"version": 1} for e in state.apply(seat, move)]
    return games.commit(
        r,
        scripts,
        "g1",
        expected_version=0,
        state=state.to_dict(),
        status="active",
        move={"seat": seat, "move": move},
        events=events,
        wake=["next"],
        turns={"next": orjson.dumps([{"played": move}])},
    )


def _first_moves(r) -> tuple[GameRecord, list[dict]]:
    """A new game as read, and the legal moves of its seat to move."""
    _new_game(r)
    read = games.read(r, "g1").game
    state = REGISTRY["concerto"].from_dict(read.state)
    return read, state.legal_moves(state.to_move()[0])


def test_a_commit_that_loses_the_race_pushes_no_turn(redis_client, scripts):
    """The next movers' turns ride in the commit's round trip; a commit that lost the
    race must not push the turns it rendered: they show a move that never happened
    (a card of the loser's hand). Two different moves of one seat from one version:
    only the winner's turns reach the next mover's wake-up stream."""
    read, (first, second, *_) = _first_moves(redis_client)
    assert _first_move_waking(redis_client, scripts, read, first)[0] == 1
    with pytest.raises(StaleVersion):
        _first_move_waking(redis_client, scripts, read, second)
    pushed = [f[b"t"] for _, f in redis_client.xrange(keys.player_wake("next")) if b"t" in f]
    assert pushed == [orjson.dumps([{"played": first}])]


@pytest.mark.parametrize("loaded", [(), ("commit_move",)], ids=["none", "commit only"])
def test_a_redis_without_the_scripts_commits_and_wakes_once(redis_client, scripts, loaded):
    """After a Redis restart (no scripts) or an upgrade (only the older script cached),
    the move is committed once, the answer is the new version, and the next mover is
    woken once, with its turns."""
    from server.store.scripts import source

    read, (move, *_) = _first_moves(redis_client)
    redis_client.script_flush()
    for name in loaded:
        redis_client.script_load(source(name))
    state = REGISTRY["concerto"].from_dict(read.state)
    made = len(state.apply(state.to_move()[0], move))  # the events the move makes
    assert _first_move_waking(redis_client, scripts, read, move) == (1, read.seq + made)
    woken = [f for _, f in redis_client.xrange(keys.player_wake("next"))]
    assert woken == [{b"g": b"g1", b"t": orjson.dumps([{"played": move}]), b"v": b"1"}]
    assert games.read(redis_client, "g1").game.version == 1  # committed once

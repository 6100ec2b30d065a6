"""Garbage moves and bodies, for every game: always 400 or 422, never a changed game.

For each registered game a table is dealt and played a few random legal moves in,
then hypothesis throws at ``POST /v1/games/{id}/moves`` — with the token of the seat
to move, so that only the body can be wrong — bodies that are not JSON, JSON that is
not an object, objects without a move, moves of unknown types, known types with
wrong or missing fields, cards that do not exist or are not held, and fields of the
wrong type. Every answer must be docs/api.md's error envelope with 400 (malformed) or 422
(illegal), and the game's stored record must be byte for byte what it was.

A generated move that the engine would accept on a copy of the game is skipped
(hypothesis ``assume``): it is not garbage.
"""

from __future__ import annotations

import json
import random
import string
from collections import Counter

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from server.games import REGISTRY, GameError
from server.store import games as game_store
from server.store import keys

SUITS, RANKS = "SHDC", "AKQJT98765432"

json_leaf = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**6), 10**6),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12),
)
json_value = st.recursive(
    json_leaf,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
card_like = st.one_of(
    st.builds(lambda r, s: r + s, st.sampled_from(RANKS), st.sampled_from(SUITS)),
    st.text(alphabet=string.ascii_uppercase + string.digits, min_size=0, max_size=4),
    json_leaf,
)


def moves_for(types: list[str], fields: list[str]):
    """Moves shaped like the game's own (its types and field names), filled with garbage."""
    type_ = st.one_of(st.sampled_from(types), st.text(max_size=10), json_leaf)
    value = st.one_of(card_like, st.lists(card_like, max_size=14), json_value)
    card = st.builds(lambda r, s: r + s, st.sampled_from(RANKS), st.sampled_from(SUITS))
    well_formed = st.builds(  # the right shape, usually the wrong card: illegal, not malformed
        lambda t, f, c, many: {"type": t, f: [c] if many else c},
        st.sampled_from(types),
        st.sampled_from(fields or ["card"]),
        card,
        st.booleans(),
    )
    return well_formed | st.builds(
        lambda t, extra, drop_type: ({} if drop_type else {"type": t}) | extra,
        type_,
        st.dictionaries(
            st.sampled_from(fields + ["x", "cards", "card", "suit"]), value, max_size=3
        ),
        st.booleans(),
    )


def bodies(types: list[str], fields: list[str], version: int):
    """Whole request bodies: raw bytes, any JSON, or a move with garbage beside it."""
    move = moves_for(types, fields)
    good_version = st.one_of(st.just(version), st.none())
    bad_version = st.one_of(
        st.text(max_size=5),
        st.floats(allow_nan=False),
        st.booleans(),
        st.integers(max_value=-1),
        st.lists(st.integers(), max_size=2),
    )
    wrapped = st.builds(
        lambda m, v, seat, extra: (
            {"move": m}
            | ({} if v is None else {"version": v})
            | ({} if seat is None else {"seat": seat})
            | extra
        ),
        move,
        st.one_of(good_version, bad_version),
        st.one_of(st.none(), st.text(max_size=3), st.integers(16, 99), st.floats(0.5, 2.5)),
        st.dictionaries(
            st.sampled_from(["moves", "Move", "versio", "extra"]), json_value, max_size=1
        ),
    )
    raw = st.one_of(
        st.binary(max_size=40).map(lambda b: b"\x00" + b),  # never valid JSON
        st.sampled_from([b"{", b"[1,", b'{"move": }', b"nul", b'{"move": {"type": "play"']),
        json_value.map(lambda v: json.dumps({"move": v}).encode()),
        json_value.map(lambda v: json.dumps(v).encode()),
    )
    return st.one_of(wrapped.map(lambda b: json.dumps(b).encode()), raw)


def seats_for(game_id: str) -> int:
    return REGISTRY[game_id].seats[0]


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_garbage_never_changes_a_game(game_id, client, players, redis_client):
    engine = REGISTRY[game_id]
    n = seats_for(game_id)
    people = players.many(n)
    made = client.post(
        "/v1/games",
        headers=players.admin_headers(),
        json={"game": game_id, "seats": [p.id for p in people], "seed": "fuzz"},
    )
    assert made.status_code == 201, made.get_json()
    gid = made.get_json()["id"]

    # a few legal moves in, so that later phases are fuzzed too; collect the move shapes
    rng = random.Random(game_id)
    types, fields = set(), set()
    for _ in range(6):
        view = client.get(f"/v1/games/{gid}").get_json()
        seat = view["to_move"][0]
        mine = client.get(
            f"/v1/games/{gid}", headers=people[seat].headers, query_string={"seat": seat}
        ).get_json()
        for m in mine["legal_moves"]:
            types.add(m["type"])
            fields.update(k for k in m if k != "type")
        moved = client.post(
            f"/v1/games/{gid}/moves",
            headers=people[seat].headers,
            json={"move": rng.choice(mine["legal_moves"]), "seat": seat},
        )
        assert moved.status_code == 200, moved.get_json()

    view = client.get(f"/v1/games/{gid}").get_json()
    assert view["status"] == "active"
    seat = view["to_move"][0]
    headers = people[seat].headers | {"Content-Type": "application/json"}
    before = redis_client.hgetall(keys.game_state(gid))
    events_before = redis_client.xlen(keys.game_events(gid))
    state = engine.from_dict(game_store.read(redis_client, gid).game.state)
    seen: Counter[int] = Counter()

    @settings(
        max_examples=60,
        deadline=None,
        derandomize=True,
        suppress_health_check=[
            HealthCheck.function_scoped_fixture,
            HealthCheck.too_slow,
            HealthCheck.filter_too_much,
        ],
    )
    @given(body=bodies(sorted(types), sorted(fields), view["version"]))
    def throw(body: bytes) -> None:
        try:
            decoded = json.loads(body)
        except ValueError:
            decoded = None
        if isinstance(decoded, dict) and "move" in decoded:
            try:
                state.clone().apply(seat, decoded["move"])
            except (GameError, TypeError, AttributeError, KeyError, ValueError):
                pass
            else:
                assume(False)  # a legal move: not garbage
        reply = client.post(f"/v1/games/{gid}/moves", data=body, headers=headers)
        assert reply.status_code in (400, 422), (body, reply.status_code, reply.get_json())
        seen[reply.status_code] += 1
        error = reply.get_json()["error"]
        assert error["code"] == ("invalid_request" if reply.status_code == 400 else "illegal_move")
        assert redis_client.hgetall(keys.game_state(gid)) == before
        assert redis_client.xlen(keys.game_events(gid)) == events_before

    throw()
    assert seen[400] > 10 and seen[422] > 0, seen  # both kinds of garbage got through

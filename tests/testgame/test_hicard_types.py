"""The SDK's types of a new game with nothing but its wire: Hicard registered, the spec
``openapi.build()`` makes fed to ``client_sdk.typegen`` gives a module that imports and
has Hicard's view, state and moves, and Hicard's real answers (views as each seat and a
spectator sees them, move answers, the finished game, its events) have the keys those
types say, no fewer and no more, all the way down.

The committed ``client_sdk/_types_generated.py`` is generated without it (from the
committed openapi.yaml): tests/sdk/test_types.py holds it to that.
"""

from __future__ import annotations

import importlib.util
import random
import sys
import types
from pathlib import Path
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints, is_typeddict

import pytest

from client_sdk import _types_generated as committed
from client_sdk import typegen
from server.api import openapi
from server.games import Game
from tests.conftest import ADMIN_TOKEN
from tests.testgame.hicard import WIRE

ADMIN = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
HICARD_TYPES = ("HicardView", "HicardState", "HicardStateTricksItem", "HicardMove")


@pytest.fixture
def typed(hicard: Game, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> types.ModuleType:
    """The module ``typegen`` writes of the spec built with Hicard registered, imported
    (as ``hicard_types``: ``get_type_hints`` finds its names through ``sys.modules``)."""
    path = tmp_path / "hicard_types.py"
    path.write_text(typegen.render(openapi.build()), encoding="utf-8")
    spec = importlib.util.spec_from_file_location("hicard_types", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "hicard_types", module)
    spec.loader.exec_module(module)
    return module


def test_the_types_generated_with_hicard_have_its_view_state_and_moves(
    typed: types.ModuleType,
) -> None:
    assert set(HICARD_TYPES) <= set(typed.__all__)
    assert not set(HICARD_TYPES) & set(committed.__all__)  # the committed module lacks it
    view = get_type_hints(typed.HicardView)
    assert view["game"] == Literal["hicard"]
    assert view["state"] == typed.HicardState | None
    assert view["legal_moves"] == list[typed.HicardMove]
    assert typed.HicardMove is typed.PlayMove  # its one move, shared with other games
    assert get_type_hints(typed.PlayMove) == {"type": Literal["play"], "card": str}
    assert typed.HicardView in get_args(typed.ViewVariant)
    state = typed.HicardState
    assert is_typeddict(state)
    assert set(state.__required_keys__) == set(WIRE.state["required"])
    assert set(state.__optional_keys__) == set(WIRE.state["properties"]) - set(
        WIRE.state["required"]
    )
    trick = get_type_hints(state)["tricks"]
    assert trick == list[typed.HicardStateTricksItem]
    assert get_type_hints(typed.HicardStateTricksItem) == {
        "leader": int,
        "cards": list[str],
        "winner": int,
    }


def mismatches(value: Any, hint: Any, where: str = "") -> list[str]:
    """Where ``value`` (decoded JSON) is not of the type ``hint``: a ``TypedDict``'s
    required key missing or a key it does not name, recursively; a union takes any of
    its members (the nearest miss is told)."""
    origin = get_origin(hint)
    if hint is Any:
        return []
    if is_typeddict(hint):
        if not isinstance(value, dict):
            return [f"{where}: {value!r} is not a {hint.__name__}"]
        keys = get_type_hints(hint)
        found = [
            f"{where}: no {k!r} ({hint.__name__})" for k in hint.__required_keys__ - value.keys()
        ]
        found += [f"{where}.{k}: not a key of {hint.__name__}" for k in value.keys() - keys.keys()]
        for key in sorted(value.keys() & keys.keys()):
            found += mismatches(value[key], keys[key], f"{where}.{key}")
        return found
    if origin in (Union, types.UnionType):
        members = [m for m in get_args(hint) if isinstance(value, json_kind(m))]
        tries = [mismatches(value, member, where) for member in members]
        if [] in tries:
            return []
        return min(tries, key=len, default=[f"{where}: {value!r} is no {hint}"])
    if origin is Literal:
        return [] if value in get_args(hint) else [f"{where}: {value!r} is not in {hint}"]
    if origin is list:
        if not isinstance(value, list):
            return [f"{where}: {value!r} is not a list"]
        (item,) = get_args(hint)
        return [m for i, v in enumerate(value) for m in mismatches(v, item, f"{where}[{i}]")]
    if origin is dict:
        if not isinstance(value, dict):
            return [f"{where}: {value!r} is not an object"]
        _, of = get_args(hint)
        return [m for k, v in value.items() for m in mismatches(v, of, f"{where}.{k}")]
    if hint is type(None):
        return [] if value is None else [f"{where}: {value!r} is not null"]
    if hint in (int, str, bool, float):
        kinds = (int, float) if hint is float else hint
        fits = isinstance(value, kinds) and (hint is bool or not isinstance(value, bool))
        return [] if fits else [f"{where}: {value!r} is not a {hint.__name__}"]
    raise AssertionError(f"{where}: no check of {hint!r}")


def json_kind(hint: Any) -> type | tuple[type, ...]:
    """The Python types of the decoded JSON values of the type ``hint`` (a union's members
    of another kind than the value's are not tried)."""
    origin = get_origin(hint)
    if is_typeddict(hint) or origin is dict:
        return dict
    if origin is list:
        return list
    if origin is Literal:
        return tuple({type(v) for v in get_args(hint)})
    if origin in (Union, types.UnionType):
        return tuple({k for m in get_args(hint) for k in _tuple(json_kind(m))})
    return (int, float) if hint is float else object if hint is Any else hint


def _tuple(kind: type | tuple[type, ...]) -> tuple[type, ...]:
    return kind if isinstance(kind, tuple) else (kind,)


def test_the_checker_finds_a_missing_key_an_extra_one_and_a_wrong_type(
    typed: types.ModuleType,
) -> None:
    """:func:`mismatches` could fail: on a state with a key taken out, one put in, and a
    card where a trick should be."""
    state = {"round": 1, "rounds": 2, "leader": 0, "trick": ["AS"], "tricks": [],
             "cards_left": [3, 2]}  # fmt: skip
    assert mismatches(state, typed.HicardState) == []
    del state["leader"]
    state["dealer"] = 0
    state["tricks"] = ["KS"]
    assert mismatches(state, typed.HicardState | None, "state") == [
        "state: no 'leader' (HicardState)",
        "state.dealer: not a key of HicardState",
        "state.tricks[0]: 'KS' is not a HicardStateTricksItem",
    ]


def test_hicard_s_real_answers_have_the_generated_types_keys(
    typed: types.ModuleType, client: Any, players: Any
) -> None:
    """A two-round game through the API: every view (each seat's, the spectator's), every
    move's answer, the finished view and the events, checked against the types."""
    me, you = players.many(2, prefix="hicard")
    made = client.post(
        "/v1/games",
        json={"game": "hicard", "seats": [me.id, you.id], "options": {"rounds": 2}},
        headers=ADMIN,
    )
    assert made.status_code == 201, made.get_json()
    gid = made.get_json()["id"]
    found: list[str] = []

    def answer(response: Any, hint: Any, what: str) -> Any:
        assert response.status_code == 200, response.get_json()
        body = response.get_json()
        found.extend(mismatches(body, hint, what))
        return body

    rng, seen = random.Random(7), []
    view = answer(client.get(f"/v1/games/{gid}"), typed.HicardView, "spectator")
    while view["status"] == "active":
        for p in (me, you):
            mine = answer(client.get(f"/v1/games/{gid}", headers=p.headers), typed.HicardView,
                          f"{p.name}@{view['version']}")  # fmt: skip
            seen.append(mine)
        seat = view["to_move"][0]
        mover = (me, you)[seat]
        legal = seen[-2 + seat]["legal_moves"]
        assert legal and len(legal) <= len(seen[-2 + seat]["hand"])
        body = {"move": rng.choice(legal), "version": view["version"]}
        moved = client.post(f"/v1/games/{gid}/moves", json=body, headers=mover.headers)
        answer(moved, typed.HicardView, f"move@{view['version']}")
        view = answer(client.get(f"/v1/games/{gid}"), typed.HicardView, "spectator")
    assert view["status"] == "finished" and view["version"] == 4
    assert view["result"] is not None and view["state"]["tricks"]
    events = answer(client.get(f"/v1/games/{gid}/events", headers=me.headers), typed.Events,
                    "events")  # fmt: skip
    for i, event in enumerate(events["events"]):
        found.extend(mismatches(event, typed.EventVariant, f"events[{i}]"))
    kinds = {e["kind"] for e in events["events"]}
    assert {"deal", "hand", "play", "trick", "game_over"} <= kinds
    assert all("hand" in v and v["state"]["cards_left"] for v in seen)  # what was checked
    assert found == []

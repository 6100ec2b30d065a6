"""``client_sdk/types.py`` is held to ``openapi.yaml``, type by type.

The SDK's types are hand-written (readable names and docstrings, a game-agnostic
``View`` bots can index, no dependency beyond the standard library); this file
is what keeps them true. (A generator was weighed: datamodel-code-generator's
``typing.TypedDict`` output for this spec makes ``View`` the per-game union, which
every bot indexing its state's keys fails to type-check against, declares closed
TypedDicts the standard library of Python 3.11 does not have, and names inline
objects ``DealResult3`` or ``Move1``; the public names would need a hand-written
layer on top anyway.) Every ``TypedDict`` and every union of them in
``client_sdk.types`` is compared with its spec component:

* the same keys, and the same required / optional (``NotRequired``) keys;
* nullable exactly where the spec allows ``null``;
* types that accept every value the spec allows: ``str``/``int``/``float``/``bool``
  for the JSON types, ``Literal`` with the spec's exact ``const``/``enum`` values,
  ``list[X]`` for arrays, ``dict[str, X]`` for maps, a union of ``TypedDict`` s for
  a ``oneOf``/``anyOf`` (each variant matched by one member, and no extra member).

Deliberate widenings, all still "compatible" (they accept every value the spec
allows): ``dict[str, Any]`` stands for an object the spec leaves unnamed (inline)
or open, or for a ``oneOf`` of several objects (a kind-agnostic slot such as an
event's ``data``), never for one named object; and the game-agnostic ``View`` and
``Move`` (``dict`` state and moves) are checked against every per-game variant.
A failure names the type, the key path and the drift.
"""

from __future__ import annotations

import types as pytypes
import typing
from pathlib import Path
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints, is_typeddict

import pytest

from client_sdk import types as sdk
from tests import spec

SCHEMAS: dict[str, Any] = spec.document()["components"]["schemas"]

# SDK name -> spec component, where the SDK's public name differs (bots import these).
RENAMED = {
    "SeatInfo": "SeatEntry",
    "TurnsPage": "Turns",
    "EventsPage": "Events",
    "NewPlayer": "PlayerCreated",
    "Player": "Profile",
    "GameView": "View",
    "RotatedToken": "TokenRotated",
}
# Aliases of plain types with no component of their own (used inside the others).
NOT_COMPONENTS = {"Status", "Card"}

JSON_TYPES = {str: "string", int: "integer", float: "number", bool: "boolean"}


def resolve(schema: dict[str, Any]) -> tuple[dict[str, Any], str | None]:
    """The schema behind a ``$ref`` (and the component's name), else itself."""
    name = None
    while "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[1]
        schema = SCHEMAS[name]
    return schema, name


def split_null(schema: dict[str, Any]) -> tuple[bool, dict[str, Any] | None]:
    """Whether the schema allows null, and the schema of its other values (None: only null)."""
    original, (schema, _) = schema, resolve(schema)
    kinds = schema.get("type")
    if isinstance(kinds, list) and "null" in kinds:
        rest = [k for k in kinds if k != "null"]
        return True, {**schema, "type": rest[0] if len(rest) == 1 else rest}
    if kinds == "null":
        return True, None
    for key in ("oneOf", "anyOf"):
        if key in schema:
            nulls = [v for v in schema[key] if resolve(v)[0].get("type") == "null"]
            if nulls:
                rest = [v for v in schema[key] if v not in nulls]
                return True, rest[0] if len(rest) == 1 else {key: rest}
    return False, original


def variants(schema: dict[str, Any]) -> list[dict[str, Any]]:
    """The leaves of a ``oneOf``/``anyOf`` (nested ones flattened), refs kept."""
    resolved, _ = resolve(schema)
    for key in ("oneOf", "anyOf"):
        if key in resolved:
            return [leaf for v in resolved[key] for leaf in variants(v)]
    return [schema]


def json_type(schema: dict[str, Any]) -> str | None:
    """The JSON type a non-null schema names, or infers from its const/enum."""
    kind = schema.get("type")
    if isinstance(kind, str):
        return kind
    values = schema["enum"] if "enum" in schema else [schema["const"]] if "const" in schema else []
    found = {JSON_TYPES[type(v)] for v in values if type(v) in JSON_TYPES}
    return found.pop() if len(found) == 1 else None


def describe(schema: dict[str, Any]) -> str:
    """A short name for a schema in a message."""
    for key in ("oneOf", "anyOf"):
        if key in schema:
            names = [resolve(v)[1] or "inline" for v in schema[key]]
            return f"{key} {names}"
    return repr({k: v for k, v in schema.items() if k != "description"})


def members(annotation: Any) -> list[Any]:
    if get_origin(annotation) in (Union, pytypes.UnionType):
        return list(get_args(annotation))
    return [annotation]


def drift(
    annotation: Any, schema: dict[str, Any], where: str, *, top: bool = False, loose: bool = False
) -> list[str]:
    """Every way ``annotation`` fails to match ``schema``, as ``where: what`` lines.

    ``top``: the component itself (its own nullability is checked where it is used);
    ``loose``: the game-agnostic types, whose ``dict[str, Any]`` may stand for a named object.
    """
    nullable, rest = split_null(schema)
    parts = members(annotation)
    has_none = type(None) in parts
    parts = [p for p in parts if p is not type(None)]
    if annotation is Any:
        return []
    loose = loose or sdk.View in parts  # Turn.view and the like: the game-agnostic view
    if not top and nullable != has_none:
        says = "allows null" if nullable else "does not allow null"
        return [f"{where}: the spec {says}, the SDK type is {annotation!r}"]
    if rest is None:
        return [] if not parts else [f"{where}: the spec allows only null"]
    resolved = resolve(rest)[0]
    if len(parts) > 1 or "oneOf" in resolved or "anyOf" in resolved:
        return union_drift(parts, rest, where, loose)
    return one_drift(parts[0], rest, where, loose)


def union_drift(parts: list[Any], schema: dict[str, Any], where: str, loose: bool) -> list[str]:
    """Each spec variant is matched by a member, and each member matches a variant."""
    leaves = variants(schema)
    objects = all(json_type(resolve(leaf)[0]) == "object" for leaf in leaves)
    if parts == [dict[str, Any]] and len(leaves) > 1 and objects:
        return []  # a kind-agnostic slot (a move, an event's data): the union's supertype
    matched = {id(p): False for p in parts}
    problems = []
    for leaf in leaves:
        ok = [p for p in parts if not drift(p, leaf, where, loose=loose)]
        for p in ok:
            matched[id(p)] = True
        if not ok:
            name = resolve(leaf)[1] or "an inline variant"
            problems.append(f"{where}: no SDK type matches the spec's variant {name}")
            if len(parts) == 1:
                problems += drift(parts[0], leaf, where, loose=loose)
    problems += [
        f"{where}: the SDK's {getattr(p, '__name__', p)} matches no variant of the spec"
        for p in parts
        if not matched[id(p)]
    ]
    return problems


def one_drift(annotation: Any, schema: dict[str, Any], where: str, loose: bool) -> list[str]:
    schema, name = resolve(schema)
    origin, args = get_origin(annotation), get_args(annotation)
    kind = json_type(schema)
    if is_typeddict(annotation):
        return typeddict_drift(annotation, schema, where, loose)
    if origin is Literal:
        values = schema["enum"] if "enum" in schema else [schema.get("const", ...)]
        if set(args) != set(values):
            return [f"{where}: the SDK allows {sorted(args)!r}, the spec {values!r}"]
        return []
    if annotation in JSON_TYPES:
        wanted = JSON_TYPES[annotation]
        if kind == wanted or (wanted == "number" and kind == "integer"):
            return []
        return [f"{where}: the SDK says {annotation.__name__}, the spec {kind or describe(schema)}"]
    if origin is list:
        if kind != "array":
            return [f"{where}: the SDK says a list, the spec {kind or describe(schema)}"]
        if "items" not in schema:
            return [] if args[0] is Any else [f"{where}: the spec's array has no items schema"]
        return drift(args[0], schema["items"], f"{where}[]", loose=loose)
    if origin is dict:
        if kind != "object":
            return [f"{where}: the SDK says a dict, the spec {kind or describe(schema)}"]
        if args[1] is Any:
            if name is not None and "properties" in schema and not loose:
                return [f"{where}: the spec names this object ({name}); type it, not dict"]
            values = (
                resolve(extra)[1]
                if isinstance(extra := schema.get("additionalProperties"), dict)
                else None
            )
            if values is not None and not loose:
                return [f"{where}: the spec names the values ({values}); type them, not Any"]
            return []
        extra = schema.get("additionalProperties")
        if schema.get("properties") or not isinstance(extra, dict):
            return [f"{where}: the SDK says a map, the spec an object with fixed keys"]
        return drift(args[1], extra, f"{where}{{}}", loose=loose)
    return [f"{where}: the test does not know the SDK type {annotation!r}"]


def typeddict_drift(typed: Any, schema: dict[str, Any], where: str, loose: bool) -> list[str]:
    if json_type(schema) != "object" or "properties" not in schema:
        return [f"{where}: the SDK says an object ({typed.__name__}), the spec {describe(schema)}"]
    spec_keys, sdk_keys = set(schema["properties"]), set(typed.__annotations__)
    required = set(schema.get("required", []))
    problems = [f"{where}: key {k!r} is in the spec, not in the SDK" for k in spec_keys - sdk_keys]
    problems += [f"{where}: key {k!r} is in the SDK, not in the spec" for k in sdk_keys - spec_keys]
    problems += [
        f"{where}: key {k!r} is {'required' if k in required else 'optional'} in the spec, "
        f"{'required' if k in typed.__required_keys__ else 'NotRequired'} in the SDK"
        for k in sorted(spec_keys & sdk_keys)
        if (k in required) != (k in typed.__required_keys__)
    ]
    hints = get_type_hints(typed, vars(sdk))
    for key in sorted(spec_keys & sdk_keys):
        problems += drift(hints[key], schema["properties"][key], f"{where}.{key}", loose=loose)
    return problems


def sdk_types() -> dict[str, Any]:
    """Every TypedDict and union of TypedDicts that client_sdk.types defines, by name."""
    found = {}
    for name, value in vars(sdk).items():
        if name.startswith("_") or isinstance(value, typing.TypeVar):
            continue
        own_typeddict = is_typeddict(value) and value.__module__ == sdk.__name__
        alias = get_origin(value) in (Union, pytypes.UnionType, Literal, dict) and name[0].isupper()
        if own_typeddict or alias:
            found[name] = value
    return found


def ref(component: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{component}"}


def component_of(name: str) -> str:
    return RENAMED.get(name, name)


@pytest.mark.parametrize("name", sorted(set(sdk_types()) - NOT_COMPONENTS))
def test_every_sdk_type_matches_its_spec_component(name: str) -> None:
    component = component_of(name)
    assert component in SCHEMAS, (
        f"client_sdk.types.{name} has no component {component!r} in openapi.yaml "
        "(add it to RENAMED if the spec names it differently)"
    )
    annotation = sdk_types()[name]
    schema = SCHEMAS[component]
    if name in ("View", "Move"):  # the game-agnostic ones: against every game's variant
        problems = [
            line
            for leaf in variants(schema)
            for line in drift(
                annotation, leaf, f"{name} (as {resolve(leaf)[1]})", top=True, loose=True
            )
        ]
    else:
        problems = drift(annotation, ref(component), name, top=True)
    assert not problems, (
        f"client_sdk/types.py drifted from openapi.yaml ({component}):\n" + "\n".join(problems)
    )


def test_the_per_game_types_cover_every_game_of_the_spec() -> None:
    """A new game's view in the spec must get its SDK types too."""
    spec_games = set(SCHEMAS["View"]["discriminator"]["mapping"])
    sdk_games = {get_args(get_type_hints(v)["game"])[0] for v in get_args(sdk.GameView)}
    assert sdk_games == spec_games


@pytest.mark.parametrize(
    ("annotation", "schema", "expected"),
    [
        (sdk.Result | None, ref("Result"), []),
        (int, {"type": "string"}, ["x: the SDK says int, the spec string"]),
        (str, {"type": ["string", "null"]},
         ["x: the spec allows null, the SDK type is <class 'str'>"]),
        (Literal["a"], {"enum": ["a", "b"]}, ["x: the SDK allows ['a'], the spec ['a', 'b']"]),
        (int, {"type": "number"}, ["x: the SDK says int, the spec number"]),
        (list[str], {"type": "array", "items": {"type": "integer"}},
         ["x[]: the SDK says str, the spec integer"]),
        (dict[str, Any], ref("Rating"),
         ["x: the spec names this object (Rating); type it, not dict"]),
        (dict[str, Any], {"type": "object", "additionalProperties": ref("Rating")},
         ["x: the spec names the values (Rating); type them, not Any"]),
        (dict[str, Any], ref("ConcertoMove"), []),
        (dict[str, Any], ref("SecondsMove"),
         ["x: no SDK type matches the spec's variant PlayMove",
          "x: the spec names this object (PlayMove); type it, not dict",
          "x: the SDK's dict matches no variant of the spec"]),
        (sdk.PlayMove | sdk.PassMove, ref("ConcertoMove"),
         ["x: no SDK type matches the spec's variant ForceMove"]),
    ],
)  # fmt: skip
def test_the_checker_sees_each_kind_of_drift(annotation: Any, schema: dict, expected: list) -> None:
    """The guard itself: each kind of mismatch is reported, and a match is not."""
    assert drift(annotation, schema, "x") == expected


def test_a_changed_spec_component_is_named() -> None:
    """A key the spec gains, or one it makes optional, fails with the key's path."""
    seat = SCHEMAS["SeatEntry"]
    grown = {**seat, "properties": {**seat["properties"], "rating": {"type": "number"}}}
    assert drift(sdk.SeatInfo, grown, "SeatInfo") == [
        "SeatInfo: key 'rating' is in the spec, not in the SDK"
    ]
    loosened = {**seat, "required": ["seat", "name"]}
    assert drift(sdk.SeatInfo, loosened, "SeatInfo") == [
        "SeatInfo: key 'player_id' is optional in the spec, required in the SDK"
    ]


# A bot of its own: mypy reads a copy of types.py (as ``sdk_types``), not the whole SDK.
NARROWING = """\
from sdk_types import Move, PinochleMove, View, game_view


def choose(view: View) -> Move:
    typed = game_view(view)
    if typed["game"] == "pinochle" and typed["state"] is not None:
        trump: str | None = typed["state"]["trump"]
        move: PinochleMove = typed["legal_moves"][0]
        if move["type"] == "bid":
            amount: int = move["amount"]
    elif typed["game"] == "concerto" and typed["state"] is not None:
        print(typed["state"]["trump"])  # Concerto has no trump
    elif typed["game"] == "cowpoke":
        print(typed["legal_moves"][0]["amount"])  # no Cowpoke move has an amount
    return view["legal_moves"][0]
"""


def test_a_bot_narrows_the_view_on_its_game(tmp_path: Path) -> None:
    """``view["game"]`` narrows ``game_view(view)`` to that game's state and moves (mypy)."""
    from mypy import api

    (tmp_path / "sdk_types.py").write_text(Path(sdk.__file__).read_text())
    (tmp_path / "bot.py").write_text(NARROWING)
    lines = NARROWING.splitlines()
    trump = 1 + next(i for i, line in enumerate(lines) if "has no trump" in line)
    amount = 1 + next(i for i, line in enumerate(lines) if "has an amount" in line)
    out, err, status = api.run([str(tmp_path / "bot.py"), "--strict", "--no-error-summary",
                                "--cache-dir", str(tmp_path / "cache"), "--hide-error-context",
                                "--config-file", "", "--python-version", "3.11"])  # fmt: skip
    errors = [line.split(".py:", 1)[1] for line in out.splitlines() if ": error: " in line]
    missing = '{}: error: TypedDict "{}" has no key "{}"  [typeddict-item]'
    assert status == 1, out + err
    assert sorted(errors) == sorted([
        missing.format(trump, "ConcertoState", "trump"),
        *(missing.format(amount, move, "amount")
          for move in ("PutOutMove", "TakeMove", "CallMove", "PassMove")),
    ]), out  # fmt: skip

"""A game's wire: the schemas of what it sends and takes, declared beside its rules.

Each game's :class:`Wire` (on its :class:`~server.games.kit.base.Game` record) says, in
plain JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1) as Python data, what its
``state`` view holds, the shape of each of its moves and the ``data`` of each event kind
it emits. The API's spec (``openapi.yaml``, built by ``server/api/openapi.py``) is made
from them: ``<Game>State``, ``<Game>Move`` (its moves told apart by ``type``) and
``<Game>View`` per game, ``<Kind>Event`` per event kind. The tests hold every legal move,
view and event of random games of every game to them (tests/games/test_wire.py).

A schema names a shared shape by ``$ref`` to the spec's components (:func:`ref`): the
kit's (:data:`SHAPES`: a card, a seat, a suit, a card played in a trick, a move that
plays a card or passes...) or the game's own (:attr:`Wire.shapes`), each under its name
in the spec. Nothing here is a validator: the engines stay free of dependencies.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

Schema = dict[str, Any]
"""One JSON Schema, as JSON data."""

COMPONENTS = "#/components/schemas/"


def ref(name: str) -> Schema:
    """A reference to the named shape (the kit's or the game's).

    >>> ref("Card")
    {'$ref': '#/components/schemas/Card'}
    """
    return {"$ref": COMPONENTS + name}


def nullable(schema: Schema) -> Schema:
    """``schema`` or ``null``."""
    return {"oneOf": [schema, {"type": "null"}]}


def array(items: Schema, **more: Any) -> Schema:
    """A list of ``items`` (``more``: ``description``, ...)."""
    return {"type": "array", **more, "items": items}


INTEGER: Schema = {"type": "integer"}
STRING: Schema = {"type": "string"}
BOOLEAN: Schema = {"type": "boolean"}
CARD, SEAT, SUIT = ref("Card"), ref("Seat"), ref("Suit")
CARDS = array(CARD)
INTEGERS = ref("Integers")
COMBINATION: Schema = {
    "type": "string",
    "description": "a five-card Poker category, lowest first in this list",
    "enum": [
        *("nothing", "one_pair", "two_pairs", "threes", "straight", "flush"),
        *("full_house", "fours", "straight_flush"),
    ],
}
"""A Poker category as the games that score them send it (``server.games.kit.poker``)."""


def record(
    properties: Mapping[str, Schema],
    required: list[str] | None = None,
    *,
    description: str | None = None,
    closed: bool = True,
) -> Schema:
    """An object with these ``properties``, every one ``required`` unless a list says
    which, closed to others unless ``closed`` is false."""
    out: Schema = {} if description is None else {"description": description}
    out |= {"type": "object", "additionalProperties": not closed}
    out |= {"required": list(properties) if required is None else required}
    return out | {"properties": dict(properties)}


def move(kind: str, description: str | None = None, **fields: Schema) -> Schema:
    """The shape of a move: ``{"type": kind}`` and its ``fields`` (each required)."""
    out: Schema = {"type": "object"}
    if description is not None:
        out["description"] = description
    properties = {"type": {"type": "string", "const": kind}, **fields}
    return out | {"required": list(properties), "properties": properties}


SHAPES: dict[str, Schema] = {
    "Card": {
        "type": "string",
        "pattern": "^[AKQJT98765432][SHDC]$",
        "description": 'rank then suit, e.g. "TS" is the ten of spades',
    },
    "Seat": {"type": "integer", "minimum": 0},
    "Suit": {"type": "string", "enum": ["S", "H", "D", "C"]},
    "Integers": {
        "description": "one number per seat, or per side",
        "type": "array",
        "items": INTEGER,
    },
    "TrickCard": {
        "type": "object",
        "additionalProperties": False,
        "required": ["seat", "card"],
        "properties": {"seat": SEAT, "card": CARD},
    },
    "PlayMove": move("play", "play a card from your hand", card=CARD),
    "PassMove": move("pass"),
}
"""The shapes games share, by their names in the spec. A game's own go on its wire."""

HAND_EVENT = record(
    {"seat": SEAT, "cards": CARDS}, description="a seat's cards (seen by that seat only)"
)
"""The ``data`` of a ``hand`` event, a seat's cards as dealt (seen by that seat only)."""

TRICK_PLAY_EVENT = record(
    {"seat": SEAT, "card": CARD, "trick_number": INTEGER}, description="a card played"
)
"""The ``data`` of a ``play`` event in a trick game numbering its tricks (Seconds, Pinochle)."""

GAME_OVER_EVENT = record(
    {"termination": STRING, "scores": INTEGERS, "winners": array(SEAT)},
    description="the game is over",
)
"""The ``data`` of a ``game_over`` event: the :class:`~server.games.kit.base.Outcome`."""


@dataclass(frozen=True)
class Wire:
    """What a game sends and takes, as JSON Schema: the spec's part for that game.

    ``state``: the game's ``state`` view (``<Game>State``; the view's envelope is the
    kit's, the same in every game). ``moves``: each move ``type`` to the name of its
    shape, the kit's (:data:`SHAPES`) or the game's; ``moves_description`` says what
    they are together (``<Game>Move``). ``events``: each event kind the game emits to
    the schema of its ``data``. ``shapes``: the game's own named shapes, which its
    schemas :func:`ref` (and the spec lists under these names).

    Refused when made (ValueError) if a schema refers to a shape no one declares, or a
    move's shape is not an object whose ``type`` is that move's.
    """

    state: Schema
    moves: Mapping[str, str]
    moves_description: str
    events: Mapping[str, Schema]
    shapes: Mapping[str, Schema] = field(default_factory=dict)

    def __post_init__(self) -> None:
        problems = [f"{name} is a shape of the kit's" for name in self.shapes if name in SHAPES]
        known = SHAPES.keys() | self.shapes.keys()
        for where, schema in self._schemas():
            problems += [f"{where} refers to {n}, not a shape" for n in _refs(schema) - known]
        for kind, name in self.moves.items():
            shape = self.shape(name) if name in known else {}
            if shape.get("properties", {}).get("type", {}).get("const") != kind:
                problems.append(f"move {kind!r}: {name} is not a move of type {kind!r}")
        if problems:
            raise ValueError("; ".join(problems))

    def shape(self, name: str) -> Schema:
        """The named shape, the game's or the kit's."""
        return self.shapes[name] if name in self.shapes else SHAPES[name]

    def move_schema(self) -> Schema:
        """``<Game>Move``: one of the game's moves, told apart by ``type``."""
        return {
            "description": self.moves_description,
            "oneOf": [ref(name) for name in self.moves.values()],
            "discriminator": {
                "propertyName": "type",
                "mapping": {kind: ref(name)["$ref"] for kind, name in self.moves.items()},
            },
        }

    def components(self, prefix: str) -> dict[str, Schema]:
        """The spec's schemas for the game whose names start with ``prefix``: the kit's
        shapes it uses (in the kit's order), its own, ``<prefix>State``, ``<prefix>Move``.

        >>> from server.games import REGISTRY
        >>> list(REGISTRY["seconds"].wire.components("Seconds"))
        ['Card', 'Seat', 'Integers', 'TrickCard', 'PlayMove', 'SecondsState', 'SecondsMove']
        """
        own = {**self.shapes, f"{prefix}State": self.state, f"{prefix}Move": self.move_schema()}
        kit: set[str] = set()
        pending = list(_refs(own) | _refs(self.events))
        while pending:
            name = pending.pop()
            if name in SHAPES and name not in kit:
                kit.add(name)
                pending += _refs(SHAPES[name])
        return {**{n: s for n, s in SHAPES.items() if n in kit}, **own}

    def _schemas(self) -> Iterator[tuple[str, Any]]:
        yield "state", self.state
        for kind, schema in self.events.items():
            yield f"event {kind!r}", schema
        for name, schema in self.shapes.items():
            yield name, schema


def _refs(schema: Any) -> set[str]:
    """The names of the shapes ``schema`` refers to.

    >>> sorted(_refs({"items": ref("Card"), "properties": {"seat": ref("Seat")}}))
    ['Card', 'Seat']
    """
    if isinstance(schema, Mapping):
        target = schema.get("$ref")
        found = {target.removeprefix(COMPONENTS)} if isinstance(target, str) else set()
        return found.union(*map(_refs, schema.values()))
    if isinstance(schema, list):
        return set().union(*map(_refs, schema))
    return set()

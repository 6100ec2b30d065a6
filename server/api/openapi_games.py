"""The games' part of the spec (server/api/openapi.py): each registered game's schemas and
event kinds, read from its wire (its Game record's ``wire``, declared beside its rules in
``server/games/``; ``server/games/kit/wire.py``). Read at each build: a game registered
later (the tests' own) is in the next one."""

from __future__ import annotations

from typing import Any

from server.services.lobby import REGISTRY  # the engines' games, as the lobby lists them


def _ref(name: str) -> str:
    return f"#/components/schemas/{name}"


def games() -> dict[str, str]:
    """Each registered game's id and its schemas' prefix (the id capitalised): its wire (its
    Game record's ``wire``, declared beside its rules in ``server/games/``) gives
    ``<Prefix>State`` and ``<Prefix>Move``; ``openapi._per_game_views`` makes
    ``<Prefix>View``."""
    return {game_id: game_id.capitalize() for game_id in REGISTRY}


def game_schemas() -> dict[str, Any]:
    """Every game's schemas from its wire, in the registry's order: the shapes it uses
    (the engines' kit's, shared by games, once), ``<Prefix>State`` and ``<Prefix>Move``;
    then ``Move``, a move of any game."""
    out: dict[str, Any] = {}
    whose: dict[str, str] = {}
    prefixes = games()
    for game, prefix in prefixes.items():
        for name, schema in REGISTRY[game].wire.components(prefix).items():
            if name in out and out[name] != schema:
                raise ValueError(f"{name}: {whose[name]} and {game} declare it differently")
            out[name], whose[name] = schema, whose.get(name, game)
    moves = ", ".join(f"`{prefix}Move`" for prefix in prefixes.values())
    out["Move"] = {
        "description": f"A move of any game: the game's own move schema says which `type`s it"
        f" has ({moves}). A view's `legal_moves` lists the seat's moves in its game's schema.",
        "anyOf": [{"$ref": _ref(f"{prefix}Move")} for prefix in prefixes.values()],
    }
    return out


def game_events() -> dict[str, Any]:
    """Each kind the games emit and its ``data``, from their wires: the kinds in the order
    the games (in the registry's order) first declare them; a kind several games emit is
    :func:`_merged`."""
    by_kind: dict[str, list[tuple[str, Any]]] = {}
    for game, prefix in games().items():
        for kind, schema in REGISTRY[game].wire.events.items():
            by_kind.setdefault(kind, []).append((prefix, schema))
    return {kind: _merged(shapes) for kind, shapes in by_kind.items()}


def _merged(shapes: list[tuple[str, Any]]) -> Any:
    """The ``data`` of a kind several games emit, from each game's (its prefix, its schema).

    The same schema is itself. Closed objects whose common properties agree are one object:
    every game's properties, those all of them require required, and the description says
    which games send which others (``a card played (Concerto `hand_number`; ...)``). Others
    are one of them, each described with its games: a typed client gets one type per kind
    where it can."""
    distinct: list[tuple[list[str], Any]] = []
    for prefix, schema in shapes:
        same = next((games for games, s in distinct if s == schema), None)
        if same is None:
            distinct.append(([prefix], schema))
        else:
            same.append(prefix)
    if len(distinct) == 1:
        return distinct[0][1]
    schemas = [schema for _, schema in distinct]
    closed = all(
        s.get("type") == "object" and s.get("additionalProperties") is False and "properties" in s
        for s in schemas
    )
    properties: dict[str, Any] = {}
    for schema in schemas if closed else []:
        for name, prop in schema["properties"].items():
            if properties.setdefault(name, prop) != prop:
                closed = False
    if not closed:
        heads = {s.get("description", "").partition(" (")[0] for s in schemas} - {""}
        head = [heads.pop()] if len(heads) == 1 else []  # what every game's says
        whose = ", ".join(", ".join(games) for games, _ in distinct)
        return {
            "description": ", ".join([*head, f"one shape per game ({whose})"]),
            "oneOf": [
                {**s, "description": f"{', '.join(games)}: {s.get('description', '')}".strip()}
                for games, s in distinct
            ],
        }
    common = [name for name in properties if all(name in s["properties"] for s in schemas)]
    extras = [
        f"{', '.join(games)} " + ", ".join(f"`{n}`" for n in s["properties"] if n not in common)
        for games, s in distinct
        if set(s["properties"]) - set(common)
    ]
    said = next((s["description"] for s in schemas if "description" in s), None)
    description = " ".join(
        [*([said] if said else []), *([f"({'; '.join(extras)})"] * bool(extras))]
    )
    merged = {"description": description} if description else {}
    return merged | {
        "type": "object",
        "additionalProperties": False,
        "required": [n for n in schemas[0]["required"] if all(n in s["required"] for s in schemas)],
        "properties": properties,
    }

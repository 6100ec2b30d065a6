"""``openapi.yaml`` generated from the code: ``python -m server.api.openapi [--check] [PATH]``.

apispec (with its marshmallow plugin) builds the document from:

* every operation from its view's :func:`.operations.operation` declaration (the
  marshmallow schemas that load its body and query and dump its answers, and the
  words), the path from the view's route (a view that declares nothing, a web page,
  is not part of the API);
* the calls the server makes, declared the same way (:data:`.webhooks.WEBHOOKS`), as
  the document's ``webhooks`` beside the base's;
* the schemas of :data:`FROM_MARSHMALLOW`, and every schema an operation names
  (server/api/schemas/), so the spec states exactly what the server loads and dumps; a
  field nesting a schema is that schema's ``$ref``, a field whose ``metadata`` names a
  ``component`` (:func:`.schemas.fields.ref`) is that component's ``$ref`` (a game
  wire's shape, or one of :data:`COMPONENT_FIELDS`; :mod:`.openapi_converter` says what
  else it reads), and a schema whose name starts with ``_`` is written inline where it
  is used;
* :data:`EXPANDED`: the schemas that dump every view and event, each the envelope of one
  schema per game (``<Game>View``, ``View`` the union) or per event kind (``<Kind>Event``,
  ``Event`` the union; the kinds the server emits itself, :data:`.schemas.SERVER_EVENTS`);
* each game's state view, moves and events' ``data`` from its wire, declared beside its
  rules (its Game record's ``wire``, ``server/games/kit/wire.py``): ``<Game>State``,
  ``<Game>Move`` and the shapes they share (``Card``, ``Seat``, ``PlayMove``...);
* each path parameter an operation names as a component (``"GameId"``) from its route's
  variable (``<game_id>``) and converter (:func:`_path_parameters`);
* the error answers (``components/responses``) from :data:`.errors.ANSWERS`, and one
  schema per error code (``<Code>ErrorBody``, ``<Code>Error``, ``Error``) from each code's
  ``details`` schema, :data:`.schemas.errors.DETAILS`;
* each webhook's body from its schema (:data:`.apps.WEBHOOK_BODIES`);
* the rest, what no schema can say, from ``openapi_base.yaml`` beside this module: the
  document's head and tags, the security scheme, the app webhooks' words and the
  examples of real answers.

The root ``openapi.yaml`` is this module's output; tests/api/test_openapi_generated.py
fails when it differs from what the code generates. Views that declare nothing (the web
pages) are not part of the API and are left out.
"""

from __future__ import annotations

import argparse
import copy
import re
import sys
from pathlib import Path
from typing import Any

import yaml
from apispec import APISpec
from apispec.ext.marshmallow.common import make_schema_key
from flask import Flask
from marshmallow.fields import Field

from . import schemas
from .apps import WEBHOOK_BODIES
from .openapi_converter import Plugin
from .openapi_errors import camel as _camel
from .openapi_errors import error_responses, per_code_schemas
from .openapi_games import game_events, game_schemas, games
from .operations import Operation
from .webhooks import WEBHOOKS

BASE = Path(__file__).with_name("openapi_base.yaml")
ROOT_SPEC = Path(__file__).resolve().parents[2] / "openapi.yaml"
REGENERATE = "python -m server.api.openapi"  # or `make openapi`

FROM_MARSHMALLOW: dict[str, type[schemas.Schema]] = {
    "PlayerCreate": schemas.PlayerCreate,
    "EntryCreate": schemas.EntryCreate,
    "Clock": schemas.Clock,
    "TokenRotate": schemas.TokenRotate,
    "Invitation": schemas.GuestInvitation,
    "Deal": schemas.Deal,
    **{cls.__name__: cls for cls in schemas.STREAM_MESSAGES},
}
"""Components that are request schemas, named otherwise than their class, or that only a
union names (name in the spec: class)."""

COMPONENT_FIELDS: dict[str, Field] = {"House": schemas.HOUSE, "Problems": schemas.PROBLEMS}
"""Components that are one field's shape, no schema's: a field that is one of them says
so by its ``metadata`` (:func:`.schemas.fields.ref`)."""

EXPANDED: dict[str, type[schemas.Schema]] = {"View": schemas.View, "Event": schemas.Event}
"""The schemas that dump every view and every event, each stated as the envelope of one
component per game (``<Game>View``) or per kind (``<Kind>Event``): an operation or a field
naming one of them refers to the union of those (``View``, ``Event``)."""

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml: 10x faster when built


METHODS = ("get", "put", "post", "delete", "patch")


def _schema_name(schema: Any) -> str:
    cls = schema if isinstance(schema, type) else type(schema)
    for name, known in FROM_MARSHMALLOW.items():
        if known is cls:
            return name
    return "" if cls.__name__.startswith("_") else cls.__name__


def _path(rule: str) -> str:
    """A Flask rule as an OpenAPI path: ``/v1/games/<int:seat>`` -> ``/v1/games/{seat}``."""
    return re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule)


def _app() -> Flask:
    """The API's routes on a bare app: no settings, no Redis (the views are not called)."""
    from . import BLUEPRINTS, metrics

    app = Flask(__name__)
    for module in (*BLUEPRINTS, metrics):
        app.register_blueprint(module.bp)
    return app


def _ref(name: str) -> str:
    return f"#/components/schemas/{name}"


def _per_game_views(schemas: dict[str, Any]) -> dict[str, Any]:
    """``View`` as one schema per game, told apart by ``game``: the envelope (the ``View``
    schema's) with the game's own ``state`` and ``legal_moves``; before them, every game's
    schemas (:func:`game_schemas`)."""
    envelope = schemas["View"]
    prefixes = games()
    out: dict[str, Any] = {}
    for name, schema in schemas.items():
        if name != "View":
            out[name] = schema
            continue
        for shape, declared in game_schemas().items():
            if shape in out:
                raise ValueError(f"{shape} is both a game's schema and the server's")
            out[shape] = declared
        for game, prefix in prefixes.items():
            view = copy.deepcopy(envelope)
            props = view["properties"]
            props["game"] = {"type": "string", "const": game}
            state = [{"$ref": _ref(f"{prefix}State")}, {"type": "null"}]
            props["state"] = {**props["state"], "oneOf": state}
            props["legal_moves"]["items"] = {"$ref": _ref(f"{prefix}Move")}
            view["description"] = f"A {prefix} game as one seat (or a spectator) sees it."
            out[f"{prefix}View"] = view
        out["View"] = {
            "description": "A game as one seat (or a spectator) sees it: one schema per game,"
            " told apart by `game`.",
            "oneOf": [{"$ref": _ref(f"{prefix}View")} for prefix in prefixes.values()],
            "discriminator": {
                "propertyName": "game",
                "mapping": {game: _ref(f"{prefix}View") for game, prefix in prefixes.items()},
            },
        }
    return out


def _per_kind_events(schemas: dict[str, Any], data: dict[str, Any]) -> dict[str, Any]:
    """One schema per event kind, ``<Kind>Event``: the ``Event`` envelope (the schema's)
    with ``kind`` a const and that kind's ``data``: the games' (their wires,
    :func:`game_events`), then ``data``, the server's own kinds'. ``Event`` is one of them,
    told apart by ``kind``."""
    envelope = schemas["Event"]
    out = {name: schema for name, schema in schemas.items() if name != "Event"}
    if both := sorted(game_events().keys() & data.keys()):
        raise ValueError(f"event kinds both a game's and the server's: {both}")
    data = {**game_events(), **data}
    for kind, schema in data.items():
        event = copy.deepcopy(envelope)
        event["properties"]["kind"] = {"type": "string", "const": kind}
        event["properties"]["data"] = schema
        event["description"] = f"a `{kind}` event"
        out[f"{_camel(kind)}Event"] = event
    out["Event"] = {
        "description": envelope["description"],
        "oneOf": [{"$ref": _ref(f"{_camel(kind)}Event")} for kind in data],
        "discriminator": {
            "propertyName": "kind",
            "mapping": {kind: _ref(f"{_camel(kind)}Event") for kind in data},
        },
    }
    return out


def build(app: Flask | None = None) -> dict[str, Any]:
    """The OpenAPI document as a dict, in a stable order."""
    app = app or _app()
    base = yaml.load(BASE.read_text(encoding="utf-8"), Loader=_Loader)
    info = base["info"]
    plugin = Plugin(schema_name_resolver=_schema_name)
    spec = APISpec(
        title=info["title"],
        version=info["version"],
        openapi_version=base["openapi"],
        plugins=[plugin],
        info={k: v for k, v in info.items() if k not in ("title", "version")},
        servers=base["servers"],
        security=base["security"],
        tags=base["tags"],
    )
    converter, resolver = plugin.converter, plugin.resolver
    assert converter is not None and resolver is not None  # (made by APISpec's init)
    for name, cls in EXPANDED.items():  # known already: apispec neither adds nor renames it
        converter.refs[make_schema_key(cls())] = name
    _components(spec, base["components"], converter)
    for name, param in _path_parameters(app).items():
        spec.components.parameter(name, param.pop("in"), param)
    for rule in sorted(app.url_map.iter_rules(), key=lambda r: r.rule):
        view = app.view_functions[rule.endpoint]
        declared: Operation | None = getattr(view, "__operation__", None)
        if declared is not None:
            (method,) = {m.lower() for m in rule.methods or ()} & set(METHODS)
            spec.path(_path(rule.rule), operations={method: declared.spec()})

    out = spec.to_dict()
    out["webhooks"] = _webhooks(base["webhooks"], resolver)
    for item in [*out["paths"].values(), *out["webhooks"].values()]:
        for method in METHODS:
            if method in item:
                item[method]["security"] = _security(item[method].get("security"))
    for item in out["paths"].values():
        for method in METHODS:
            if method in item:
                _token_refusals(item[method])
    _mark_open_objects(out)
    order = ["openapi", "info", "servers", "security", "tags", "paths", "webhooks", "components"]
    return {key: out[key] for key in order if key in out}


def _webhooks(base: dict[str, Any], resolver: Any) -> dict[str, Any]:
    """The base's app webhooks with each one's body from its schema, and the calls the
    server makes (:data:`.webhooks.WEBHOOKS`), declared as operations are."""
    webhooks = copy.deepcopy(base)
    for event, cls in WEBHOOK_BODIES.items():
        post, ref = webhooks[event]["post"], {"$ref": _ref(cls.__name__)}
        post["requestBody"] = {"content": {"application/json": {"schema": ref}}}
        post["responses"] = post.pop("responses")  # (after the body, as in an operation)
    for name, declared in WEBHOOKS.items():
        webhooks[name] = {"post": declared.spec()}
        resolver.resolve_operations(webhooks[name])
    return webhooks


def _components(spec: APISpec, components: dict[str, Any], converter: Any) -> None:
    """The base's security scheme and examples, the error answers and one schema per error
    code (from the code), the fields' components, the views and events expanded per game
    and per kind."""
    for name, scheme in components["securitySchemes"].items():
        spec.components.security_scheme(name, scheme)
    for name, response in error_responses().items():
        spec.components.response(name, response)
    for name, example in components["examples"].items():
        spec.components.example(name, example)
    for name, cls in FROM_MARSHMALLOW.items():
        spec.components.schema(name, schema=cls)
    for cls in WEBHOOK_BODIES.values():  # (no operation names them)
        spec.components.schema(cls.__name__, schema=cls)
    for name, field in COMPONENT_FIELDS.items():
        spec.components.schema(name, converter.field2property(field))
    envelopes = {name: converter.schema2jsonschema(cls) for name, cls in EXPANDED.items()}
    named = per_code_schemas(envelopes, converter)
    data = {kind: converter.schema2jsonschema(cls) for kind, cls in schemas.SERVER_EVENTS.items()}
    named = _per_kind_events(named, data)
    for name, schema in _per_game_views(named).items():
        spec.components.schema(name, schema)


_VARIABLE = re.compile(r"<(?:(\w+):)?(\w+)>")
_CONVERTERS = {"": {"type": "string"}, "int": {"type": "integer", "minimum": 0}}
"""The JSON Schema of what each route converter the API uses takes (the default's,
``""``, and werkzeug's ``int``, which takes no sign)."""


def _path_parameters(app: Flask) -> dict[str, Any]:
    """Each path parameter that an operation names as a component (``"GameId"``): its
    route's variable whose name that is in camel case (``<game_id>``), its schema the
    variable's converter's; every route naming it must agree."""
    out: dict[str, Any] = {}
    for rule in sorted(app.url_map.iter_rules(), key=lambda r: r.rule):
        view = app.view_functions[rule.endpoint]
        declared: Operation | None = getattr(view, "__operation__", None)
        if declared is None:
            continue
        variables = {_camel(name): (name, kind) for kind, name in _VARIABLE.findall(rule.rule)}
        for named in declared.parameters:
            if not isinstance(named, str):
                continue
            if named not in variables:
                raise ValueError(f"{declared.operation_id}: {rule.rule} has no variable {named}")
            name, kind = variables[named]
            schema = copy.deepcopy(_CONVERTERS[kind])
            param = {"name": name, "in": "path", "required": True, "schema": schema}
            if out.setdefault(named, param) != param:
                raise ValueError(f"{named}: {rule.rule} says it otherwise than another route")
    return out


def _security(stated: list[dict[str, list[str]]] | None) -> list[dict[str, list[str]]]:
    """Security stated on every operation, as generators read it: none stated is the
    bearer token (the document's default); ``[{}]`` alone (no token) is ``[]``."""
    if stated is None:
        return [{"bearer": []}]
    return [] if stated == [{}] else stated


def _token_refusals(operation: dict[str, Any]) -> None:
    """An operation that needs a token may be refused one (401) and rate-limited per
    token (429): said here once, not in every view's docstring. Its answers are listed
    by status code."""
    if operation["security"] == [{"bearer": []}]:
        responses = operation["responses"]
        responses.setdefault("401", {"$ref": "#/components/responses/Unauthorized"})
        responses.setdefault("429", {"$ref": "#/components/responses/RateLimited"})
        operation["responses"] = dict(sorted(responses.items()))


def _mark_open_objects(node: Any) -> None:
    """An object schema that names no property is open: ``additionalProperties: true`` says
    so (generators otherwise type it as an object with no keys at all)."""
    if isinstance(node, dict):
        kind = node.get("type")
        is_object = kind == "object" or (isinstance(kind, list) and "object" in kind)
        described = {"properties", "additionalProperties", "oneOf", "anyOf", "allOf", "$ref"}
        if is_object and not described & node.keys():
            node["additionalProperties"] = True
        for value in node.values():
            _mark_open_objects(value)
    elif isinstance(node, list):
        for value in node:
            _mark_open_objects(value)


class _Dumper(getattr(yaml, "CSafeDumper", yaml.SafeDumper)):  # type: ignore[misc]
    """Block style, multi-line text as ``|`` blocks: readable diffs of the committed file."""


def _str(dumper: Any, data: str) -> yaml.Node:
    style = "|" if "\n" in data and not data.endswith(" ") else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", data, style=style)


_Dumper.add_representer(str, _str)


def render(app: Flask | None = None) -> str:
    """The document as the text committed at the root."""
    header = f"# Generated by `{REGENERATE}` from server/api: do not edit by hand.\n"
    body = yaml.dump(build(app), Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=96)
    return header + body


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=REGENERATE, description=__doc__.splitlines()[0])
    parser.add_argument("path", nargs="?", type=Path, default=ROOT_SPEC)
    parser.add_argument("--check", action="store_true", help="exit 1 if PATH is stale")
    args = parser.parse_args(argv)
    text = render()
    if args.check:
        stale = not args.path.exists() or args.path.read_text(encoding="utf-8") != text
        if stale:
            print(f"{args.path} is stale: run `{REGENERATE}`", file=sys.stderr)
        return 1 if stale else 0
    args.path.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

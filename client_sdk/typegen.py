"""Writes ``client_sdk/_types_generated.py``, the API's JSON shapes as ``TypedDict`` s,
from ``openapi.yaml``: ``python -m client_sdk.typegen [--check] [--spec PATH] [OUTPUT]``.

``make openapi`` runs it after regenerating the spec, and ``tests/sdk/test_types.py``
fails while the committed module differs from what this makes of the committed spec.
It reads the spec with PyYAML, which the SDK does not need to run (a dev dependency).

Each schema of ``components/schemas`` becomes a type of the same name (:data:`SDK_OWN`
excepted), in an order where every name is defined before it is used (a cycle's
back-reference is quoted), since ``NotRequired`` must be seen at class creation:

* an object with ``properties`` (``allOf`` parts merged in) is a ``TypedDict``, a key
  outside ``required`` ``NotRequired``; keys that are not identifiers (``from``) use the
  functional syntax. Open objects stay ``TypedDict`` s (extra keys are simply there);
  an object whose other keys follow ``additionalProperties`` (or ``patternProperties``)
  schemas is a ``dict[str, ...]`` of every value type, and one that says nothing of its
  keys ``dict[str, Any]``;
* an array is ``list[...]``; ``const`` and ``enum`` are ``Literal``; a type list, a
  ``oneOf`` or an ``anyOf`` is a union, ``None`` where ``null`` is allowed; ``$ref`` is
  the component's name; a schema that says nothing is ``Any``;
* an object schema inside another gets a name of its own, its path in CamelCase
  (``PinochleState.contract``: ``PinochleStateContract``; an array's items ``...Item``,
  a map's values ``...Value``, a union's inline members ``...`` + their string
  ``const`` or their place);
* an envelope, a ``oneOf`` with a ``discriminator`` of two or more objects that have
  keys besides the discriminator in common (a view of any game, an event of any
  kind), is two types: its name is the shape every variant has (every key of any
  variant, required where every variant requires it; a key whose types differ
  between variants widened to ``dict[str, Any]``, ``list[...]``, ``str`` or a union
  of such scalars, else ``Any``), which a ``$ref`` to it gets, and ``<Name>Variant``
  is the union of the variants, to narrow on the discriminator (``typing.cast``).

Descriptions become docstrings.
"""

from __future__ import annotations

import argparse
import keyword
import re
import sys
from pathlib import Path
from typing import Any

from ._typewriter import ANY, NONE, SCALARS, Def, Key, T, Writer, names_in, union

SPEC = Path(__file__).resolve().parents[1] / "openapi.yaml"
OUTPUT = Path(__file__).with_name("_types_generated.py")
REGENERATE = "python -m client_sdk.typegen"

SDK_OWN = frozenset({"Move", "Status"})
"""Names ``client_sdk.types`` keeps for a meaning of its own (``Move``, the plain dict a bot
returns; ``Status``, a game's status): a component of one of these names, or of one the
module itself uses (:data:`TAKEN`), is written as ``<Name>Schema``."""

TAKEN = frozenset({"Any", "Literal", "NotRequired", "TypedDict", "TypeAlias", "str", "int",
                   "float", "bool", "list", "dict"})  # fmt: skip


def camel(text: str) -> str:
    """``put_outs`` -> ``PutOuts``, ``NS`` stays."""
    return "".join(p[:1].upper() + p[1:] for p in re.split(r"[^0-9A-Za-z]+", text) if p)


class Generator:
    def __init__(self, spec: dict[str, Any]) -> None:
        self.schemas: dict[str, Any] = spec.get("components", {}).get("schemas", {})
        self.taken: set[str] = set()
        self.names = {c: self._fresh(self._python_name(c)) for c in self.schemas}
        self.defs: dict[str, Def] = {}
        self.inline: dict[int, tuple[dict[str, Any], T]] = {}  # an object schema's type
        for component in self.schemas:
            self._component(component)

    @staticmethod
    def _python_name(component: str) -> str:
        name = re.sub(r"\W", "_", component)
        name = f"_{name}" if name[:1].isdigit() else name
        reserved = name in SDK_OWN or name in TAKEN or keyword.iskeyword(name)
        return f"{name}Schema" if reserved else name

    def _fresh(self, base: str) -> str:
        name, n = base, 1
        while name in self.taken:
            n += 1
            name = f"{base}{n}"
        self.taken.add(name)
        return name

    def _target(self, schema: dict[str, Any]) -> str:
        return str(schema["$ref"]).rsplit("/", 1)[-1]

    def _component(self, component: str) -> Def:
        name = self.names[component]
        if name not in self.defs:
            schema = self.schemas[component]
            if self._envelope(schema):
                self._define_envelope(name, schema)
            else:
                self._define(name, schema)
        return self.defs[name]

    def _resolve(self, schema: dict[str, Any]) -> dict[str, Any]:
        while "$ref" in schema:
            schema = self.schemas[self._target(schema)]
        return self._merged(schema)

    def _merged(self, schema: dict[str, Any]) -> dict[str, Any]:
        """The schema with its ``allOf`` parts' properties and ``required`` merged in."""
        if "allOf" not in schema:
            return schema
        merged = {k: v for k, v in schema.items() if k != "allOf"}
        parts = [*map(self._resolve, schema["allOf"]), merged]  # the parts' keys first
        props = {k: v for part in parts for k, v in part.get("properties", {}).items()}
        required = list(dict.fromkeys(k for part in parts for k in part.get("required", [])))
        for part in parts[:-1]:
            for k, v in part.items():
                merged.setdefault(k, v)
        return {**merged, "properties": props, "required": required}

    def _is_record(self, schema: dict[str, Any]) -> bool:
        """An object typed as a ``TypedDict``: named keys, no schema for the others."""
        kinds = schema.get("type", "object" if "properties" in schema else None)
        objectish = kinds == "object" or (isinstance(kinds, list) and "object" in kinds)
        others = schema.get("additionalProperties") not in (None, True, False)
        return (
            objectish
            and not others
            and "patternProperties" not in schema
            and (bool(schema.get("properties")) or schema.get("additionalProperties") is False)
        )

    def _envelope(self, schema: dict[str, Any]) -> bool:
        variants = schema.get("oneOf", [])
        if "discriminator" not in schema or len(variants) < 2:
            return False
        resolved = [self._resolve(v) for v in variants]
        if not all(self._is_record(v) and "null" not in v.get("type", "") for v in resolved):
            return False
        shared = set.intersection(*(set(v.get("properties", {})) for v in resolved))
        return bool(shared - {schema["discriminator"].get("propertyName")})

    def _define(self, name: str, schema: dict[str, Any]) -> None:
        schema = self._merged(schema)
        doc = schema.get("description", "")
        if not self._is_record(schema):
            self.defs[name] = Def(name, doc)  # claimed first: a cycle back to it is quoted
            self.defs[name].alias = self.convert(schema, name)
            self.defs[name].deps = names_in(self.defs[name].alias)
            return
        required = set(schema.get("required", []))
        keys = self.defs.setdefault(name, Def(name, doc, keys=[])).keys
        assert keys is not None
        for key, sub in schema.get("properties", {}).items():
            t = self.convert(sub, name + camel(key))
            keys.append(Key(key, t, key in required, sub.get("description", "")))
        self.defs[name].deps = set().union(*(names_in(k.type) for k in keys))

    def _define_envelope(self, name: str, schema: dict[str, Any]) -> None:
        variant_name = self._fresh(f"{name}Variant")
        prop = schema["discriminator"]["propertyName"]
        own = schema.get("description", "")
        self.defs[name] = envelope = Def(name, own, keys=[])
        variants = [self.convert(v, self._member_hint(name, v, i)) for i, v in
                    enumerate(schema["oneOf"], 1)]  # fmt: skip
        self.defs[variant_name] = Def(
            variant_name, f"{own}\n\nOne of the variants: narrow on ``{prop}``.".strip(),
            alias=union(variants), deps=names_in(union(variants)),
        )  # fmt: skip
        records = [self.defs[v[1]].keys or [] for v in variants]
        order = list(dict.fromkeys(k.name for keys in records for k in keys))
        for key in order:
            found = [k for keys in records for k in keys if k.name == key]
            required = len(found) == len(records) and all(k.required for k in found)
            docs = {k.doc for k in found}
            doc = docs.pop() if len(docs) == 1 else ""  # said of every variant alike
            assert envelope.keys is not None
            envelope.keys.append(Key(key, self.widen([k.type for k in found]), required, doc))
        envelope.doc = (f"{own}\n\n" if own else "") + (
            f"The keys of every variant of ``{variant_name}``, told apart by ``{prop}``."
        )
        envelope.deps = set().union(*(names_in(k.type) for k in envelope.keys or []))

    def _member_hint(self, hint: str, member: dict[str, Any], place: int) -> str:
        for sub in member.get("properties", {}).values():
            if isinstance(sub.get("const"), str):
                return hint + camel(sub["const"])
        return f"{hint}{place}"

    def convert(self, schema: dict[str, Any] | bool, hint: str) -> T:
        """The type of ``schema``; an object in it is defined as ``hint`` (or a fresh name)."""
        if not isinstance(schema, dict):
            return ANY
        if "$ref" in schema:
            target = self._target(schema)
            if target not in self.schemas:
                return ANY
            name: T = ("name", self._component(target).name)
            record = self.defs[name[1]].keys is not None
            maybe_null = record and "null" in self._resolve(schema).get("type", "")
            return union([name, NONE]) if maybe_null else name  # a record that may be null
        schema = self._merged(schema)
        kinds = schema.get("type")
        kinds = [kinds] if isinstance(kinds, str) else kinds
        nullable = [NONE] if kinds and "null" in kinds else []
        for key in ("oneOf", "anyOf"):
            if key in schema:
                members = schema[key]
                hints = [self._member_hint(hint, m, i) for i, m in enumerate(members, 1)]
                if sum(m.get("type") != "null" for m in members) == 1:
                    hints = [hint] * len(members)  # X or null: the X is named after the key
                return union(
                    [self.convert(m, h) for m, h in zip(members, hints, strict=True)] + nullable
                )
        for key in ("const", "enum"):
            if key in schema:
                values = [schema["const"]] if key == "const" else list(schema["enum"])
                lits = [v for v in values if isinstance(v, str | int | bool)]
                if len(lits) < len([v for v in values if v is not None]):
                    break  # a float or an object among them: typed by `type` instead
                parts = [("lit", tuple(lits))] if lits else []
                return union(parts + ([NONE] if None in values else []) + nullable)
        if kinds is None:
            kinds = ["object"] if "properties" in schema else []
        parts = [self._of_kind(kind, schema, hint) for kind in kinds]
        return union(parts) if parts else ANY

    def _of_kind(self, kind: str, schema: dict[str, Any], hint: str) -> T:
        if kind == "array":
            return ("list", self.convert(schema.get("items", True), hint + "Item"))
        if kind != "object":
            return ("name", SCALARS.get(kind, "Any"))
        if self._is_record(schema):
            if id(schema) not in self.inline:  # (an allOf's parts are read once per user)
                name = self._fresh(hint)
                self.inline[id(schema)] = (schema, ("name", name))
                self._define(name, {**schema, "type": "object"})
            return self.inline[id(schema)][1]
        values = [self.convert(s, hint + camel(k)) for k, s in
                  schema.get("properties", {}).items()]  # fmt: skip
        extra = schema.get("additionalProperties")
        if isinstance(extra, dict):
            values.append(self.convert(extra, hint + "Value"))
        values += [self.convert(s, hint + "Value") for s in
                   schema.get("patternProperties", {}).values()]  # fmt: skip
        return ("dict", union(values) if values else ANY)

    def kind(self, t: T) -> str:
        """``object``, ``array``, a scalar's name, or ``mixed``: what widening goes by."""
        if t[0] == "name" and t[1] in self.defs:
            d = self.defs[t[1]]
            return "object" if d.keys is not None else self.kind(d.alias)
        if t[0] in ("dict", "list"):
            return "object" if t[0] == "dict" else "array"
        if t[0] == "lit":
            found = {type(v).__name__ for v in t[1]}
            return found.pop() if len(found) == 1 else "mixed"
        if t[0] == "union":
            found = {self.kind(p) for p in t[1]}
            return found.pop() if len(found) == 1 else "mixed"
        return "mixed" if t == ANY else str(t[1])

    def _items(self, t: T) -> T:
        while t[0] == "name" and t[1] in self.defs and self.defs[t[1]].keys is None:
            t = self.defs[t[1]].alias
        return t[1] if t[0] == "list" else ANY

    def widen(self, types: list[T]) -> T:
        """One type that takes every value of each of ``types`` (a key of an envelope)."""
        if all(t == types[0] for t in types):
            return types[0]
        nullable = any(t == NONE or (t[0] == "union" and NONE in t[1]) for t in types)
        rest = [union([p for p in (t[1] if t[0] == "union" else (t,)) if p != NONE])
                for t in types if t != NONE]  # fmt: skip
        kinds = list(dict.fromkeys(self.kind(t) for t in rest))
        if kinds == ["array"]:
            wide: T = ("list", self.widen([self._items(t) for t in rest]))
        elif kinds == ["object"]:
            wide = ("dict", ANY)
        elif kinds and set(kinds) <= set(SCALARS.values()):
            wide = union([("name", kind) for kind in kinds])
        else:
            return ANY
        return union([wide, NONE] if nullable else [wide])


def render(spec: dict[str, Any]) -> str:
    """The module's text for ``spec``."""
    return Writer(Generator(spec).defs).text(HEADER)


HEADER = f'''\
# Generated by `{REGENERATE}` from openapi.yaml: do not edit by hand.
"""The API's JSON shapes, one type per schema of ``openapi.yaml``'s components.

``client_sdk.types`` re-exports them with the SDK's own names: import from there.
How each kind of schema is typed: :mod:`client_sdk.typegen`.

(No ``from __future__ import annotations`` here: ``TypedDict`` must see
``NotRequired`` at class creation to record which keys are optional.)
"""

'''


def main(argv: list[str] | None = None) -> int:
    import yaml  # a dev dependency: the SDK runs without it

    parser = argparse.ArgumentParser(prog=REGENERATE, description=__doc__.split("\n\n")[0])
    parser.add_argument("output", nargs="?", type=Path, default=OUTPUT)
    parser.add_argument("--spec", type=Path, default=SPEC, help="default: %(default)s")
    parser.add_argument("--check", action="store_true", help="fail if OUTPUT is stale")
    args = parser.parse_args(argv)
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    text = render(yaml.load(args.spec.read_text(encoding="utf-8"), Loader=loader))
    if args.check:
        if not args.output.exists() or args.output.read_text(encoding="utf-8") != text:
            print(f"{args.output} is stale: run `{REGENERATE}`", file=sys.stderr)
            return 1
        return 0
    args.output.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""apispec's marshmallow plugin as server/api/openapi.py uses it: the converter writes, on
top of what apispec reads of a schema and its fields, what this spec needs of them."""

from __future__ import annotations

import copy
from typing import Any

from apispec.ext.marshmallow import MarshmallowPlugin, OpenAPIConverter
from apispec.ext.marshmallow.common import resolve_schema_instance
from marshmallow import EXCLUDE, INCLUDE
from marshmallow.fields import Field

from .schemas.fields import AnyOf


class Converter(OpenAPIConverter):
    """apispec's converter, and what it does not read:

    * a schema's ``Meta.description`` does not cost it its ``additionalProperties``
      (apispec sets one or the other);
    * ``Meta.one_of`` (schemas): the schema is one of those (with its ``Meta.description``),
      each as a nested schema is (its component's ``$ref``; inline when its name starts
      with ``_``): a union, whose rule the schema's own validation enforces, or that no
      schema loads (a stream's messages); ``Meta.json_schema`` adds keywords (a rule
      between fields);
    * ``Meta.examples`` (a list of instances) and ``Meta.nullable`` (the component is
      ``null`` too, as ``Result``: every use of it then allows null);
    * a field's ``metadata["component"]`` (:func:`.schemas.fields.ref`, the one way a
      field names a component it does not nest): the field is that component, ``$ref``
      (with its description; ``anyOf`` with null when it allows none), whatever it
      (de)serialises as, e.g. a move loaded by the shape check and documented as the
      games' ``Move``;
    * an :class:`.schemas.fields.AnyOf` field: ``anyOf`` its alternatives;
    * a field's ``metadata["const"]``;
    * a map of any values is ``additionalProperties: true`` (apispec: ``{}``);
    * a query parameter is absent or a string: never ``null`` (a field that loads as
      None when absent has no ``null`` type nor ``default: null`` there).
    """

    def schema2jsonschema(self, schema: Any) -> dict[str, Any]:
        variants = getattr(getattr(schema, "Meta", None), "one_of", ())
        if variants:
            said = getattr(schema.Meta, "description", None)
            union = {"oneOf": [self.resolve_nested_schema(variant) for variant in variants]}
            return {"description": said, **union} if said else union
        out: dict[str, Any] = super().schema2jsonschema(schema)
        instance = resolve_schema_instance(schema)
        if instance.unknown != EXCLUDE:
            out["additionalProperties"] = instance.unknown == INCLUDE
        meta = getattr(instance, "Meta", None)
        if getattr(meta, "nullable", False):
            out["type"] = ["object", "null"]
        if examples := getattr(meta, "examples", None):
            out["examples"] = list(examples)
        out.update(copy.deepcopy(getattr(meta, "json_schema", {})))
        return out

    def field2property(self, field: Field) -> dict[str, Any]:
        name = field.metadata.get("component")
        out: dict[str, Any]
        if name is None and isinstance(field, AnyOf):
            said = {k: v for k, v in field.metadata.items() if k == "description"}
            out = {**said, "anyOf": [self.field2property(f) for f in field.alternatives]}
        elif name is None:
            out = super().field2property(field)
        else:
            ref: dict[str, Any] = {"$ref": f"#/components/schemas/{name}"}
            out = {"anyOf": [ref, {"type": "null"}]} if field.allow_none else ref
            if "description" in field.metadata:
                out = {"description": field.metadata["description"], **out}
        if "const" in field.metadata:
            out["const"] = field.metadata["const"]
        if out.get("additionalProperties") == {}:
            out["additionalProperties"] = True
        return out

    def _field2parameter(self, field: Field, *, name: str, location: str) -> dict[str, Any]:
        out: dict[str, Any] = super()._field2parameter(field, name=name, location=location)
        schema = out["schema"]
        if isinstance(kinds := schema.get("type"), list) and "null" in kinds:
            rest = [kind for kind in kinds if kind != "null"]
            schema["type"] = rest[0] if len(rest) == 1 else rest
            if schema.get("default", ...) is None:
                del schema["default"]
        return out


class Plugin(MarshmallowPlugin):
    """apispec's marshmallow plugin with :class:`Converter`."""

    Converter = Converter

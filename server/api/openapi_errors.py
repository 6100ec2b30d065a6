"""The spec's error answers and one schema per error code, from the code: each answer
(``components/responses``) from :data:`.errors.ANSWERS`, each code's ``<Code>ErrorBody``
from its ``details`` schema in :data:`.schemas.errors.DETAILS`. server/api/openapi.py
puts them in the document."""

from __future__ import annotations

from typing import Any

from apispec.ext.marshmallow import OpenAPIConverter

from . import schemas
from .errors import ANSWERS


def _ref(name: str) -> str:
    return f"#/components/schemas/{name}"


def camel(name: str) -> str:
    """``stale_version`` -> ``StaleVersion``."""
    return "".join(word.capitalize() for word in name.split("_"))


def per_code_schemas(base: dict[str, Any], converter: OpenAPIConverter) -> dict[str, Any]:
    """``base`` and one schema per error code from each code's ``details`` schema
    (:data:`.schemas.errors.DETAILS`): ``<Code>ErrorBody`` (``code`` a const, ``message``,
    ``details``); ``<Code>Error``, the envelope of that body alone, for a code an answer
    (:data:`.errors.ANSWERS`) carries alone; and ``Error``, the envelope of any body, told
    apart by ``code`` (an answer with several codes: :func:`error_responses`). The details
    schemas several codes share are components of their own (``SeatDetails`` ...)."""
    out = dict(base)
    for shared in schemas.SHARED_DETAILS:
        out[shared.__name__] = _details(converter, shared)
    alone = {answer.codes[0] for answer in ANSWERS.values() if len(answer.codes) == 1}
    for code, cls in schemas.DETAILS.items():
        if cls in schemas.SHARED_DETAILS:
            details, said = {"$ref": _ref(cls.__name__)}, None
        else:
            details = _details(converter, cls)
            said = details.pop("description", None)
        out[f"{camel(code)}ErrorBody"] = {
            "description": f"`{code}`" + (f": {said}" if said else ""),
            "type": "object",
            "additionalProperties": False,
            "required": ["code", "message", "details"],
            "properties": {
                "code": {"type": "string", "const": code},
                "message": {"type": "string"},
                "details": details,
            },
        }
        if code in alone:
            out[f"{camel(code)}Error"] = _error_envelope([code], f"the `{code}` error")
    out["Error"] = _error_envelope(list(schemas.DETAILS), schemas.Error.Meta.description)
    return out


_FIRST = ("description", "type", "additionalProperties", "required")


def _details(converter: OpenAPIConverter, cls: type[schemas.Schema]) -> dict[str, Any]:
    """A details schema as JSON Schema: a field that is a component (``allOf`` of one
    ``$ref``) refers to it, and ``Meta.additional_properties`` (a field) says what an open
    one's other keys hold."""
    out: dict[str, Any] = converter.schema2jsonschema(cls)
    others = getattr(cls.Meta, "additional_properties", None)
    if others is not None:
        out["additionalProperties"] = converter.field2property(others)
    return _tidy(out)


def _tidy(node: Any) -> Any:
    """``{"allOf": [{"$ref": ref}], ...}`` as ``{..., "$ref": ref}`` (OpenAPI 3.1 allows
    ``$ref`` beside ``description``), and the keys in the order people read them, all the
    way down."""
    if isinstance(node, list):
        return [_tidy(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: _tidy(value) for key, value in node.items()}
    one = out.get("allOf")
    if isinstance(one, list) and len(one) == 1 and set(one[0]) == {"$ref"}:
        del out["allOf"]
        out["$ref"] = one[0]["$ref"]
    first = {key: out[key] for key in _FIRST if key in out}
    return first | {key: value for key, value in out.items() if key not in first}


def _error_envelope(codes: list[str], description: str) -> dict[str, Any]:
    """docs/api.md's ``{"error": ...}`` around the bodies of ``codes``."""
    bodies = {code: _ref(f"{camel(code)}ErrorBody") for code in codes}
    if len(codes) == 1:
        error: dict[str, Any] = {"$ref": bodies[codes[0]]}
    else:
        error = {
            "oneOf": [{"$ref": ref} for ref in bodies.values()],
            "discriminator": {"propertyName": "code", "mapping": bodies},
        }
    return {
        "description": description,
        "type": "object",
        "additionalProperties": False,
        "required": ["error"],
        "properties": {"error": error},
    }


def error_responses() -> dict[str, Any]:
    """Each error answer (:data:`.errors.ANSWERS`) as a response: one that carries one code
    answers that code's ``<Code>Error``; one that carries several answers ``Error`` (any
    code, told apart by ``error.code``) and lists them in ``x-error-codes``."""
    out = {}
    for name, answer in ANSWERS.items():
        codes = answer.codes
        response: dict[str, Any] = {"description": answer.description}
        if answer.headers:
            response["headers"] = dict(answer.headers)
        if len(codes) > 1:
            response["x-error-codes"] = list(codes)
        media: dict[str, Any] = {
            "schema": {"$ref": _ref(f"{camel(codes[0])}Error" if len(codes) == 1 else "Error")}
        }
        if answer.examples:
            media["examples"] = {
                key: {"$ref": f"#/components/examples/{ref}"}
                for key, ref in answer.examples.items()
            }
        response["content"] = {"application/json": media}
        out[name] = response
    return out

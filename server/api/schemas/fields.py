"""The fields and bases every schema module shares: names, booleans, cards, URLs."""

from __future__ import annotations

from typing import Any

from marshmallow import EXCLUDE, Schema, ValidationError, fields, validate

from server.services import names
from server.services.errors import InvalidRequest
from server.services.lobby import REGISTRY

EXAMPLE_GAME = next(iter(REGISTRY))
"""The game the spec's examples show: the registry's first (the examples are of its
shapes, and tests/api/test_openapi_generated.py fails on one its schema refuses)."""

CARD = validate.Regexp(r"^[AKQJT98765432][SHDC]$", error="not a card (rank then suit, e.g. 'TS')")


class Boolean(fields.Boolean):
    """A JSON ``true`` or ``false`` and nothing else.

    marshmallow's own Boolean also takes ``1``, ``"yes"`` and the like, and even with
    ``truthy={True}`` it takes ``1`` and ``1.0`` (they equal ``True`` in Python).
    """

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value


class Name(fields.String):
    """A display name: :func:`server.services.names.clean_name` (NFC, stripped; no control,
    bidi or invisible characters; not blank; at most ``max_length``); the error names
    the class."""

    def __init__(self, max_length: int = names.MAX_LENGTH, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.max_length = max_length
        self.metadata = {
            "minLength": 1,
            "maxLength": max_length,
            "description": "a display name, normalised to NFC and stripped; refused (400 "
            "invalid_request naming the field and the class) when blank, with a control, "
            "bidi or invisible character, or reading as a house bot's name (look-alike "
            "letters folded by Unicode TS 39 skeletons)",
            **self.metadata,
        }

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> str:
        text = super()._deserialize(value, attr, data, **kwargs)
        try:
            return names.clean_name(text, max_length=self.max_length)
        except InvalidRequest as exc:
            raise ValidationError(exc.details["name"][0]) from None


class _Query(Schema):
    class Meta:
        unknown = EXCLUDE


EVENT_NUMBER = validate.Range(min=0, max=2**64 - 1)
"""An event number: Redis stream ids hold unsigned 64-bit numbers, no more."""


HTTP_URL = validate.Regexp(r"^[hH][tT][tT][pP][sS]?://[^/?#]+", error="an absolute http(s) URL")
"""An http(s) scheme and a host part (the service checks the host and the address)."""


class _Url(fields.String):
    """An absolute http(s) URL."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(validate=[validate.Length(min=8, max=2000), HTTP_URL], **kwargs)


class Number(fields.Number[float]):
    """A JSON number of an answer, dumped as it is: an ``int`` stays one (``Float`` would
    write ``1`` as ``1.0``)."""

    num_type = float

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any) -> Any:
        return value


DATE_TIME = {"format": "date-time"}
"""A timestamp's metadata: the answers carry ISO 8601 strings (``wire.iso``), dumped as
they are, so a ``String`` (``DateTime`` would want a ``datetime``)."""


def Base(name: str, **kwargs: Any) -> fields.Raw:  # noqa: N802 (a field, named like one)
    """A value whose shape is a component still written in openapi_base.yaml (``House``,
    ``Seat``, ``CallbackHealth``): dumped as it is, documented by reference (nullable:
    ``anyOf`` it or null): :func:`ref`, the converter's ``component``."""
    metadata = ref(name, **kwargs.pop("metadata", {}))
    return fields.Raw(metadata=metadata, **kwargs)


def ref(component: str, **metadata: Any) -> dict[str, Any]:
    """A field's ``metadata`` saying the field is the spec's ``component`` (a ``$ref``),
    whatever it (de)serialises as: server/api/openapi.py's converter writes it so."""
    return {"component": component, **metadata}

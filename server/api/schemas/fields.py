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


def ref(component: str, **metadata: Any) -> dict[str, Any]:
    """A field's ``metadata`` saying the field is the spec's ``component`` (its ``$ref``,
    with the field's ``description``; ``anyOf`` it or null when the field allows none),
    whatever it (de)serialises as: the one way a field names a component it does not
    nest, i.e. a shape of the games' wires (``Seat``, ``Card``, ``Move``), a field of
    ``server.api.openapi.COMPONENT_FIELDS`` (``House``, ``Problems``), or a schema the
    field does not load through (``Deal``: a game's rules check its presets). A field
    nesting a schema (``fields.Nested``) is that schema's component, apispec's way."""
    return {"component": component, **metadata}


class AnyOf(fields.Field):
    """A value that any of ``alternatives`` loads (the first that does), documented as
    ``anyOf`` them: for a shape no single marshmallow field is."""

    def __init__(self, *alternatives: fields.Field, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.alternatives = alternatives

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        for alternative in self.alternatives:
            try:
                return alternative.deserialize(value)
            except ValidationError:
                continue
        raise ValidationError("none of its shapes")


HOUSE = Boolean(
    metadata={
        "const": True,
        "description": "Present (true) only on a row that stands for one of the server's house "
        "bots\n(the bot pool's players): no one else can be marked so, and no one else may\n"
        "take a name that reads as theirs.\n",
    }
)
"""The spec's ``House`` (``COMPONENT_FIELDS``); a row's ``house`` is :func:`house`. A
boolean ``type`` beside the ``const``: openapi-python-client 0.29 writes a ``const`` that
has no ``type`` as code that does not parse (``house != Trueand ...``)."""


def house() -> fields.Boolean:
    """A row's ``house`` mark, the spec's ``House`` (:data:`HOUSE`)."""
    return fields.Boolean(metadata=ref("House"))

"""server/api/operations.py: the schema an operation declares is the one that loads its
request and dumps its answer, and under test a schema that misses a field fails."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from marshmallow import Schema, fields

from server.api.openapi import build
from server.api.operations import Answer, operation


class Body(Schema):
    n = fields.Integer(required=True, strict=True)


class Out(Schema):
    n = fields.Integer(required=True)


def make_app(returned: dict[str, Any]) -> Flask:
    app = Flask(__name__)
    app.testing = True

    @app.post("/things")
    @operation(
        "makeThing",
        tag="things",
        summary="Make a thing.",
        body=Body,
        responses={201: Answer("the thing", Out)},
    )
    def make(body: dict[str, Any]):
        assert body == {"n": 3}  # loaded by Body: the view sees the loaded body
        return returned, 201

    return app


def test_the_declared_schemas_load_the_body_and_dump_the_answer() -> None:
    answer = make_app({"n": 3}).test_client().post("/things", json={"n": 3})
    assert answer.status_code == 201 and answer.get_json() == {"n": 3}


def test_a_response_schema_that_drops_a_field_fails_under_test() -> None:
    with pytest.raises(AssertionError, match=r"makeThing 201: the schema drops \['\.extra'\]"):
        make_app({"n": 3, "extra": 1}).test_client().post("/things", json={"n": 3})


def test_the_spec_says_what_the_declaration_says() -> None:
    operation_ = build(make_app({"n": 3}))["paths"]["/things"]["post"]
    body = operation_["requestBody"]["content"]["application/json"]["schema"]
    answer = operation_["responses"]["201"]["content"]["application/json"]["schema"]
    assert (body, answer) == (
        {"$ref": "#/components/schemas/Body"},
        {"$ref": "#/components/schemas/Out"},
    )


def test_every_api_route_declares_its_operation_and_no_docstring_describes_the_wire() -> None:
    """The spec has no second source: a ``/v1`` or ``/metrics`` route without an
    :func:`operation` would be missing from it, and YAML in a docstring is read by
    nothing."""
    from server.api.openapi import _app

    app = _app()
    undeclared = [
        rule.rule
        for rule in app.url_map.iter_rules()
        if rule.rule.startswith(("/v1/", "/metrics", "/healthz", "/readyz"))
        and not hasattr(app.view_functions[rule.endpoint], "__operation__")
    ]
    described = [
        name for name, view in app.view_functions.items() if "\n    ---\n" in (view.__doc__ or "")
    ]
    assert (undeclared, described) == ([], [])

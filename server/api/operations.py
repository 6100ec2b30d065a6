"""What an API operation says of itself, once: the schemas that load its request and dump
its answer are the ones the spec documents (flask-smorest's way, on plain Flask).

A view is declared with :func:`operation` under its route (and under
:func:`.context.requires_token`, which answers 401 before the body is read)::

    @bp.post("/v1/players")
    @operation(
        "registerPlayer", tag="players", summary="Register a player; the token is shown once.",
        security=EITHER,
        body=schemas.PlayerCreate,
        responses={201: Answer("the new player and its token", schemas.PlayerCreated)},
        errors=("InvalidRequest", "PayloadTooLarge", "Forbidden"),
    )
    def register(body):
        return services().players.register(g.token, **body), 201

* ``body`` (a marshmallow schema class) loads the JSON body; the view gets it as ``body``.
* ``query`` loads the query string; the view gets it as ``query``.
* An :class:`Answer` whose schema is a marshmallow class dumps what the view returns for
  that status (a view may return ``data`` or ``(data, status)``, or a ready ``Response``,
  which is passed on as it is).
  Under test (``app.testing``) a dump that drops a key of what the view returned fails
  loudly: a response schema must name every field its answers carry.
* A schema given as a string names a component (one no marshmallow schema is, e.g. a
  game wire's shape) and neither loads nor dumps.

:mod:`server.api.openapi` builds each path's operation from :attr:`Operation.spec`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from flask import Response, current_app, request
from marshmallow import Schema

from .context import load_json
from .errors import ANSWERS as ERROR_ANSWERS

OPEN: list[dict[str, list[str]]] = [{}]
"""No token: anybody may call."""
EITHER: list[dict[str, list[str]]] = [{}, {"bearer": []}]
"""With or without a token (what the answer shows may depend on it)."""

SchemaRef = type[Schema] | str | dict[str, Any]
"""A marshmallow schema class, a component's name, or an inline JSON Schema."""


@dataclass(frozen=True)
class Answer:
    """One documented answer of an operation: its description and what its body is."""

    description: str
    schema: SchemaRef | None = None
    media: str = "application/json"
    examples: Mapping[str, str] = field(default_factory=dict)
    """Example name -> component example name (``components/examples``)."""
    headers: Mapping[str, Any] = field(default_factory=dict)
    extra: Mapping[str, Any] = field(default_factory=dict)
    """Keys of the media object no schema says."""

    def spec(self) -> dict[str, Any]:
        out: dict[str, Any] = {"description": self.description}
        if self.headers:
            out["headers"] = dict(self.headers)
        if self.schema is not None or self.examples or self.extra:
            media: dict[str, Any] = {}
            if self.schema is not None:
                media["schema"] = _schema(self.schema)
            if self.examples:
                media["examples"] = _examples(self.examples)
            media.update(self.extra)
            out["content"] = {self.media: media}
        return out


@dataclass(frozen=True)
class Operation:
    """An operation as the spec tells it (:meth:`spec`) and as the view runs it."""

    operation_id: str
    tag: str
    summary: str
    description: str | None = None
    security: list[dict[str, list[str]]] | None = None
    body: SchemaRef | None = None
    body_required: bool = True
    body_examples: Mapping[str, str] = field(default_factory=dict)
    query: type[Schema] | None = None
    parameters: Sequence[str | dict[str, Any]] = ()
    """Path (and header) parameters: a path parameter's component name (``"GameId"``, made
    from the route's ``<game_id>``: ``server.api.openapi._path_parameters``) or an inline
    parameter."""
    responses: Mapping[int, Answer] = field(default_factory=dict)
    errors: Sequence[str] = ()
    """The error answers, by name (:data:`.errors.ANSWERS`: ``components/responses``)."""

    def __post_init__(self) -> None:
        unknown = [name for name in self.errors if name not in ERROR_ANSWERS]
        if unknown:
            raise ValueError(f"{self.operation_id}: no such error answer {unknown}")

    def spec(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "operationId": self.operation_id,
            "tags": [self.tag],
            "summary": self.summary,
        }
        if self.description:
            out["description"] = self.description
        if self.security is not None:
            out["security"] = self.security
        parameters: list[Any] = list(self.parameters)
        if self.query is not None:
            parameters.append({"in": "query", "schema": self.query})
        if parameters:
            out["parameters"] = parameters
        if self.body is not None:
            media: dict[str, Any] = {"schema": _schema(self.body)}
            if self.body_examples:
                media["examples"] = _examples(self.body_examples)
            out["requestBody"] = {
                "required": self.body_required,
                "content": {"application/json": media},
            }
        answers: dict[str, Any] = {str(s): a.spec() for s, a in self.responses.items()}
        for name in self.errors:
            answers[str(ERROR_ANSWERS[name].status)] = {"$ref": f"#/components/responses/{name}"}
        out["responses"] = answers
        return out


def _schema(schema: SchemaRef) -> Any:
    if isinstance(schema, str):
        return {"$ref": f"#/components/schemas/{schema}"}
    return schema  # a class (apispec's marshmallow plugin resolves it) or inline JSON Schema


def _examples(examples: Mapping[str, str]) -> dict[str, Any]:
    return {name: {"$ref": f"#/components/examples/{ref}"} for name, ref in examples.items()}


def _instance(schema: SchemaRef | None) -> Schema | None:
    return schema() if isinstance(schema, type) else None


def _lost(data: Any, out: Any, path: str = "") -> list[str]:
    """The keys of ``data`` that the dump ``out`` left out (where each was), so that under
    test a response schema that misses a field fails, instead of answering without it."""
    if isinstance(data, Mapping) and isinstance(out, Mapping):
        lost = [f"{path}.{key}" for key in data if key not in out]
        for key in data.keys() & out.keys():
            lost += _lost(data[key], out[key], f"{path}.{key}")
        return lost
    if isinstance(data, list | tuple) and isinstance(out, list) and len(data) == len(out):
        return [
            x
            for i, (d, o) in enumerate(zip(data, out, strict=True))
            for x in _lost(d, o, f"{path}[{i}]")
        ]
    return []


def operation(
    operation_id: str,
    *,
    tag: str,
    summary: str,
    responses: Mapping[int, Answer],
    **rest: Any,
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Declare a view's operation (:class:`Operation`'s fields); see the module's docstring."""
    op = Operation(operation_id, tag, summary, responses=responses, **rest)
    body, query = _instance(op.body), _instance(op.query)
    dumpers = {status: _instance(answer.schema) for status, answer in responses.items()}
    first = next(iter(responses), 200)

    def wrap(view: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(view)
        def run(*args: Any, **kwargs: Any) -> Any:
            if body is not None:
                kwargs["body"] = body.load(load_json())
            if query is not None:
                kwargs["query"] = query.load(request.args)
            result = view(*args, **kwargs)
            if isinstance(result, Response):
                return result
            data, status, *headers = result if isinstance(result, tuple) else (result, first)
            dumper = dumpers.get(status)
            if dumper is None:
                return (data, status, *headers)
            out = dumper.dump(data)
            if current_app.testing and (lost := _lost(data, out)):
                raise AssertionError(f"{op.operation_id} {status}: the schema drops {lost}")
            return (out, status, *headers)

        run.__operation__ = op  # type: ignore[attr-defined]
        return run

    return wrap

"""The error envelope (docs/api.md#errors)."""

from __future__ import annotations

from marshmallow import Schema, fields


class ErrorBody(Schema):
    code = fields.String()
    message = fields.String()
    details = fields.Raw()


class Error(Schema):
    error = fields.Nested(ErrorBody)


error = Error()

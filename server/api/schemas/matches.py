"""Matches: is NEW better than OLD, on duplicate boards judged by a sequential test."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields, validate

from .fields import EXAMPLE_GAME

_SIDE: dict[str, Any] = dict(
    validate=validate.Length(min=2, max=8),
    required=True,
    metadata={"description": "one player per seat (ids, or `bot:<name>` for a house bot): "
              "the first half at the board's first table, the second half at the other"},
)  # fmt: skip


class MatchCreate(Schema):
    game = fields.String(required=True, validate=validate.Length(min=1, max=32),
                         metadata={"examples": [EXAMPLE_GAME]})  # fmt: skip
    options = fields.Dict(keys=fields.String(validate=validate.Length(max=32)),
                          load_default=dict, validate=validate.Length(max=16))  # fmt: skip
    new = fields.List(fields.String(validate=validate.Length(min=1, max=64)), **_SIDE)
    old = fields.List(fields.String(validate=validate.Length(min=1, max=64)), **_SIDE)
    alpha = fields.Float(load_default=0.05, validate=validate.Range(0.001, 0.2))
    beta = fields.Float(load_default=0.05, validate=validate.Range(0.001, 0.2))
    bounds = fields.List(
        fields.Float(validate=validate.Range(-5, 5)),
        load_default=lambda: [0.0, 0.2],
        validate=validate.Length(equal=2),
        metadata={"description": "[e0, e1]: H0 effect ≤ e0, H1 effect ≥ e1, in units of "
                  "the spread of the per-board difference"},
    )  # fmt: skip
    max_boards = fields.Integer(load_default=200, validate=validate.Range(2, 2000))
    par_adjusted = fields.Boolean(load_default=False)
    move_seconds = fields.Integer(load_default=30, validate=validate.Range(1, 600))


class _Estimate(Schema):
    mean = fields.Float(required=True)
    low = fields.Float(required=True, allow_none=True)
    high = fields.Float(required=True, allow_none=True)
    effect = fields.Float(required=True, allow_none=True)
    spread = fields.Float(required=True)


class _Board(Schema):
    board = fields.Integer(required=True)
    games = fields.List(fields.String(), required=True)
    difference = fields.Float(required=True, allow_none=True)
    void = fields.Boolean(required=True)
    new_points = fields.Float(
        required=True, allow_none=True,
        metadata={"description": "NEW's mean seat points per deal over the board's two tables "
                  "(par taken off when par_adjusted); null: void"},
    )  # fmt: skip
    old_points = fields.Float(required=True, allow_none=True,
                              metadata={"description": "OLD's, the same way"})  # fmt: skip


class Match(Schema):
    id = fields.String(required=True)
    status = fields.String(required=True, validate=validate.OneOf(
        ["waiting", "running", "pass", "fail", "inconclusive"]))  # fmt: skip
    game = fields.String(required=True)
    options = fields.Dict(required=True)
    new = fields.List(fields.String(), required=True)
    old = fields.List(fields.String(), required=True)
    waiting_for = fields.List(fields.String(), required=True)
    bounds = fields.List(fields.Float(), required=True)
    alpha = fields.Float(required=True)
    beta = fields.Float(required=True)
    max_boards = fields.Integer(required=True)
    par_adjusted = fields.Boolean(required=True)
    llr = fields.Float(required=True, allow_none=True)
    llr_bounds = fields.List(fields.Float(), required=True)
    boards_scored = fields.Integer(required=True)
    estimate = fields.Nested(_Estimate, required=True)
    boards = fields.List(fields.Nested(_Board), required=True)
    created = fields.String(required=True)


class _LostBoard(_Board):
    seed = fields.String(
        required=True, metadata={"description": "the board's deal seed (its replays show it)"}
    )


class RegressionSet(Schema):
    format = fields.String(required=True, metadata={"examples": ["parlour-regression-set/1"]})
    match = fields.String(required=True)
    game = fields.String(required=True)
    options = fields.Dict(required=True)
    new = fields.String(
        required=True, allow_none=True,
        metadata={"description": "null: name the bots to play it (parlour-bot play --deals "
                  "FILE NEW OLD)"},
    )  # fmt: skip
    old = fields.String(required=True, allow_none=True)
    mode = fields.String(required=True, validate=validate.OneOf(["duplicate"]))
    par_adjusted = fields.Boolean(required=True)
    seed = fields.String(required=True, allow_none=True)
    boards = fields.List(fields.Nested(_LostBoard), required=True)

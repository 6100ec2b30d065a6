"""Consent: invitations and blocks."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from .fields import _Query


class PageQuery(_Query):
    """A page of a list: ``limit`` items after ``cursor`` (the previous page's
    ``next_cursor``; none: from the start)."""

    limit = fields.Integer(validate=validate.Range(min=1, max=200), load_default=50)
    cursor = fields.String(validate=validate.Length(min=1, max=100), load_default=None)


class Invitation(Schema):
    """One invitation to a held seat (``kind: game``) or a held entry (``kind: tournament``)."""

    id = fields.String()
    kind = fields.String()
    status = fields.String()
    created = fields.String()
    expires = fields.String()
    game_id = fields.String()
    game = fields.String()
    seats = fields.List(fields.Integer())
    tournament_id = fields.String()
    tournament = fields.String()
    entry_id = fields.String()
    players = fields.List(fields.String())

    class Meta:
        include = {"from": fields.Raw()}


class Invitations(Schema):
    invitations = fields.List(fields.Nested(Invitation))
    next_cursor = fields.String(allow_none=True)


class Block(Schema):
    player_id = fields.String()
    name = fields.String(allow_none=True)
    since = fields.String()


class Blocks(Schema):
    blocks = fields.List(fields.Nested(Block))
    next_cursor = fields.String(allow_none=True)


invitation = Invitation()


invitation_list = Invitations()


page_query = PageQuery()


block = Block()


block_list = Blocks()

"""Consent: invitations and blocks."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from .fields import DATE_TIME, _Query


class PageQuery(_Query):
    """A page of a list: ``limit`` items after ``cursor`` (the previous page's
    ``next_cursor``; none: from the start)."""

    limit = fields.Integer(
        validate=validate.Range(min=1, max=200),
        load_default=50,
        metadata={"description": "at most this many items in the page"},
    )
    cursor = fields.String(
        validate=validate.Length(min=1, max=100),
        metadata={"description": "the previous page's `next_cursor` (none for the first page)"},
    )


class Inviter(Schema):
    kind = fields.String(required=True, validate=validate.OneOf(["player", "app"]))
    id = fields.String(required=True)
    name = fields.String(required=True, allow_none=True)


class ConsentInvitation(Schema):
    """One invitation to a held seat (``kind: game``) or a held entry (``kind: tournament``)."""

    class Meta:
        include = {"from": fields.Nested(Inviter, required=True)}

    id = fields.String(required=True, validate=validate.Regexp(r"^iv[0-9a-f]+$"))
    kind = fields.String(required=True, validate=validate.OneOf(["game", "tournament"]))
    status = fields.String(
        validate=validate.OneOf(["accepted", "declined"]),
        metadata={"description": "once answered"},
    )
    created = fields.String(required=True, metadata=DATE_TIME)
    expires = fields.String(required=True, metadata=DATE_TIME)
    game_id = fields.String(metadata={"description": "kind game: the game"})
    game = fields.String(metadata={"description": "the game's engine id"})
    seats = fields.List(fields.Integer(), metadata={"description": "kind game: the held seats"})
    tournament_id = fields.String(metadata={"description": "kind tournament: the tournament"})
    tournament = fields.String(metadata={"description": "the tournament's name"})
    entry_id = fields.String(metadata={"description": "kind tournament: the held entry"})
    players = fields.List(fields.String(), metadata={"description": "the entry's players"})


class ConsentInvitationList(Schema):
    invitations = fields.List(fields.Nested(ConsentInvitation), required=True)
    next_cursor = fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "the next page's cursor; null on the last"},
    )


class Block(Schema):
    player_id = fields.String(required=True)
    name = fields.String(required=True, allow_none=True)
    since = fields.String(required=True, metadata=DATE_TIME)


class BlockList(Schema):
    blocks = fields.List(fields.Nested(Block), required=True)
    next_cursor = fields.String(required=True, allow_none=True)

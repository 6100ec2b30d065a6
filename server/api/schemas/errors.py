"""The error envelope (docs/api.md#errors) and each error code's ``details``.

:data:`DETAILS` is the one place a code's ``details`` is said: server/api/openapi.py
makes each a ``<Code>ErrorBody`` of the spec, and under test the error handler loads
every answer's details with its code's schema, so a key no schema names fails loudly.
"""

from __future__ import annotations

from typing import Any

from marshmallow import INCLUDE, Schema, ValidationError, fields, validate, validates_schema

from .bots import SandboxUnavailableDetails
from .fields import AnyOf, ref


class ErrorBody(Schema):
    code = fields.String()
    message = fields.String()
    details = fields.Raw()


class Error(Schema):
    class Meta:
        description = """\
docs/api.md's error envelope, `{"error": {"code", "message", "details"}}`, of any code:
one body per code (`<Code>ErrorBody`, `details` typed per code), told apart by `code`
"""

    error = fields.Nested(ErrorBody)


error = Error()


def _strings(description: str | None = None, **kwargs: Any) -> fields.List:
    metadata = {"description": description} if description else {}
    return fields.List(fields.String(), metadata=metadata, **kwargs)


def _described(description: str) -> dict[str, str]:
    return {"description": description}


# -- shared by several codes: components of their own in the spec ------------------------
class NoDetails(Schema):
    class Meta:
        description = "always `{}`"


class SeatDetails(Schema):
    seat = fields.Raw(required=True, metadata=ref("Seat"))


class StatusDetails(Schema):
    status = fields.String(required=True, metadata=_described("the game's or tournament's status"))


class InvitationDetails(Schema):
    invitation = fields.String(required=True)


SHARED_DETAILS: tuple[type[Schema], ...] = (
    NoDetails,
    SeatDetails,
    StatusDetails,
    InvitationDetails,
)
"""Details schemas that are components of the spec by their class names; every other
code's details is written out in its ``<Code>ErrorBody``."""


# -- one code's own ----------------------------------------------------------------------
PROBLEMS = AnyOf(
    fields.List(fields.String()),
    fields.Dict(
        metadata={
            "description": "a nested field's (or a list's) parts -> their problems, in this "
            "same shape"
        }
    ),
    fields.String(),
    metadata={"description": "a field's problems (a list of messages), or a nested field's"},
)
"""A field's problems: a list of messages (or one), or a nested field's map; the spec's
``Problems`` (``server.api.openapi.COMPONENT_FIELDS``)."""


def _problems(value: Any) -> bool:
    try:
        PROBLEMS.deserialize(value)
    except ValidationError:
        return False
    return True


class InvalidRequestDetails(Schema):
    """Open: any other key is a field of the request, its value that field's problems."""

    class Meta:
        unknown = INCLUDE
        description = """\
each field of the request that is wrong -> its problems: a list of messages, or, for a
nested field, the same map one level down; the first 20 problems, each once, and
`more_problems` counts the rest
"""
        additional_properties = fields.Raw(metadata=ref("Problems"))
        """What each key other than the named ones holds: :data:`PROBLEMS`."""

    more_problems = fields.Integer(validate=validate.Range(min=1))

    @validates_schema
    def _fields_problems(self, data: dict[str, Any], **kwargs: Any) -> None:
        wrong = sorted(str(k) for k, v in data.items() if k != "more_problems" and not _problems(v))
        if wrong:
            raise ValidationError(f"not a field's problems: {wrong}")


class ForbiddenDetails(Schema):
    fields_ = _strings("the admin-only fields of the request", data_key="fields")
    seat = fields.Raw(metadata=ref("Seat", description="the seat the caller does not hold"))
    players = _strings("the house bots named where house bots do not play")
    house_bots_play_in = _strings("where the house bots do play")
    limit = fields.Integer(
        metadata=_described("the most unfinished games seating only house bots a player may have")
    )
    live = fields.Integer(
        metadata=_described("the caller's unfinished games seating only house bots")
    )


class BoardInPlayDetails(Schema):
    tables = _strings("the board's tables (game ids), this one among them", required=True)


class NotFoundDetails(Schema):
    class Meta:
        description = "what was not found (none of these for an unknown path)"

    game_id = fields.String()
    player_id = fields.String()
    tournament_id = fields.String()
    ladder_id = fields.String()
    app_id = fields.String()
    webhook_id = fields.String()
    bot_id = fields.String()
    invitation = fields.String()
    game = fields.String(metadata=_described("the unknown game of a leaderboard"))
    players = fields.Dict(
        keys=fields.String(),
        values=fields.String(),
        metadata=_described("each unknown player's place in the request -> why"),
    )
    seats = fields.Dict(
        keys=fields.String(),
        values=fields.String(),
        metadata=_described("each seat naming an unknown player -> why"),
    )
    version = _strings("the versions there are")


class StaleVersionDetails(Schema):
    version = fields.Integer(
        required=True,
        validate=validate.Range(min=0),
        metadata=_described("the game's current version"),
    )


class DeadlinePassedDetails(Schema):
    deadline = fields.DateTime(
        required=True, metadata=_described("the move's deadline, passed (ISO 8601)")
    )


class AlreadyEnteredDetails(Schema):
    player = fields.String(required=True, metadata=_described("the player already entered"))


class WrongEntrySizeDetails(Schema):
    players = fields.Integer(required=True, metadata=_described("how many players an entry has"))


class CannotStartDetails(Schema):
    entries = fields.Integer(metadata=_described("how many entries there are (too few)"))


class InvitationsPendingDetails(Schema):
    class Meta:
        description = "who is still to answer"

    players = _strings("the seated players still to accept")
    entries = fields.Dict(
        keys=fields.String(),
        values=fields.List(fields.String()),
        metadata=_described("each entry -> its players still to accept"),
    )


class TooManyInvitationsDetails(Schema):
    open = fields.Integer(required=True, metadata=_described("the inviter's open invitations"))
    limit = fields.Integer(required=True, metadata=_described("the most the server allows"))


class InvitationRefusedDetails(Schema):
    players = _strings("the players who cannot take it", required=True)


class IllegalMoveDetails(Schema):
    legal_moves = fields.List(
        fields.Raw(metadata=ref("Move")),
        required=True,
        metadata=_described("the seat's legal moves now"),
    )


class UnplayableFormatDetails(Schema):
    format = _strings(required=True)


class RateLimitedDetails(Schema):
    retry_after = fields.Integer(
        required=True,
        validate=validate.Range(min=1),
        metadata=_described("whole seconds to wait, at least one (as the Retry-After header)"),
    )


class TooManyStreamsDetails(Schema):
    limit = fields.Integer(
        required=True, metadata=_described("the open streams and long-polls allowed at once")
    )
    retry_after = fields.Integer(required=True, validate=validate.Range(min=1))


class UnavailableDetails(Schema):
    event = fields.String(metadata=_described("the rating event that kept changing"))


DETAILS: dict[str, type[Schema]] = {
    "invalid_request": InvalidRequestDetails,
    "unauthorized": NoDetails,
    "forbidden": ForbiddenDetails,
    "board_in_play": BoardInPlayDetails,
    "not_found": NotFoundDetails,
    "not_your_turn": NoDetails,
    "stale_version": StaleVersionDetails,
    "game_over": NoDetails,
    "seat_taken": SeatDetails,
    "already_seated": SeatDetails,
    "no_open_seat": NoDetails,
    "game_not_started": NoDetails,
    "game_started": StatusDetails,
    "seat_open": SeatDetails,
    "seat_held": SeatDetails,
    "game_not_finished": StatusDetails,
    "deadline_passed": DeadlinePassedDetails,
    "entries_closed": StatusDetails,
    "already_entered": AlreadyEnteredDetails,
    "wrong_entry_size": WrongEntrySizeDetails,
    "cannot_start": CannotStartDetails,
    "invitations_pending": InvitationsPendingDetails,
    "invitation_expired": InvitationDetails,
    "too_many_invitations": TooManyInvitationsDetails,
    "invitation_refused": InvitationRefusedDetails,
    "illegal_move": IllegalMoveDetails,
    "unplayable_format": UnplayableFormatDetails,
    "rate_limited": RateLimitedDetails,
    "too_many_streams": TooManyStreamsDetails,
    "unavailable": UnavailableDetails,
    "sandbox_unavailable": SandboxUnavailableDetails,
}
"""Each documented error code -> the schema of its ``details`` (405 and 500, not
documented, have empty details). The order is the spec's (``Error``'s ``oneOf``)."""

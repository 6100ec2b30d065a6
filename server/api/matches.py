"""``/v1/matches``: is NEW better than OLD? Duplicate boards until a sequential test decides."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, g

from .context import requires_token, services
from .operations import EITHER, Answer, operation
from .schemas.matches import Match, MatchCreate, RegressionSet

bp = Blueprint("matches", __name__)

MATCH_ID = {"name": "match_id", "in": "path", "required": True,
            "schema": {"type": "string", "maxLength": 32}}  # fmt: skip


@bp.post("/v1/matches")
@requires_token
@operation(
    "createMatch",
    tag="tournaments",
    summary="Test whether one bot is better than another, on duplicate boards.",
    description="""\
`new` and `old` name one player per seat of the game each (player ids,
or `bot:<name>` for the server's house bots): the first half of each
side plays the board's first table, the second half the other. Each
board is one deal played at two tables with the cards swapped: NEW holds
the even seats at the first table and the odd ones at the second, so
nobody sits at both tables of a board. A board's difference is NEW's mean seat score
minus OLD's over its two tables (`par_adjusted`: each seat's par taken
off first; fixed now, before the first board). After each board a
sequential probability ratio test on the differences (bounds `[e0, e1]`
in units of their spread; `alpha`, `beta`; LLR bounds
ln(beta/(1-alpha)) and ln((1-beta)/alpha)) passes, fails, or deals the
next board, up to `max_boards` (`inconclusive`). No decision before 8
boards. Consent: every named player other than you and the house bots
must agree (`POST /v1/matches/{id}/agree`); until then it is `waiting`.
""",
    body=MatchCreate,
    responses={201: Answer("the match", Match)},
    errors=("InvalidRequest", "Unauthorized", "Forbidden", "NotFound"),
)
def create(body: dict[str, Any]):
    return services().matches.create(g.token, body), 201


@bp.post("/v1/matches/<match_id>/agree")
@requires_token
@operation(
    "agreeToMatch",
    tag="tournaments",
    summary="Agree to play a match you are named in; the last agreement starts it.",
    parameters=[MATCH_ID],
    responses={200: Answer("the match", Match)},
    errors=("Unauthorized", "Forbidden", "NotFound"),
)
def agree(match_id: str):
    return services().matches.agree(g.token, match_id)


@bp.get("/v1/matches/<match_id>")
@operation(
    "getMatch",
    tag="tournaments",
    summary="A match as it stands: LLR, estimate with its 95% interval, every board.",
    security=EITHER,
    parameters=[MATCH_ID],
    responses={200: Answer("the match", Match)},
    errors=("NotFound",),
)
def show(match_id: str):
    return services().matches.get(match_id)


@bp.get("/v1/matches/<match_id>/regression")
@operation(
    "getMatchRegression",
    tag="tournaments",
    summary="The boards NEW lost, with their games and seeds: a regression set (JSON).",
    description="""\
In the format of `parlour-bot test`'s regression sets: `parlour-bot play
--deals FILE NEW OLD` deals each board again from its seed, at both
tables, and plays it with the bots named.
""",
    security=EITHER,
    parameters=[MATCH_ID],
    responses={200: Answer("the boards NEW lost", RegressionSet)},
    errors=("NotFound",),
)
def regression(match_id: str):
    return services().matches.regression(match_id)

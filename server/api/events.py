"""``/v1/tournaments/{id}/...`` for an organiser's event: the roster, the join code,
closing registration, withdrawing an entry, voiding tables, and the sheets (JSON and CSV)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, g

from . import schemas
from .context import requires_token, services
from .operations import EITHER, Answer, operation

bp = Blueprint("events", __name__)

ENTRY = {"name": "entry_id", "in": "path", "required": True, "schema": {"type": "string"}}
ROUND = {
    "name": "round_index",
    "in": "path",
    "required": True,
    "description": "0 for the first round",
    "schema": {"type": "integer", "minimum": 0},
}


@bp.post("/v1/tournaments/<tournament_id>/roster")
@requires_token
@operation(
    "enterRoster",
    tag="tournaments",
    summary="Make a player of every roster row and enter them (the admin, or an organiser).",
    description="""\
Rows come as `players` (`name`, optional `team`) or as `csv` (a header
naming `name` and optionally `team`), at most 200 in all. Each row becomes
a new player, its token shown in this answer only (each player rotates its
own with `POST /v1/me/token`); the rows of one team are one entry, named
after the team (every team the same size: the tournament's
`seats_per_entry`). The admin may call it, and a tournament's creator whom
the operator lists in `PARLOUR_ORGANISERS` (else 403). Consent as for any
entry: the admin's entries are made directly, an organiser's are held
(`pending`) until each player accepts its invitation with its own token.
Everything is checked first: a refused roster makes no player.
""",
    parameters=["TournamentId"],
    body=schemas.RosterCreate,
    responses={201: Answer("the players (with their tokens) and entries", schemas.RosterCreated)},
    errors=("InvalidRequest", "Forbidden", "NotFound", "Conflict"),
)
def roster(tournament_id: str, body: dict[str, Any]):
    reply = services().events.roster(
        g.token, tournament_id, players=body["players"], csv_text=body["csv"]
    )
    return reply, 201


@bp.post("/v1/tournaments/<tournament_id>/join-code")
@requires_token
@operation(
    "newJoinCode",
    tag="tournaments",
    summary="A new join code: players entering themselves must give it (creator or admin).",
    description="""\
For an event without a roster: hand the code to the class; each student
enters with its own token (`POST …/entries` with `code`), consenting by
doing so. Without the code, or with an old one, a player's own entry is
403 `forbidden`. Shown in this answer only; a new call replaces it. The
tournament shows `join_code: true`. Only while it is open (409
`entries_closed`).
""",
    parameters=["TournamentId"],
    body=schemas.Empty,
    body_required=False,
    responses={200: Answer("the code", schemas.JoinCode)},
    errors=("InvalidRequest", "Forbidden", "NotFound", "Conflict"),
)
def join_code(tournament_id: str, body: dict[str, Any]):
    return services().events.join_code(g.token, tournament_id)


@bp.post("/v1/tournaments/<tournament_id>/close")
@requires_token
@operation(
    "closeRegistration",
    tag="tournaments",
    summary="Close registration: no more entries (creator or admin); repeatable.",
    description="""\
The tournament stays `open` (`registration`: `closed`) until it is started;
an entry is then refused with 409 `entries_closed` (details.status `closed`).
""",
    parameters=["TournamentId"],
    body=schemas.Empty,
    body_required=False,
    responses={200: Answer("the tournament", schemas.Tournament)},
    errors=("InvalidRequest", "Forbidden", "NotFound", "Conflict"),
)
def close(tournament_id: str, body: dict[str, Any]):
    return services().events.close_registration(g.token, tournament_id)


@bp.post("/v1/tournaments/<tournament_id>/entries/<entry_id>/withdraw")
@requires_token
@operation(
    "withdrawEntry",
    tag="tournaments",
    summary="Withdraw an entry (creator, admin, or a player of the entry); repeatable.",
    description="""\
Open: the entry is removed (its players may enter again). Running: the
entry stays in the standings (`withdrawn`), and every table of it that has
no game yet is forfeited: it loses (score -1), its table-mates win (0),
and nothing is rated; a game already under way is played out and counts.
Finished: 409 `entries_closed`.
""",
    parameters=["TournamentId", ENTRY],
    body=schemas.Empty,
    body_required=False,
    responses={200: Answer("the tournament", schemas.Tournament)},
    errors=("InvalidRequest", "Forbidden", "NotFound", "Conflict"),
)
def withdraw(tournament_id: str, entry_id: str, body: dict[str, Any]):
    return services().events.withdraw(g.token, tournament_id, entry_id)


@bp.post("/v1/tournaments/<tournament_id>/rounds/<int:round_index>/void")
@requires_token
@operation(
    "voidTables",
    tag="tournaments",
    summary="Void tables of a round to have them replayed (creator or admin).",
    description="""\
Each table named (`tables`; left out: all of the round's) must be over,
else 409 `game_not_finished`. Its result is struck and the scheduler plays
it again under a new game id, with a new deal; the old game id is listed
in the table's `voided`. In swiss and knockout only the last round paired
may be voided (400: the next round was paired from its results); never in
duplicate (422 `unplayable_format`: the replay would be dealt cards the
board's other games show). A tournament not running: 409 `entries_closed`
(details.status). A rating applied for the table stays applied: its
replay is not rated again.
""",
    parameters=["TournamentId", ROUND],
    body=schemas.VoidTables,
    body_required=False,
    responses={200: Answer("the voided game ids and the tournament", schemas.Voided)},
    errors=("InvalidRequest", "Forbidden", "NotFound", "Conflict", "UnplayableFormat"),
)
def void(tournament_id: str, round_index: int, body: dict[str, Any]):
    return services().events.void(g.token, tournament_id, round_index, body.get("tables"))


@bp.get("/v1/tournaments/<tournament_id>/sheets")
@operation(
    "getSheets",
    tag="tournaments",
    summary="The standings with their tie-breaks, the cross-table and every game.",
    description="""\
Public like the tournament. `tiebreaks` names the standings' keys in the
order applied. The cross-table has a row per entry in the standings'
order, and a cell per other entry: the games they played together, the
row's points from them (1 above, ½ level, 0 below, pairwise at bigger
tables) and each game's mark. `games` is every table of every round.
""",
    security=EITHER,
    parameters=["TournamentId"],
    responses={200: Answer("the sheets", schemas.Sheets)},
    errors=("NotFound",),
)
def sheets(tournament_id: str):
    return services().tournaments.sheets(tournament_id)


@bp.get("/v1/tournaments/<tournament_id>/sheets.csv")
@operation(
    "getSheetCsv",
    tag="tournaments",
    summary="One sheet as CSV: standings, crosstable or games.",
    description="""\
`standings`: rank, entry, name, players, points, played, byes, buchholz,
head_to_head, score_difference, eliminated_in, withdrawn, reference,
interval_low, interval_high (empty: no interval is computed). `crosstable`:
a row per entry, a column per entry in the standings' order (the row's
points against the column's; empty: never met; `x`: itself), its byes (the
points from byes), its total (the standings' points, byes included).
`games`: round, table, board, game_id, status, entries, names, scores,
ranks, forfeit, voided (lists space-separated, names by ` | `).
""",
    security=EITHER,
    parameters=["TournamentId"],
    query=schemas.SheetQuery,
    responses={200: Answer("the sheet (UTF-8 CSV, a header line first)", {}, media="text/csv")},
    errors=("InvalidRequest", "NotFound"),
)
def sheet_csv(tournament_id: str, query: dict[str, Any]):
    text = services().tournaments.sheet_csv(tournament_id, query["part"])
    name = f"{tournament_id}-{query['part']}.csv"
    return Response(
        text,
        mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )

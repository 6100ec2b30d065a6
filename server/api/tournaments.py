"""``/v1/tournaments``: create, enter, start, and read a tournament and its standings."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, g

from . import schemas
from .context import requires_token, services
from .operations import EITHER, Answer, operation

bp = Blueprint("tournaments", __name__)

TOURNAMENT = ["TournamentId"]


@bp.get("/v1/tournaments")
@operation(
    "listTournaments",
    tag="tournaments",
    summary="The lobby's list of tournaments, newest first, with their leaders.",
    description="""\
Fair like the games' list: at most `PARLOUR_LOBBY_PER_CREATOR` (5) of any
one player's tournaments.
""",
    security=EITHER,
    query=schemas.TournamentsQuery,
    responses={200: Answer("the tournaments", schemas.TournamentList)},
    errors=("InvalidRequest",),
)
def index(query: dict[str, Any]):
    return services().tournaments.list_tournaments(**query)


@bp.post("/v1/tournaments")
@requires_token
@operation(
    "createTournament",
    tag="tournaments",
    summary="Create a tournament (any registered player, or the admin).",
    description="""\
The tournament is `open` for entries until its creator (or the admin)
starts it; then a scheduler (`parlour scheduler`, or the one `parlour
serve` runs) pairs the rounds, creates the games, enforces the clock,
records results and ratings, and finishes it.

* `format` (left out: `duplicate` for a game whose seats form two
  fixed sides, a partnership game, since the same cards at both tables
  of a board take the deal's luck out of the comparison; `round_robin`
  otherwise; the answer's `format` says which): `round_robin` (one cycle unless `rounds`), `swiss`
  (`ceil(log2 n)` rounds unless `rounds`), `knockout` (seeded bracket;
  no `rounds`), `duplicate` (a pairs event: each round is a round-robin
  round of tables of two entries, and every table of the round plays
  the round's `boards_per_match` boards, dealt identically, so no entry
  or player sits at two tables of a board; an entry is compared with the
  entries that held the same cards, by its net score; at least 4
  entries, else the start is refused; only for games whose seats form
  two fixed sides, else 422 `unplayable_format`).
* `seats_per_entry`: players per entry (Concerto: 2, one side). Left
  out, the first entry fixes it. A table seats
  `seats / seats_per_entry` entries; `min_table_size` (games with a
  player-count option, round robin and swiss only) allows smaller
  tables instead of byes.
* `clock.move_seconds` (default 60): each seat that becomes to move
  has that long; `clock.bank_ms` (default 0): each seat's time bank
  for a game, in ms: a move may run past `move_seconds` and the
  overrun comes out of the bank (a turn's `clock` shows its deadline
  and its bank left). `timeout_policy`: `{"kind": "default_move"}` (the
  move is made for the seat: pass where legal, else its lowest legal
  card, else its first legal move) or `{"kind": "forfeit", "after": N}`
  (the seat's first N-1 timeouts in a game get default moves, the
  N-th forfeits the game: it is `aborted` and its table counts as a
  loss for the seat's entry, whose score is lowered to one below the
  lowest other score if it was not already the lowest).
""",
    body=schemas.TournamentCreate,
    responses={201: Answer("the new tournament", schemas.Tournament)},
    errors=("InvalidRequest", "PayloadTooLarge", "UnplayableFormat"),
)
def create(body: dict[str, Any]):
    return services().tournaments.create(g.token, **body), 201


@bp.post("/v1/tournaments/<tournament_id>/entries")
@requires_token
@operation(
    "enterTournament",
    tag="tournaments",
    summary="Enter one entry (one player per seat of a side) while the tournament is open.",
    description="""\
The creator or the admin may enter anyone; a player may enter an entry
it is part of. Only the admin enters others directly: a player named by
someone else gets an invitation, and the entry is held (`pending`)
until they all accept; a declined or expired invitation withdraws it. A player is in
at most one entry (409 `already_entered`);
every entry has the same number of players (409 `wrong_entry_size`);
entries close at the start, or when the organiser closes registration
(409 `entries_closed`). `name` is the entry's team name, shown instead of
its players' names. The creator or the admin may enter the server's house
bots as a reference entry (`reference`: its games are not rated) unless
the operator leaves `reference` out of `PARLOUR_HOUSE_BOTS`. Entry ids `e1`,
`e2`… are the seeds, in entry order.
""",
    parameters=TOURNAMENT,
    body=schemas.EntryCreate,
    responses={201: Answer("the entry", schemas.EntryCreated)},
    errors=("InvalidRequest", "Forbidden", "NotFound", "Conflict"),
)
def enter(tournament_id: str, body: dict[str, Any]):
    return services().tournaments.enter(g.token, tournament_id, **body), 201


@bp.post("/v1/tournaments/<tournament_id>/start")
@requires_token
@operation(
    "startTournament",
    tag="tournaments",
    summary="Close the entries and hand the tournament to the scheduler (creator or admin).",
    description="""\
The first round is paired as a check: a tournament that cannot be
paired (fewer than two entries, too few for a table) is refused with
409 `cannot_start`. Starting twice is 409 `entries_closed`. While an
entry is held for an invitation: 409 `invitations_pending`
(details.entries: entry id -> the players yet to accept).
""",
    parameters=TOURNAMENT,
    body=schemas.Empty,
    body_required=False,
    responses={200: Answer("the running tournament", schemas.Tournament)},
    errors=("InvalidRequest", "Forbidden", "NotFound", "Conflict"),
)
def start(tournament_id: str, body: dict[str, Any]):
    return services().tournaments.start(g.token, tournament_id)


@bp.get("/v1/tournaments/<tournament_id>")
@operation(
    "getTournament",
    tag="tournaments",
    summary="The tournament, its rounds (tables, game ids, results) and standings.",
    description="""\
Public, and free of hidden information: pairings, finished tables'
results and game ids. A game's own view (`GET /v1/games/{id}`) decides
what the caller may see of it.
""",
    security=EITHER,
    parameters=TOURNAMENT,
    responses={200: Answer("the tournament", schemas.Tournament)},
    errors=("NotFound",),
)
def show(tournament_id: str):
    return services().tournaments.show(tournament_id)


@bp.get("/v1/tournaments/<tournament_id>/standings")
@operation(
    "getStandings",
    tag="tournaments",
    summary="The standings, best first, ties fully broken.",
    description="""\
Points (per game: entries placed below + half the entries tied, over
table size - 1; byes: 1 in swiss, 1/2 in round robin and duplicate, 0
in knockout; in a knockout the round reached comes first), then
Buchholz (swiss), head-to-head, score difference (duplicate: the
entry's net minus the mean net of the other entries that held the
same cards), seed. In duplicate a round counts once all its tables are over.
Computed from the recorded results on every read.
""",
    security=EITHER,
    parameters=TOURNAMENT,
    responses={200: Answer("the standings", schemas.Standings)},
    errors=("NotFound",),
)
def standings(tournament_id: str):
    return services().tournaments.standings(tournament_id)

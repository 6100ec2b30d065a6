"""``/v1/ladders``: define (admin), list and show ladders, join and leave, the leaderboard,
and one entry's health and history (docs/ladder.md)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, g

from . import schemas
from .context import requires_token, services
from .operations import EITHER, Answer, operation

bp = Blueprint("ladders", __name__)

LADDER = ["LadderId"]
ENTRY = Answer("the entry", schemas.LadderEntry)


@bp.get("/v1/ladders")
@operation(
    "listLadders",
    tag="ladders",
    summary="Every ladder, oldest first, with its settings.",
    security=EITHER,
    responses={200: Answer("the ladders", schemas.LadderList)},
)
def index():
    return services().ladders.list_ladders()


@bp.post("/v1/ladders")
@requires_token
@operation(
    "createLadder",
    tag="ladders",
    summary="Define a ladder (admin only).",
    description="""\
A standing competition: players join it themselves, and a scheduler
matches those *available* (seen waiting on `GET /v1/me/turns` or a
game's events in the last `seen_seconds`, not paused, below
`max_games` concurrent games) and rates every contest (openskill, a
pool of its own).

* `table_size`: seats per table (games with a player-count option);
  default the game's.
* `side_size`: players per side; default 2 in partnership games
  (Concerto, Pinochle), else 1. Solo entries are paired into sides per
  board.
* `duplicate` (default: true for two sides of partners, and only for
  two sides): each match is one board dealt identically at two tables,
  played by two teams of two sides each, every seat a different player
  (each team's sides at different tables), rated as one contest by the
  board difference; with fewer available entries than the two tables
  seat, the entries play an ordinary game instead.
* `clock` (`move_seconds`, `bank_ms`), `timeout_policy`: as for
  tournaments (default 30 s, no bank, `default_move`).
* `pause_after` games in a row with a timeout pause an entry until it
  is seen waiting `pause_seconds` after its last timeout.
* `provisional_games`: rated contests before a rating stops being
  provisional (default 10); it also needs its sigma below 25/6, as
  every rating does (docs/ladder.md, *How sure a rating is*).
* `max_games`: each entry's games at once (house bots have no cap:
  one entry holds at most its own `max_games` of theirs).
* `validation` (default true): a new entry (joining again after leaving
  is one; so is one whose callback changed) first plays one unrated
  validation game against the ladder's house bots; it is matched only
  once that game ends with no timeout and no illegal move of its own.
""",
    body=schemas.LadderCreate,
    responses={201: Answer("the new ladder", schemas.Ladder)},
    errors=("InvalidRequest", "Forbidden"),
)
def create(body: dict[str, Any]):
    return services().ladders.create(g.token, **body), 201


@bp.get("/v1/ladders/<ladder_id>")
@operation(
    "getLadder",
    tag="ladders",
    summary="The ladder, and each entry's status and health.",
    security=EITHER,
    parameters=LADDER,
    responses={200: Answer("the ladder", schemas.Ladder)},
    errors=("NotFound",),
)
def show(ladder_id: str):
    return services().ladders.show(ladder_id)


@bp.post("/v1/ladders/<ladder_id>/entries")
@requires_token
@operation(
    "joinLadder",
    tag="ladders",
    summary="Join the ladder (a player only itself; the admin names `player_id`).",
    description="""\
Joining is the player's consent to be seated in the ladder's games
(each game records it in `meta.tournament.consent`). Joining again is
harmless. On a ladder of fixed pairs (`sides: fixed`) name the `partner`:
the pair is held until the partner makes the same call naming this player.
""",
    parameters=LADDER,
    body=schemas.LadderEntryBody,
    body_required=False,
    responses={201: ENTRY},
    errors=("InvalidRequest", "Forbidden", "NotFound"),
)
def join(ladder_id: str, body: dict[str, Any]):
    joined = services().ladders.join(
        g.token, ladder_id, body["player_id"], body["partner"], max_games=body["max_games"]
    )
    return joined, 201


@bp.delete("/v1/ladders/<ladder_id>/entries")
@requires_token
@operation(
    "leaveLadder",
    tag="ladders",
    summary="Leave the ladder (games in progress go on; no new ones are made).",
    description="""\
The player's games under way go on while it is seen waiting (a bot that
leaves as its last game begins plays it out); once it has not been seen
for the ladder's `seen_seconds`, the scheduler gives each of its turns
there the clock's timeout policy at once. Joining again is a new entry:
it plays a validation game again where the ladder validates.
""",
    parameters=LADDER,
    query=schemas.LadderEntryQuery,
    responses={200: Answer("left", schemas.LadderLeft)},
    errors=("InvalidRequest", "Forbidden", "NotFound"),
)
def leave(ladder_id: str, query: dict[str, Any]):
    return services().ladders.leave(g.token, ladder_id, query.get("player_id"))


@bp.get("/v1/ladders/<ladder_id>/entries/<player_id>")
@operation(
    "getLadderEntry",
    tag="ladders",
    summary="One entry's status, health, rating and history (newest first, replay links).",
    security=EITHER,
    parameters=[
        *LADDER,
        {"name": "player_id", "in": "path", "required": True, "schema": {"type": "string"}},
    ],
    responses={200: ENTRY},
    errors=("NotFound",),
)
def entry(ladder_id: str, player_id: str):
    return services().ladders.entry(ladder_id, player_id)


@bp.get("/v1/ladders/<ladder_id>/leaderboard")
@operation(
    "getLadderLeaderboard",
    tag="ladders",
    summary="Everyone rated on the ladder, best first by ordinal (mu - 3 sigma).",
    security=EITHER,
    parameters=LADDER,
    responses={200: Answer("the leaderboard", schemas.LadderLeaderboard)},
    errors=("NotFound",),
)
def leaderboard(ladder_id: str):
    return services().ladders.leaderboard(ladder_id)

"""``/v1/games``: list, create, join, leave a seat, view, move, events (long-poll), replay
and its frames."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from flask import Blueprint, Response, current_app, g, request

from . import schemas
from .context import client_address, requires_token, services
from .operations import EITHER, OPEN, Answer, operation

bp = Blueprint("games", __name__)

READ_ERRORS = ("Unauthorized", "RateLimited", "Forbidden", "NotFound")
"""What a read that takes a token or none may answer besides its own."""


@bp.get("/v1/games")
@operation(
    "listGames",
    tag="games",
    summary="The lobby's list of games, newest first (public parts only).",
    description="""\
`status=live` (default): games waiting for players or being played,
newest created first; `status=finished`: games finished or aborted,
most recently ended first. Each entry shows only what a spectator's
view shows: seats, whose turn, scores, the result. The live list is
fair: it shows at most `PARLOUR_LOBBY_PER_CREATOR` (5) live games of any
one player; `created_by=<player id>` lists that creator's live games
only, all of them (up to `limit`).
""",
    security=EITHER,
    query=schemas.GamesQuery,
    responses={200: Answer("the games", schemas.GameList)},
    errors=("InvalidRequest",),
)
def index(query: dict[str, Any]):
    return services().lobby.list_games(**query)


@bp.post("/v1/games")
@requires_token
@operation(
    "createGame",
    tag="games",
    summary="Create a game; answers with the creator's view.",
    description="""\
`seats` lists a player id or `null` (open) per seat; omitted, every seat
is open. A player holds at most one seat unless `allow_multiple_seats`.
A seat naming another player than the caller is held for an invitation
that player must accept (only the admin seats others directly; see
`/v1/me/invitations`). The game starts (`status: active`) when every
seat is taken and none is held. `deals`
and `seed` are admin-only (403 otherwise). Without `seed`, the deal seed
is derived from a server secret and the game id; `deal_commitment` is
the SHA-256 (hex) of the seed's UTF-8 bytes, revealed by the replay once
the game is finished. A `"bot:<name>"` seat takes the house identity of
that bot seated in the fewest games. A player may have
`PARLOUR_HOUSE_GAMES_PER_PLAYER` (2) unfinished games seating only house
bots (403 `forbidden` beyond, `details.limit` and `details.live`), and the
server runs `PARLOUR_HOUSE_GAMES_MAX` (4) of them at once (429
`rate_limited` beyond); nothing is made when refused.
""",
    body=schemas.GameCreate,
    body_examples={"example": "ConcertoGameCreate"},
    responses={
        201: Answer(
            "the creator's view (a spectator's view if the creator has no seat)",
            schemas.View,
            examples={"example": "ConcertoGameCreated"},
        )
    },
    errors=(
        "InvalidRequest",
        "PayloadTooLarge",
        "Forbidden",
        "NotFound",
        "Conflict",
        "RateLimited",
    ),
)
def create(body: dict[str, Any]):
    return services().games.create_game(g.token, **body), 201


@bp.post("/v1/games/<game_id>/join")
@requires_token
@operation(
    "joinGame",
    tag="games",
    summary="Take an open seat (the one asked for, or the lowest open one).",
    parameters=["GameId"],
    body=schemas.Join,
    body_required=False,
    responses={
        200: Answer("the joiner's view", schemas.View, examples={"example": "ConcertoJoined"})
    },
    errors=("InvalidRequest", "Forbidden", "NotFound", "Conflict"),
)
def join(game_id: str, body: dict[str, Any]):
    return services().games.join(g.token, game_id, **body)


SEAT = {
    "name": "seat",
    "in": "path",
    "required": True,
    "description": "below the game's seat count (another is refused, 400 invalid_request)",
    "schema": {"type": "integer", "minimum": 0},
}


@bp.delete("/v1/games/<game_id>/seats/<int:seat>")
@requires_token
@operation(
    "leaveSeat",
    tag="games",
    summary="Leave a seat of a game still waiting, freeing it for someone else.",
    description="""\
The seat's holder (or the admin) frees it while the game's status is
`waiting`; the game's `version` is unchanged. Once the game has started the
answer is 409 `game_started` (details.status) and nothing changes: its seats
are played to the end, by their clock if need be. Other refusals: 403
`forbidden` (the seat is someone else's), 409 `seat_open` (nobody sits
there, e.g. a second leave), 409 `seat_held` (held for an invitation: its
invitee declines the invitation instead).
""",
    parameters=["GameId", SEAT],
    responses={
        200: Answer(
            "the caller's view afterwards (a spectator's once they hold no seat)", schemas.View
        )
    },
    errors=("InvalidRequest", "Forbidden", "NotFound", "Conflict"),
)
def leave(game_id: str, seat: int):
    return services().games.leave(g.token, game_id, seat)


@bp.get("/v1/games/<game_id>")
@operation(
    "getGame",
    tag="games",
    summary="The caller's view (a spectator's view without a seat or a token).",
    security=EITHER,
    parameters=["GameId"],
    query=schemas.SeatQuery,
    responses={200: Answer("the view", schemas.View, examples={"example": "ConcertoView"})},
    errors=("InvalidRequest", *READ_ERRORS),
)
def view(game_id: str, query: dict[str, Any]):
    return services().games.view(g.token, game_id, **query)


@bp.post("/v1/games/<game_id>/moves")
@requires_token
@operation(
    "makeMove",
    tag="games",
    summary="Make a move; answers with the new view.",
    description="""\
`version` is optional. When given and stale, the answer is 409
`stale_version` and nothing changes, except when the same seat's same
move was already accepted at that version: then the answer is the
current view (safe retries). `seat` is needed only by a player holding
several seats that are to move at once. Moves wait until every seat is
taken (409 `game_not_started`).
""",
    parameters=["GameId"],
    body=schemas.MoveRequest,
    body_examples={"example": "ConcertoMoveRequest"},
    responses={
        200: Answer(
            "the mover's view after the move", schemas.View, examples={"example": "ConcertoMoved"}
        )
    },
    errors=(
        "InvalidRequest",
        "PayloadTooLarge",
        "Forbidden",
        "NotFound",
        "Conflict",
        "IllegalMove",
    ),
)
def move(game_id: str, body: dict[str, Any]):
    return services().games.move(g.token, game_id, **body)


@bp.get("/v1/games/<game_id>/events")
@operation(
    "getEvents",
    tag="games",
    summary="Events numbered above `after` that the caller may see, long-polled.",
    description="""\
Waits up to `wait` seconds (capped by the server, 30 by default) for the
first new event and answers at once when one arrives. Pass the answer's
`last` as the next `after`.
""",
    security=EITHER,
    parameters=["GameId"],
    query=schemas.EventsQuery,
    responses={200: Answer("the events", schemas.Events)},
    errors=("InvalidRequest", *READ_ERRORS),
)
def events(game_id: str, query: dict[str, Any]):
    return services().feeds.events(g.token, game_id, **query, client=client_address())


@bp.get("/v1/games/<game_id>/replay")
@operation(
    "getReplay",
    tag="games",
    summary="The public record while playing; everything once finished.",
    description="""\
While the game is not finished: the public events only and `revealed:
null`. Once finished: every event (with its `visible_to`), including
every seat's dealt hands, and `revealed` with the seed and the hands
left at the end; `sha256(revealed.seed) == deal_commitment`.
Concerto adds `par`: each deal's double-dummy bounds per side.
""",
    security=EITHER,
    parameters=["GameId"],
    responses={200: Answer("the replay", schemas.Replay)},
    errors=READ_ERRORS,
)
def replay(game_id: str):
    return services().replays.replay(g.token, game_id)


LINK = {
    "description": 'the next page, `<URL>; rel="next"` (absent on the last page)',
    "schema": {"type": "string"},
}
LINES = {
    "type": "string",
    "description": "JSON Lines: one `Replay` a line (`contentSchema`); a generated client "
    "reads the text and parses each line",
    "contentMediaType": "application/x-ndjson",
    "contentSchema": {"type": "array", "items": {"$ref": "#/components/schemas/Replay"}},
}
"""The archive's body: JSON Schema's own words for a string of encoded content (the lines
parsed are a list of replays); OpenAPI 3.1 has no schema per line."""


@bp.get("/v1/archive")
@operation(
    "getArchive",
    tag="games",
    summary="Finished games' replays in bulk, as JSON Lines (one replay per line).",
    description="""\
The replays of a ladder's games (`ladder`), a tournament's (`tournament`)
or of the games that ended in a period (`since` <= end < `until`; no
`until`: up to now), each line exactly `GET /v1/games/{id}/replay` of a
finished game. Exactly one of `ladder`, `tournament`, `since`. Only
finished games: never a game waiting, played or aborted, and never a
table of a duplicate board that is not over (for anyone, the admin too).
A ladder's and a tournament's games come in game id order, a period's
by end time. Pages: at most `limit` replays (a page may hold fewer, even
none, and still not be the last: a request looks at 500 games at most);
while there is more, the `Link` header names the next page
(`<...&cursor=...>; rel="next"`), and the last page has no `Link`. A game
that ends (or whose board becomes over) after the walk passed its place
is found by a later export. Pages are counted per client address, whatever
the token (`PARLOUR_ARCHIVE_LIMIT`, 30 per `PARLOUR_ARCHIVE_PERIOD`, 60 s;
past it 429 `rate_limited`).
""",
    security=OPEN,
    query=schemas.ArchiveQuery,
    responses={
        200: Answer(
            "one replay per line",
            LINES,
            media="application/x-ndjson",
            headers={"Link": LINK},
        )
    },
    errors=("InvalidRequest", "RateLimited", "NotFound"),
)
def archive(query: dict[str, Any]):
    for name in ("since", "until"):
        if query[name] is not None:
            query[name] = query[name].timestamp()
    page = services().archive.page(**query)
    body = "".join(current_app.json.dumps(schemas.replay.dump(r)) + "\n" for r in page["replays"])
    response = Response(body, mimetype="application/x-ndjson")
    if page["next_cursor"] is not None:
        args = {k: v for k, v in request.args.items() if k != "cursor"}
        args["cursor"] = page["next_cursor"]
        here = request.script_root + request.path  # behind a prefix too
        response.headers["Link"] = f'<{here}?{urlencode(args)}>; rel="next"'
    return response


@bp.get("/v1/games/<game_id>/replay/<int:version>")
@operation(
    "getReplayFrame",
    tag="games",
    summary="A finished game as it stood at one version (a replay frame).",
    description="""\
The spectator's view (`public`) and every seat's own view (`views`,
by seat) at `version` (0 = as dealt, the game's `version` = the end),
and `move`, the move that led there. Rebuilt by the engine from the
opening state and the accepted moves: step through a game with every
hand shown, or "as seat X saw it" (`views[X]`). Only once the game is
finished (409 `game_not_finished` before, so it reveals nothing early).
""",
    security=EITHER,
    parameters=[
        "GameId",
        {
            "name": "version",
            "in": "path",
            "required": True,
            "schema": {"type": "integer", "minimum": 0},
        },
    ],
    responses={200: Answer("the frame", schemas.Frame)},
    errors=(*READ_ERRORS, "Conflict"),
)
def frame(game_id: str, version: int):
    return services().replays.replay_frame(g.token, game_id, version)

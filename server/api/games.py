"""``/v1/games``: list, create, join, leave a seat, view, move, events (long-poll), replay
and its frames."""

from __future__ import annotations

from flask import Blueprint, g, request

from . import schemas
from .context import client_address, load_json, requires_token, services

bp = Blueprint("games", __name__)


@bp.get("/v1/games")
def index():
    query = schemas.games_query.load(request.args)
    return schemas.game_list.dump(services().lobby.list_games(**query))


@bp.post("/v1/games")
@requires_token
def create():
    body = schemas.game_create.load(load_json())
    return schemas.view.dump(services().games.create_game(g.token, **body)), 201


@bp.post("/v1/games/<game_id>/join")
@requires_token
def join(game_id: str):
    body = schemas.join_body.load(load_json())
    return schemas.view.dump(services().games.join(g.token, game_id, **body))


@bp.delete("/v1/games/<game_id>/seats/<int:seat>")
@requires_token
def leave(game_id: str, seat: int):
    return schemas.view.dump(services().games.leave(g.token, game_id, seat))


@bp.get("/v1/games/<game_id>")
def view(game_id: str):
    query = schemas.seat_query.load(request.args)
    return schemas.view.dump(services().games.view(g.token, game_id, **query))


@bp.post("/v1/games/<game_id>/moves")
@requires_token
def move(game_id: str):
    body = schemas.move_body.load(load_json())
    return schemas.view.dump(services().games.move(g.token, game_id, **body))


@bp.get("/v1/games/<game_id>/events")
def events(game_id: str):
    query = schemas.events_query.load(request.args)
    events = services().feeds.events(g.token, game_id, **query, client=client_address())
    return schemas.events.dump(events)


@bp.get("/v1/games/<game_id>/replay")
def replay(game_id: str):
    return schemas.replay.dump(services().replays.replay(g.token, game_id))


@bp.get("/v1/games/<game_id>/replay/<int:version>")
def frame(game_id: str, version: int):
    return schemas.frame.dump(services().replays.replay_frame(g.token, game_id, version))

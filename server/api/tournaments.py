"""``/v1/tournaments``: create, enter, start, and read a tournament and its standings."""

from __future__ import annotations

from flask import Blueprint, g, request

from . import schemas
from .context import load_json, requires_token, services

bp = Blueprint("tournaments", __name__)


@bp.get("/v1/tournaments")
def index():
    query = schemas.tournaments_query.load(request.args)
    return schemas.tournament_list.dump(services().tournaments.list_tournaments(**query))


@bp.post("/v1/tournaments")
@requires_token
def create():
    body = schemas.tournament_create.load(load_json())
    return schemas.tournament.dump(services().tournaments.create(g.token, **body)), 201


@bp.post("/v1/tournaments/<tournament_id>/entries")
@requires_token
def enter(tournament_id: str):
    body = schemas.entry_create.load(load_json())
    return schemas.entry_created.dump(
        services().tournaments.enter(g.token, tournament_id, **body)
    ), 201


@bp.post("/v1/tournaments/<tournament_id>/start")
@requires_token
def start(tournament_id: str):
    schemas.empty.load(load_json())
    return schemas.tournament.dump(services().tournaments.start(g.token, tournament_id))


@bp.get("/v1/tournaments/<tournament_id>")
def show(tournament_id: str):
    return schemas.tournament.dump(services().tournaments.show(tournament_id))


@bp.get("/v1/tournaments/<tournament_id>/standings")
def standings(tournament_id: str):
    return schemas.standings.dump(services().tournaments.standings(tournament_id))

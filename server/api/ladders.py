"""``/v1/ladders``: define (admin), list and show ladders, join and leave, the leaderboard,
and one entry's health and history (docs/ladder.md)."""

from __future__ import annotations

from flask import Blueprint, g, request
from marshmallow import EXCLUDE, Schema, fields, validate

from server.services.names import MAX_TITLE_LENGTH

from . import schemas
from .context import load_json, requires_token, services

bp = Blueprint("ladders", __name__)


class LadderCreate(Schema):
    game = fields.String(required=True, validate=validate.Length(min=1, max=64))
    options = fields.Dict(keys=fields.String(), load_default=None)
    table_size = fields.Integer(strict=True, validate=validate.Range(min=2, max=8))
    side_size = fields.Integer(strict=True, validate=validate.Range(min=1, max=4))
    duplicate = schemas.Boolean()
    name = schemas.Name(max_length=MAX_TITLE_LENGTH)
    clock = fields.Nested(schemas.Clock)
    timeout_policy = fields.Nested(schemas.TimeoutPolicy)
    max_games = fields.Integer(strict=True, validate=validate.Range(min=1, max=64))
    provisional_games = fields.Integer(strict=True, validate=validate.Range(min=0, max=1000))
    pause_after = fields.Integer(strict=True, validate=validate.Range(min=1, max=100))
    pause_seconds = fields.Float(validate=validate.Range(min=0, max=86400 * 7))
    seen_seconds = fields.Float(validate=validate.Range(min=0.1, max=3600))
    rematch_seconds = fields.Float(validate=validate.Range(min=0, max=3600))
    sides = fields.String(validate=validate.OneOf(["solo", "fixed"]))
    validation = schemas.Boolean()


class EntryQuery(Schema):
    """The player to take out: the caller itself when left out (the admin names one)."""

    class Meta:
        unknown = EXCLUDE

    player_id = fields.String(validate=validate.Length(min=1, max=64), load_default=None)


class EntryBody(Schema):
    """The player to enter (as :class:`EntryQuery`) and, on a ladder of fixed pairs, its
    partner (the pair plays once the partner joins naming it back)."""

    player_id = fields.String(validate=validate.Length(min=1, max=64), load_default=None)
    partner = fields.String(validate=validate.Length(min=1, max=64), load_default=None)
    max_games = fields.Integer(
        strict=True, validate=validate.Range(min=1, max=64), load_default=None, allow_none=True
    )


ladder_create = LadderCreate()
entry_body = EntryBody()
entry_query = EntryQuery()


@bp.get("/v1/ladders")
def index():
    """
    ---
    get:
      operationId: listLadders
      tags:
      - ladders
      summary: Every ladder, oldest first, with its settings.
      security:
      - {}
      - bearer: []
      responses:
        '200':
          description: the ladders
          content:
            application/json:
              schema:
                type: object
                additionalProperties: false
                required:
                - ladders
                properties:
                  ladders:
                    type: array
                    items:
                      $ref: '#/components/schemas/LadderSummary'
    """
    return services().ladders.list_ladders()


@bp.post("/v1/ladders")
@requires_token
def create():
    """
    ---
    post:
      operationId: createLadder
      tags:
      - ladders
      summary: Define a ladder (admin only).
      description: |
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
          provisional.
        * `max_games`: each entry's games at once (house bots have no cap:
          one entry holds at most its own `max_games` of theirs).
        * `validation` (default true): a new entry (joining again after leaving
          is one; so is one whose callback changed) first plays one unrated
          validation game against the ladder's house bots; it is matched only
          once that game ends with no timeout and no illegal move of its own.
      requestBody:
        required: true
        content:
          application/json:
            schema:
              $ref: '#/components/schemas/LadderCreate'
      responses:
        '201':
          description: the new ladder
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/Ladder'
        '400':
          $ref: '#/components/responses/InvalidRequest'
        '403':
          $ref: '#/components/responses/Forbidden'
    """
    body = ladder_create.load(load_json())
    return services().ladders.create(g.token, **body), 201


@bp.get("/v1/ladders/<ladder_id>")
def show(ladder_id: str):
    """
    ---
    parameters:
    - LadderId
    get:
      operationId: getLadder
      tags:
      - ladders
      summary: The ladder, and each entry's status and health.
      security:
      - {}
      - bearer: []
      responses:
        '200':
          description: the ladder
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/Ladder'
        '404':
          $ref: '#/components/responses/NotFound'
    """
    return services().ladders.show(ladder_id)


@bp.post("/v1/ladders/<ladder_id>/entries")
@requires_token
def join(ladder_id: str):
    """
    ---
    parameters:
    - LadderId
    post:
      operationId: joinLadder
      tags:
      - ladders
      summary: Join the ladder (a player only itself; the admin names `player_id`).
      description: |
        Joining is the player's consent to be seated in the ladder's games
        (each game records it in `meta.tournament.consent`). Joining again is
        harmless. On a ladder of fixed pairs (`sides: fixed`) name the `partner`:
        the pair is held until the partner makes the same call naming this player.
      requestBody:
        required: false
        content:
          application/json:
            schema:
              $ref: '#/components/schemas/LadderEntryBody'
      responses:
        '201':
          description: the entry
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/LadderEntry'
        '400':
          $ref: '#/components/responses/InvalidRequest'
        '403':
          $ref: '#/components/responses/Forbidden'
        '404':
          $ref: '#/components/responses/NotFound'
    """
    body = entry_body.load(load_json())
    joined = services().ladders.join(
        g.token, ladder_id, body["player_id"], body["partner"], max_games=body["max_games"]
    )
    return joined, 201


@bp.delete("/v1/ladders/<ladder_id>/entries")
@requires_token
def leave(ladder_id: str):
    """
    ---
    parameters:
    - LadderId
    delete:
      operationId: leaveLadder
      tags:
      - ladders
      summary: Leave the ladder (games in progress go on; no new ones are made).
      description: |
        The player's games under way go on while it is seen waiting (a bot that
        leaves as its last game begins plays it out); once it has not been seen
        for the ladder's `seen_seconds`, the scheduler gives each of its turns
        there the clock's timeout policy at once. Joining again is a new entry:
        it plays a validation game again where the ladder validates.
      parameters:
      - name: player_id
        in: query
        description: the player to take out (admin only; players leave for themselves)
        schema:
          type: string
      responses:
        '200':
          description: left
          content:
            application/json:
              schema:
                type: object
                additionalProperties: false
                required:
                - ladder_id
                - player_id
                - left
                properties:
                  ladder_id:
                    type: string
                  player_id:
                    type: string
                  left:
                    type: boolean
                  partner_left:
                    type: string
                    description: on a ladder of fixed pairs, the partner that left too
        '400':
          $ref: '#/components/responses/InvalidRequest'
        '403':
          $ref: '#/components/responses/Forbidden'
        '404':
          $ref: '#/components/responses/NotFound'
    """
    query = entry_query.load(request.args)
    return services().ladders.leave(g.token, ladder_id, query["player_id"])


@bp.get("/v1/ladders/<ladder_id>/entries/<player_id>")
def entry(ladder_id: str, player_id: str):
    """
    ---
    parameters:
    - LadderId
    - name: player_id
      in: path
      required: true
      schema:
        type: string
    get:
      operationId: getLadderEntry
      tags:
      - ladders
      summary: One entry's status, health, rating and history (newest first, replay links).
      security:
      - {}
      - bearer: []
      responses:
        '200':
          description: the entry
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/LadderEntry'
        '404':
          $ref: '#/components/responses/NotFound'
    """
    return services().ladders.entry(ladder_id, player_id)


@bp.get("/v1/ladders/<ladder_id>/leaderboard")
def leaderboard(ladder_id: str):
    """
    ---
    parameters:
    - LadderId
    get:
      operationId: getLadderLeaderboard
      tags:
      - ladders
      summary: Everyone rated on the ladder, best first by ordinal (mu - 3 sigma).
      security:
      - {}
      - bearer: []
      responses:
        '200':
          description: the leaderboard
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/LadderLeaderboard'
        '404':
          $ref: '#/components/responses/NotFound'
    """
    return services().ladders.leaderboard(ladder_id)

"""``/healthz`` (ready when Redis answers) and ``/v1/_ping_redis`` (one round trip).

The second exists for the benchmark: it is the cheapest request that still
goes through the whole stack (gunicorn, Flask, the error handler, one Redis
call), so a move's throughput can be read as a fraction of this ceiling.
``?round_trips=2&reply_bytes=N`` makes it wait on Redis twice, one after the
other, and answer N bytes of padding: the floor under a move, which by docs/architecture.md
must read, then compare-and-set, and answers with a view.
"""

from __future__ import annotations

from flask import Blueprint, request

from . import schemas
from .context import services

bp = Blueprint("health", __name__)


@bp.get("/healthz")
def healthz():
    """
    ---
    get:
      operationId: getHealth
      tags:
      - system
      summary: Ready when Redis answers.
      security:
      - {}
      responses:
        '200':
          description: ready
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/Status'
        '503':
          $ref: '#/components/responses/Unavailable'
    """
    return schemas.status.dump(services().health.ping())


@bp.get("/v1/_ping_redis")
def ping_redis():
    """
    ---
    get:
      operationId: pingRedis
      tags:
      - system
      summary: One Redis round trip (the benchmark's ceiling).
      description: |
        `round_trips=2&reply_bytes=N` waits on Redis twice, one trip after the
        other, and answers N bytes of `padding`: the floor under a move, which reads,
        compares-and-sets (docs/architecture.md) and answers with a view.
      security:
      - {}
      parameters:
      - name: round_trips
        in: query
        schema:
          type: integer
          minimum: 1
          maximum: 4
          default: 1
      - name: reply_bytes
        in: query
        schema:
          type: integer
          minimum: 0
          maximum: 65536
          default: 0
      responses:
        '200':
          description: Redis answered
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/Status'
        '400':
          $ref: '#/components/responses/InvalidRequest'
        '503':
          $ref: '#/components/responses/Unavailable'
    """
    query = schemas.ping_query.load(request.args)
    return schemas.status.dump(services().health.ping(**query))

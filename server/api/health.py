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
    return schemas.status.dump(services().health.ping())


@bp.get("/v1/_ping_redis")
def ping_redis():
    query = schemas.ping_query.load(request.args)
    return schemas.status.dump(services().health.ping(**query))

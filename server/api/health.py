"""``/healthz`` (ready when Redis answers) and ``/v1/_ping_redis`` (one round trip).

The second exists for the benchmark: it is the cheapest request that still
goes through the whole stack (gunicorn, Flask, the error handler, one Redis
call), so a move's throughput can be read as a fraction of this ceiling.
``?round_trips=2&reply_bytes=N`` makes it wait on Redis twice, one after the
other, and answer N bytes of padding: the floor under a move, which by docs/architecture.md
must read, then compare-and-set, and answers with a view.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint

from . import schemas
from .context import services
from .operations import OPEN, Answer, operation

bp = Blueprint("health", __name__)


@bp.get("/healthz")
@operation(
    "getHealth",
    tag="system",
    summary="Ready when Redis answers.",
    security=OPEN,
    responses={200: Answer("ready", schemas.Status)},
    errors=("Unavailable",),
)
def healthz():
    return services().health.ping()


@bp.get("/v1/_ping_redis")
@operation(
    "pingRedis",
    tag="system",
    summary="One Redis round trip (the benchmark's ceiling).",
    description="""\
`round_trips=2&reply_bytes=N` waits on Redis twice, one trip after the
other, and answers N bytes of `padding`: the floor under a move, which reads,
compares-and-sets (docs/architecture.md) and answers with a view.
""",
    security=OPEN,
    query=schemas.PingQuery,
    responses={200: Answer("Redis answered", schemas.Status)},
    errors=("InvalidRequest", "Unavailable"),
)
def ping_redis(query: dict[str, Any]):
    return services().health.ping(**query)

"""``GET /metrics``: the whole deployment's figures in the Prometheus text format.

What is counted (``parlour_`` prefix): HTTP requests by method, route and status
(the route's pattern, never the path; unknown methods and paths fold into ``other``
and ``unmatched``, so the series stay bounded);
their latency as a histogram per route; errors by status and API code; accepted
moves; and, as gauges, long-polls waiting, games live, tournaments running, move
clocks pending and overdue, and the API workers reporting.

**Why not prometheus_client.** Its default registry is per process: behind
gunicorn each scrape would see one worker's counts, and on several hosts one
host's. Its multiprocess mode fixes the first with a shared folder of mmap files
per host, but needs the folder wiped at every start and a hook for dead workers,
and still counts one host. Parlour's API is stateless by design (docs/architecture.md), so
the counts go where the rest of its state goes: each worker counts in memory (a
few dict updates per request) and adds its deltas to one Redis hash about once a
second (:mod:`server.services.metrics`). Any worker on any host then answers for
the whole fleet, counters survive worker restarts, and Redis sees one small batch
per worker per second. The price: a worker killed with SIGKILL loses at most
its last second of counts; a graceful stop flushes them.

The flush runs in a background thread (a greenlet under gevent) that
``parlour serve`` starts in each worker (:func:`start_flusher`, a gunicorn hook);
``GET /metrics`` also flushes its own worker first, so a single-process server
(tests, ``flask run``) needs no thread at all.
"""

from __future__ import annotations

import bisect
import contextlib
import os
import socket
import threading
import time

import orjson
from flask import Blueprint, Flask, Response, current_app, g, request

from server.services.metrics import Metrics, Snapshot

from .context import services
from .operations import OPEN, Answer, operation

bp = Blueprint("metrics", __name__)

BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
"""Latency histogram bounds in seconds (long-polls land in the top buckets)."""

LONG_POLLS = frozenset({"me.turns", "games.events"})
"""The endpoints that wait (``?wait=``): their in-flight requests are the waiting bots."""

METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
"""Methods counted under their own name; any other is counted as ``other``, so that a
client cannot create series at will (the route is the rule's pattern, or ``unmatched``)."""

MOVE_ENDPOINT = "games.move"
FLUSH_EVERY = 1.0
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"

HELP = {
    "http_requests_total": ("counter", "HTTP requests answered, by method, route and status."),
    "http_request_duration_seconds": (
        "histogram",
        "Time from the request's start to its response, by method and route.",
    ),
    "http_errors_total": ("counter", "Error responses, by status and API error code."),
    "moves_total": ("counter", "Moves accepted through the API (200 on POST .../moves)."),
    "long_polls_waiting": (
        "gauge",
        "Requests waiting in a long-poll (me/turns, events) across live workers.",
    ),
    "api_workers": ("gauge", "API worker processes that reported in the last interval."),
    "games_live": ("gauge", "Games waiting for players or being played."),
    "tournaments_running": ("gauge", "Tournaments the schedulers are driving."),
    "clocks_pending": ("gauge", "Clocked games with a move deadline running."),
    "clocks_overdue": (
        "gauge",
        "Clocked games whose deadline passed over 5 s ago: no scheduler is keeping up.",
    ),
}


class Counts(dict[str, float]):
    """Counts by series, like a ``Counter`` but holding floats too (the latency sums):
    a series not counted yet is 0, and :meth:`add` adds counts rather than replacing."""

    def __missing__(self, key: str) -> float:
        return 0

    def add(self, other: dict[str, float]) -> None:
        for key, value in other.items():
            self[key] += value


def _label(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


class Recorder:
    """One worker's counts since its last flush, and its long-polls in progress.

    Series are named ``family|suffix|labels`` (e.g. ``moves_total||``), the
    field names of the Redis hash; :func:`render` turns them into the text format.
    """

    def __init__(self, stale_after: float) -> None:
        self.pending = Counts()
        self.waiting = 0
        self.stale_after = stale_after
        self.worker = f"{socket.gethostname()}:{os.getpid()}"
        self._lock = threading.Lock()
        self._names: dict[tuple[str, str, int], tuple[str, list[str], str, str]] = {}
        self._flusher: threading.Thread | None = None

    def _series(self, method: str, route: str, status: int):
        key = (method, route, status)
        names = self._names.get(key)
        if names is None:
            labels = f'method="{_label(method)}",route="{_label(route)}"'
            hist = "http_request_duration_seconds"
            names = (
                f'http_requests_total||{labels},status="{status}"',
                [f'{hist}|_bucket|{labels},le="{le}"' for le in (*BUCKETS, "+Inf")],
                f"{hist}|_sum|{labels}",
                f"{hist}|_count|{labels}",
            )
            self._names[key] = names
        return names

    def observe(
        self,
        method: str,
        route: str,
        status: int,
        seconds: float,
        error_code: str | None,
        move: bool,
    ) -> None:
        """Count one answered request."""
        total, buckets, sum_, count = self._series(method, route, status)
        first = bisect.bisect_left(BUCKETS, seconds)
        with self._lock:
            pending = self.pending
            pending[total] += 1
            for name in buckets[first:]:
                pending[name] += 1
            pending[sum_] += seconds
            pending[count] += 1
            if error_code is not None:
                pending[f'http_errors_total||status="{status}",code="{_label(error_code)}"'] += 1
            if move:
                pending["moves_total||"] += 1

    def flush(self, metrics: Metrics) -> None:
        """Add the counts so far to Redis (kept for the next try if Redis is away)."""
        with self._lock:
            deltas, self.pending = self.pending, Counts()
            waiting = self.waiting
        try:
            metrics.flush(deltas, self.worker, waiting, time.time())
        except Exception:
            with self._lock:
                self.pending.add(deltas)
            raise

    def start_flusher(self, metrics: Metrics, every: float = FLUSH_EVERY) -> None:
        """Flush every ``every`` seconds in a daemon thread (a greenlet under gevent)."""
        if self._flusher is not None:
            return

        def loop() -> None:
            while True:
                time.sleep(every)
                with contextlib.suppress(Exception):  # Redis away: the counts wait
                    self.flush(metrics)

        self._flusher = threading.Thread(target=loop, name="parlour-metrics", daemon=True)
        self._flusher.start()


def recorder(app: Flask | None = None) -> Recorder:
    return (app or current_app).extensions["parlour_metrics"]


# -- the request hooks ------------------------------------------------------------------
def _started() -> None:
    g.metrics_start = time.perf_counter()
    if request.endpoint in LONG_POLLS:
        try:
            waits = float(request.args.get("wait", 0)) > 0
        except ValueError:
            waits = False
        if waits:
            rec = recorder()
            with rec._lock:
                rec.waiting += 1
            g.metrics_waiting = True


def _answered(response: Response) -> Response:
    start = g.get("metrics_start")
    if start is None:  # a before_request hook refused the request before ours ran
        start = time.perf_counter()
    status = response.status_code
    code = None
    if status >= 400 and response.is_json:
        with contextlib.suppress(Exception):
            code = orjson.loads(response.get_data())["error"]["code"]
    rule = request.url_rule
    recorder().observe(
        request.method if request.method in METHODS else "other",
        rule.rule if rule is not None else "unmatched",
        status,
        time.perf_counter() - start,
        code,
        move=status == 200 and request.endpoint == MOVE_ENDPOINT,
    )
    return response


def _finished(exc: BaseException | None) -> None:
    if g.pop("metrics_waiting", False):
        rec = recorder()
        with rec._lock:
            rec.waiting -= 1


def install(app: Flask) -> None:
    """Register the hooks and ``GET /metrics`` on ``app`` (called by ``create_app``)."""
    app.extensions["parlour_metrics"] = Recorder(stale_after=app.config["MAX_WAIT"] + 15.0)
    app.before_request_funcs.setdefault(None, []).insert(0, _started)  # first: time it all
    app.after_request(_answered)
    app.teardown_request(_finished)
    app.register_blueprint(bp)


def start_flusher(app: Flask) -> None:
    """Start the worker's background flush (``parlour serve`` calls this in each worker)."""
    recorder(app).start_flusher(app.extensions["parlour"].metrics)


def flush(app: Flask) -> None:
    """Flush the worker's counts now (``parlour serve`` calls this as a worker exits)."""
    with contextlib.suppress(Exception):
        recorder(app).flush(app.extensions["parlour"].metrics)


# -- the endpoint -----------------------------------------------------------------------
def render(snap: Snapshot) -> str:
    """The Prometheus text format (version 0.0.4) of a snapshot."""
    series: dict[str, list[tuple[tuple, str]]] = {}
    for name, value in snap.counters.items():
        family, suffix, labels = name.split("|", 2)
        le = ""
        base = labels
        if suffix == "_bucket":
            base, _, le = labels.rpartition(",le=")
            le = le.strip('"')
        order = (
            base,
            {"_bucket": 0, "_sum": 1, "_count": 2}.get(suffix, 0),
            float(le) if le else 0.0,
        )
        shown = int(value) if suffix != "_sum" and value == int(value) else value
        line = (
            f"parlour_{family}{suffix}{{{labels}}} {shown}"
            if labels
            else f"parlour_{family}{suffix} {shown}"
        )
        series.setdefault(family, []).append((order, line))
    hist = "http_request_duration_seconds"
    seen = {
        line.split("{", 1)[1].rpartition(",le=")[0]: None
        for _, line in series.get(hist, [])
        if "_bucket{" in line
    }
    have = {line.split(" ")[0] for _, line in series.get(hist, [])}
    for base in seen:
        for bound in (*BUCKETS, "+Inf"):
            name = f'parlour_{hist}_bucket{{{base},le="{bound}"}}'
            if name not in have:  # an empty bucket: no request was that fast
                order = (base, 0, float(bound))
                series[hist].append((order, f"{name} 0"))
    gauges = {
        "long_polls_waiting": snap.waiting,
        "api_workers": snap.workers,
        "games_live": snap.games_live,
        "tournaments_running": snap.tournaments_running,
        "clocks_pending": snap.clocks_pending,
        "clocks_overdue": snap.clocks_overdue,
    }
    for family, value in gauges.items():
        series[family] = [((), f"parlour_{family} {value}")]
    series.setdefault("moves_total", [((), "parlour_moves_total 0")])
    out = []
    for family in HELP:
        if family not in series:
            continue
        kind, text = HELP[family]
        out.append(f"# HELP parlour_{family} {text}")
        out.append(f"# TYPE parlour_{family} {kind}")
        out += [line for _, line in sorted(series[family], key=lambda x: x[0])]
    return "\n".join(out) + "\n"


@bp.get("/metrics")
@operation(
    "getMetrics",
    tag="system",
    summary="The whole deployment's figures in the Prometheus text format.",
    description="""\
Counters of every API worker on every host, added up in Redis about once a
second: `parlour_http_requests_total{method,route,status}`,
`parlour_http_request_duration_seconds` (histogram per method and route),
`parlour_http_errors_total{status,code}`, `parlour_moves_total`; gauges:
`parlour_long_polls_waiting`, `parlour_api_workers`, `parlour_games_live`,
`parlour_tournaments_running`, `parlour_clocks_pending`, `parlour_clocks_overdue`.
Scrape any one instance (or the load balancer): each answers for the fleet.
""",
    security=OPEN,
    responses={
        200: Answer(
            "the metrics (text format version 0.0.4)", {"type": "string"}, media="text/plain"
        )
    },
    errors=("Unavailable",),
)
def metrics():
    rec = recorder()
    metrics = services().metrics
    rec.flush(metrics)
    snap = metrics.read(time.time(), rec.stale_after)
    return Response(render(snap), mimetype=None, content_type=CONTENT_TYPE)

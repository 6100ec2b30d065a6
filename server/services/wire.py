"""JSON and server-sent events on the wire: one encoder for every stream and response,
and one form for every time in them (:func:`iso`).

Why escape more than JSON asks: orjson writes U+0085 (NEXT LINE), U+2028 (LINE
SEPARATOR) and U+2029 (PARAGRAPH SEPARATOR) as themselves, which is valid JSON,
but many readers treat them as line ends: Python's ``str.splitlines`` (and so
``requests.iter_lines``), some log shippers, JavaScript before ES2019 inside a
``<script>``. A player's name holding one then cut a stream's JSON line in two,
and the SDK's runner died on the half. Every JSON the server writes,
streamed or not, therefore carries those three as ``\\u0085``, ``\\u2028`` and
``\\u2029``: still the same JSON, and now ASCII-safe for any line splitter. The
characters JSON itself must escape (below U+0020, so CR and LF) orjson already
escapes, so a JSON text never holds a raw line end.

An SSE message (WHATWG HTML, "server-sent events") is fields, one per line, ended
by a blank line; a line ends only at CR, LF or CRLF. :func:`message` builds one and
makes sure no field value can hold a line end: a ``data`` value with one (never a
JSON text) goes out as several ``data`` lines, which a reader joins with LF.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

import orjson

from server.services.errors import InvalidRequest

LINE_SEPARATORS = {
    "\u0085": b"\\u0085",
    "\u2028": b"\\u2028",
    "\u2029": b"\\u2029",
}
"""The characters JSON allows raw that line splitters break on, and how they are written."""

_RAW = [(char.encode(), escaped) for char, escaped in LINE_SEPARATORS.items()]
_LINE_END = re.compile(rb"\r\n|\r|\n")


def escape(text: bytes) -> bytes:
    """``text`` (UTF-8 JSON) with U+0085, U+2028 and U+2029 written as JSON escapes.

    Safe on the bytes: in UTF-8 those three byte sequences are those characters
    only, and outside strings a JSON text is ASCII.

    >>> escape('{"name":"a\\u2028b"}'.encode())
    b'{"name":"a\\\\u2028b"}'
    """
    for raw, escaped in _RAW:
        if raw in text:
            text = text.replace(raw, escaped)
    return text


def dumps(obj: Any, option: int | None = None) -> bytes:
    """``obj`` as JSON bytes (orjson), with the line separators escaped (:func:`escape`).

    >>> dumps({"name": "v\\x85isitor"})
    b'{"name":"v\\\\u0085isitor"}'
    """
    return escape(orjson.dumps(obj, option=option))


def message(data: bytes, *, event: str | None = None, id: str | int | None = None) -> bytes:
    """One SSE message: optional ``event`` and ``id`` fields, then ``data``, then a blank line.

    ``data`` is JSON from :func:`dumps` (now, or at a commit, as a pushed turn is), so
    its line separators are escaped already: it is not escaped twice on the push path.
    A raw line end in it (never in JSON) starts another ``data`` line rather than
    ending the field.

    >>> message(b'{"a":1}', event="turns")
    b'event: turns\\ndata: {"a":1}\\n\\n'
    >>> message(b"one\\rtwo", id=3)
    b'id: 3\\ndata: one\\ndata: two\\n\\n'

    Raises:
        ValueError: ``event`` or ``id`` holds a line end (they are the server's own words).
    """
    head = b""
    for name, value in (("event", event), ("id", id)):
        if value is None:
            continue
        text = str(value).encode()
        if _LINE_END.search(text):
            raise ValueError(f"an SSE {name} cannot hold a line end: {value!r}")
        head += name.encode() + b": " + text + b"\n"
    lines = _LINE_END.split(data)
    return head + b"".join(b"data: " + line + b"\n" for line in lines) + b"\n"


def iso(epoch: float | None) -> str | None:
    """An epoch time as ISO-8601 UTC with milliseconds (None stays None).

    >>> iso(0.25)
    '1970-01-01T00:00:00.250+00:00'
    """
    if epoch is None:
        return None
    return datetime.fromtimestamp(epoch, UTC).isoformat(timespec="milliseconds")


def cursor(at: float, key: str) -> str:
    """An opaque page cursor: the sort key of the last item shown (a time, an id).

    >>> cursor(1.5, "ab")
    '1.5_ab'
    """
    return f"{at!r}_{key}"


def cursor_key(cursor: str | None) -> tuple[float, str] | None:
    """The sort key a cursor stands for (None: from the start).

    Raises:
        InvalidRequest: not a cursor this server gave.
    """
    if cursor is None:
        return None
    at, _, key = cursor.partition("_")
    try:
        value = float(at)
    except ValueError:
        value = float("nan")
    if not key or value != value:
        raise InvalidRequest("not a cursor from this list", {"cursor": [cursor[:40]]})
    return value, key

"""Origins an operator lists in a setting, checked where the setting is read.

Plain standard library, so that ``parlour serve`` checks them before it starts
anything (it must not import the app: gevent patches the workers first), and the
app checks them again where it reads them (:mod:`server.api.headers`).
"""

from __future__ import annotations

import re

_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
_ORIGIN = re.compile(
    rf"(?i:https?)://(?:(?:{_LABEL}\.)*{_LABEL}|\[[0-9A-Fa-f:.]+\])(?::(?P<port>[0-9]{{1,5}}))?"
)
"""``scheme://host[:port]``: a DNS name, an IPv4 address or a bracketed IPv6 one."""


def parse_frame_ancestors(value: str | None) -> tuple[str, ...]:
    """The origins allowed to frame the pages, checked; none when ``value`` is blank.

    >>> parse_frame_ancestors(" https://cards.example  http://127.0.0.1:9000/ ")
    ('https://cards.example', 'http://127.0.0.1:9000')
    >>> parse_frame_ancestors(None)
    ()

    Raises:
        ValueError: an entry is not an ``http``/``https`` origin (a path, a query, a
            wildcard, a keyword such as ``'self'``, a comma), named in the message.
    """
    origins = []
    for item in (value or "").split():
        origin = item.removesuffix("/")
        found = _ORIGIN.fullmatch(origin)
        if found is None or not 0 < int(found["port"] or 443) < 65536:
            raise ValueError(
                f"PARLOUR_FRAME_ANCESTORS: {item!r} is not an origin; list origins such as "
                "https://cards.example or http://127.0.0.1:9000 (scheme://host[:port], "
                "separated by spaces)"
            )
        origins.append(origin)
    return tuple(origins)

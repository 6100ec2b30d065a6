"""Redis replies as Python values.

The store's clients never decode responses (``connect`` leaves
``decode_responses`` off), so every reply holds bytes; redis-py's annotations
allow str as well, so the few helpers here name what the store relies on.
"""

from __future__ import annotations

from typing import Any

Fields = dict[Any, Any]
"""A hash's fields for ``HSET ... mapping=``: names to encodable values."""


def text(value: bytes | str) -> str:
    """A reply's bytes as text (UTF-8); text passes unchanged.

    >>> text(b"abc"), text("abc")
    ('abc', 'abc')
    """
    return value.decode() if isinstance(value, bytes) else value

"""Which invitations a bot accepts (docs/api.md#consent-and-invitations): the runner's
:class:`AcceptPolicy`, ``parlour-bot run --accept-invitations``."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class AcceptPolicy:
    """Which invitations the runner accepts: ``none``, ``anyone`` or ``from:<a>,<b>``.

    >>> AcceptPolicy.parse("from:alice,bob").accepts({"from": {"id": "9f", "name": "bob"}})
    True
    >>> AcceptPolicy.parse("none").accepts({"from": {"id": "9f", "name": "bob"}})
    False
    """

    mode: str = "none"
    inviters: frozenset[str] = frozenset()

    @classmethod
    def parse(cls, text: str) -> AcceptPolicy:
        """``none`` | ``anyone`` | ``from:alice,bob`` (ids or names, comma-separated).

        Raises:
            ValueError: another shape.
        """
        text = text.strip()
        if text in ("none", "anyone"):
            return cls(text)
        if text.startswith("from:"):
            names = frozenset(n.strip() for n in text[5:].split(",") if n.strip())
            if names:
                return cls("from", names)
        raise ValueError(f"expected none, anyone or from:<id or name>,...; got {text!r}")

    def accepts(self, invitation: Mapping[str, Any]) -> bool:
        """Whether to accept this invitation (by who sent it)."""
        if self.mode != "from":
            return self.mode == "anyone"
        sender = invitation.get("from") or {}
        return bool({sender.get("id"), sender.get("name")} & self.inviters)

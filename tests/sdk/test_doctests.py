"""The examples in the SDK's and the bots' docstrings run (pytest collects doctests
only under tests/ and server/games, so these modules are run from here)."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "client_sdk.errors", "client_sdk.client", "client_sdk.bot",
    "client_sdk.types", "client_sdk.endpoint", "client_sdk.accept", "client_sdk.decider",
    "client_sdk.outcomes", "client_sdk.leaderboard",
    "bots._concerto", "bots.pinochle",
]  # fmt: skip


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0

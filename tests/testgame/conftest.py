"""``hicard``: the test game registered in ``REGISTRY`` for the test that asks for it,
and taken out again after it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from server.games import REGISTRY, Game
from tests.testgame.hicard import GAME


@pytest.fixture
def hicard(monkeypatch: pytest.MonkeyPatch) -> Iterator[Game]:
    monkeypatch.setitem(REGISTRY, GAME.id, GAME)
    yield GAME

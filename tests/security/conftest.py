"""Fixtures of the security tests: the API over the test client, streams that end fast."""

from __future__ import annotations

from typing import Any

import pytest

from tests.api.helpers import Api


@pytest.fixture
def app_config(app_config: dict[str, Any]) -> dict[str, Any]:
    """Streams end at once after their first page: a scan reads them whole, fast."""
    return app_config | {"SSE_HEARTBEAT": 0.001, "SSE_MAX_SECONDS": 0.001}


@pytest.fixture
def api(client) -> Api:
    return Api(client=client)

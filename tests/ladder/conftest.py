"""Fixtures for the ladder tests: the use cases over the session's real Redis."""

from __future__ import annotations

import pytest

from server.services.bundle import Services
from server.store import connect
from tests.conftest import ADMIN_TOKEN


@pytest.fixture
def service(redis_client, redis_server) -> Services:
    return Services(connect(redis_server.url), admin_token=ADMIN_TOKEN)


@pytest.fixture
def service_for_live(redis_server, live_server) -> Services:
    """The use cases over the live server's Redis (for a scheduler beside it)."""
    return Services(connect(redis_server.url), admin_token=ADMIN_TOKEN)

"""Fixtures for the scheduler tests that run on Redis (the pairing tests need none).

* ``service`` / ``tours``: the use cases over the session's real Redis (clean per test).
* Error logs fail a test (``no_error_logs`` in ``tests/conftest.py``): the runner
  logs and carries on when a tournament's pass fails, so a silent bug would
  otherwise pass unnoticed.
"""

from __future__ import annotations

import pytest

from server.services.bundle import Services
from server.services.tournaments import Tournaments
from server.store import connect
from tests.conftest import ADMIN_TOKEN


@pytest.fixture
def service(redis_client, redis_server) -> Services:
    return Services(connect(redis_server.url), admin_token=ADMIN_TOKEN)


@pytest.fixture
def tours(service: Services) -> Tournaments:
    return service.tournaments

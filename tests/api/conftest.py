"""API tests fail on any error logged by the server (python-chess ``RaiseLogHandler``)."""

from __future__ import annotations

import logging

import pytest

from tests.api.helpers import Api


@pytest.fixture(autouse=True)
def no_error_logs(caplog: pytest.LogCaptureFixture):
    yield
    errors = [
        r
        for r in caplog.get_records("call")
        if r.levelno >= logging.ERROR and r.name.startswith(("server", "flask", "app"))
    ]
    assert not errors, [r.getMessage() for r in errors]


@pytest.fixture
def api(client) -> Api:
    return Api(client=client)


@pytest.fixture
def live_api(live_server) -> Api:
    return Api(base_url=live_server.url)

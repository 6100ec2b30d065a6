"""Fixtures for the API tests: the API helper over the test client or a live socket.

Any error the server logs fails a test (``no_error_logs`` in ``tests/conftest.py``).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.api.helpers import Api


@pytest.fixture
def api(client) -> Api:
    return Api(client=client)


@pytest.fixture
def live_api(live_server) -> Iterator[Api]:
    api = Api(base_url=live_server.url)
    yield api
    assert api.session is not None
    api.session.close()  # its keep-alive connections, each held by a server thread

"""A runner asked to stop says nothing of the server going away: Ctrl-C on ``parlour
serve`` stops the bot pool's runners and the server together, and their last long-polls
failing is no outage to report (it printed one warning per identity)."""

from __future__ import annotations

import logging

import pytest

from client_sdk import Client
from client_sdk.errors import ConnectionError as ServerGone
from client_sdk.runner import Runner
from tests.sdk.test_runner_frames import FirstMove


def test_a_stopping_runner_reports_no_outage_and_a_running_one_does(
    caplog: pytest.LogCaptureFixture,
) -> None:
    client = Client("http://127.0.0.1:9", "t", max_retries=0)  # nothing listens there
    stopping = Runner(FirstMove(), client, wait=0.5, handle_signals=False)
    running = Runner(FirstMove(), client, wait=0.5, handle_signals=False, max_outage_pause=0.01)
    stopping.stop()
    with caplog.at_level(logging.WARNING):
        stopping._pause(ServerGone("connection refused"))
        assert stopping.stats.outages == 0 and "server unavailable" not in caplog.text
        running._pause(ServerGone("connection refused"))
    assert running.stats.outages == 1 and "server unavailable" in caplog.text

"""The request line and header limits are gunicorn's, set explicitly and documented.

Gunicorn answers past them with its own HTML page (it has no hook for a JSON
one), so what is promised is the limits themselves: the values ``parlour serve``
passes must be the ones docs/operations.md states, and gunicorn must accept them.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from gunicorn.config import Config

from server.processes.serve import gunicorn_options

DOCS = Path(__file__).resolve().parents[2] / "docs" / "operations.md"
ARGS = argparse.Namespace(host="127.0.0.1", port=0, workers=1)


def _documented() -> dict[str, int]:
    text = DOCS.read_text()

    def figure(label: str) -> int:
        found = re.search(rf"\| {re.escape(label)}[^|]*\| ([0-9,]+)", text)
        assert found, label
        return int(found.group(1).replace(",", ""))

    return {
        "limit_request_line": figure("request line"),
        "limit_request_field_size": figure("one header line"),
        "limit_request_fields": figure("number of headers"),
    }


def test_serve_sets_the_documented_limits():
    options = gunicorn_options(ARGS)
    documented = _documented()
    assert {k: options.get(k) for k in documented} == documented


def test_gunicorn_accepts_the_limits():
    config = Config()
    for key, value in gunicorn_options(ARGS).items():
        if key.startswith("limit_request"):
            config.set(key, value)
            assert getattr(config, key) == value

"""schemathesis against ``openapi.yaml`` and a running server: no 5xx, nothing off-spec.

Every operation of the spec gets a bounded number of generated requests (valid and
invalid ones) through a real socket, as a registered player. Each answer must not
be a server error, must have a documented status and content type, and must match
its documented schema; requests the spec calls invalid must be refused (4xx).
"""

from __future__ import annotations

from pathlib import Path

import pytest
import requests
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

SPEC = Path(__file__).resolve().parents[2] / "openapi.yaml"
schema = schemathesis.openapi.from_path(SPEC)
# Bounded: the explicit examples and max_examples generated cases per operation, valid
# and invalid. (The "coverage" phase would add every combination the schema defines,
# minutes on the larger bodies.)
schema.config.phases.update(phases=["examples", "fuzzing"])

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    negative_data_rejection,
]


@pytest.fixture(scope="module")
def token(fuzz_server) -> str:
    reply = requests.post(f"{fuzz_server.url}/v1/players", json={"name": "fuzzer"}, timeout=10)
    return reply.json()["token"]


@schema.parametrize()
@settings(max_examples=12, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
def test_the_server_keeps_to_its_spec(case, fuzz_server, token):
    # A generated bearer token is random, so swap in a real one; a case generated
    # without the header (a negative case: "missing credentials") keeps it missing.
    if case.headers and "Authorization" in case.headers:
        case.headers["Authorization"] = f"Bearer {token}"
    case.call_and_validate(base_url=fuzz_server.url, checks=CHECKS, timeout=10)

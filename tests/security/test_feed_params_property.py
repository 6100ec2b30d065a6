"""No query parameter or header of the feeds can make the server answer 5xx.

Hypothesis draws values for every parameter and header of
``GET /v1/games/{id}/events``, ``GET /v1/games/{id}/stream`` and
``GET /v1/me/turns`` (unicode, huge and negative integers, floats, special
spellings) and sends them through a real socket; every answer must be below 500,
and every 4xx the error envelope. Waits and streams are kept short by the
configuration so each example takes milliseconds.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import pytest
import requests
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st


@pytest.fixture
def app_config(app_config: dict[str, Any]) -> dict[str, Any]:
    return app_config | {"MAX_WAIT": 0.05, "SSE_HEARTBEAT": 0.05, "SSE_MAX_SECONDS": 0.2}


SPECIAL = ["", "-1", "0", "+1", "1e400", "nan", "inf", "-inf", "0x10", "1_000", "²", "٣"]
NUMBERS = st.one_of(
    st.integers(min_value=-(2**80), max_value=2**80),
    st.integers(min_value=2**63, max_value=2**65),  # around Redis's 64-bit stream ids
).map(str)
VALUES = st.one_of(
    st.none(),
    st.sampled_from(SPECIAL),
    NUMBERS,
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.text(max_size=24),
)
HEADER_VALUES = st.one_of(
    st.none(),
    st.sampled_from(SPECIAL),
    NUMBERS,
    # What an HTTP client can send at all: no line breaks, no surrounding blanks.
    st.text(max_size=24).filter(lambda t: t == t.strip() and not set(t) & {"\r", "\n", "\0"}),
)
EXAMPLES = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@pytest.fixture
def world(live_server, live_players) -> dict[str, Any]:
    """A live server, a started game and a seated player's token."""
    four = live_players.many(4)
    r = requests.post(
        live_server.url + "/v1/games",
        json={"game": "concerto", "seats": [p.id for p in four], "options": {"deals": 1}},
        headers=four[0].headers,
        timeout=10,
    )
    assert r.status_code == 201, r.text
    return {"url": live_server.url, "game": r.json()["id"], "token": four[0].token}


def _game(world: dict[str, Any], pick: str | None) -> str:
    return world["game"] if pick is None else quote(pick, safe="") or "x"


def _token(world: dict[str, Any], pick: str | None) -> str | None:
    return world["token"] if pick == "valid" else pick


def _send(url: str, params: dict[str, Any], headers: dict[str, Any]) -> None:
    params = {k: v for k, v in params.items() if v is not None}
    sent = {k: v.encode() for k, v in headers.items() if v is not None}
    with requests.get(url, params=params, headers=sent, timeout=10, stream=True) as r:
        assert r.status_code < 500, (url, params, headers, r.status_code, r.text[:300])
        if r.status_code >= 400:
            error = r.json()["error"]
            assert set(error) == {"code", "message", "details"}, error


TOKENS = st.one_of(st.just("valid"), HEADER_VALUES)


GAMES = st.one_of(st.none(), st.none(), st.text(max_size=12))
"""The test's game most of the time (None), else an arbitrary id."""


def _some(**fields: st.SearchStrategy) -> st.SearchStrategy[dict[str, Any]]:
    """Any subset of the fields, each with a drawn value (a left-out field is the common case)."""
    return st.fixed_dictionaries({}, optional=fields)


@EXAMPLES
@given(game=GAMES, params=_some(after=VALUES, wait=VALUES, seat=VALUES), auth=TOKENS)
@example(game=None, params={"after": str(2**64)}, auth=None)  # past a Redis stream id
def test_events_never_5xx(world, game, params, auth):
    token = _token(world, auth)
    _send(
        f"{world['url']}/v1/games/{_game(world, game)}/events",
        params,
        {"Authorization": None if token is None else f"Bearer {token}"},
    )


@EXAMPLES
@given(
    game=GAMES,
    params=_some(after=VALUES, seat=VALUES, token=st.one_of(st.just("valid"), VALUES)),
    last=HEADER_VALUES,
    auth=TOKENS,
)
@example(game=None, params={"after": str(2**64)}, last=None, auth="valid")
@example(game=None, params={}, last="²", auth="valid")  # '²'.isdigit(), but int('²') fails
@example(game=None, params={}, last=str(2**64), auth="valid")
def test_stream_never_5xx(world, game, params, last, auth):
    token = _token(world, auth)
    if "token" in params:
        params["token"] = _token(world, params["token"])
    _send(
        f"{world['url']}/v1/games/{_game(world, game)}/stream",
        params,
        {
            "Authorization": None if token is None else f"Bearer {token}",
            "Last-Event-ID": last,
        },
    )


@EXAMPLES
@given(params=_some(wait=VALUES, limit=VALUES), auth=TOKENS, raw_auth=HEADER_VALUES)
def test_turns_never_5xx(world, params, auth, raw_auth):
    token = _token(world, auth)
    _send(
        f"{world['url']}/v1/me/turns",
        params,
        {"Authorization": raw_auth if token is None else f"Bearer {token}"},
    )

"""Framing: the web pages may be framed only by the origins the operator lists
(``PARLOUR_FRAME_ANCESTORS``); by default by none. The list is checked where it is
read: junk stops the app, and ``parlour serve`` before it starts anything.

The browser's side (an allowed origin's iframe shows the table, any other is refused)
is tests/web/test_embedding.py.
"""

from __future__ import annotations

from typing import Any

import pytest

from server.api import create_app
from server.api.headers import SECURITY_HEADERS
from server.processes import cli

PAGES = ("/", "/table/g123", "/replay/g123", "/ladders/l1", "/web/style.css", "/rules/concerto")
API = ("/v1/rules", "/v1/games/nope", "/no-such-page")


def frame_ancestors(response) -> str:
    directives = [d.strip() for d in response.headers["Content-Security-Policy"].split(";")]
    (found,) = [d for d in directives if d.startswith("frame-ancestors ")]
    return found.removeprefix("frame-ancestors ")


def test_by_default_no_page_may_be_framed(client) -> None:
    for path in PAGES + API:
        response = client.get(path)
        assert frame_ancestors(response) == "'none'", path
        assert (
            response.headers["Content-Security-Policy"]
            == SECURITY_HEADERS["Content-Security-Policy"]
        )


@pytest.fixture
def framed_config(app_config: dict[str, Any]) -> dict[str, Any]:
    return app_config | {"FRAME_ANCESTORS": " https://cards.example  http://127.0.0.1:9000/ "}


def test_the_listed_origins_may_frame_the_pages_and_only_the_pages(framed_config) -> None:
    client = create_app(framed_config).test_client()
    for path in PAGES:
        response = client.get(path)
        assert frame_ancestors(response) == "https://cards.example http://127.0.0.1:9000", path
        policy = response.headers["Content-Security-Policy"]  # the rest stays as it was
        default = SECURITY_HEADERS["Content-Security-Policy"]
        assert policy.replace(frame_ancestors(response), "'none'") == default
    for path in API:  # JSON and the API's errors are never framed
        assert frame_ancestors(client.get(path)) == "'none'", path


JUNK = [
    "cards.example",  # no scheme
    "https://cards.example/table",  # a path
    "https://*.cards.example",  # a wildcard
    "'self'",  # a keyword
    "https://a.example,https://b.example",  # commas, not spaces
    "https://cards.example;script-src",  # another directive smuggled in
    "javascript:alert(1)",
    "ftp://cards.example",
    "https://user@cards.example",
    "https://cards.example:99999",
    "https://cards.example?x=1",
]


@pytest.mark.parametrize("junk", JUNK)
def test_junk_stops_the_app_with_the_entry_named(app_config, junk: str) -> None:
    with pytest.raises(ValueError) as refused:
        create_app(app_config | {"FRAME_ANCESTORS": f"https://ok.example {junk}"})
    assert "PARLOUR_FRAME_ANCESTORS" in str(refused.value)
    assert repr(junk) in str(refused.value) and "scheme://host[:port]" in str(refused.value)


def test_parlour_serve_refuses_junk_before_it_starts_anything(monkeypatch, capsys) -> None:
    started: list[Any] = []
    monkeypatch.setattr("server.processes.serve.serve", started.append)  # would start it
    monkeypatch.setenv("PARLOUR_FRAME_ANCESTORS", "https://ok.example cards.example")
    assert cli.main(["serve"]) == 2
    assert started == []
    err = capsys.readouterr().err
    assert err.startswith("parlour serve: PARLOUR_FRAME_ANCESTORS: 'cards.example' is not")
    monkeypatch.setenv("PARLOUR_FRAME_ANCESTORS", "https://ok.example")
    cli.main(["serve"])
    assert len(started) == 1  # a good list is passed on

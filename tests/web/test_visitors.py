"""The way in: rules pages, and a visitor with no token playing against the bot pool."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
import requests

from server.processes.botpool import BotPool, BotSpec
from tests.conftest import ADMIN_TOKEN, LiveServer
from tests.web.conftest import Web

RULE_TAGS = {"concerto": "c17", "seconds": "s3", "cowpoke": "w4", "pinochle": "p20"}
"""One tag per game that its docs page defines (docs/rules/<game>.md#<tag>)."""


def test_every_rules_link_of_the_lobby_resolves_with_its_tags(web: Web) -> None:
    page = web.open("/")
    links = page.locator("#way-in a.rules-link")
    hrefs = [links.nth(i).get_attribute("href") for i in range(links.count())]
    assert sorted(hrefs) == sorted(f"/rules/{g}" for g in RULE_TAGS)
    for game, tag in RULE_TAGS.items():
        reply = requests.get(f"{web.url}/rules/{game}", timeout=10)
        assert reply.status_code == 200 and reply.headers["Content-Type"].startswith("text/html")
        assert f'id="{tag}"' in reply.text, game
        source = open(f"docs/rules/{game}.md", encoding="utf-8").read()
        tags = set(re.findall(r'<a id="([a-z]+\d+)"></a>', source))
        assert tags and all(f'id="{t}"' in reply.text for t in tags), game
    page.locator("#way-in a.rules-link[href='/rules/concerto']").click()
    page.wait_for_selector("article.rules h1")
    assert page.locator("#c17").count() == 1


def test_unknown_pages_answer_an_html_404_and_the_api_keeps_json(live_server: LiveServer) -> None:
    for path in ("/nowhere", "/rules/chess"):
        reply = requests.get(live_server.url + path, timeout=10)
        assert reply.status_code == 404 and "text/html" in reply.headers["Content-Type"], path
        assert "<h1>" in reply.text
    api = requests.get(live_server.url + "/v1/nowhere", timeout=10)
    assert api.status_code == 404 and api.json()["error"]["code"] == "not_found"


@pytest.fixture
def pool(live_server: LiveServer) -> Iterator[BotPool]:
    """The real bot pool: random bots for every game, five seats (double-deck needs five)."""
    running = BotPool(
        live_server.url, ADMIN_TOKEN, bots=[BotSpec("random", None)], seats=5, wait=1.0, seed=3
    )
    running.start()
    yield running
    running.stop(timeout=5)

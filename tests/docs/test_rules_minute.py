"""Every registered game's rules page opens with "How to play in one minute": the aim, a
turn and how it is scored, in a minute's reading, with a paragraph for each edition or
variant the game has (the web table shows the one being played: server/web/js/minute.js).

A game added to the registry without that opening fails here, naming what is missing.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from server.games import REGISTRY, Game

RULES = Path(__file__).resolve().parents[2] / "docs" / "rules"
HEADING = "## How to play in one minute {#minute}"
PARTS = ("**The aim.**", "**A turn.**", "**Scoring.**")
WORDS_A_MINUTE = 330
"""What an adult reads in a minute, a little over (reading speed is about 240 words)."""


def minute_of(text: str) -> str:
    """The section from the heading to the next ``## `` heading ('' when the page lacks it)."""
    start = text.find(HEADING)
    if start < 0:
        return ""
    rest = text[start + len(HEADING) :]
    end = re.search(r"^## ", rest, flags=re.M)
    return rest[: end.start()] if end else rest


def problems(game: Game, text: str) -> list[str]:
    """What the page's opening lacks, in words (empty: it has all of it)."""
    first = re.search(r"^## .*$", text, flags=re.M)
    if first is None or first.group(0) != HEADING:
        return [f"docs/rules/{game.id}.md must open (its first ## section) with {HEADING!r}"]
    section = minute_of(text)
    found = [f"the minute lacks {part}" for part in PARTS if part not in section]
    choices = game.options[game.variant_option]["choices"] if game.variant_option else []
    found += [
        f"the minute has no paragraph for the edition {choice!r} "
        f"(a heading with {{#minute-{choice}}})"
        for choice in choices
        if f"{{#minute-{choice}}}" not in section
    ]
    words = len(section.split())
    if words > WORDS_A_MINUTE * (1 + len(choices) / 4):
        found.append(f"the minute is {words} words: more than a minute's reading")
    return found


@pytest.mark.parametrize("game", list(REGISTRY.values()), ids=list(REGISTRY))
def test_every_game_s_rules_open_with_how_to_play_in_one_minute(game: Game) -> None:
    page = RULES / f"{game.id}.md"
    assert page.is_file(), f"no rules page docs/rules/{game.id}.md"
    assert problems(game, page.read_text(encoding="utf-8")) == []


def test_a_page_without_its_minute_or_an_edition_s_paragraph_is_named() -> None:
    game = next(g for g in REGISTRY.values() if g.variant_option)
    text = (RULES / f"{game.id}.md").read_text(encoding="utf-8")
    first = game.options[game.variant_option]["choices"][0]
    assert problems(game, text.replace(HEADING, "## Options")) != []
    cut = problems(game, text.replace(f"{{#minute-{first}}}", ""))
    assert cut == [
        f"the minute has no paragraph for the edition {first!r} "
        f"(a heading with {{#minute-{first}}})"
    ]
    unbold = text.replace("**Scoring.**", "Scoring.")
    assert problems(game, unbold) == ["the minute lacks **Scoring.**"]

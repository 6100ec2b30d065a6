"""MkDocs hook: the navigation's "Rules" section, one page per game of the registry.

Each game of ``server.games.REGISTRY`` has its rules at ``docs/rules/<id>.md`` (the
convention :class:`server.games.Game` states), listed in the registry's order under the
game's title (its words before a parenthesis: "Pinochle"). A registered game without
its page fails the build, naming the page to write; a page of no game fails it too
(strict: a file left out of the navigation is a warning).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from mkdocs.exceptions import PluginError

from server.games import REGISTRY, Game

SECTION = "Rules"


def on_config(config: Any) -> Any:
    nav = config["nav"]
    for item in nav or ():
        if isinstance(item, dict) and SECTION in item:
            item[SECTION] = rules_nav(REGISTRY, Path(config["docs_dir"]))
            return config
    raise PluginError(f"rules_nav: mkdocs.yml's nav has no {SECTION!r} section to fill")


def rules_nav(registry: Mapping[str, Game], docs_dir: Path) -> list[dict[str, str]]:
    """The section's entries: each game's title and its rules page, in the registry's order.

    Raises:
        PluginError: a game of ``registry`` has no page in ``docs_dir``.
    """
    entries, missing = [], []
    for game in registry.values():
        page = f"rules/{game.id}.md"
        if not (docs_dir / page).is_file():
            missing.append(f"{game.id} ({docs_dir / page})")
        entries.append({game.title.partition(" (")[0]: page})
    if missing:
        raise PluginError(f"rules_nav: no rules page for the registered game {', '.join(missing)}")
    return entries

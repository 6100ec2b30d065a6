"""Bots by name: the installed bots (entry points of :data:`BOT_GROUP`), ``module:Class``
or ``module:factory``, and the factories an arena builds a bot per game with."""

from __future__ import annotations

import importlib
import os
import random
import sys
from collections.abc import Callable
from importlib.metadata import entry_points
from typing import Any, cast

from ..bot import Bot

BOT_GROUP = "parlour.bots"
"""The entry-point group of installed bots: ``name = "package.module:factory"``.

The factory is called with one argument, a ``random.Random`` (or ``None``),
and returns a :class:`~client_sdk.Bot`. A bot class whose ``__init__`` takes
``rng`` is such a factory.
"""


BotFactory = Callable[[random.Random | None], Bot]
"""What builds a bot: called with the bot's random source (``None``: unseeded)."""


def bot_names() -> list[str]:
    """The names of the installed bots (entry points of :data:`BOT_GROUP`), sorted.

    Read from the installed distributions' metadata: nothing is imported.
    """
    return sorted({ep.name for ep in entry_points(group=BOT_GROUP)})


def _factory(spec: str) -> BotFactory:
    """The factory ``spec`` names; ``ValueError`` when there is none."""
    module_name, colon, attr = spec.partition(":")
    if not colon and "." not in module_name:
        found = entry_points(group=BOT_GROUP, name=spec)
        if not found:
            known = ", ".join(bot_names()) or "none installed"
            raise ValueError(f"no bot {spec!r} (installed bots: {known}; or module:Class)")
        factory: Any = next(iter(found)).load()
    else:
        if os.getcwd() not in sys.path:
            sys.path.insert(0, os.getcwd())  # your own bot module, in the current folder
        try:
            module = importlib.import_module(module_name)
        except ImportError as exc:
            raise ValueError(f"no bot {spec!r}: {exc}") from exc
        factory = getattr(module, attr or "make_bot", None)
        if not callable(factory):
            raise ValueError(f"{module_name} has no {attr or 'make_bot'}")
    return cast(BotFactory, factory)


def load_bot(spec: str, rng: random.Random | None = None) -> Bot:
    """Build the bot named by ``spec``, its random choices drawn from ``rng``.

    Args:
        spec: an installed bot's name (``random``, ``concerto_signals``, …:
            :func:`bot_names`), ``module:Class`` or ``module:factory`` (the
            module importable from the current folder), or a dotted module
            name with a ``make_bot(rng)`` function.
        rng: the bot's only source of randomness; ``None`` for an unseeded one.

    Raises:
        ValueError: no such bot, or it did not build a :class:`~client_sdk.Bot`.
    """
    return bot_factory(spec)(rng)


def bot_factory(spec: str) -> BotFactory:
    """:func:`load_bot` for many bots of one ``spec``: the name is resolved once.

    Resolving an installed bot's name reads every distribution's entry points;
    an arena building a bot per game should not do it per game.

    Raises:
        ValueError: no such bot (now), or it did not build a
            :class:`~client_sdk.Bot` (when called).
    """
    make = _factory(spec)

    def build(rng: random.Random | None = None) -> Bot:
        bot = make(rng)
        if not isinstance(bot, Bot):
            raise ValueError(f"{spec} did not build a client_sdk.Bot")
        return bot

    return build

"""The bot commands: ``parlour-bot`` (and ``parlour bot`` in the full install).

* ``parlour-bot register --server URL --name NAME`` prints a new player's
  token (and id) — the token is shown once, keep it;
* ``parlour-bot run BOT --server URL --token T`` plays every game that
  player is seated in, until Ctrl-C;
* ``parlour-bot serve BOT --port N`` serves the bot as a callback endpoint: the
  server POSTs each of the player's turns to it (docs/callbacks.md); the secret
  comes from ``PARLOUR_CALLBACK_SECRET`` or ``--secret-file``;
* ``parlour-bot callback set URL|show|rotate|remove`` sets the player's callback
  (``set`` and ``rotate`` print its new secret, once), shows or removes it;
* ``parlour-bot token rotate|revoke --server URL --token T`` replaces the
  player's token with a new one (printed; the old one dies at once, and the
  player's callback with it unless ``--keep-callback``; an app's webhooks
  unless ``--keep-webhooks``) or
  revokes it. With ``--player ID`` or ``--app ID`` it acts on that player's
  or app's token instead (the admin's token, or the app's own, as ``T``);
  ``parlour token`` is the same with the admin token (``PARLOUR_ADMIN_TOKEN``);
* ``parlour-bot event create|roster|enter|code|join|close|start|watch|withdraw|void|export``
  runs a tournament as an event, a class or a club night (:mod:`~client_sdk.cli.events`,
  docs/organisers.md);
* ``parlour-bot play GAME BOT... --seed S [--option k=v] [--out replay.json]``
  plays a game locally, through the views the server sends, and writes its
  replay (needs the engines: ``pip install ./server/games``; docs/local.md);
  ``parlour-bot play --deals FILE`` plays a regression set again;
* ``parlour-bot test NEW OLD --game G`` plays duplicate boards of NEW against OLD
  on every core until a sequential test says NEW is better (pass), not (fail), or
  the cap is reached, and writes the boards NEW lost (a regression set).

``BOT`` is either ``module:Class`` (or ``module:factory``) — your own bot, the
module importable from the current folder — or the name of an installed bot.
Installed bots are Python entry points of the group ``parlour.bots`` (see
:data:`BOT_GROUP`), so any distribution can ship bots and the SDK finds them
without knowing their package: the full Parlour install declares ``random``,
``concerto_signals``, ``seconds`` and the rest in its ``pyproject.toml``.

The token may also come from the ``PARLOUR_TOKEN`` environment variable and
the server from ``PARLOUR_SERVER``, so it need not appear in ``ps`` output.

The commands live by what they do: :mod:`~client_sdk.cli.bots` runs a bot (``run``,
``serve``, ``register``), :mod:`~client_sdk.cli.matches` the sequential test (``test``,
``play --deals``), :mod:`~client_sdk.cli.tokens` holds the credential commands
(``token``, ``callback``), :mod:`~client_sdk.cli.play` the game records (``play``,
``archive``), :mod:`~client_sdk.cli.events` an organiser's ``event``,
:mod:`~client_sdk.cli.loading` finds bots by name, and
:mod:`~client_sdk.cli.options` the shared options. This module puts them together and
is the one to import from (``client_sdk.cli:main``, :func:`load_bot`, :func:`bot_main`, ...).
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable, Sequence

from ..bot import Bot
from .bots import (
    SECRET_ENV,
    add_run_commands,
    cmd_bot_register,
    cmd_bot_run,
    cmd_bot_serve,
    run_bot,
)
from .events import add_event_command, cmd_event
from .loading import BOT_GROUP, BotFactory, bot_factory, bot_names, load_bot
from .matches import add_test_command, cmd_test
from .options import DEFAULT_SERVER, Subparsers, add_run_options
from .play import add_archive_command, add_play_command, cmd_archive, cmd_play
from .tokens import add_callback_command, add_token_command, cmd_callback, cmd_token

__all__ = [
    "BOT_GROUP", "DEFAULT_SERVER", "SECRET_ENV", "BotFactory", "add_archive_command",
    "add_bot_commands", "add_bot_subcommands", "add_callback_command", "add_play_command",
    "add_token_command", "bot_factory", "bot_main", "bot_names", "cmd_archive",
    "cmd_bot_register", "cmd_bot_run", "cmd_bot_serve", "cmd_callback", "cmd_play",
    "cmd_test", "cmd_token", "load_bot", "main", "add_test_command", "add_event_command",
    "cmd_event",
]  # fmt: skip


def add_bot_subcommands(sub: Subparsers[argparse.ArgumentParser]) -> None:
    """Add ``run``, ``serve``, ``register``, ``token``, ``callback``, ``play``, ``test``,
    ``archive`` and ``event`` to ``sub``; each sets ``func(args) -> exit status``."""
    add_run_commands(sub)
    add_token_command(sub, "PARLOUR_TOKEN")
    add_callback_command(sub)
    add_play_command(sub)
    add_test_command(sub)
    add_archive_command(sub)
    add_event_command(sub)


def add_bot_commands(subparsers: Subparsers[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    """Add ``bot run`` and ``bot register`` to an ``add_subparsers()`` object.

    Each leaf sets ``func``, called with the parsed namespace, returning the
    exit status, as ``server/processes/cli.py`` does for its own commands.
    """
    bot = subparsers.add_parser("bot", help="run or register a bot")
    add_bot_subcommands(bot.add_subparsers(dest="bot_command", required=True))
    return bot


def bot_main(make_bot: Callable[[random.Random], Bot], argv: Sequence[str] | None = None) -> int:
    """The ``main`` of ``python -m bots.<name> --server URL --token T``."""
    parser = argparse.ArgumentParser(description="run a Parlour bot")
    add_run_options(parser)
    args = parser.parse_args(argv)
    return run_bot(make_bot(random.Random(args.seed)), args)


def main(argv: Sequence[str] | None = None) -> int:
    """``parlour-bot run|serve|callback|register|token|play|test|archive|event ...``: the
    bot commands, SDK alone.

    ``python -m client_sdk.cli`` is the same; a leading ``bot`` is accepted too,
    so ``python -m client_sdk.cli bot run ...`` spells it like ``parlour bot run ...``.
    """
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list[:1] == ["bot"]:
        args_list = args_list[1:]
    parser = argparse.ArgumentParser(prog="parlour-bot", description="run or register a bot")
    add_bot_subcommands(parser.add_subparsers(dest="bot_command", required=True))
    args = parser.parse_args(args_list)
    command: Callable[[argparse.Namespace], int] = args.func
    return command(args)

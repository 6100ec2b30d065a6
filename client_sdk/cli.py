"""``parlour bot ...`` commands, and the ``main`` every ``python -m bots.<name>`` uses.

``add_bot_commands(subparsers)`` adds to an argparse parser:

* ``parlour bot register --server URL --name NAME`` prints a new player's
  token (and id) — the token is shown once, keep it;
* ``parlour bot run BOT --server URL --token T`` plays every game that
  player is seated in, until Ctrl-C. ``BOT`` is a module of ``bots`` that has a
  ``make_bot`` (``random``, ``concerto_signals``, ``seconds``, …: see
  :func:`bot_names`) or ``package.module:ClassName`` for your own bot.

The token may also come from the ``PARLOUR_TOKEN`` environment variable and
the server from ``PARLOUR_SERVER``, so it need not appear in ``ps`` output.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import logging
import os
import random
import sys
from collections.abc import Callable, Sequence
from typing import Any

from .bot import Bot
from .client import Client
from .errors import ParlourError
from .runner import run

DEFAULT_SERVER = "http://127.0.0.1:8000"


def bot_names() -> list[str]:
    """The bots shipped in ``bots/``: its public modules, found without importing them."""
    import pkgutil

    spec = importlib.util.find_spec("bots")
    if spec is None or not spec.submodule_search_locations:
        return []
    not_bots = {"arena", "par_arena"}
    return sorted(
        m.name
        for m in pkgutil.iter_modules(spec.submodule_search_locations)
        if not m.name.startswith("_") and not m.ispkg and m.name not in not_bots
    )


def load_bot(spec: str, rng: random.Random | None = None) -> Bot:
    """Build the bot named by ``spec``: ``random`` → ``bots.random``, or ``pkg.mod:Class``.

    A ``bots`` module exposes ``make_bot(rng)``; with ``module:Class`` the
    class is called with ``rng``.

    Raises:
        ValueError: no such bot.
    """
    module_name, _, attr = spec.partition(":")
    if "." not in module_name and not attr:
        module_name = f"bots.{module_name}"
    elif os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())  # your own bot module, in the current folder
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise ValueError(f"no bot {spec!r}: {exc}") from exc
    factory = getattr(module, attr or "make_bot", None)
    if not callable(factory):
        raise ValueError(f"{module_name} has no {attr or 'make_bot'}")
    bot = factory(rng)
    if not isinstance(bot, Bot):
        raise ValueError(f"{spec} did not build a client_sdk.Bot")
    return bot


def _add_server(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--server",
        default=os.environ.get("PARLOUR_SERVER", DEFAULT_SERVER),
        help="server root URL (env PARLOUR_SERVER; default %(default)s)",
    )


def _add_run_options(parser: argparse.ArgumentParser) -> None:
    _add_server(parser)
    parser.add_argument(
        "--token",
        default=os.environ.get("PARLOUR_TOKEN"),
        help="the player's token (env PARLOUR_TOKEN)",
    )
    parser.add_argument("--wait", type=float, default=20.0, help="long-poll seconds")
    parser.add_argument("--games", type=int, default=None, help="stop after N finished games")
    parser.add_argument("--seed", default=None, help="seed of the bot's random choices")
    parser.add_argument("-v", "--verbose", action="store_true", help="log every retry")


def _run(bot: Bot, args: argparse.Namespace) -> int:
    if not args.token:
        print("a token is needed: --token T or PARLOUR_TOKEN", file=sys.stderr)
        return 2
    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.WARNING,
        format="%(asctime)s %(name)s %(levelname)s %(message)s",
    )
    with Client(args.server, args.token) as client:
        try:
            stats = run(bot, client, wait=args.wait, max_games=args.games)
        except ParlourError as exc:
            print(f"stopped: {exc}", file=sys.stderr)
            return 1
        except KeyboardInterrupt:  # the second Ctrl-C: stop at once
            return 130
    print(
        f"{bot.name}: {stats.moves} moves, {stats.games_finished} games finished, "
        f"{stats.conflicts} conflicts, {stats.illegal_moves} illegal"
    )
    return 0


def cmd_bot_run(args: argparse.Namespace) -> int:
    try:
        bot = load_bot(args.bot, random.Random(args.seed))
    except ValueError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    return _run(bot, args)


def cmd_bot_register(args: argparse.Namespace) -> int:
    with Client(args.server, os.environ.get("PARLOUR_ADMIN_TOKEN")) as client:
        try:
            player = client.players.register(args.name)
        except ParlourError as exc:
            print(f"registration failed: {exc}", file=sys.stderr)
            return 1
    print(player["token"])
    print(f"player {player['name']} id {player['id']} (the token above is shown once)",
          file=sys.stderr)  # fmt: skip
    return 0


def add_bot_commands(subparsers: Any) -> argparse.ArgumentParser:
    """Add ``bot run`` and ``bot register`` to an ``add_subparsers()`` object.

    Each leaf sets ``func``, called with the parsed namespace, returning the
    exit status, as ``server/processes/cli.py`` does for its own commands.
    """
    bot = subparsers.add_parser("bot", help="run or register a bot")
    sub = bot.add_subparsers(dest="bot_command", required=True)

    run_parser = sub.add_parser("run", help="play every game a player is seated in")
    run_parser.add_argument("bot", help=f"{' | '.join(bot_names())} | mod:Class")
    _add_run_options(run_parser)
    run_parser.set_defaults(func=cmd_bot_run)

    register = sub.add_parser("register", help="create a player and print its token")
    _add_server(register)
    register.add_argument("--name", required=True, help="the player's name")
    register.set_defaults(func=cmd_bot_register)
    return bot


def bot_main(make_bot: Callable[[random.Random], Bot], argv: Sequence[str] | None = None) -> int:
    """The ``main`` of ``python -m bots.<name> --server URL --token T``."""
    parser = argparse.ArgumentParser(description="run a Parlour bot")
    _add_run_options(parser)
    args = parser.parse_args(argv)
    return _run(make_bot(random.Random(args.seed)), args)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m client_sdk.cli bot ...``: the same commands without the server installed."""
    parser = argparse.ArgumentParser(prog="python -m client_sdk.cli")
    add_bot_commands(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())

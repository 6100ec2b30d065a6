"""The options the bot commands share: the server's URL, and ``run``'s (also ``bot_main``'s)."""

from __future__ import annotations

import argparse
import os

from ..accept import AcceptPolicy

DEFAULT_SERVER = "http://127.0.0.1:8000"

Subparsers = argparse._SubParsersAction  # what ``ArgumentParser.add_subparsers()`` returns


def add_server(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--server",
        default=os.environ.get("PARLOUR_SERVER", DEFAULT_SERVER),
        help="server root URL (env PARLOUR_SERVER; default %(default)s)",
    )


def add_run_options(parser: argparse.ArgumentParser) -> None:
    add_server(parser)
    parser.add_argument(
        "--token",
        default=os.environ.get("PARLOUR_TOKEN"),
        help="the player's token (env PARLOUR_TOKEN)",
    )
    parser.add_argument("--wait", type=float, default=20.0, help="long-poll seconds")
    parser.add_argument("--games", type=int, default=None, help="stop after N finished games")
    parser.add_argument("--seed", default=None, help="seed of the bot's random choices")
    parser.add_argument(
        "--ladder",
        default=None,
        metavar="ID",
        help="join this ladder, play the games it makes, leave on exit (docs/ladder.md)",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="log every retry")
    parser.add_argument(
        "--accept-invitations",
        type=_policy,
        default=AcceptPolicy(),
        metavar="{anyone,none,from:alice,bob}",
        help="which invitations to seats and entries to accept: none (default: only the "
        "admin seats the bot), anyone, or from:<player id or name>,...",
    )


def _policy(text: str) -> AcceptPolicy:
    try:
        return AcceptPolicy.parse(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None

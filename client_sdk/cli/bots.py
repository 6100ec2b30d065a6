"""The commands that run a bot: ``run`` (plays a player's games), ``serve`` (a callback
endpoint) and ``register`` (a new player and its token)."""

from __future__ import annotations

import argparse
import logging
import os
import random
import sys

from ..bot import Bot
from ..client import Client
from ..endpoint import MAX_BODY, make_app, make_server
from ..errors import ParlourError
from ..runner import run
from .loading import bot_names, load_bot
from .options import Subparsers, add_run_options, add_server


def run_bot(bot: Bot, args: argparse.Namespace) -> int:
    if not args.token:
        print("a token is needed: --token T or PARLOUR_TOKEN", file=sys.stderr)
        return 2
    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.WARNING,
        format="%(asctime)s %(name)s %(levelname)s %(message)s",
    )
    logging.getLogger("client_sdk.progress").setLevel(logging.INFO)  # joined, left, each game
    with Client(args.server, args.token) as client:
        try:
            stats = run(
                bot,
                client,
                wait=args.wait,
                max_games=args.games,
                accept_invitations=args.accept_invitations,
                ladder=args.ladder,
            )
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
    """``run``: load the bot named by ``args.bot`` and play until stopped; the exit status."""
    try:
        bot = load_bot(args.bot, random.Random(args.seed))
    except ValueError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    return run_bot(bot, args)


def cmd_bot_register(args: argparse.Namespace) -> int:
    """``register``: create the player ``args.name``, print its token; the exit status."""
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


SECRET_ENV = "PARLOUR_CALLBACK_SECRET"


def _callback_secret(args: argparse.Namespace) -> str | None:
    """The callback secret of ``serve``: ``--secret-file``'s first line, else ``$SECRET_ENV``.

    Never an argument: a command line is readable by everyone on the host (``ps``).
    """
    if args.secret_file:
        with open(args.secret_file, encoding="utf-8") as f:
            return f.readline().strip() or None
    return os.environ.get(SECRET_ENV) or None


def cmd_bot_serve(args: argparse.Namespace) -> int:
    """``serve``: serve the bot as a callback endpoint until stopped; the exit status.

    With ``--register URL`` the port is bound first, then the player's callback is
    set to ``URL`` (``PUT /v1/me/callback``, its token from ``--token`` or
    ``PARLOUR_TOKEN``) and the fresh secret it answers is used in this process
    only: nothing secret is printed, and every start registers (and so rotates) again.
    """
    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.WARNING,
        format="%(asctime)s %(name)s %(levelname)s %(message)s",
    )
    try:
        bot = load_bot(args.bot, random.Random(args.seed))
        secret = None if args.register else _callback_secret(args)
    except (ValueError, OSError) as exc:
        print(str(exc), file=sys.stderr)
        return 2
    if not args.register and not secret:
        print(f"a callback secret is needed: {SECRET_ENV} or --secret-file", file=sys.stderr)
        return 2
    if args.register and not args.token:
        print("--register needs the player's token: --token T or PARLOUR_TOKEN", file=sys.stderr)
        return 2
    # Bound first, served once the app is set: a call that comes meanwhile waits in the
    # listen queue (--register: the server may call as soon as the callback is set).
    server = make_server(None, args.host, args.port)
    try:
        if args.register:
            with Client(args.server, args.token) as client:
                try:
                    secret = client.players.set_callback(args.register)["secret"]
                except ParlourError as exc:
                    print(f"registration failed: {exc}", file=sys.stderr)
                    return 1
            print(f"callback set to {args.register}", file=sys.stderr)
        assert secret is not None
        server.set_app(make_app(bot, secret, max_body=args.max_body))
        print(
            f"{bot.name}: serving calls on http://{args.host}:{server.server_port}/",
            file=sys.stderr,
            flush=True,
        )
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


def add_run_commands(sub: Subparsers[argparse.ArgumentParser]) -> None:
    """Add ``run``, ``serve`` and ``register`` to ``sub``; each sets ``func(args) -> exit
    status``."""
    run_parser = sub.add_parser("run", help="play every game a player is seated in")
    run_parser.add_argument("bot", help=f"{' | '.join(bot_names())} | module:Class")
    add_run_options(run_parser)
    run_parser.set_defaults(func=cmd_bot_run)

    serve = sub.add_parser(
        "serve",
        help="serve the bot as a callback endpoint: the server POSTs each turn to it",
        description="Serve BOT as a callback endpoint (docs/callbacks.md). The secret "
        f"comes from {SECRET_ENV} or --secret-file, never from the command line.",
        allow_abbrev=False,  # `--secret X` must not pass for --secret-file and say X
    )
    serve.add_argument("bot", help=f"{' | '.join(bot_names())} | module:Class")
    serve.add_argument("--port", type=int, required=True, help="the port to listen on")
    serve.add_argument("--host", default="127.0.0.1", help="the address to listen on")
    serve.add_argument(
        "--secret-file",
        default=None,
        help=f"a file whose first line is the callback secret (else env {SECRET_ENV})",
    )
    serve.add_argument("--seed", default=None, help="seed of the bot's random choices")
    serve.add_argument(
        "--max-body", type=int, default=MAX_BODY, help="largest call body, in bytes (1 MiB)"
    )
    serve.add_argument(
        "--register",
        default=None,
        metavar="URL",
        help="set the player's callback to URL (its public address) and use the secret "
        "it answers (needs --token or PARLOUR_TOKEN)",
    )
    serve.add_argument("--token", default=os.environ.get("PARLOUR_TOKEN"), help="for --register")
    add_server(serve)
    serve.add_argument("-v", "--verbose", action="store_true", help="log every call")
    serve.set_defaults(func=cmd_bot_serve)

    register = sub.add_parser("register", help="create a player and print its token")
    add_server(register)
    register.add_argument("--name", required=True, help="the player's name")
    register.set_defaults(func=cmd_bot_register)

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
* ``parlour-bot play GAME BOT... --seed S [--option k=v] [--out replay.json]``
  plays a game locally, through the views the server sends, and writes its
  replay (needs the engines: ``pip install ./server/games``; docs/local.md).

``BOT`` is either ``module:Class`` (or ``module:factory``) — your own bot, the
module importable from the current folder — or the name of an installed bot.
Installed bots are Python entry points of the group ``parlour.bots`` (see
:data:`BOT_GROUP`), so any distribution can ship bots and the SDK finds them
without knowing their package: the full Parlour install declares ``random``,
``concerto_signals``, ``seconds`` and the rest in its ``pyproject.toml``.

The token may also come from the ``PARLOUR_TOKEN`` environment variable and
the server from ``PARLOUR_SERVER``, so it need not appear in ``ps`` output.
"""

from __future__ import annotations

import argparse
import importlib
import json
import logging
import os
import random
import sys
from collections.abc import Callable, Mapping, Sequence
from importlib.metadata import entry_points
from typing import Any, cast

from .bot import Bot
from .client import Client
from .endpoint import MAX_BODY, make_app, make_server
from .errors import ParlourError
from .runner import AcceptPolicy, run

DEFAULT_SERVER = "http://127.0.0.1:8000"

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


def _run(bot: Bot, args: argparse.Namespace) -> int:
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
    return _run(bot, args)


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


def cmd_token(args: argparse.Namespace) -> int:
    """``token rotate|revoke``: print the new token, or revoke; the exit status."""
    if not args.token:
        print(f"a token is needed: --token T or {args.token_env}", file=sys.stderr)
        return 2
    with Client(args.server, args.token) as client:
        tokens = client.tokens
        try:
            if args.token_command == "rotate":
                new: Mapping[str, Any]
                if args.app:
                    new = tokens.rotate_app(args.app, args.keep_webhooks)
                elif args.player:
                    new = tokens.rotate_player(args.player, args.keep_callback)
                else:
                    new = tokens.rotate(args.keep_callback)
                print(new["token"])
                print(f"{new['id']}: the token above is shown once; the old one is dead",
                      file=sys.stderr)  # fmt: skip
                _say_callback(new.get("callback"))
                _say_webhooks(new.get("webhooks"))
            elif args.app:
                tokens.revoke_app(args.app)
            elif args.player:
                tokens.revoke_player(args.player)
            else:
                tokens.revoke()
        except ParlourError as exc:
            print(f"token {args.token_command} failed: {exc}", file=sys.stderr)
            return 1
    return 0


def _say_callback(callback: Mapping[str, Any] | None) -> None:
    """What a rotation did to the player's callback, on standard error."""
    if not callback:
        return
    if callback.get("kept"):
        print(f"callback {callback['url']} kept; its new secret (shown once): "
              f"{callback['secret']}", file=sys.stderr)  # fmt: skip
    else:
        print(f"callback {callback['url']} removed with the old token: set it again with "
              "`parlour-bot callback set URL`", file=sys.stderr)  # fmt: skip


def _say_webhooks(webhooks: object) -> None:
    """What an app token's rotation did to the app's webhooks, on standard error."""
    if not isinstance(webhooks, Mapping) or not webhooks.get("count"):
        return
    if webhooks.get("kept"):
        print(f"{webhooks['count']} webhook(s) kept: list them and remove any you did not add",
              file=sys.stderr)  # fmt: skip
    else:
        print(f"{webhooks['count']} webhook(s) removed with the old token: add them again",
              file=sys.stderr)  # fmt: skip


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


_Subparsers = argparse._SubParsersAction  # what ``ArgumentParser.add_subparsers()`` returns


def add_bot_subcommands(sub: _Subparsers[argparse.ArgumentParser]) -> None:
    """Add ``run``, ``serve``, ``register``, ``token`` and ``callback`` to ``sub``; each
    sets ``func(args) -> exit status``."""
    run_parser = sub.add_parser("run", help="play every game a player is seated in")
    run_parser.add_argument("bot", help=f"{' | '.join(bot_names())} | module:Class")
    _add_run_options(run_parser)
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
    _add_server(serve)
    serve.add_argument("-v", "--verbose", action="store_true", help="log every call")
    serve.set_defaults(func=cmd_bot_serve)

    register = sub.add_parser("register", help="create a player and print its token")
    _add_server(register)
    register.add_argument("--name", required=True, help="the player's name")
    register.set_defaults(func=cmd_bot_register)

    add_token_command(sub, "PARLOUR_TOKEN")
    add_callback_command(sub)
    add_play_command(sub)
    add_archive_command(sub)


def cmd_callback(args: argparse.Namespace) -> int:
    """``callback set URL|show|rotate|remove``: the player's callback; the exit status.

    ``set`` and ``rotate`` print the new secret alone on stdout, once (the server
    shows it only then); the rest goes to stderr.
    """
    if not args.token:
        print("a token is needed: --token T or PARLOUR_TOKEN", file=sys.stderr)
        return 2
    with Client(args.server, args.token) as client:
        players = client.players
        try:
            if args.callback_command in ("set", "rotate"):
                new = (
                    players.set_callback(args.url)
                    if args.callback_command == "set"
                    else players.rotate_callback_secret()
                )
                print(new["secret"])
                print(f"callback {new['url']}: the secret above is shown once", file=sys.stderr)
            elif args.callback_command == "show":
                now = players.callback()
                print(f"{now['url']} (secret ...{now['secret_hint']}, since {now['since']})")
            else:
                players.remove_callback()
        except ParlourError as exc:
            print(f"callback {args.callback_command} failed: {exc}", file=sys.stderr)
            return 1
    return 0


def add_callback_command(sub: _Subparsers[argparse.ArgumentParser]) -> None:
    """Add ``callback set URL|show|rotate|remove`` to ``sub`` (docs/callbacks.md)."""
    callback = sub.add_parser("callback", help="the URL the server POSTs your turns to")
    actions = callback.add_subparsers(dest="callback_command", required=True)
    for name, text in (
        ("set", "set or replace the callback; print its new secret (shown once)"),
        ("show", "the callback's URL, the secret's last characters, since when"),
        ("rotate", "print a new secret; the old one stops at once"),
        ("remove", "the server stops calling; streams and long-polls play again"),
    ):
        action = actions.add_parser(name, help=text)
        if name == "set":
            action.add_argument("url", help="the bot's public https:// address")
        _add_server(action)
        action.add_argument(
            "--token",
            default=os.environ.get("PARLOUR_TOKEN"),
            help="your token (env PARLOUR_TOKEN)",
        )
        action.set_defaults(func=cmd_callback)


def add_token_command(sub: _Subparsers[argparse.ArgumentParser], token_env: str) -> None:
    """Add ``token rotate|revoke`` to ``sub``; the token defaults to ``$token_env``."""
    token = sub.add_parser("token", help="rotate or revoke a token")
    actions = token.add_subparsers(dest="token_command", required=True)
    for name, text in (
        ("rotate", "print a new token; the old one stops working at once"),
        ("revoke", "the token stops working at once"),
    ):
        action = actions.add_parser(name, help=text)
        _add_server(action)
        action.add_argument(
            "--token", default=os.environ.get(token_env), help=f"your token (env {token_env})"
        )
        whose = action.add_mutually_exclusive_group()
        whose.add_argument("--player", help="another player's token (admin)")
        whose.add_argument("--app", help="an app's token (the app itself, or the admin)")
        if name == "rotate":
            action.add_argument(
                "--keep-callback",
                action="store_true",
                help="keep the player's callback, with a new secret (printed once); "
                "by default it is removed with the old token",
            )
            action.add_argument(
                "--keep-webhooks",
                action="store_true",
                help="with --app: keep the app's webhooks (list them and remove any you "
                "did not add); by default they are removed with the old token",
            )
        action.set_defaults(
            func=cmd_token, token_env=token_env, keep_callback=False, keep_webhooks=False
        )


def add_bot_commands(subparsers: _Subparsers[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    """Add ``bot run`` and ``bot register`` to an ``add_subparsers()`` object.

    Each leaf sets ``func``, called with the parsed namespace, returning the
    exit status, as ``server/processes/cli.py`` does for its own commands.
    """
    bot = subparsers.add_parser("bot", help="run or register a bot")
    add_bot_subcommands(bot.add_subparsers(dest="bot_command", required=True))
    return bot


def add_play_command(sub: _Subparsers[argparse.ArgumentParser]) -> None:
    """Add ``play``: a local match (:mod:`client_sdk.local`), the engines imported on use."""
    play = sub.add_parser(
        "play",
        help="play a game locally, exactly as the server would, and write its replay",
        description="Bots play GAME on this machine through the views the server sends; "
        "the replay is the server's GET /v1/games/{id}/replay. Needs the engines "
        "(pip install ./server/games).",
    )
    play.add_argument("game", help="concerto | seconds | cowpoke | pinochle | ...")
    play.add_argument(
        "bots",
        nargs="+",
        metavar="BOT",
        help="module:Class or an installed bot's name, one per seat (fewer: in turn around "
        "the table; for a game whose table size is an option, their number sets it)",
    )
    play.add_argument(
        "--seed",
        required=True,
        help="the deal seed (the server's POST /v1/games with the same seed deals the same cards)",
    )
    play.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a game option, the value read as JSON (repeatable): hands=3",
    )
    play.add_argument(
        "--out",
        default=None,
        metavar="FILE",
        help="write the replay here (JSON; JSON Lines, one per play, with --rotate or --games)",
    )
    play.add_argument(
        "--move-time",
        type=_seconds,
        default=None,
        metavar="SECONDS",
        help="time per move; past it the move clock's default move is made",
    )
    play.add_argument(
        "--rotate",
        action="store_true",
        help="play every rotation of the seats (two bots in a partnership game: "
        "duplicate, each deal with the sides swapped) and report each bot",
    )
    play.add_argument(
        "--games",
        type=int,
        default=1,
        help="seeded games (SEED/0, SEED/1, ...), each in every rotation",
    )
    play.set_defaults(func=cmd_play)


def add_archive_command(sub: _Subparsers[argparse.ArgumentParser]) -> None:
    """Add ``archive``: download finished games' replays as JSON Lines (``GET /v1/archive``)."""
    archive = sub.add_parser(
        "archive",
        help="download the replays of a ladder's, a tournament's or a period's finished games",
        description="Write one replay per line (GET /v1/games/{id}/replay of each finished "
        "game; boards still in play are left out), following every page, with progress "
        "on stderr. A line replays locally: client_sdk.local.replay_match.",
    )
    which = archive.add_mutually_exclusive_group(required=True)
    which.add_argument("--ladder", metavar="ID", help="a ladder's games")
    which.add_argument("--tournament", metavar="ID", help="a tournament's games")
    which.add_argument(
        "--since", metavar="TIME", help="games that ended at or after TIME (ISO 8601 with offset)"
    )
    archive.add_argument("--until", metavar="TIME", help="with --since: games that ended before")
    archive.add_argument("--out", required=True, metavar="FILE", help="the JSON Lines file")
    archive.add_argument("--limit", type=int, default=None, help="replays per page (1..50)")
    _add_server(archive)
    archive.set_defaults(func=cmd_archive)


def cmd_archive(args: argparse.Namespace) -> int:
    """``archive``: write every page's replays to ``--out``; the exit status."""
    if args.until is not None and args.since is None:
        print("--until goes with --since", file=sys.stderr)
        return 2

    def progress(pages: int, replays: int) -> None:
        print(f"page {pages}: {replays} replays", file=sys.stderr)

    written = 0
    try:
        with Client(args.server) as client, open(args.out, "w") as out:
            for replay in client.games.archive(
                ladder=args.ladder,
                tournament=args.tournament,
                since=args.since,
                until=args.until,
                limit=args.limit,
                on_page=progress,
            ):
                out.write(json.dumps(replay, separators=(",", ":")) + "\n")
                written += 1
    except ParlourError as exc:
        print(f"archive failed: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"cannot write {args.out}: {exc.strerror}", file=sys.stderr)
        return 1
    print(f"{written} replays written to {args.out}", file=sys.stderr)
    return 0


def _seconds(text: str) -> float:
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not seconds > 0:
        raise argparse.ArgumentTypeError(f"a number of seconds above 0, not {text!r}")
    return seconds


def cmd_play(args: argparse.Namespace) -> int:
    """``play``: one local match (or a rotation match) and its replay; the exit status."""
    from . import local

    if not local.engines_installed():
        print(local.INSTALL_HINT, file=sys.stderr)
        return 2
    try:
        options = dict(local.parse_option(text) for text in args.option)
        for spec in dict.fromkeys(args.bots):
            load_bot(spec)  # a bad name fails before any game
        if args.rotate or args.games > 1:
            return _play_rotation(args, options)
        names, options = local.seating(args.game, args.bots, options)
        bots = [load_bot(spec, random.Random(f"{args.seed}/{s}")) for s, spec in enumerate(names)]
        match = local.play_match(
            args.game,
            bots,
            seed=args.seed,
            options=options,
            move_time=args.move_time,
            names=names,
        )
        if args.out:
            with open(args.out, "w", encoding="utf-8") as out:
                json.dump(match.replay, out)
    except ValueError as exc:  # the engines' GameError is a ValueError too
        print(str(exc), file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"cannot write {args.out}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    replay = match.replay
    winners = replay["result"]["winners"]
    for seat in replay["seats"]:
        s = seat["seat"]
        mark = "  (won)" if s in winners else ""
        extra = "".join(
            f", {n} {what}"
            for what, n in (
                ("timeouts", match.timeouts.get(s, 0)),
                ("illegal", match.illegal.get(s, 0)),
            )
            if n
        )
        print(f"seat {s} {seat['name']}: {replay['result']['scores'][s]}{mark}{extra}")
    print(f"{len(match.moves)} moves" + (f"; replay in {args.out}" if args.out else ""))
    return 0


def _play_rotation(args: argparse.Namespace, options: dict[str, Any]) -> int:
    """``play --rotate`` / ``--games N``: the arena's seat rotation, through the local runner."""
    from . import local

    factories = {spec: bot_factory(spec) for spec in dict.fromkeys(args.bots)}
    names = list(args.bots)
    out = open(args.out, "w", encoding="utf-8") if args.out else None  # noqa: SIM115
    try:

        def written(played: local.LocalMatch) -> None:
            if out is not None:
                out.write(json.dumps(played.replay) + "\n")

        report = local.rotation_match(
            args.game,
            factories,
            names,
            args.games,
            seed=args.seed,
            options=options,
            move_time=args.move_time,
            rotate=args.rotate,
            on_play=written,
        )
    finally:
        if out is not None:
            out.close()
    print(report.summary())
    return 0


def bot_main(make_bot: Callable[[random.Random], Bot], argv: Sequence[str] | None = None) -> int:
    """The ``main`` of ``python -m bots.<name> --server URL --token T``."""
    parser = argparse.ArgumentParser(description="run a Parlour bot")
    _add_run_options(parser)
    args = parser.parse_args(argv)
    return _run(make_bot(random.Random(args.seed)), args)


def main(argv: Sequence[str] | None = None) -> int:
    """``parlour-bot run|serve|callback|register|token|play|archive ...``: the bot commands,
    SDK alone.

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


if __name__ == "__main__":
    sys.exit(main())

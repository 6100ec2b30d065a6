"""The game-record commands: ``play`` (a local match through :mod:`client_sdk.local`, or
a rotation match) and ``archive`` (finished games' replays as JSON Lines)."""

from __future__ import annotations

import argparse
import json
import random
import sys
from typing import Any

from ..client import Client
from ..errors import ParlourError
from .loading import bot_factory, load_bot
from .matches import cmd_replay_deals
from .options import Subparsers, add_server


def add_play_command(sub: Subparsers[argparse.ArgumentParser]) -> None:
    """Add ``play``: a local match (:mod:`client_sdk.local`), the engines imported on use."""
    play = sub.add_parser(
        "play",
        help="play a game locally, exactly as the server would, and write its replay",
        description="Bots play GAME on this machine through the views the server sends; "
        "the replay is the server's GET /v1/games/{id}/replay. Needs the engines "
        "(pip install ./server/games).",
    )
    play.add_argument(
        "game",
        nargs="?",
        help="a game id of the engines (GET /v1/rules lists them; not with --deals)",
    )
    play.add_argument(
        "bots",
        nargs="*",
        metavar="BOT",
        help="module:Class or an installed bot's name, one per seat (fewer: in turn around "
        "the table; for a game whose table size is an option, their number sets it)",
    )
    play.add_argument(
        "--deals",
        default=None,
        metavar="FILE",
        help="play a regression set (parlour-bot test's, or a server match's) again: its "
        "game and bots as recorded, or give two bots, NEW OLD",
    )
    play.add_argument(
        "--seed",
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
    from .. import local

    if args.deals is not None:  # GAME and BOT read as NEW OLD: the bots to play the set
        given = [a for a in (args.game, *args.bots) if a is not None]
        if given and len(given) != 2:
            print("--deals FILE takes no bots (the file's) or two: NEW OLD", file=sys.stderr)
            return 2
        return cmd_replay_deals(args.deals, given or None)
    if args.game is None or not args.bots or args.seed is None:
        print("play needs GAME, at least one BOT and --seed (or --deals FILE)", file=sys.stderr)
        return 2
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
    from .. import local

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


def add_archive_command(sub: Subparsers[argparse.ArgumentParser]) -> None:
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
    add_server(archive)
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

"""``parlour-bot event ...``: run a tournament as an event (a class, a club night) from
the command line, over the SDK (``client.tournaments``; docs/organisers.md).

* ``event create GAME [--format F] [--name N] [--option k=v] [--rounds N]
  [--seats-per-entry N] [--move-seconds S]`` prints the new tournament's id; without
  ``--format`` the server picks duplicate for a partnership game, else round_robin,
  and the command says which on stderr;
* ``event roster ID FILE.csv`` makes a player of every row (``name``, optional
  ``team``) and enters them; prints ``entry,team,name,player_id,token`` as CSV (the
  tokens are shown this once: hand each to its student);
* ``event enter ID PLAYER... [--name TEAM]`` enters one entry (``bot:<name>`` for a
  house bot: a reference entry, unrated);
* ``event code ID`` prints a new join code; ``event join ID --code C [--name TEAM]
  [--partner P]...`` enters the token's own player (with its partners, who are
  invited) where the organiser hands out a code instead of a roster;
* ``event close ID``, ``event start ID``;
* ``event watch ID`` prints a progress line whenever it changes, then the standings;
* ``event withdraw ID ENTRY``; ``event void ID ROUND [--table T]...``;
* ``event export ID [--format csv|json] [--part standings|crosstable|games]
  [--out FILE]``.

Every command takes ``--server`` and ``--token`` (or ``PARLOUR_SERVER``,
``PARLOUR_TOKEN``): the organiser's token, or the admin's.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..client import Client
from ..errors import ParlourError
from ..organise import progress_line, standings_table
from .options import Subparsers, add_server


def _option(text: str) -> tuple[str, Any]:
    name, sep, raw = text.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"expected name=value, not {text!r}")
    try:
        return name, json.loads(raw)
    except ValueError:
        return name, raw


def _create(client: Client, args: argparse.Namespace) -> int:
    settings: dict[str, Any] = {"name": args.name, "rounds": args.rounds}
    if args.seats_per_entry:
        settings["seats_per_entry"] = args.seats_per_entry
    if args.move_seconds:
        settings["clock"] = {"move_seconds": args.move_seconds}
    made = client.tournaments.create(args.game, args.format, options=dict(args.option), **settings)
    if args.format is None:  # the server's pick, on stderr: stdout is the id alone
        why = "a partnership game" if made["format"] == "duplicate" else "no fixed sides"
        print(f"format: {made['format']} ({why})", file=sys.stderr)
    print(made["id"])
    return 0


def _roster(client: Client, args: argparse.Namespace) -> int:
    text = Path(args.file).read_text(encoding="utf-8")
    made = client.tournaments.roster(args.id, csv=text)
    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(["entry", "team", "name", "player_id", "token"])
    held = 0
    for row in made["entries"]:
        entry = row["entry"]
        held += bool(entry["pending"])
        for player in row["players"]:
            out.writerow([entry["id"], entry["name"] or "", player["name"], player["id"],
                          player["token"]])  # fmt: skip
    print("the tokens above are shown once: hand each to its player", file=sys.stderr)
    if held:
        print(f"{held} entries wait for their players to accept the invitation "
              "(`parlour-bot run ... --accept-invitations anyone` accepts it)",
              file=sys.stderr)  # fmt: skip
    return 0


def _enter(client: Client, args: argparse.Namespace) -> int:
    entry = client.tournaments.enter_named(args.id, args.players, args.name)
    kind = " (reference: unrated)" if entry.get("reference") else ""
    pending = f"; waiting for {', '.join(entry['pending'])}" if entry["pending"] else ""
    print(f"{entry['id']}{kind}{pending}")
    return 0


def _code(client: Client, args: argparse.Namespace) -> int:
    print(client.tournaments.join_code(args.id)["code"])
    return 0


def _join(client: Client, args: argparse.Namespace) -> int:
    me = client.players.me()["id"]
    entry = client.tournaments.enter_named(args.id, [me, *args.partner], args.name, args.code)
    pending = f"; waiting for {', '.join(entry['pending'])}" if entry["pending"] else ""
    print(f"{entry['id']}{pending}")
    return 0


def _close(client: Client, args: argparse.Namespace) -> int:
    client.tournaments.close(args.id)
    print("registration closed")
    return 0


def _start(client: Client, args: argparse.Namespace) -> int:
    page = client.tournaments.start(args.id)
    print(progress_line(page))
    return 0


def _watch(client: Client, args: argparse.Namespace) -> int:
    deadline = None if args.timeout is None else time.monotonic() + args.timeout
    last = ""
    while True:
        page = client.tournaments.get(args.id)
        line = progress_line(page)
        if line != last:
            print(line, flush=True)
            last = line
        if page["status"] in ("finished", "aborted"):
            print(standings_table(page))
            return 0 if page["status"] == "finished" else 1
        if deadline is not None and time.monotonic() > deadline:
            print(f"still {page['status']} after {args.timeout} s", file=sys.stderr)
            return 1
        time.sleep(args.interval)


def _withdraw(client: Client, args: argparse.Namespace) -> int:
    client.tournaments.withdraw(args.id, args.entry)
    print(f"{args.entry} withdrawn")
    return 0


def _void(client: Client, args: argparse.Namespace) -> int:
    answer = client.tournaments.void(args.id, args.round, args.table or None)
    for game_id in answer["voided"]:
        print(f"voided {game_id}: the table is played again")
    return 0


def _export(client: Client, args: argparse.Namespace) -> int:
    if args.format == "json":
        text = json.dumps(client.tournaments.sheets(args.id), indent=2, ensure_ascii=False) + "\n"
    else:
        text = client.tournaments.sheet_csv(args.id, args.part)
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


COMMANDS: dict[str, Callable[[Client, argparse.Namespace], int]] = {
    "create": _create, "roster": _roster, "enter": _enter, "code": _code, "join": _join,
    "close": _close, "start": _start,
    "watch": _watch, "withdraw": _withdraw, "void": _void, "export": _export,
}  # fmt: skip


def cmd_event(args: argparse.Namespace) -> int:
    """``event <command>``: the exit status (1 and the server's words when it refuses)."""
    if not args.token:
        print("a token is needed: --token T or PARLOUR_TOKEN", file=sys.stderr)
        return 2
    with Client(args.server, args.token) as client:
        try:
            return COMMANDS[args.event_command](client, args)
        except ParlourError as exc:
            print(f"event {args.event_command} failed: {exc}", file=sys.stderr)
            return 1
        except OSError as exc:
            print(f"event {args.event_command}: {exc}", file=sys.stderr)
            return 1


def add_event_command(sub: Subparsers[argparse.ArgumentParser]) -> None:
    """Add ``event create|roster|enter|code|join|close|start|watch|withdraw|void|export``."""
    event = sub.add_parser("event", help="run a tournament as an event (a class, a club)")
    leaves = event.add_subparsers(dest="event_command", required=True)

    def leaf(name: str, helptext: str, *ids: str) -> argparse.ArgumentParser:
        parser = leaves.add_parser(name, help=helptext)
        add_server(parser)
        parser.add_argument(
            "--token",
            default=os.environ.get("PARLOUR_TOKEN"),
            help="the organiser's (or the admin's) token (env PARLOUR_TOKEN)",
        )
        for arg in ids:
            parser.add_argument(arg)
        parser.set_defaults(func=cmd_event)
        return parser

    create = leaf("create", "create a tournament; prints its id", "game")
    create.add_argument(
        "--format",
        default=None,
        choices=["round_robin", "swiss", "knockout", "duplicate"],
        help="default: duplicate for a partnership game, else round_robin",
    )
    create.add_argument("--name", default=None)
    create.add_argument(
        "--option",
        type=_option,
        action="append",
        default=[],
        help="a game option, the value read as JSON (repeatable): deals=1",
    )
    create.add_argument("--rounds", type=int, default=None)
    create.add_argument("--seats-per-entry", type=int, default=None)
    create.add_argument("--move-seconds", type=float, default=None)
    leaf("roster", "make and enter the players of a CSV roster (name,team)", "id", "file")
    enter = leaf("enter", "enter one entry (bot:<name> for a house bot)", "id")
    enter.add_argument("players", nargs="+")
    enter.add_argument("--name", default=None, help="the entry's team name")
    leaf("code", "a new join code (the old one stops working)", "id")
    join = leaf("join", "enter yourself (and your partners) with the join code", "id")
    join.add_argument("--code", required=True)
    join.add_argument("--name", default=None, help="your team's name")
    join.add_argument("--partner", action="append", default=[], help="a partner's player id")
    leaf("close", "close registration", "id")
    leaf("start", "start the tournament", "id")
    watch = leaf("watch", "print progress until it finishes, then the standings", "id")
    watch.add_argument("--interval", type=float, default=2.0)
    watch.add_argument("--timeout", type=float, default=None)
    leaf("withdraw", "withdraw an entry", "id", "entry")
    void = leaf("void", "void tables of a round to have them replayed", "id")
    void.add_argument("round", type=int, help="0 for the first round")
    void.add_argument(
        "--table",
        type=int,
        action="append",
        default=[],
        help="a table to void (repeatable; default every table of the round)",
    )
    export = leaf("export", "the standings, cross-table or games as CSV, or all as JSON", "id")
    export.add_argument("--format", choices=["csv", "json"], default="csv")
    export.add_argument("--part", choices=["standings", "crosstable", "games"],
                        default="standings")  # fmt: skip
    export.add_argument("--out", default=None, help="write to this file (default stdout)")

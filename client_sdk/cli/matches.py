"""``parlour-bot test NEW OLD --game G``: is NEW better than OLD, on duplicate boards played
here on every core, judged by the sequential test (:mod:`client_sdk.local.sequential`);
and ``parlour-bot play --deals FILE``, which plays a regression set's boards again."""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import sys
from collections.abc import Iterator
from typing import Any

from .loading import BotFactory, bot_factory, load_bot
from .options import Subparsers

_FACTORIES: dict[str, BotFactory] = {}


def add_test_command(sub: Subparsers[argparse.ArgumentParser]) -> None:
    """Add ``test``: a sequential test of NEW against OLD, locally (the engines on use)."""
    test = sub.add_parser(
        "test",
        help="is NEW better than OLD? duplicate boards played locally until a sequential "
        "test decides",
        description="Each board is one deal played at every seating of NEW and OLD (two "
        "tables, cards swapped, in a two-side game); after each board a sequential test "
        "(SPRT, bounds in units of the spread of the per-board difference) passes, fails or "
        "goes on, up to --max-boards. Needs the engines (pip install ./server/games).",
    )
    test.add_argument("new", metavar="NEW", help="module:Class or an installed bot's name")
    test.add_argument("old", metavar="OLD", help="module:Class or an installed bot's name")
    test.add_argument("--game", required=True, help="concerto | seconds | cowpoke | ...")
    test.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                      help="a game option, the value read as JSON (repeatable)")  # fmt: skip
    test.add_argument("--seed", default="test", help="board N is dealt from SEED/N")
    test.add_argument("--e0", type=float, default=0.0, help="H0: effect ≤ e0 (σ units)")
    test.add_argument("--e1", type=float, default=0.2, help="H1: effect ≥ e1 (σ units)")
    test.add_argument("--alpha", type=float, default=0.05, help="false pass rate")
    test.add_argument("--beta", type=float, default=0.05, help="false fail rate")
    test.add_argument("--max-boards", type=int, default=1000, help="the cap: inconclusive")
    test.add_argument("--plain", action="store_true",
                      help="one table a board (no duplicate): for comparison")  # fmt: skip
    test.add_argument("--par", action="store_true",
                      help="subtract each seat's par first (games with par: Concerto)")  # fmt: skip
    test.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes")
    test.add_argument("--deals-out", default="regression.json", metavar="FILE",
                      help="where the boards NEW lost go (JSON; replay: play --deals)")  # fmt: skip
    test.set_defaults(func=cmd_test)


Job = tuple[str, str, int, str, dict[str, Any], str, str, bool]


def _board(job: Job) -> Any:
    """One board in a worker process (the bots loaded there, once)."""
    from .. import local

    game, seed, number, mode, options, new, old, par = job
    for spec in (new, old):
        if spec not in _FACTORIES:
            _FACTORIES[spec] = bot_factory(spec)
    bots = {local.NEW: _FACTORIES[new], local.OLD: _FACTORIES[old]}
    return local.play_board(game, bots, number, seed=seed, options=options, mode=mode,
                            par_adjusted=par)  # fmt: skip


def cmd_test(args: argparse.Namespace) -> int:
    """``test``: boards on every core until the test decides; 0 pass, 1 fail or inconclusive."""
    from .. import local

    if not local.engines_installed():
        print(local.INSTALL_HINT, file=sys.stderr)
        return 2
    try:
        options = dict(local.parse_option(text) for text in args.option)
        load_bot(args.new), load_bot(args.old)  # a bad name fails before any board
        _, options = local.seating(args.game, [local.NEW, local.OLD], options)
        report = local.TestReport(
            args.game, options, args.new, args.old, args.e0, args.e1, args.alpha, args.beta,
            args.max_boards, args.seed, local.PLAIN if args.plain else local.DUPLICATE, args.par,
        )  # fmt: skip
        report.state()  # bad bounds or rates fail here
        if args.max_boards < 2:
            raise ValueError("--max-boards: at least 2")
    except ValueError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    jobs: Iterator[Job] = ((args.game, args.seed, n, report.mode, options, args.new, args.old,
                            args.par) for n in range(args.max_boards))  # fmt: skip
    pool = multiprocessing.Pool(args.jobs) if args.jobs > 1 else None  # 1: in this process
    try:
        boards = map(_board, jobs) if pool is None else pool.imap(_board, jobs)
        local.run_test(report, boards, lambda r: print(r.line(), flush=True))
    except ValueError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    finally:
        if pool is not None:
            pool.terminate()
    verdict = report.verdict
    kept = report.regression_set()
    try:
        with open(args.deals_out, "w", encoding="utf-8") as out:
            json.dump(kept, out, indent=1)
    except OSError as exc:
        print(f"cannot write {args.deals_out}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    print(f"{verdict}: {args.new} vs {args.old} after {len(report.boards)} boards; "
          f"{len(kept['boards'])} lost boards in {args.deals_out}")  # fmt: skip
    return 0 if verdict == "pass" else 1


def cmd_replay_deals(path: str, specs: list[str] | None = None) -> int:
    """``play --deals FILE [NEW OLD]``: play a regression set again, with the file's bots
    or ``specs``; 0 when every board scores as kept."""
    from .. import local

    if not local.engines_installed():
        print(local.INSTALL_HINT, file=sys.stderr)
        return 2
    try:
        with open(path, encoding="utf-8") as f:
            regression = json.load(f)
        if not isinstance(regression, dict):
            raise ValueError(f"{path}: not a regression set")
        named: list[Any] = specs or [regression.get("new"), regression.get("old")]
        if not all(isinstance(n, str) and n for n in named):
            raise ValueError("the set names no bots: play --deals FILE NEW OLD")
        bots = {local.NEW: bot_factory(str(named[0])), local.OLD: bot_factory(str(named[1]))}
        played = local.replay_boards(regression, bots)
    except OSError as exc:
        print(f"cannot read {path}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    except (ValueError, KeyError, TypeError) as exc:
        print(f"{path}: {exc}", file=sys.stderr)
        return 2
    same = 0
    for board, kept in played:
        mark = "same" if board.difference == kept else f"was {kept:+.3f}"
        same += board.difference == kept
        print(f"board {board.number} ({board.seed}): NEW − OLD {board.difference:+.3f} ({mark})")
    print(f"{same} of {len(played)} boards scored as kept")
    return 0 if same == len(played) else 1

"""The ``parlour`` command.

Subcommands:
  demo       play one full Concerto game between random players and print the score sheet
  serve      run the HTTP API under gunicorn (embedded Redis unless REDIS_URL is set),
             with one tournament scheduler alongside (unless --no-scheduler)
  scheduler  run a tournament scheduler on REDIS_URL (several may run at once)
  bot        register a player, or run a bot against a server
  arena      play bots against each other locally, duplicate style
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from collections.abc import Sequence

from server.games import REGISTRY
from server.games.concerto import SIDE_NAMES


def play_random_game(game_id: str, options: dict, seed: str, rng: random.Random):
    """Play a whole game with uniformly random legal moves; return the final state."""
    state = REGISTRY[game_id].new_state(options, seed)
    while not state.is_over():
        seat = state.to_move()[0]
        state.apply(seat, rng.choice(state.legal_moves(seat)))
    return state


def concerto_score_sheet(state) -> str:
    """The deal-by-deal score sheet of a finished Concerto game, as a player would keep it."""
    lines = [
        f"Concerto ({state.options.rules}), target {state.options.target}",
        f"{'deal':>4} {'dealer':>6} | {'hands NS':>8} {'hands EW':>8} | "
        f"{'left NS':>7} {'left EW':>7} | {'bonus NS':>8} {'bonus EW':>8} | "
        f"{'total NS':>8} {'total EW':>8}",
    ]
    for r in state.deal_results:
        hp, lb, gb, sc = r["hand_points"], r["leftover_bonus"], r["game_bonus"], r["scores"]
        lines.append(
            f"{r['deal']:>4} {'NESW'[r['dealer']]:>6} | {hp['NS']:>8} {hp['EW']:>8} | "
            f"{lb['NS']:>7} {lb['EW']:>7} | {gb['NS']:>8} {gb['EW']:>8} | "
            f"{sc['NS']:>8} {sc['EW']:>8}"
        )
    outcome = state.outcome()
    if outcome.is_draw:
        lines.append("Result: a draw")
    else:
        side = SIDE_NAMES[outcome.winners[0] % 2]
        lines.append(f"Result: {side} win ({outcome.termination.value})")
    return "\n".join(lines)


def cmd_demo(args: argparse.Namespace) -> int:
    rng = random.Random(args.seed)
    state = play_random_game("concerto", {"rules": args.rules}, str(args.seed), rng)
    hands = state.completed_hands
    print(f"Hands of the last deal ({len([h for h in hands if h['deal'] == state.deal_number])}):")
    for h in hands:
        if h["deal"] == state.deal_number:
            cards = " ".join(f"{c['card']}({'NESW'[c['seat']]})" for c in h["cards"])
            print(f"  hand {h['number']}: {cards}  -> {h['combination']} {h['points']}")
    print(concerto_score_sheet(state))
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    from server.serve import serve  # imported late: it pulls in gunicorn

    return serve(args)


def cmd_scheduler(args: argparse.Namespace) -> int:
    from server.scheduler.runner import serve_forever  # imported late: networkx, openskill

    if not args.redis_url:
        print("parlour scheduler: set REDIS_URL or pass --redis-url", file=sys.stderr)
        return 2
    return serve_forever(args.redis_url, interval=args.interval, parent_pid=args.parent_pid)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="parlour", description="Parlour card-game server")
    sub = parser.add_subparsers(dest="command", required=True)

    demo = sub.add_parser("demo", help="play a full game between random players")
    demo.add_argument("--seed", default="demo", help="seed of the deals and the players")
    demo.add_argument("--rules", default="parlett-2013", choices=["parlett-2013", "penguin"])
    demo.set_defaults(func=cmd_demo)

    serve = sub.add_parser("serve", help="run the HTTP API")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--workers", type=int, default=2)
    serve.add_argument("--data-dir", default="./var", help="embedded Redis data (AOF)")
    serve.add_argument("--no-scheduler", action="store_true",
                       help="do not run a tournament scheduler alongside the API")
    serve.add_argument("--scheduler-interval", type=float, default=0.1,
                       help="seconds between the scheduler's passes")
    serve.set_defaults(func=cmd_serve)

    scheduler = sub.add_parser("scheduler", help="run a tournament scheduler")
    scheduler.add_argument("--redis-url", default=os.environ.get("REDIS_URL"),
                           help="the API's Redis (default: $REDIS_URL)")
    scheduler.add_argument("--interval", type=float, default=0.1,
                           help="seconds between passes (deadlines are enforced this late)")
    scheduler.add_argument("--parent-pid", type=int, default=None, help=argparse.SUPPRESS)
    scheduler.set_defaults(func=cmd_scheduler)

    # Bots and the arena live outside the server; they are wired in here so one
    # command does everything (they still use only the public API / pure engines).
    from bots.arena import add_arena_command
    from client_sdk.cli import add_bot_commands

    add_bot_commands(sub)
    add_arena_command(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())

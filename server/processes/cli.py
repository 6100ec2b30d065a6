"""The ``parlour`` command.

Subcommands:
  demo       the main job: server + bots + a Concerto tournament, on an embedded Redis
  serve      run the HTTP API under gunicorn (embedded Redis unless REDIS_URL is set),
             with one scheduler, a bot pool, a webhook deliverer and a callback
             dispatcher alongside (unless --no-scheduler, --no-botpool, ...)
  scheduler  run a scheduler on REDIS_URL: move clocks, tournaments, ladders (several
             may run at once)
  botpool    run the server's bots, which play "bot:<name>" seats (serve starts one)
  webhooks   deliver apps' signed webhooks from REDIS_URL (serve starts one)
  dispatch   call the callback players' URLs with their turns, from REDIS_URL (serve
             starts one; several may run at once)
  sandbox    run hosted bots' turns in sandboxes, from REDIS_URL (serve starts one;
             several may run at once, on any number of hosts)
  bot        register a player, or run a bot against a server
  token      rotate or revoke a player's or an app's token (the admin's tool)
  arena      play bots against each other locally, every seat rotation of each deal
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence


def cmd_serve(args: argparse.Namespace) -> int:
    from server.processes.serve import refused_setting, serve  # late: it pulls in gunicorn

    refused = refused_setting()  # before anything starts, with the reason
    if refused is not None:
        print(f"parlour serve: {refused}", file=sys.stderr)
        return 2
    return serve(args)


def cmd_scheduler(args: argparse.Namespace) -> int:
    from server.processes.scheduler import serve_forever  # imported late: networkx, openskill

    if not args.redis_url:
        print("parlour scheduler: set REDIS_URL or pass --redis-url", file=sys.stderr)
        return 2
    return serve_forever(args.redis_url, interval=args.interval, parent_pid=args.parent_pid)


def cmd_botpool(args: argparse.Namespace) -> int:
    from server.processes.botpool import serve_forever  # a client of the API: client_sdk + bots

    return serve_forever(
        args.server, parent_pid=args.parent_pid, wait=args.wait, ladders=not args.no_ladders
    )


def cmd_webhooks(args: argparse.Namespace) -> int:
    from server.processes.webhooks import serve_forever

    if not args.redis_url:
        print("parlour webhooks: set REDIS_URL or pass --redis-url", file=sys.stderr)
        return 2
    return serve_forever(args.redis_url, interval=args.interval, parent_pid=args.parent_pid)


def cmd_dispatch(args: argparse.Namespace) -> int:
    from server.processes.dispatch import serve_forever

    if not args.redis_url:
        print("parlour dispatch: set REDIS_URL or pass --redis-url", file=sys.stderr)
        return 2
    return serve_forever(args.redis_url, parent_pid=args.parent_pid)


def cmd_sandbox(args: argparse.Namespace) -> int:
    from server.processes.sandboxd import serve_forever

    if not args.redis_url:
        print("parlour sandbox: set REDIS_URL or pass --redis-url", file=sys.stderr)
        return 2
    return serve_forever(args.redis_url, parent_pid=args.parent_pid)


# Commands that run server processes. They must not import the HTTP client
# stack (requests -> urllib3 -> ssl) into gunicorn's master before its gevent
# workers monkey-patch, or gevent warns that ssl was imported unpatched.
SERVER_COMMANDS = ("serve", "scheduler", "botpool", "webhooks", "dispatch", "sandbox")


def build_parser(with_clients: bool = True) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="parlour", description="Parlour card-game server")
    sub = parser.add_subparsers(dest="command", required=True)

    serve = sub.add_parser("serve", help="run the HTTP API")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--workers", type=int, default=2)
    serve.add_argument("--data-dir", default="./var", help="embedded Redis data (AOF)")
    serve.add_argument(
        "--no-scheduler",
        action="store_true",
        help="do not run a tournament scheduler alongside the API",
    )
    serve.add_argument(
        "--scheduler-interval",
        type=float,
        default=0.1,
        help="seconds between the scheduler's passes",
    )
    serve.add_argument(
        "--no-botpool",
        action="store_true",
        help='do not run the server\'s bot pool (the "bot:<name>" seats)',
    )
    serve.add_argument(
        "--no-ladders",
        action="store_true",
        help="define no house ladder and enter no house bot on one (PARLOUR_HOUSE_LADDERS=off)",
    )
    serve.add_argument(
        "--no-webhooks",
        action="store_true",
        help="do not run the webhook deliverer alongside the API",
    )
    serve.add_argument(
        "--no-dispatch",
        action="store_true",
        help="do not run the callback dispatcher alongside the API",
    )
    serve.add_argument(
        "--no-sandbox",
        action="store_true",
        help="do not run the hosted bots' sandbox worker alongside the API",
    )
    serve.set_defaults(func=cmd_serve)

    scheduler = sub.add_parser("scheduler", help="run a tournament scheduler")
    scheduler.add_argument(
        "--redis-url",
        default=os.environ.get("REDIS_URL"),
        help="the API's Redis (default: $REDIS_URL)",
    )
    scheduler.add_argument(
        "--interval",
        type=float,
        default=0.1,
        help="seconds between passes (deadlines are enforced this late)",
    )
    scheduler.add_argument("--parent-pid", type=int, default=None, help=argparse.SUPPRESS)
    scheduler.set_defaults(func=cmd_scheduler)

    botpool = sub.add_parser("botpool", help='run the server\'s bots (the "bot:<name>" seats)')
    botpool.add_argument(
        "--server",
        default=os.environ.get("PARLOUR_SERVER", "http://127.0.0.1:8000"),
        help="the API root (admin token from $PARLOUR_ADMIN_TOKEN)",
    )
    botpool.add_argument(
        "--wait",
        type=float,
        default=3.0,
        help="long-poll seconds (short: serve's stop waits for them)",
    )
    botpool.add_argument(
        "--no-ladders",
        action="store_true",
        help="define no house ladder and enter no house bot on one (PARLOUR_HOUSE_LADDERS=off)",
    )
    botpool.add_argument("--parent-pid", type=int, default=None, help=argparse.SUPPRESS)
    botpool.set_defaults(func=cmd_botpool)

    webhooks = sub.add_parser("webhooks", help="deliver apps' webhooks (signed, retried)")
    webhooks.add_argument(
        "--redis-url",
        default=os.environ.get("REDIS_URL"),
        help="the API's Redis (default: $REDIS_URL)",
    )
    webhooks.add_argument(
        "--interval", type=float, default=0.1, help="seconds between looks at the queue when idle"
    )
    webhooks.add_argument("--parent-pid", type=int, default=None, help=argparse.SUPPRESS)
    webhooks.set_defaults(func=cmd_webhooks)

    dispatch = sub.add_parser(
        "dispatch", help="call callback players' URLs with their turns (several may run)"
    )
    dispatch.add_argument(
        "--redis-url",
        default=os.environ.get("REDIS_URL"),
        help="the API's Redis (default: $REDIS_URL)",
    )
    dispatch.add_argument("--parent-pid", type=int, default=None, help=argparse.SUPPRESS)
    dispatch.set_defaults(func=cmd_dispatch)

    sandbox = sub.add_parser(
        "sandbox", help="run hosted bots' turns, each seat sandboxed (several may run)"
    )
    sandbox.add_argument(
        "--redis-url",
        default=os.environ.get("REDIS_URL"),
        help="the API's Redis (default: $REDIS_URL)",
    )
    sandbox.add_argument("--parent-pid", type=int, default=None, help=argparse.SUPPRESS)
    sandbox.set_defaults(func=cmd_sandbox)

    if not with_clients:
        return parser
    # The demo, bots and the arena are clients of the server; they are wired in
    # here so that one command does everything (they use only the public API).
    from bots.tools.arena import add_arena_command
    from client_sdk.cli import add_bot_commands, add_token_command
    from server.processes.demo import add_demo_command

    add_demo_command(sub)
    add_bot_commands(sub)
    add_token_command(sub, "PARLOUR_ADMIN_TOKEN")
    add_arena_command(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    with_clients = not argv or argv[0] not in SERVER_COMMANDS
    args = build_parser(with_clients).parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())

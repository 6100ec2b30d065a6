"""``make demo``: the main job, end to end, on one machine.

1. ``parlour serve`` starts as a child process: gunicorn with gevent workers,
   an embedded real Redis (AOF on) in a temporary folder, and the tournament
   scheduler beside it.
2. Eight players register over HTTP; each is driven by a bot from ``bots/``
   through ``client_sdk`` in a thread of this process, exactly as a remote bot
   would run (long-polling ``GET /v1/me/turns``).
3. The admin organises a Concerto tournament of four partnerships; the
   scheduler pairs the rounds, creates the games, enforces the move clock and
   rates the results. Progress prints as games finish.
4. The standings, the rating leaderboard and the score sheet of one game are
   printed, and everything is stopped; the last lines say what to run next
   (:data:`NEXT_STEPS`: ``make serve``, the lobby, the bot tutorials).

The server also starts with one ladder per game (its main edition, default
options), house bots entered on each by its bot pool, so ``parlour bot run NAME
--ladder ID`` is matched at once (docs/ladder.md; as on ``make serve``, whose
ladders outlive a restart); the demo's own bots play the tournament only.
"""

from __future__ import annotations

import argparse
import random
import tempfile
import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from client_sdk import Client
from client_sdk.cli import load_bot
from client_sdk.organise import leaderboard_table, organise, standings_table, wait_finished
from client_sdk.runner import Runner
from server.games import ANY_GAME_BOTS, REGISTRY, Game
from server.processes.botpool import ladder_name
from server.processes.served import Served, free_port

# Four partnerships: (bot, bot). The same program may back both seats of a
# side, but each seat is its own player with its own token and view.
LINE_UP = [("concerto_signals", "concerto_signals"), ("concerto_greedy", "concerto_greedy"),
           ("random", "random"), ("concerto_signals", "concerto_greedy")]  # fmt: skip


def game_of(line_up: Sequence[Sequence[str]]) -> Game:
    """The game the line-up plays: the one whose house bots (its Game record's) include
    every bot of the line-up that is not a bot of every game.

    >>> game_of(LINE_UP).title
    'Concerto'
    """
    named = {bot for pair in line_up for bot in pair} - set(ANY_GAME_BOTS)
    (game,) = (g for g in REGISTRY.values() if named <= set(g.house_bots))
    return game


GAME = game_of(LINE_UP)


def score_sheet(view: Mapping[str, Any]) -> str:
    """The deal-by-deal score sheet of a Concerto game, from its (public) view."""
    state = view["state"]
    lines = [
        f"{'deal':>4} {'dealer':>6} | {'hands NS':>8} {'hands EW':>8} | "
        f"{'left NS':>7} {'left EW':>7} | {'bonus NS':>8} {'bonus EW':>8} | "
        f"{'total NS':>8} {'total EW':>8}",
    ]
    for r in state["deal_results"]:
        hp, lb, gb, sc = r["hand_points"], r["leftover_bonus"], r["game_bonus"], r["scores"]
        lines.append(
            f"{r['deal']:>4} {'NESW'[r['dealer']]:>6} | {hp['NS']:>8} {hp['EW']:>8} | "
            f"{lb['NS']:>7} {lb['EW']:>7} | {gb['NS']:>8} {gb['EW']:>8} | "
            f"{sc['NS']:>8} {sc['EW']:>8}"
        )
    result = view.get("result")
    if result:
        winners = result["winners"]
        lines.append(
            "Result: a draw"
            if not winners
            else f"Result: {'NS' if winners[0] % 2 == 0 else 'EW'} win "
            f"({result.get('termination', 'finished')})"
        )
    return "\n".join(lines)


def _progress_printer():
    last: list[tuple[int, int, int]] = []

    def show(page: Mapping[str, Any]) -> None:
        p = page["progress"]
        now = (p["rounds"], p["games_finished"], p["games_planned"])
        if not last or now != last[-1]:
            last.append(now)
            planned = page.get("rounds_planned") or "?"
            print(
                f"  round {p['rounds']}/{planned}: {p['games_finished']} of "
                f"{p['games_planned']} games finished",
                flush=True,
            )

    return show


NEXT_STEPS = """
Next: `make serve` runs a server that stays up, on http://127.0.0.1:8000/ (this demo's
server, its games and ladder ids are gone now). Open that address for the lobby: play a
game against the house bots, watch one, see the ladders. Then write a bot of your own:
docs/tutorials/python-bot.md (or javascript-bot.md), five minutes against that server."""
"""What the demo prints last: where to go from here."""


def define_ladders(admin: Client, timeout: float = 0.0) -> list[dict[str, Any]]:
    """The server's ladders, one per game's main edition, printed with their ids.

    The server's bot pool defines them (``"<title> ladder"``) and enters house bots on
    them; they are waited for up to ``timeout`` s, and any still missing defined here
    (a server without a pool)."""
    deadline = time.monotonic() + timeout
    wanted = {(game, ladder_name(engine)) for game, engine in REGISTRY.items()}
    while True:
        found = {(lad["game"], lad["name"]): lad for lad in admin.ladders.list()["ladders"]}
        if wanted <= set(found) or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    ladders = [found.get(key) or admin.ladders.create(
                   key[0], options=dict(REGISTRY[key[0]].ladder_options) or None, name=key[1])
               for key in sorted(wanted)]  # fmt: skip
    for ladder in ladders:
        print(f"  ladder {ladder['id']}: {ladder['name']}", flush=True)
    return ladders


def run_demo(args: argparse.Namespace) -> int:
    """Run the whole demo; return the exit status."""
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="parlour-demo-") as tmp:
        port = free_port()
        print(
            f"Starting parlour serve on http://127.0.0.1:{port} (embedded Redis, AOF in {tmp}) ...",
            flush=True,
        )
        server = Served(Path(tmp) / "var", port, workers=2, ready_timeout=60)
        runners: list[Runner] = []
        threads: list[threading.Thread] = []
        try:
            admin = Client(server.url, token=server.admin_token)
            define_ladders(admin, timeout=30.0)
            entries: list[list[str]] = []
            for n, pair in enumerate(LINE_UP, start=1):
                entry = []
                for seat, bot_name in zip("AB", pair, strict=True):
                    name = f"{bot_name.removeprefix('concerto_')}-{n}{seat}"
                    player = admin.players.register(name)
                    entry.append(player["id"])
                    bot = load_bot(bot_name, random.Random(f"{args.seed}/{name}"))
                    runner = Runner(
                        bot,
                        Client(server.url, token=player["token"]),
                        wait=2.0,
                        handle_signals=False,
                    )
                    runners.append(runner)
                entries.append(entry)
                print(f"  entry {n}: {' & '.join(pair)}", flush=True)
            for runner in runners:
                thread = threading.Thread(target=runner.run, daemon=True)
                thread.start()
                threads.append(thread)

            print(
                f"Organising a {args.format} {GAME.title} tournament "
                f"({args.deals} deals a game, {args.move_seconds} s a move) ...",
                flush=True,
            )
            tournament = organise(
                admin,
                game=GAME.id,
                format=args.format,
                entries=entries,
                options={"deals": args.deals},
                name="Parlour demo",
                clock={"move_seconds": args.move_seconds},
                timeout_policy={"kind": "default_move"},
            )
            page = wait_finished(
                admin,
                tournament["id"],
                timeout=args.timeout,
                poll=0.25,
                on_progress=_progress_printer(),
            )

            print("\nStandings")
            print(standings_table(page))
            print("\nRatings (openskill, ordinal = mu - 3 sigma)")
            print(leaderboard_table(admin.ratings.leaderboard(GAME.id)))
            first = _first_game(page["rounds"])
            if first is not None:
                view = admin.games.view(first)
                names = " / ".join(s["name"] or "?" for s in view["seats"])
                print(f"\nScore sheet of game {first} (N / E / S / W: {names})")
                print(score_sheet(view))
            moves = sum(r.stats.moves for r in runners)
            print(
                f"\n{moves} moves by {len(runners)} bots in "
                f"{time.monotonic() - started:.1f} s. Done.",
                flush=True,
            )
            print(NEXT_STEPS, flush=True)
            return 0
        finally:
            for runner in runners:
                runner.stop()
            for thread in threads:
                thread.join(timeout=5)
            server.stop()


def _first_game(rounds: Sequence[Mapping[str, Any]]) -> str | None:
    for rnd in rounds:
        for table in rnd["tables"]:
            if table.get("game_id"):
                return table["game_id"]
    return None


def add_demo_command(subparsers: Any) -> argparse.ArgumentParser:
    """Add ``demo`` to an ``add_subparsers()`` object."""
    demo = subparsers.add_parser(
        "demo", help="server + bots + a tournament, end to end, on an embedded Redis"
    )
    demo.add_argument(
        "--format", default="round_robin", choices=["round_robin", "swiss", "knockout", "duplicate"]
    )
    demo.add_argument("--deals", type=int, default=4, help="deals per game")
    demo.add_argument("--move-seconds", type=float, default=10.0, help="the move clock")
    demo.add_argument("--seed", default="demo", help="seed of the bots' choices")
    demo.add_argument(
        "--timeout",
        type=float,
        default=600.0,
        help="give up if the tournament has not finished by then",
    )
    demo.set_defaults(func=run_demo)
    return demo

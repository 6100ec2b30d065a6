"""``make bench`` section ``matches``: boards a match needs to decide, by how it is played.

For two known gaps in Concerto (one deal a board) — ``concerto_search`` against
``concerto_signals``, and ``concerto_signals`` against a copy of itself that plays a
random legal move a fixed share of the time — it plays duplicate boards (each deal
at both seatings, :func:`client_sdk.local.play_board`), and reads from the same
tables four ways of scoring a board: *plain* (one table a board, the seating
alternating: the first table of even boards, the second of odd ones), plain with
par subtracted, duplicate, and duplicate with par. For each it prints the spread of
the per-board difference, the effect (mean/spread), the boards and the tables a
fixed-length test needs to detect that effect at α = β = 0.05
(:func:`server.games.analysis.sprt.fixed_boards`), and the SPRT's mean length
(H0 effect 0, H1 the measured effect), by resampling the measured boards until the
test decides. Calibration: the SPRT run on a bot against itself (the boards of the
blundering copy against itself, centred to a true effect of 0) passes no more often
than α. (``concerto_signals`` is deterministic: against itself every duplicate board
is exactly even, and the test fails it.) In duplicate the par cancels exactly (each
side's par is held once by each bot), so duplicate+par equals duplicate.

By default a short run (32 boards a pair, the search bot on a small budget: a few
minutes on a 2-core host; the figures are noisy); ``--long`` is the calibration
(400 boards a pair, the search bot's default budget, 2,000 resampled tests).

Run: ``python -m tests.bench_matches [--long] [--boards N] [--jobs N]``.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import statistics
import sys
from typing import Any

from bots import concerto_search, concerto_signals
from client_sdk import Bot, local
from server.games.analysis import seat_par, sprt

GAME = "concerto"
OPTIONS = {"deals": 1, "target": 10000}
SHARE = 0.05  # the copy's share of random legal moves
SHORT, LONG = 32, 400


class Blundering(Bot):
    """A bot that plays a random legal move ``share`` of the time, else the inner bot's."""

    def __init__(self, inner: Bot, share: float, rng: random.Random) -> None:
        super().__init__(rng)
        self.inner, self.share = inner, share
        self.name = f"{inner.name}-blundering"

    def choose_move(self, view: Any) -> Any:
        move = self.inner.choose_move(view)  # always asked: its reading of the deal stays whole
        if self.rng.random() < self.share:
            return self.rng.choice(view["legal_moves"])
        return move

    def on_game_start(self, view: Any) -> None:
        self.inner.on_game_start(view)

    def on_game_over(self, view: Any) -> None:
        self.inner.on_game_over(view)


def signals(rng: random.Random) -> Bot:
    return concerto_signals.make_bot(rng)


def blundering(rng: random.Random) -> Bot:
    return Blundering(concerto_signals.make_bot(random.Random(rng.random())), SHARE, rng)


def search_small(rng: random.Random) -> Bot:
    return concerto_search.make_bot(rng, budget_ms=10.0)


def search(rng: random.Random) -> Bot:
    return concerto_search.make_bot(rng)


FACTORIES = {"signals": signals, "blundering": blundering, "search": search,
             "search_small": search_small}  # fmt: skip


def _board(job: tuple[str, str, int]) -> list[dict[str, Any]]:
    """Board ``n`` of NEW against OLD: each table's seating, scores and par per seat."""
    new, old, n = job
    bots = {local.NEW: FACTORIES[new], local.OLD: FACTORIES[old]}
    seed = f"bench-matches-{new}-{old}/{n}"
    out = []
    for r, seated in enumerate(local.board_seatings(GAME, OPTIONS)):
        table = [bots[name](random.Random(f"{seed}/{r}/{s}")) for s, name in enumerate(seated)]
        played = local.play_match(GAME, table, seed=seed, options=OPTIONS, names=seated)
        par = seat_par(GAME, played.replay["par"], len(seated))
        out.append({"seats": seated, "scores": played.scores, "par": par})
    return out


def _side_mean(values: list[float], seats: tuple[str, ...], who: str) -> float:
    return statistics.fmean(v for v, name in zip(values, seats, strict=True) if name == who)


def _table_diff(table: dict[str, Any], par: bool) -> float:
    scores = [float(s) for s in table["scores"]]
    if par:
        scores = [s - p for s, p in zip(scores, table["par"], strict=True)]
    seats = table["seats"]
    return _side_mean(scores, seats, local.NEW) - _side_mean(scores, seats, local.OLD)


def differences(boards: list[list[dict[str, Any]]]) -> dict[str, tuple[list[float], int]]:
    """Per way of scoring: each board's difference, and the tables a board costs."""
    plain = [b[n % len(b)] for n, b in enumerate(boards)]
    return {
        "plain": ([_table_diff(t, False) for t in plain], 1),
        "plain+par": ([_table_diff(t, True) for t in plain], 1),
        "duplicate": ([statistics.fmean(_table_diff(t, False) for t in b) for b in boards], 2),
        "duplicate+par": ([statistics.fmean(_table_diff(t, True) for t in b) for b in boards], 2),
    }


def sprt_lengths(
    xs: list[float], e1: float, runs: int, rng: random.Random, cap: int
) -> tuple[float, float]:
    """Resampling ``xs``: the SPRT's mean length (H0 0, H1 ``e1``) and its pass rate."""
    lower, upper = sprt.llr_bounds(0.05, 0.05)
    lengths, passes = [], 0
    for _ in range(runs):
        n, total, squares, llr = 0, 0.0, 0.0, 0.0
        while n < cap:  # the LLR of sprt.llr, from running sums (checked at the end)
            x = rng.choice(xs)
            n, total, squares = n + 1, total + x, squares + x * x
            if n < sprt.MIN_BOARDS:
                continue
            mean = total / n
            var = max(0.0, (squares - n * mean * mean) / (n - 1))
            effect = mean / var**0.5 if var > 0 else 0.0
            llr = n * e1 * (effect - e1 / 2)
            if not lower < llr < upper:
                break
        lengths.append(n)
        passes += llr >= upper
    return statistics.fmean(lengths), passes / runs


def play(pool: Any, new: str, old: str, boards: int) -> list[list[dict[str, Any]]]:
    return list(pool.imap(_board, [(new, old, n) for n in range(boards)]))


def report(label: str, boards: list[list[dict[str, Any]]], runs: int, rng: random.Random) -> None:
    ways = differences(boards)
    plain_tables = None
    for way, (xs, tables) in ways.items():
        mean, spread = sprt.mean_and_spread(xs)
        effect = abs(mean / spread) if spread else float("inf")
        fixed = sprt.fixed_boards(0.0, effect) if 0 < effect < float("inf") else 0
        signed = [x if mean >= 0 else -x for x in xs]
        mean_len, _ = sprt_lengths(signed, effect, runs, rng, cap=20 * max(fixed, 1))
        plain_tables = plain_tables or fixed * tables
        print(f"matches {label} {way}: spread {spread:.2f} points, effect {effect:.3f}σ, "
              f"fixed-length {fixed} boards ({fixed * tables} tables, "
              f"{plain_tables / max(fixed * tables, 1):.1f}x fewer tables than plain), "
              f"SPRT mean {mean_len:.0f} boards ({mean_len / max(fixed, 1):.2f} of fixed)",
              flush=True)  # fmt: skip


def calibrate(boards: list[list[dict[str, Any]]], runs: int, rng: random.Random) -> None:
    for way, (xs, _) in differences(boards).items():
        mean = statistics.fmean(xs)
        centred = [x - mean for x in xs]
        if not any(centred):
            print(f"matches calibration {way}: every board even, nothing to resample")
            continue
        _, rate = sprt_lengths(centred, 0.2, runs, rng, cap=2000)
        print(f"matches calibration {way}: a bot against itself passes {rate:.3f} "
              f"of {runs} tests (α = 0.05; H1 0.2σ)", flush=True)  # fmt: skip


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--long", action="store_true", help=f"{LONG} boards a pair")
    parser.add_argument("--boards", type=int, default=None, help=f"boards a pair ({SHORT})")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args(argv or [])
    boards = args.boards or (LONG if args.long else SHORT)
    runs = 2000 if args.long else 200
    searcher = "search" if args.long else "search_small"
    rng = random.Random(7)
    with multiprocessing.Pool(args.jobs) as pool:
        for new, old in ((searcher, "signals"), ("signals", "blundering")):
            report(f"{new}-vs-{old}", play(pool, new, old, boards), runs, rng)
        # the signals bot is deterministic: against itself every duplicate board is even;
        # the blundering copy's random moves give the calibration a spread to resample
        calibrate(play(pool, "blundering", "blundering", boards), runs, rng)


if __name__ == "__main__":
    main(sys.argv[1:])

"""``make bench`` section ``par``: Concerto bots as percent of the double-dummy par.

By default a short run (60 duplicate deals per edition, a few minutes on a 2-core
host: intervals are wide); ``--long`` is the study, 1,000 deals per edition (about
30 minutes each): each bot's average hand score per deal as a percent of its
side's par, with a 95% confidence interval, and the search bot against signals
in duplicate.

Run: ``python -m tests.bench_par [--long | --deals N]``.
"""

from __future__ import annotations

import argparse
import sys

from bots.tools import par_arena

SHORT, LONG = 60, 1000


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--long", action="store_true", help=f"{LONG} deals per edition")
    parser.add_argument("--deals", type=int, default=None, help=f"deals per edition ({SHORT})")
    args = parser.parse_args(argv or [])
    deals = args.deals or (LONG if args.long else SHORT)
    for rules in ("parlett-2013", "penguin"):
        par_arena.main(["--deals", str(deals), "--rules", rules])


if __name__ == "__main__":
    main(sys.argv[1:])

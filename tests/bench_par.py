"""``make bench`` section ``par``: Concerto bots as percent of the double-dummy par.

Over 1,000 duplicate deals per edition (about 30 minutes each on a 2-core host):
each bot's average hand score per deal as a percent of its side's par, with a
95% confidence interval, and the search bot against signals in duplicate.
"""

from __future__ import annotations

from bots.tools import par_arena


def main() -> None:
    for rules in ("parlett-2013", "penguin"):
        par_arena.main(["--deals", "1000", "--rules", rules])


if __name__ == "__main__":
    main()

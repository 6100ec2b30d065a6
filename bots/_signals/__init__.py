"""Parlett's Concerto signals, the system the ``concerto_signals`` bot plays.

Split as the convention card reads (docs/bots/conventions.md):

* :mod:`.ranks` — ranks as positions in a straight (the ace at both ends), the
  two-card pattern and the five-rank windows;
* :mod:`.leader` — the leader's checklist and the two cards that show each holding;
* :mod:`.reading` — the partner reading the signal;
* :mod:`.partner` — the partner completing the combination it read;
* :mod:`.card` — the convention card itself, as data.

The play policy (when to signal, pass, complete or call 'Play') is the bot's,
in :mod:`bots.concerto_signals`.
"""

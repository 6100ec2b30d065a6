"""Tournaments, pure: pairing per format, standings, ratings and the clock policy.

* ``pairing`` — one module per format (round robin, swiss, knockout,
  duplicate) over the shared :mod:`.pairing.tables` data: entries in, the
  next :class:`~.pairing.tables.Round` out.
* ``formats`` — from a :class:`~.formats.TournamentSnapshot` to the next
  round, the standings and the rating events, a module per stage (``snapshot``,
  ``rounds``, ``scoring``).
* ``ladder`` — a ladder's matchmaking (the matches to start among the entries
  available now) and how its contests rank.
* ``ratings`` — openskill ratings over plain dicts.
* ``clock`` — what a move timeout does (the engines' default move, from
  :mod:`server.games.record`), and how a forfeit scores a table.

None of them does I/O, reads the clock or uses global randomness:
the scheduler's use cases (``server/services/rounds.py``,
``server/services/ladder_play.py``, with the ladders' plan,
``server/services/ladder_plan.py``) read the store, call them, and persist
what they return.
"""

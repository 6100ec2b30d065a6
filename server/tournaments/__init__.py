"""The tournament scheduler's pure core (issue 5): pairing, formats, ratings.

``pairing`` holds the algorithms over plain data, ``formats`` turns a
:class:`~server.tournaments.formats.TournamentSnapshot` into the next round and
the standings, ``ratings`` updates openskill ratings. None of them does I/O;
the runner (reading and writing through ``server.store``) persists what they
return.
"""

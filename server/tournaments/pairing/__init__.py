"""Pairing algorithms, one module per format: pure functions from entries to tables.

No I/O, no clock, no global randomness: everything an algorithm needs comes in
as plain data, and the same input gives the same round, so two schedulers that
race to pair a round compute the same thing.

Vocabulary (:mod:`.tables`):

* An **entry** is an opaque id (``EntryId``): one player in individual games,
  one side in partnership games (the players behind it are
  :mod:`server.tournaments.formats`' business).
* A :class:`~.tables.Table` is one game: which entry sits in which seat. An
  entry at table *position* ``p`` (of ``k`` positions) holds seats ``p, p + k,
  p + 2k…``, so in Concerto (``k = 2``, two seats each) position 0 is
  North–South (seats 0 and 2) and position 1 is East–West (seats 1 and 3); in
  individual games the position is the seat.
* A :class:`~.tables.Round` is explicit data: its index, its tables and its
  byes. A bye is a field of the round, never a magic entry at a table.

The formats are :mod:`.round_robin`, :mod:`.swiss`, :mod:`.knockout` and
:mod:`.duplicate`. Where a choice among many pairings is needed, the
priorities are named cost functions in priority order, combined
lexicographically — a higher priority is never traded for any amount of a
lower one: ``swiss.SWISS_PAIR_COSTS`` for pairs, and the ``*_table_cost``
functions for tables of 3-5, which :mod:`.seating` searches.
"""

"""The runner: plays every game a bot is seated in until told to stop.

The loop is: turns come in → for each turn, ``choose_move`` →
``POST /v1/games/{id}/moves {"move", "version"}``. The turns come pushed by
``GET /v1/me/turns/stream`` (one push per turn, the cheapest for the server),
or, from a server without turn streams or with ``push=False``, long-polled by
``GET /v1/me/turns?wait=...``. Three properties matter:

* **No lost turn.** Whose turn it is lives in the game on the server, not in
  the runner: after a dropped connection or a server restart the next poll
  lists the same turn again. A move whose answer was lost is resent with the
  same ``version`` (the SDK does it), and the server answers the current
  view instead of applying it twice.
* **409 means re-read.** ``StaleVersion`` / ``NotYourTurn``: the runner
  fetches the view again and, if it is still the bot's turn, asks the bot
  again with the fresh view. It never resends a stale decision.
* **Graceful stop.** The first Ctrl-C / SIGTERM lets the move in hand finish
  and then returns, taking no new game; a second one stops at once.

What it says: one line (logger ``client_sdk.progress``, INFO; ``parlour-bot run``
shows it) when it joins or leaves a ladder and per game finished, with the result
and, on a ladder, the rating change once the contest is rated.

Invitations (docs/api.md#consent-and-invitations): a seat or tournament entry
that another player names the bot in is held until the bot accepts. The
runner accepts per its :class:`AcceptPolicy` (``--accept-invitations``): ``none``
(the default: only the admin, e.g. the tournament scheduler, and the bot itself
seat it), ``anyone``, or ``from:alice,bob`` (inviters by player id or name).

The policy is :mod:`client_sdk.accept`'s, the bot is asked through
:mod:`client_sdk.decider`'s :class:`Decider` (as the callback endpoint asks it), and a
finished game is put in words by :mod:`client_sdk.outcomes`; all three are importable
from here as well.

:class:`Runner` is one class built of parts, a module each: :mod:`.loop` (the loop,
playing a turn, noticing finished games; :func:`run`), :mod:`.pages` (the turn stream
or the long-poll, and the invitations), :mod:`.ladder` (joining, leaving, the
validation game, the rating reports) and :mod:`.signals` (the graceful stop), on
:mod:`.base` (the statistics and what the parts share). Everything is importable from
here.
"""

from ..accept import AcceptPolicy
from ..decider import Decider
from ..outcomes import held_seats, outcome_text, rating_change
from .base import FINISHED, RECENT_GAMES, RunStats, log, progress
from .base import _Game as _Game
from .ladder import RATING_WAIT
from .loop import Runner, run

__all__ = [
    "FINISHED", "RATING_WAIT", "RECENT_GAMES", "AcceptPolicy", "Decider", "Runner", "RunStats",
    "held_seats", "log", "outcome_text", "progress", "rating_change", "run",
]  # fmt: skip

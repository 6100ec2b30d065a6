"""Local matches: bots play a game on this machine exactly as they would on the server.

With the engines installed (``pip install ./server/games``: the distribution
``parlour-games``, the server's own rules), :func:`play_match` deals a game from a
seed, asks each bot for its moves through the very views the server sends (the same
function renders them: :func:`server.games.record.seat_view`), gives each move a
time limit, and returns the game's replay in the format of
``GET /v1/games/{id}/replay`` (:func:`server.games.record.replay`). ``parlour-bot
play`` is its command line (docs/local.md).

A module each: :mod:`.match` (one match, :func:`play_match`, and the way to the
engines), :mod:`.rotation` (seating, the seat rotation of :func:`rotation_match` and
its :class:`MatchReport`), :mod:`.replays` (a finished replay's moves,
:func:`moves_of`, played again by :func:`replay_match`) and :mod:`.sequential` (duplicate
boards of NEW against OLD judged by a sequential test, :func:`play_board`,
:func:`run_test`: ``parlour-bot test``). Everything is importable
from here.

Of the SDK's core, only this package touches the engines, and only inside its functions
(and for the type checker): the SDK installs and runs without them, and says how to
install them when they are asked for (:class:`EnginesMissing`). (The learning adapters,
:mod:`client_sdk.spiel` and the rest, are built on the engines and imported only by who
uses them.)

>>> lineup(["a", "b"], 4), rotations(("a", "b", "a"))
(('a', 'b', 'a', 'b'), [('a', 'b', 'a'), ('a', 'a', 'b'), ('b', 'a', 'a')])
>>> parse_option("hands=3"), parse_option("rules=penguin")
(('hands', 3), ('rules', 'penguin'))
"""

from .match import (
    INSTALL_HINT,
    EnginesMissing,
    LocalMatch,
    deals_played,
    engines_installed,
    parse_option,
    play_match,
)
from .replays import SEARCH, moves_of, replay_match
from .rotation import (
    BotFactory,
    Interval,
    MatchReport,
    Play,
    lineup,
    rotation_match,
    rotations,
    seating,
)
from .sequential import (
    DUPLICATE,
    INCONCLUSIVE,
    NEW,
    OLD,
    PLAIN,
    REGRESSION_FORMAT,
    Board,
    TestReport,
    board_seatings,
    boards_needed,
    play_board,
    replay_boards,
    run_test,
)

__all__ = [
    "DUPLICATE", "INCONCLUSIVE", "NEW", "OLD", "PLAIN", "REGRESSION_FORMAT", "Board",
    "TestReport", "board_seatings", "boards_needed", "play_board", "replay_boards", "run_test",
    "INSTALL_HINT", "SEARCH", "BotFactory", "EnginesMissing", "Interval", "LocalMatch",
    "MatchReport", "Play", "deals_played", "engines_installed", "lineup", "moves_of",
    "parse_option", "play_match", "replay_match", "rotation_match", "rotations", "seating",
]  # fmt: skip

"""Is NEW better than OLD? Duplicate boards played locally, judged by a sequential test.

A *board* is one seeded deal (a game's seed) played at every distinct seating of
the two bots round the table (:func:`~.rotation.rotations`: in a two-side game,
two tables with the cards swapped), each table's bots built afresh, so nobody
plays a board's cards twice. Its paired difference is NEW's mean points per deal
minus OLD's, over the board's tables; par-adjusted, each seat's par
(:func:`server.games.analysis.seat_par`) is taken off its score first, the
adjustment fixed before the first board (a coefficient of 1, never fitted).
``mode="plain"`` plays one table a board instead (the seating alternating board
by board), the one-table game a duplicate board is measured against.

:func:`run_test` feeds the boards, in order, to the sequential test of
:mod:`server.games.analysis.sprt` and stops at its decision or at ``max_boards``
(``inconclusive``); :meth:`TestReport.regression_set` keeps the boards NEW lost,
which :func:`replay_boards` plays again (``parlour-bot play --deals FILE``).
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .match import _engines, play_match
from .rotation import BotFactory, rotations, seating

DUPLICATE, PLAIN = "duplicate", "plain"
NEW, OLD = "new", "old"
INCONCLUSIVE = "inconclusive"
REGRESSION_FORMAT = "parlour-regression-set/1"


def _sprt() -> Any:
    """``server.games.analysis.sprt`` (imported here: the SDK runs without the engines)."""
    _engines()
    from server.games.analysis import sprt

    return sprt


@dataclass(frozen=True)
class Board:
    """One board: its seed, NEW's and OLD's points per deal, and their paired difference."""

    number: int
    seed: str
    difference: float
    new: float
    old: float
    tables: list[dict[str, Any]]
    """Each table: ``{"seats": [NEW/OLD per seat], "scores": [...], "deals": n}``."""

    def to_dict(self) -> dict[str, Any]:
        return {"board": self.number, "seed": self.seed, "difference": self.difference,
                "new": self.new, "old": self.old, "tables": self.tables}  # fmt: skip


def board_seatings(game: str, options: Mapping[str, Any] | None) -> list[tuple[str, ...]]:
    """The seatings of a board: every distinct rotation of NEW, OLD round the table."""
    first, _ = seating(game, [NEW, OLD], options)
    return rotations(first)


def play_board(
    game: str,
    bots: Mapping[str, BotFactory],
    number: int,
    *,
    seed: str,
    options: Mapping[str, Any] | None = None,
    mode: str = DUPLICATE,
    par_adjusted: bool = False,
    move_time: float | None = None,
    board_seed: str | None = None,
) -> Board:
    """Play board ``number`` (dealt from ``SEED/number``, or from ``board_seed`` when given:
    a server match's board, its seed revealed by its replays) and score its paired
    difference.

    Raises:
        ValueError: an unknown mode, or ``par_adjusted`` for a game without par.
        EnginesMissing: the engines are not installed.
    """
    if mode not in (DUPLICATE, PLAIN):
        raise ValueError(f"mode is {DUPLICATE} or {PLAIN}, not {mode!r}")
    games = _engines()
    _, opts = seating(game, [NEW, OLD], options)
    seatings = board_seatings(game, opts)
    if mode == PLAIN:
        seatings = [seatings[number % len(seatings)]]
    board_seed = f"{seed}/{number}" if board_seed is None else board_seed
    tables: list[dict[str, Any]] = []
    new_points: list[float] = []
    old_points: list[float] = []
    for r, seated in enumerate(seatings):
        table = [bots[name](random.Random(f"{board_seed}/{r}/{seat}"))
                 for seat, name in enumerate(seated)]  # fmt: skip
        played = play_match(game, table, seed=board_seed, options=opts, move_time=move_time,
                            names=seated, game_id=f"local-{board_seed}-{r}")  # fmt: skip
        scores: list[float] = [float(x) for x in played.scores]
        if par_adjusted:
            par = games.analysis.seat_par(game, played.replay.get("par"), len(scores))
            if par is None:
                raise ValueError(f"{game} has no par: play it without par adjustment")
            scores = [s - p for s, p in zip(scores, par, strict=True)]
        for who, out in ((NEW, new_points), (OLD, old_points)):
            mine = [scores[s] for s, name in enumerate(seated) if name == who]
            out.append(statistics.fmean(mine) / played.deals)
        tables.append({"seats": list(seated), "scores": played.scores, "deals": played.deals})
    new, old = statistics.fmean(new_points), statistics.fmean(old_points)
    return Board(number, board_seed, new - old, new, old, tables)


@dataclass
class TestReport:
    """A sequential test of NEW against OLD: its settings, boards and where it stands."""

    __test__ = False  # not a pytest class

    game: str
    options: dict[str, Any]
    new: str
    old: str
    e0: float
    e1: float
    alpha: float
    beta: float
    max_boards: int
    seed: str
    mode: str = DUPLICATE
    par_adjusted: bool = False
    boards: list[Board] = field(default_factory=list)

    def state(self) -> Any:
        """The test after the boards so far (:class:`server.games.analysis.sprt.Sprt`)."""
        return _sprt().sprt([b.difference for b in self.boards], self.e0, self.e1,
                         self.alpha, self.beta)  # fmt: skip

    @property
    def verdict(self) -> str:
        """``pass``, ``fail``, ``inconclusive`` (the cap reached) or ``continue``."""
        decision: str = self.state().decision
        if decision == "continue" and len(self.boards) >= self.max_boards:
            return INCONCLUSIVE
        return decision

    def line(self) -> str:
        """One line of progress: boards, LLR within its bounds, the estimate."""
        s = self.state()
        e = s.estimate
        return (f"board {len(self.boards)}: LLR {s.llr:+.3f} [{s.lower:.2f}, {s.upper:.2f}]  "
                f"NEW − OLD {e.mean:+.3f} per deal, 95% [{e.low:+.3f}, {e.high:+.3f}]  "
                f"effect {e.effect:+.3f}σ")  # fmt: skip

    def regression_set(self) -> dict[str, Any]:
        """The boards NEW lost (difference below 0), with what replays them."""
        return {
            "format": REGRESSION_FORMAT,
            "game": self.game, "options": self.options, "new": self.new, "old": self.old,
            "mode": self.mode, "par_adjusted": self.par_adjusted, "seed": self.seed,
            "boards": [b.to_dict() for b in self.boards if b.difference < 0],
        }  # fmt: skip


def run_test(
    report: TestReport,
    boards: Iterable[Board],
    on_board: Callable[[TestReport], None] | None = None,
) -> TestReport:
    """Add ``boards`` (in order) to ``report`` until the test decides or the cap is hit."""
    for board in boards:
        report.boards.append(board)
        if on_board is not None:
            on_board(report)
        if report.verdict != "continue":
            break
    return report


def replay_boards(
    regression: Mapping[str, Any], bots: Mapping[str, BotFactory], move_time: float | None = None
) -> list[tuple[Board, float]]:
    """Play every board of a regression set again, each dealt from its recorded seed (a
    local set's or a server match's, ``GET /v1/matches/{id}/regression``): each new board
    with its recorded difference (the same bots, whose moves depend only on their seeded
    ``rng``, give the same).

    Raises:
        ValueError: not a regression set.
    """
    if regression.get("format") != REGRESSION_FORMAT:
        raise ValueError(f"not a regression set (format {REGRESSION_FORMAT})")
    out = []
    for kept in regression["boards"]:
        board = play_board(
            regression["game"], bots, int(kept["board"]), seed=str(regression.get("seed")),
            options=regression["options"], mode=regression.get("mode", DUPLICATE),
            par_adjusted=bool(regression["par_adjusted"]), move_time=move_time,
            board_seed=str(kept["seed"]),
        )  # fmt: skip
        out.append((board, float(kept["difference"])))
    return out


def boards_needed(differences: Sequence[float], e0: float, e1: float) -> int:
    """How many of ``differences`` the sequential test reads before deciding (their count
    when it never does)."""
    sprt = _sprt()
    for n in range(2, len(differences) + 1):
        if sprt.sprt(differences[:n], e0, e1).decision != "continue":
            return n
    return len(differences)

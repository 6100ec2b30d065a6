"""Tournament formats: from an immutable snapshot to the next round and the standings.

The runner (``server/processes/scheduler.py``) reads a :class:`TournamentSnapshot`
from the store (entries in seed order, every round so far with the results of
its finished tables), calls :func:`next_round` and persists what comes back; it
calls :func:`standings` for the table and :func:`rating_events` for the
ratings. Everything here is pure: no Redis, no clock, no global randomness, so
two schedulers pairing the same round get the same tables.

Formats (``Format``):

* ``round_robin`` — :func:`.pairing.round_robin.round_robin`, one cycle by default.
* ``swiss`` — :func:`.pairing.swiss.swiss` on the current standings,
  ``ceil(log2(n))`` rounds by default.
* ``knockout`` — :func:`.pairing.knockout.knockout` on the seeds and each round's
  winners, until one entry is left.
* ``duplicate`` — a round robin of *matches* between two entries (sides of a
  partnership game); each match is ``boards_per_match`` boards, each board
  played at two tables with the seats swapped (:func:`.pairing.duplicate.duplicate`).

Scoring one table (a *contest*): entries are ranked winners first, then by
score (equal keys share a place); an entry earns ``(entries placed below it
+ ½ × entries tied with it) / (table entries − 1)`` points — 1, ½, 0 for a
win, draw and loss at two. A duplicate match is one contest: each entry's
score is its total over all tables of the match, so the difference of the
two totals is exactly the sum of the per-board differences (see
:func:`board_difference`), and the match is won by the side with the
positive difference. That raw point difference is the duplicate score
(IMP-like, without the IMP scale).

A bye (:data:`BYE_POINTS`) scores 1 point in swiss (the chess convention: the
bye goes to the lowest-ranked, and it is not the entry's fault), ½ in a round
robin or duplicate (the average result of a game: a cycle of tables of 3-5
cannot always give everyone the same number of byes, and ½ neither helps nor
hurts on average), and nothing in a knockout (the bye *is* the advantage).
"""

from __future__ import annotations

import enum
import itertools
import math
import random
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from .pairing.duplicate import duplicate
from .pairing.knockout import knockout
from .pairing.round_robin import round_robin, round_robin_cycle
from .pairing.swiss import swiss
from .pairing.tables import EntryId, PairingError, Round, Table


class Format(enum.StrEnum):
    ROUND_ROBIN = "round_robin"
    SWISS = "swiss"
    KNOCKOUT = "knockout"
    DUPLICATE = "duplicate"


BYE_POINTS: dict[Format, Fraction] = {
    Format.ROUND_ROBIN: Fraction(1, 2),
    Format.SWISS: Fraction(1),
    Format.KNOCKOUT: Fraction(0),
    Format.DUPLICATE: Fraction(1, 2),
}


class RoundNotFinished(PairingError):
    """The next round cannot be paired while a table of the current one has no result."""


@dataclass(frozen=True, slots=True)
class Entry:
    """One entry: its id and the player behind each of its seats, in seat order.

    An individual game has one player per entry; Concerto has two (the
    entry's first seat, e.g. North, then its second, South).
    """

    id: EntryId
    players: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class TableResult:
    """The result of one finished table, by table position (``Table.entries`` order).

    ``scores[p]`` is the final score of the entry at position ``p`` (in
    partnership games, its side's score); ``winners`` are positions (empty:
    nobody was declared the winner, e.g. a draw). Build it from an engine's
    ``Outcome`` with :meth:`from_outcome`.
    """

    scores: tuple[float, ...]
    winners: tuple[int, ...] = ()

    @classmethod
    def from_outcome(
        cls, table: Table, seat_scores: Sequence[float], winner_seats: Iterable[int]
    ) -> TableResult:
        """Convert per-seat scores and winning seats (``Outcome``) to positions.

        Raises:
            PairingError: the score list does not have one entry per seat.
        """
        if len(seat_scores) != len(table.seats):
            raise PairingError(f"{len(seat_scores)} scores for {len(table.seats)} seats")
        entries = table.entries
        winners = {table.position_of(table.seats[s]) for s in winner_seats}
        return cls(
            tuple(seat_scores[table.seats_of(e)[0]] for e in entries), tuple(sorted(winners))
        )

    def ranks(self) -> tuple[int, ...]:
        """0-based place per position: winners first, then by score; ties share.

        >>> TableResult((10, 30, 20, 20), winners=(2,)).ranks()   # Seconds: 2nd-highest wins
        (3, 1, 0, 2)
        >>> TableResult((50, 50)).ranks()
        (0, 0)
        """
        keys = [(p in self.winners, s) for p, s in enumerate(self.scores)]
        return tuple(sum(1 for other in keys if other > key) for key in keys)

    def to_dict(self) -> dict[str, Any]:
        return {"scores": list(self.scores), "winners": list(self.winners)}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> TableResult:
        return cls(tuple(d["scores"]), tuple(d.get("winners", ())))


@dataclass(frozen=True, slots=True)
class PlayedRound:
    """A round as stored: its pairing and one result slot per table (None: not over)."""

    round: Round
    results: tuple[TableResult | None, ...]

    def __post_init__(self) -> None:
        if len(self.results) != len(self.round.tables):
            raise PairingError(
                f"round {self.round.index}: {len(self.results)} results "
                f"for {len(self.round.tables)} tables"
            )

    @property
    def is_finished(self) -> bool:
        return all(r is not None for r in self.results)


@dataclass(frozen=True)
class TournamentSnapshot:
    """Everything a format needs, read from the store at one moment. Immutable.

    Attributes:
        format: the system.
        entries: in seed order (seed 1 first).
        rounds: every round so far, in order; ``rounds[i].round.index == i``.
        table_size: entries per table (2 for Concerto's two sides; 4 for
            Seconds; 2-5 for Cowpoke).
        min_table_size: smallest table allowed (default: full tables only).
        seats_per_entry: seats each entry holds (2 for Concerto).
        total_rounds: rounds to play; default one round-robin cycle, or
            ``ceil(log2(n))`` for swiss. A knockout ends by itself.
        boards_per_match: duplicate only: boards per match.
    """

    format: Format
    entries: tuple[Entry, ...]
    rounds: tuple[PlayedRound, ...] = ()
    table_size: int = 2
    min_table_size: int | None = None
    seats_per_entry: int = 1
    total_rounds: int | None = None
    boards_per_match: int = 1
    _seed: dict[EntryId, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "format", Format(self.format))
        ids = [e.id for e in self.entries]
        if len(set(ids)) != len(ids):
            raise PairingError("entry ids must be distinct")
        for e in self.entries:
            if len(e.players) != self.seats_per_entry:
                raise PairingError(
                    f"entry {e.id} has {len(e.players)} players for {self.seats_per_entry} seats"
                )
        for i, played in enumerate(self.rounds):
            if played.round.index != i:
                raise PairingError(f"round at position {i} says it is round {played.round.index}")
        if self.format in (Format.KNOCKOUT, Format.DUPLICATE) and self.table_size != 2:
            raise PairingError(f"{self.format} is played between two entries per table")
        if self.boards_per_match < 1:
            raise PairingError("boards_per_match must be at least 1")
        object.__setattr__(self, "_seed", {e: i for i, e in enumerate(ids)})

    @property
    def entry_ids(self) -> list[EntryId]:
        return [e.id for e in self.entries]

    def planned_rounds(self) -> int | None:
        """Rounds this tournament plays (None for a knockout: it ends by itself)."""
        if self.total_rounds is not None:
            return self.total_rounds
        n = len(self.entries)
        if self.format is Format.SWISS:
            return max(1, math.ceil(math.log2(max(n, 2))))
        if self.format is Format.KNOCKOUT:
            return None
        return round_robin_cycle(n, self.table_size, min_table_size=self.min_table_size)


def seat_players(snapshot: TournamentSnapshot, table: Table) -> tuple[str, ...]:
    """The player id in each seat of ``table``: an entry's ``j``-th seat gets its ``j``-th player.

    >>> snap = TournamentSnapshot(Format.ROUND_ROBIN,
    ...     (Entry("A", ("a1", "a2")), Entry("B", ("b1", "b2"))), seats_per_entry=2)
    >>> seat_players(snap, Table(("A", "B", "A", "B")))
    ('a1', 'b1', 'a2', 'b2')
    """
    players = {e.id: e.players for e in snapshot.entries}
    used: dict[EntryId, int] = defaultdict(int)
    out = []
    for entry in table.seats:
        out.append(players[entry][used[entry]])
        used[entry] += 1
    return tuple(out)


# --------------------------------------------------------------------------- next round


def next_round(snapshot: TournamentSnapshot, rng: random.Random | None = None) -> Round | None:
    """Pair the next round, or None when the tournament is over.

    Deterministic for a given snapshot and ``rng`` state: give the runner a
    ``random.Random`` seeded from the tournament and round, and two
    schedulers pairing the same round get the same tables.

    Raises:
        RoundNotFinished: the last round still has a table without a result.
        PairingError: the snapshot cannot be paired (too few entries, …).
    """
    if snapshot.rounds and not snapshot.rounds[-1].is_finished:
        raise RoundNotFinished(f"round {len(snapshot.rounds) - 1} is not finished")
    index = len(snapshot.rounds)
    planned = snapshot.planned_rounds()
    if planned is not None and index >= planned:
        return None
    ids = snapshot.entry_ids
    history = [p.round for p in snapshot.rounds]
    low, seats = snapshot.min_table_size, snapshot.seats_per_entry
    match snapshot.format:
        case Format.ROUND_ROBIN:
            return round_robin(
                ids, index, snapshot.table_size, min_table_size=low, seats_per_entry=seats
            )
        case Format.SWISS:
            order = [(s.entry, s.points) for s in standings(snapshot)]
            return swiss(
                order, history, snapshot.table_size, rng, min_table_size=low, seats_per_entry=seats
            )
        case Format.KNOCKOUT:
            winners = [_knockout_winners(snapshot, p) for p in snapshot.rounds]
            return knockout(ids, winners, seats_per_entry=seats)
        case Format.DUPLICATE:
            return _duplicate_round(snapshot, history)
    raise AssertionError(snapshot.format)  # pragma: no cover


def _duplicate_round(snapshot: TournamentSnapshot, history: Sequence[Round]) -> Round:
    """A round robin of matches, each match ``boards_per_match`` fresh boards, numbered on
    from the last board played."""
    index = len(history)
    seats = snapshot.seats_per_entry
    matches = round_robin(snapshot.entry_ids, index, 2, seats_per_entry=seats)
    board = 1 + max((t.board for r in history for t in r.tables if t.board is not None), default=-1)
    tables: list[Table] = []
    for match in matches.tables:
        boards = range(board, board + snapshot.boards_per_match)
        tables += duplicate(match.entries, boards, seats_per_entry=seats)
        board += snapshot.boards_per_match
    return Round(index, tuple(tables), matches.byes)


def _advancing(
    snapshot: TournamentSnapshot, entries: Sequence[EntryId], ranks: Sequence[int]
) -> EntryId:
    """Who goes through from a knockout table: first place; on a tie, the better seed.

    A drawn knockout game (equal scores, no winner) cannot be replayed by a
    pure function, so the higher seed advances — documented, deterministic,
    and one more reason seeding matters.
    """
    best = [e for e, r in zip(entries, ranks, strict=True) if r == 0]
    return min(best, key=snapshot._seed.__getitem__)


def _knockout_winners(snapshot: TournamentSnapshot, played: PlayedRound) -> set[EntryId]:
    """The entries going through from every finished table of a knockout round."""
    return {
        _advancing(snapshot, table.entries, result.ranks())
        for table, result in zip(played.round.tables, played.results, strict=True)
        if result is not None
    }


# --------------------------------------------------------------------------- standings


@dataclass(frozen=True)
class Contest:
    """One scored game for the standings: a table, or a whole duplicate match."""

    round_index: int
    entries: tuple[EntryId, ...]
    scores: tuple[float, ...]
    ranks: tuple[int, ...]

    def points(self, i: int) -> Fraction:
        """Placing points of the ``i``-th entry: below + ½ tied, over (entries − 1)."""
        below = sum(1 for r in self.ranks if r > self.ranks[i])
        tied = sum(1 for r in self.ranks if r == self.ranks[i]) - 1
        return (below + Fraction(tied, 2)) / (len(self.entries) - 1)

    def score_difference(self, i: int) -> float:
        """Own score minus the mean of the others' (at two: the plain difference)."""
        others = [s for j, s in enumerate(self.scores) if j != i]
        return self.scores[i] - sum(others) / len(others)


def board_difference(
    tables: Sequence[Table], results: Sequence[TableResult], entry: EntryId
) -> float:
    """``entry``'s board difference: its points minus its opponent's, over both tables.

    At table X entry A scored ``a_x`` and B ``b_x``; at the swapped table Y,
    ``a_y`` and ``b_y``. A's difference is ``(a_x - b_y) + (a_y - b_x)`` —
    A's result with each set of cards minus B's result with the same cards —
    which is ``(a_x + a_y) - (b_x + b_y)``. Zero-sum: B's is its negative.

    >>> t = (Table(("A", "B", "A", "B"), 0), Table(("B", "A", "B", "A"), 0))
    >>> board_difference(t, (TableResult((120, 40)), TableResult((90, 60))), "A")
    50.0
    """
    own = other = 0.0
    for table, result in zip(tables, results, strict=True):
        for p, e in enumerate(table.entries):
            if e == entry:
                own += result.scores[p]
            else:
                other += result.scores[p]
    return own - other


def contests(snapshot: TournamentSnapshot) -> list[Contest]:
    """Every finished game that counts: each finished table; for duplicate,
    each match whose tables are all finished (a half-played match says nothing)."""
    out: list[Contest] = []
    for played in snapshot.rounds:
        r = played.round.index
        pairs = list(zip(played.round.tables, played.results, strict=True))
        if snapshot.format is not Format.DUPLICATE:
            for table, result in pairs:
                if result is not None:
                    out.append(Contest(r, table.entries, result.scores, result.ranks()))
            continue
        matches: dict[frozenset[EntryId], list[tuple[Table, TableResult | None]]] = {}
        for table, result in pairs:
            matches.setdefault(frozenset(table.entries), []).append((table, result))
        for match in matches.values():
            if any(result is None for _, result in match):
                continue
            entries = match[0][0].entries
            totals = tuple(
                sum(res.scores[t.position_of(e)] for t, res in match if res is not None)
                for e in entries
            )
            out.append(Contest(r, entries, totals, TableResult(totals).ranks()))
    return out


@dataclass(frozen=True)
class Standing:
    """One line of the standings. ``rank`` is 1-based and unique (ties fully broken).

    ``buchholz`` is None outside swiss; ``eliminated_in`` (knockout only) is the
    round index of the entry's defeat, None while it is still in.
    """

    rank: int
    entry: EntryId
    points: float
    played: int
    byes: int
    head_to_head: float
    score_difference: float
    buchholz: float | None = None
    eliminated_in: int | None = None


def standings(snapshot: TournamentSnapshot) -> list[Standing]:
    """The ranking, best first, from the finished games in the snapshot.

    Tie-breaks, in order:

    1. **points** (see the module docstring and :data:`BYE_POINTS`). In a
       knockout, the round reached comes first (still in, then the latest
       defeat), then points.
    2. swiss only: **Buchholz** — the sum over the entry's games of its
       opponents' points (at tables of 3-5, the mean of the table-mates'
       points per game): beating strong opposition counts more.
    3. **head-to-head** — among the entries still tied after 1-2 only: the
       points from their games against each other (pairwise at bigger tables).
    4. **score difference** — the sum over games of own score minus the
       opponents' mean (duplicate: the total board difference).
    5. **seed** — the entry order of the snapshot, so the order is total.
    """
    ids = snapshot.entry_ids
    done = contests(snapshot)
    tally = _tally(snapshot, done)
    buchholz = _buchholz(done, tally.points) if snapshot.format is Format.SWISS else None
    eliminated = _eliminations(snapshot, done)

    def primary(e: EntryId) -> tuple[Any, ...]:
        """Tie-breaks 1-2: (knockout: round reached,) points (, swiss: Buchholz)."""
        key: tuple[Any, ...] = (tally.points[e],)
        if buchholz is not None:
            key += (buchholz[e],)
        if snapshot.format is Format.KNOCKOUT:
            out = eliminated[e]
            key = (math.inf if out is None else out, *key)
        return key

    h2h: dict[EntryId, Fraction] = dict.fromkeys(ids, Fraction(0))
    final: list[EntryId] = []
    for _, group in itertools.groupby(sorted(ids, key=primary, reverse=True), key=primary):
        tied = list(group)
        if len(tied) > 1:
            h2h.update(_head_to_head(done, tied))
        tied.sort(key=lambda e: (-h2h[e], -tally.difference[e], snapshot._seed[e]))
        final.extend(tied)

    return [
        Standing(
            rank=i + 1,
            entry=e,
            points=float(tally.points[e]),
            played=tally.played[e],
            byes=tally.byes[e],
            head_to_head=float(h2h[e]),
            score_difference=tally.difference[e],
            buchholz=None if buchholz is None else float(buchholz[e]),
            eliminated_in=eliminated[e],
        )
        for i, e in enumerate(final)
    ]


@dataclass(frozen=True)
class _Tally:
    """Per entry: placing points (byes included), games played, byes, score difference."""

    points: dict[EntryId, Fraction]
    played: dict[EntryId, int]
    byes: dict[EntryId, int]
    difference: dict[EntryId, float]


def _tally(snapshot: TournamentSnapshot, done: Sequence[Contest]) -> _Tally:
    """Sum each entry's contests, then add :data:`BYE_POINTS` for each of its byes."""
    ids = snapshot.entry_ids
    tally = _Tally(
        points=dict.fromkeys(ids, Fraction(0)),
        played=dict.fromkeys(ids, 0),
        byes=dict.fromkeys(ids, 0),
        difference=dict.fromkeys(ids, 0.0),
    )
    for c in done:
        for i, e in enumerate(c.entries):
            tally.points[e] += c.points(i)
            tally.played[e] += 1
            tally.difference[e] += c.score_difference(i)
    for p in snapshot.rounds:
        for e in p.round.byes:
            tally.byes[e] += 1
            tally.points[e] += BYE_POINTS[snapshot.format]
    return tally


def _buchholz(
    done: Sequence[Contest], points: Mapping[EntryId, Fraction]
) -> dict[EntryId, Fraction]:
    """Per entry, the sum over its games of the mean of its table-mates' points."""
    out: dict[EntryId, Fraction] = dict.fromkeys(points, Fraction(0))
    for c in done:
        for i, e in enumerate(c.entries):
            mates = [points[o] for j, o in enumerate(c.entries) if j != i]
            out[e] += sum(mates, Fraction(0)) / len(mates)
    return out


def _eliminations(
    snapshot: TournamentSnapshot, done: Sequence[Contest]
) -> dict[EntryId, int | None]:
    """Knockout only: the round index of each entry's defeat (None: still in, or no knockout)."""
    eliminated: dict[EntryId, int | None] = dict.fromkeys(snapshot.entry_ids)
    if snapshot.format is not Format.KNOCKOUT:
        return eliminated
    for c in done:
        through = _advancing(snapshot, c.entries, c.ranks)
        for e in c.entries:
            if e != through:
                eliminated[e] = c.round_index
    return eliminated


def _head_to_head(done: Sequence[Contest], tied: Sequence[EntryId]) -> dict[EntryId, Fraction]:
    """Points the ``tied`` entries took from each other: 1 a win, ½ a draw, pairwise at
    bigger tables; games against anyone else do not count."""
    members = set(tied)
    h2h: dict[EntryId, Fraction] = dict.fromkeys(tied, Fraction(0))
    for c in done:
        for (i, a), (j, b) in itertools.combinations(enumerate(c.entries), 2):
            if a in members and b in members:
                ra, rb = c.ranks[i], c.ranks[j]
                h2h[a] += 1 if ra < rb else Fraction(1, 2) if ra == rb else 0
                h2h[b] += 1 if rb < ra else Fraction(1, 2) if ra == rb else 0
    return h2h


# --------------------------------------------------------------------------- ratings


@dataclass(frozen=True)
class RatingEvent:
    """One rated game: teams of player ids and their places (0 = first, ties share).

    ``key`` is stable (``r<round>:t<table>`` or ``r<round>:b<board>``) so the
    runner can apply each event exactly once, whatever restarts happen.
    """

    key: str
    teams: tuple[tuple[str, ...], ...]
    ranks: tuple[int, ...]


def rating_events(snapshot: TournamentSnapshot) -> list[RatingEvent]:
    """The rated games so far: one per finished table, or per finished duplicate board.

    A duplicate board is rated by its board difference, not by the raw
    scores of either table: the entry with the positive difference won the
    board, zero is a draw (the luck of the cards is what duplicate removes,
    so it must not leak back in through the ratings). Each team is the
    entry's players. Within a round, duplicate boards come out as a prefix in
    board order (see below), so every run applies them in the same order.
    """
    players = {e.id: e.players for e in snapshot.entries}
    events: list[RatingEvent] = []
    for played in snapshot.rounds:
        r = played.round.index
        if snapshot.format is not Format.DUPLICATE:
            for t, (table, result) in enumerate(
                zip(played.round.tables, played.results, strict=True)
            ):
                if result is not None:
                    teams = tuple(players[e] for e in table.entries)
                    events.append(RatingEvent(f"r{r}:t{t}", teams, result.ranks()))
            continue
        boards: dict[int, list[tuple[Table, TableResult | None]]] = {}
        for table, result in zip(played.round.tables, played.results, strict=True):
            boards.setdefault(table.board if table.board is not None else -1, []).append(
                (table, result)
            )
        for board, pair in sorted(boards.items()):
            if any(res is None for _, res in pair):
                # Boards are rated in board order, never a later one first: the same
                # players sit at every board of a match, and openskill's updates do
                # not commute, so rating in finishing order would make the final
                # ratings depend on which table happened to be quicker.
                break
            tables = [t for t, _ in pair]
            results = [res for _, res in pair if res is not None]
            a, b = tables[0].entries
            diff = board_difference(tables, results, a)
            ranks = (0, 0) if diff == 0 else (0, 1) if diff > 0 else (1, 0)
            events.append(RatingEvent(f"r{r}:b{board}", (players[a], players[b]), ranks))
    return events

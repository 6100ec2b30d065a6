"""Tournament formats: from an immutable snapshot to the next round and the standings.

The scheduler's use case (``server/services/rounds.py``) reads a :class:`TournamentSnapshot`
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
* ``duplicate`` — a pairs event (:func:`.pairing.duplicate.board_tables`): each
  round is a round-robin round of tables between two entries (sides of a
  partnership game), and every table of the round plays the round's
  ``boards_per_match`` boards, so each board is played at every table of the
  round by different entries; nobody sits at two tables of a board. It needs
  at least 4 entries (two tables).

Scoring one table (a *contest*): entries are ranked winners first, then by
score (equal keys share a place); an entry earns ``(entries placed below it
+ ½ × entries tied with it) / (table entries − 1)`` points — 1, ½, 0 for a
win, draw and loss at two. In duplicate an entry is compared with the entries
that held the same cards: a round's contests are its two *directions* (the
entries at position 0 of its tables, and those at position 1), each entry's
score being its *net* over the round's boards — its points minus its
opponent's at each of its tables (:func:`net_scores`). So an entry at a table
of two scores as if the round's direction were one table of all the entries
that held its cards (matchpoints, the raw nets as the difference: IMP-like,
without the IMP scale). A round's contests count once all its tables are over.

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

from .pairing.duplicate import board_tables
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
    """A round-robin round of tables, every table playing the round's ``boards_per_match``
    fresh boards (numbered on from the last board played): a pairs event's round."""
    index = len(history)
    seats = snapshot.seats_per_entry
    pairings = round_robin(snapshot.entry_ids, index, 2, seats_per_entry=seats)
    first = 1 + max((t.board for r in history for t in r.tables if t.board is not None), default=-1)
    boards = range(first, first + snapshot.boards_per_match)
    tables = board_tables([t.entries for t in pairings.tables], boards, seats_per_entry=seats)
    return Round(index, tables, pairings.byes)


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
    """One scored game for the standings: a table, or a direction of a duplicate round."""

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


def net_scores(
    tables: Sequence[Table], results: Sequence[TableResult]
) -> dict[int, dict[EntryId, float]]:
    """Per direction (table position), each entry's net over ``tables``: at every table,
    its points minus its opponent's, summed (a duplicate round's tables, two entries each).

    Entries of one direction held the same cards at every board, so their nets
    compare them on equal cards.

    >>> t = (Table(("A", "B", "A", "B"), 0), Table(("C", "D", "C", "D"), 0))
    >>> net_scores(t, (TableResult((120, 40)), TableResult((90, 60))))
    {0: {'A': 80.0, 'C': 30.0}, 1: {'B': -80.0, 'D': -30.0}}
    """
    out: dict[int, dict[EntryId, float]] = {0: {}, 1: {}}
    for table, result in zip(tables, results, strict=True):
        for p, e in enumerate(table.entries):
            net = float(result.scores[p] - result.scores[1 - p])
            out[p][e] = out[p].get(e, 0.0) + net
    return out


def contests(snapshot: TournamentSnapshot) -> list[Contest]:
    """Every finished game that counts: each finished table; for duplicate, each
    direction of each round whose tables are all finished (a half-played round
    says nothing, and its nets would tell of boards still in play)."""
    out: list[Contest] = []
    for played in snapshot.rounds:
        r = played.round.index
        pairs = list(zip(played.round.tables, played.results, strict=True))
        if snapshot.format is not Format.DUPLICATE:
            for table, result in pairs:
                if result is not None:
                    out.append(Contest(r, table.entries, result.scores, result.ranks()))
            continue
        if not played.is_finished:
            continue
        results = [res for _, res in pairs if res is not None]
        for nets in net_scores(played.round.tables, results).values():
            if len(nets) > 1:
                entries, scores = tuple(nets), tuple(nets.values())
                out.append(Contest(r, entries, scores, TableResult(scores).ranks()))
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
       opponents' mean (duplicate: its net minus the mean net of the
       other entries of its direction).
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

    ``key`` is stable (``r<round>:t<table>``, or ``r<round>:b<board>:p<position>``
    for a direction of a duplicate board) so the
    runner can apply each event exactly once, whatever restarts happen.
    """

    key: str
    teams: tuple[tuple[str, ...], ...]
    ranks: tuple[int, ...]


def rating_events(snapshot: TournamentSnapshot) -> list[RatingEvent]:
    """The rated games so far: one per finished table, or per direction of a finished
    duplicate board.

    A duplicate board is rated by comparison, never by the raw scores of a
    table: the entries of one direction (who held the same cards at the
    board's tables) are ranked by their nets (:func:`net_scores`), so the luck
    of the cards does not leak back in through the ratings. Each team is an
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
        for board, group in sorted(boards.items()):
            if any(res is None for _, res in group):
                # Boards are rated in board order, never a later one first: the same
                # entries play every board of a round, and openskill's updates do not
                # commute, so rating in finishing order would make the final ratings
                # depend on which table happened to be quicker.
                break
            tables = [t for t, _ in group]
            results = [res for _, res in group if res is not None]
            for p, nets in sorted(net_scores(tables, results).items()):
                if len(nets) < 2:
                    continue
                ranks = TableResult(tuple(nets.values())).ranks()
                teams = tuple(players[e] for e in nets)
                events.append(RatingEvent(f"r{r}:b{board}:p{p}", teams, ranks))
    return events

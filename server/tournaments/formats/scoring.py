"""Scoring: each finished game that counts (a *contest*), the standings and the rating
events, for every format.

Scoring one table (a contest): entries are ranked winners first, then by
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

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..pairing.tables import EntryId, Table
from .snapshot import Format, TableResult, TournamentSnapshot

BYE_POINTS: dict[Format, Fraction] = {
    Format.ROUND_ROBIN: Fraction(1, 2),
    Format.SWISS: Fraction(1),
    Format.KNOCKOUT: Fraction(0),
    Format.DUPLICATE: Fraction(1, 2),
}


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

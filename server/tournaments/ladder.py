"""The ladder's matchmaking and scoring: pure functions over plain values.

A ladder pairs continuously: each scheduler pass hands :func:`make_matches`
the entries that are available now (seen waiting for a turn, not paused, and
below their cap of concurrent games) with their ratings, and gets back the
matches to start. A match is one contest: a table, or on a duplicate ladder a
duplicate board, rated as one result (:func:`contest_ranks`). A duplicate board
is a team event (:func:`server.tournaments.pairing.duplicate.team_board`): two
teams of two sides, the same deal at two tables, each team's first side at
position 0 of table 1 and its second at position 1 of table 2, so nobody sits
at both tables. It needs twice a table's players; when fewer are available the
ladder plays ordinary games instead (``services.ladder_plan``).

Choices, in order:

* the most uncertain entry (highest sigma) is matched first, so new and
  returning bots get games and a settled rating soonest;
* its opponents are the available entries of closest ``mu``; an entry it met
  in its last match costs :data:`REMATCH_PENALTY` extra, so immediate rematches
  happen only when nobody else is near;
* partnerships (solo entries paired per board) are formed to balance the
  sides' summed ``mu``, avoiding the last match's partners, so the contest is
  informative and partners rotate;
* on a ladder of fixed pairs (:func:`make_pair_matches`) each pair is one
  entry, rated by its members' mean ``mu`` and larger ``sigma``, and one side
  (a duplicate team: two pairs).

>>> cands = [Candidate("a", 30, 2), Candidate("b", 20, 2), Candidate("c", 29, 8)]
>>> make_matches(cands, sides=2, seats_per_side=1)
[(('c',), ('a',))]
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .clock import forfeit_result
from .formats import TableResult
from .pairing.duplicate import team_board
from .pairing.tables import Table

REMATCH_PENALTY = 10.0
"""Cost, in ``mu`` points, of meeting again an entry met in the last match."""

Side = tuple[str, ...]
Match = tuple[Side, ...]


@dataclass(frozen=True, slots=True)
class Candidate:
    """An available entry: its player id and rating (mean and uncertainty)."""

    player: str
    mu: float
    sigma: float


def make_matches(
    candidates: Sequence[Candidate],
    *,
    sides: int,
    seats_per_side: int,
    recent: Mapping[str, frozenset[str]] | None = None,
    partners: Mapping[str, frozenset[str]] | None = None,
    idle: Mapping[str, float] | None = None,
    rematch_wait: float = 0.0,
) -> list[Match]:
    """The matches to start among ``candidates`` (each used at most once).

    Args:
        candidates: the available entries.
        sides: sides per table (Concerto: 2; Seconds: 4).
        seats_per_side: players per side (Concerto: 2 partners; 1 for solo games).
        recent: each player's opponents and partners in its last match.
        partners: each player's partners in its last match.
        idle: seconds since each player's last game ended (never played: absent).
        rematch_wait: a group that would replay the anchor's last match whole waits
            until the anchor has been idle this long, so that entries finishing soon
            after can mix in (else two groups of a small ladder would never meet).

    Returns:
        Matches, each a tuple of ``sides`` sides of ``seats_per_side`` players.
        Entries left over (too few, or nobody suitable) wait for a later pass.
    """
    recent = recent or {}
    need = sides * seats_per_side
    pool = sorted(candidates, key=lambda c: (-c.sigma, c.player))
    out: list[Match] = []
    while len(pool) >= need:
        anchor, rest = pool[0], pool[1:]
        met = recent.get(anchor.player, frozenset())
        rest.sort(
            key=lambda c: (
                abs(c.mu - anchor.mu) + (REMATCH_PENALTY if c.player in met else 0.0),
                c.player,
            )
        )
        group = [anchor, *rest[: need - 1]]
        same = all(c.player in met for c in group[1:])
        if same and (idle or {}).get(anchor.player, float("inf")) < rematch_wait:
            pool = pool[1:]  # the whole last match again: wait a little for others
            continue
        out.append(form_sides(group, sides, seats_per_side, partners))
        chosen = {c.player for c in group}
        pool = [c for c in pool if c.player not in chosen]
    return out


def make_pair_matches(
    pairs: Sequence[tuple[Candidate, Candidate]],
    *,
    sides: int,
    pairs_per_side: int = 1,
    recent: Mapping[str, frozenset[str]] | None = None,
    idle: Mapping[str, float] | None = None,
    rematch_wait: float = 0.0,
) -> list[Match]:
    """The matches to start among fixed ``pairs``, each side ``pairs_per_side`` pairs (its
    players pair by pair; 2 for a duplicate board's teams), each pair used at most once.

    Each pair is matched as one entry by :func:`make_matches`: its ``mu`` the mean of
    its members', its ``sigma`` the larger, so it is as uncertain as its newest member;
    it met the pairs any member met in its last match, and is idle since the later of
    its members' last games. ``recent`` and ``idle`` are per player, as there.

    >>> a, b, c, d, e, f = (Candidate(p, 25, 8) for p in "abcdef")
    >>> make_pair_matches([(a, b), (c, d), (e, f)], sides=2, recent={"a": frozenset("cd")})
    [(('a', 'b'), ('e', 'f'))]
    """
    recent = recent or {}
    idle = idle or {}
    members = {str(i): (x, y) for i, (x, y) in enumerate(pairs)}
    unit_of = {m.player: u for u, pair in members.items() for m in pair}
    units = [
        Candidate(u, (x.mu + y.mu) / 2, max(x.sigma, y.sigma)) for u, (x, y) in members.items()
    ]
    met = {
        u: frozenset(unit_of[q] for m in pair for q in recent.get(m.player, ()) if q in unit_of)
        - {u}
        for u, pair in members.items()
    }
    unit_idle = {
        u: min(idle[m.player] for m in pair if m.player in idle)
        for u, pair in members.items()
        if any(m.player in idle for m in pair)
    }
    found = make_matches(
        units,
        sides=sides,
        seats_per_side=pairs_per_side,
        recent=met,
        idle=unit_idle,
        rematch_wait=rematch_wait,
    )
    return [
        tuple(tuple(m.player for u in side for m in members[u]) for side in match)
        for match in found
    ]


def form_sides(
    group: Sequence[Candidate],
    sides: int,
    seats_per_side: int,
    partners: Mapping[str, frozenset[str]] | None = None,
) -> Match:
    """Split ``group`` into sides: balanced summed ``mu``, last partners avoided.

    >>> g = [Candidate(p, mu, 1) for p, mu in (("a", 40), ("b", 30), ("c", 20), ("d", 10))]
    >>> form_sides(g, 2, 2)
    (('a', 'd'), ('b', 'c'))
    """
    partners = partners or {}
    players = [c.player for c in group]
    mu = {c.player: c.mu for c in group}
    if seats_per_side == 1:
        return tuple((p,) for p in players)
    best: tuple[float, Match] | None = None
    for split in _splits(players, sides, seats_per_side):
        totals = [sum(mu[p] for p in side) for side in split]
        repeat = sum(
            1
            for side in split
            for a, b in itertools.combinations(side, 2)
            if b in partners.get(a, ())
        )
        cost = max(totals) - min(totals) + REMATCH_PENALTY * repeat
        if best is None or cost < best[0]:
            best = (cost, split)
    assert best is not None
    return best[1]


def _splits(players: Sequence[str], sides: int, size: int) -> list[Match]:
    """Every way to split ``players`` into ``sides`` unordered sides of ``size``."""
    if sides == 1:
        return [(tuple(players),)]
    first, rest = players[0], players[1:]
    out: list[Match] = []
    for mates in itertools.combinations(rest, size - 1):
        left = [p for p in rest if p not in mates]
        for tail in _splits(left, sides - 1, size):
            out.append(((first, *mates), *tail))
    return out


def tables(match: Match, *, duplicate_board: bool) -> list[list[str]]:
    """The seats (player per seat) of the match's table(s).

    One table: side ``p`` of ``k`` holds seats ``p, p+k, …`` (``Table.of``), its
    players in order. A duplicate board: each side of the match is a team, its
    first half one side of the table and its second half another; the two tables
    of :func:`~server.tournaments.pairing.duplicate.team_board` seat them, so no
    player is at both tables.

    >>> tables((("a", "b"), ("c", "d")), duplicate_board=False)
    [['a', 'c', 'b', 'd']]
    >>> tables((("a", "b", "c", "d"), ("e", "f", "g", "h")), duplicate_board=True)
    [['a', 'e', 'b', 'f'], ['g', 'c', 'h', 'd']]
    """
    if not duplicate_board:
        per_side = len(match[0])
        halves = {f"s{i}": tuple(side) for i, side in enumerate(match)}
        layout: list[Table] = [Table.of(list(halves), per_side)]
    else:
        if len(match) != 2 or any(len(side) % 2 for side in match):
            raise ValueError("a duplicate board is two teams of two equal halves")
        k = len(match[0]) // 2
        halves = {
            f"s{i}.{h}": tuple(side[h * k : (h + 1) * k])
            for i, side in enumerate(match)
            for h in (0, 1)
        }
        layout = list(team_board(("s0.0", "s0.1"), ("s1.0", "s1.1"), 0, seats_per_entry=k))
    return [seat_players(halves, table) for table in layout]


def seat_players(halves: Mapping[str, Side], table: Table) -> list[str]:
    """The player in each seat of ``table``, whose seats name the sides in ``halves``."""
    taken: dict[str, int] = {}
    out = []
    for side in table.seats:
        n = taken.get(side, 0)
        taken[side] = n + 1
        out.append(halves[side][n])
    return out


def contest_ranks(
    match: Match, seats: Sequence[Sequence[str]], finals: Sequence[Mapping[str, Any]]
) -> tuple[int, ...]:
    """Each side's place in the contest (0 best, ties shared), from its tables' results.

    ``finals[t]`` is table ``t``'s ``{"scores": per seat, "winners": seats,
    "forfeit": seat or None}``. One table: places as a tournament table
    (``TableResult.ranks``; a forfeit loses). A duplicate board (two tables, a
    team of the match at each position once): the board difference decides —
    the sum of the team's net scores at its two tables, i.e. its two sides
    compared with the sides that held the same cards — never the raw scores;
    a team whose player forfeited either table loses.

    >>> m = (("a", "b", "c", "d"), ("e", "f", "g", "h"))
    >>> seats = tables(m, duplicate_board=True)
    >>> won = {"scores": [5, 3, 5, 3], "winners": [0, 2], "forfeit": None}
    >>> lost = {"scores": [4, 2, 4, 2], "winners": [0, 2], "forfeit": None}
    >>> contest_ranks(m, seats, [won, lost])   # +2 then -2: a draw on the board
    (0, 0)
    """
    side_of = {p: i for i, side in enumerate(match) for p in side}
    layouts = [Table(tuple(f"s{side_of[p]}" for p in table)) for table in seats]
    results = []
    for table, final in zip(layouts, finals, strict=True):
        if final.get("forfeit") is not None:
            results.append(forfeit_result(table, final["scores"], final["forfeit"]))
        else:
            results.append(TableResult.from_outcome(table, final["scores"], final["winners"]))
    if len(results) == 1:
        by_name = dict(zip(layouts[0].entries, results[0].ranks(), strict=True))
        return tuple(by_name[f"s{i}"] for i in range(len(match)))
    forfeits = {
        seats[t][f["forfeit"]] for t, f in enumerate(finals) if f.get("forfeit") is not None
    }
    lost = {side_of[p] for p in forfeits}
    if lost:
        return tuple(1 if i in lost else 0 for i in range(len(match)))
    diff = 0.0
    for table, result in zip(layouts, results, strict=True):
        pos = {e: i for i, e in enumerate(table.entries)}
        diff += result.scores[pos["s0"]] - result.scores[pos["s1"]]
    return (0, 0) if diff == 0 else (0, 1) if diff > 0 else (1, 0)


def timed_out_streak(timeouts: Sequence[int]) -> int:
    """How many of an entry's latest games (oldest first) ran out its clock in a row.

    >>> timed_out_streak([1, 0, 2, 1])
    2
    """
    n = 0
    for t in reversed(timeouts):
        if not t:
            break
        n += 1
    return n


def percentile(values: Sequence[float], q: float) -> float | None:
    """The ``q`` quantile (0 < q <= 1) of ``values`` by nearest rank; None when empty.

    >>> percentile([4, 1, 3, 2], 0.5), percentile([4, 1, 3, 2], 0.99)
    (2, 4)
    """
    if not values:
        return None
    ordered = sorted(values)
    rank = math.ceil(round(q * len(ordered), 9))
    return ordered[min(max(rank, 1), len(ordered)) - 1]

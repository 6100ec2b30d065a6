"""Run a tournament from the outside, through the public API (``make demo``, scripts).

Create a tournament, enter the entries, start it, then follow it until the
scheduler has finished it, with a progress callback; print its standings and a
leaderboard as text tables.

>>> print(standings_table({"standings": [
...     {"rank": 1, "entry": "e2", "names": ["ann", "bob"], "points": 1.5, "played": 2,
...      "byes": 0, "score_difference": 12.0},
...     {"rank": 2, "entry": "e1", "names": ["cy", "di"], "points": 0.5, "played": 2,
...      "byes": 0, "score_difference": -12.0}]}))
  # entry  players        points  played  byes    diff
  1 e2     ann & bob         1.5       2     0   +12.0
  2 e1     cy & di           0.5       2     0   -12.0
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .client import Client
from .leaderboard import leaderboard_table as leaderboard_table  # its home before


class TournamentFailed(RuntimeError):
    """The tournament was aborted (its ``error`` says why) or did not finish in time."""


def organise(
    client: Client,
    *,
    game: str,
    format: str,
    entries: Sequence[Sequence[str]],
    options: Mapping[str, Any] | None = None,
    accept_timeout: float = 60.0,
    **settings: Any,
) -> dict[str, Any]:
    """Create a tournament, enter ``entries`` (player ids, one list per entry), start it
    once every player named by someone else has accepted the invitation.

    Args:
        client: a client with the admin token or the organising player's token.
        game, format, options: as ``POST /v1/tournaments``.
        entries: each entry's player ids in seat order (Concerto: two per entry).
        accept_timeout: seconds to wait for the invited players to accept.
        settings: the other fields of ``POST /v1/tournaments`` (``clock``,
            ``timeout_policy``, ``rounds``, ``boards_per_match``, ``name``…).

    Returns:
        The started tournament (``GET /v1/tournaments/{id}``'s shape).

    Raises:
        ParlourError: the server refused a step (its ``code`` says why).
        TournamentFailed: an invited player did not accept in time.
    """
    made = client.tournaments.create(game, format, options=options, **settings)
    for players in entries:
        client.tournaments.enter(made["id"], players)
    _wait_accepted(client, made["id"], accept_timeout)
    return client.tournaments.start(made["id"])


def _wait_accepted(client: Client, tournament_id: str, timeout: float) -> None:
    """Wait until no entry is held for an invitation (the players named in it accept:
    docs/api.md#consent-and-invitations); the admin's entries are never held."""
    deadline = time.monotonic() + timeout
    while True:
        page = client.tournaments.get(tournament_id)
        held = [e for e in page.get("entries", []) if e.get("pending")]
        if not held:
            return
        if time.monotonic() > deadline:
            waiting = sorted({p for e in held for p in e["pending"]})
            raise TournamentFailed(f"invitations not accepted in {timeout:.0f}s: {waiting}")
        time.sleep(0.2)


def wait_finished(
    client: Client,
    tournament_id: str,
    *,
    timeout: float | None = None,
    poll: float = 0.5,
    on_progress: Callable[[dict[str, Any]], None] | None = None,
) -> dict[str, Any]:
    """Poll ``GET /v1/tournaments/{id}`` until it is finished; return it.

    ``on_progress`` gets every page read (``page["progress"]`` has
    ``games_planned``, ``games_started``, ``games_finished``, ``rounds``: enough
    for a progress line).

    Raises:
        TournamentFailed: aborted, or still running after ``timeout`` seconds.
    """
    deadline = None if timeout is None else time.monotonic() + timeout
    while True:
        page = client.tournaments.get(tournament_id)
        if on_progress is not None:
            on_progress(page)
        if page["status"] == "finished":
            return page
        if page["status"] == "aborted":
            raise TournamentFailed(page.get("error") or "the tournament was aborted")
        if deadline is not None and time.monotonic() > deadline:
            raise TournamentFailed(f"not finished after {timeout} s: {page['progress']}")
        time.sleep(poll)


def progress_line(page: Mapping[str, Any]) -> str:
    """One line of a tournament's progress (``event watch`` prints it as it changes).

    >>> progress_line({"status": "running", "progress": {"rounds": 2, "games_planned": 6,
    ...     "games_started": 3, "games_finished": 2}, "rounds_planned": 3})
    'running: round 2 of 3, 2 of 6 games finished, 1 being played'
    """
    p = page["progress"]
    planned = f" of {page['rounds_planned']}" if page.get("rounds_planned") else ""
    games = f" of {p['games_planned']}" if p.get("games_planned") is not None else ""
    playing = p["games_started"] - p["games_finished"]
    line = f"{page['status']}: round {p['rounds']}{planned}, {p['games_finished']}{games} games"
    return f"{line} finished, {max(playing, 0)} being played"


def standings_table(page: Mapping[str, Any]) -> str:
    """The standings of a tournament page as a text table (see the module docstring): each
    entry by its ``name`` (a team name) where it has one, else its players' names."""
    rows = [
        (s, s.get("name") or " & ".join(n or "?" for n in s["names"])) for s in page["standings"]
    ]
    width = max([14, *(len(names) for _, names in rows)])
    lines = [
        f"{'#':>3} {'entry':<6} {'players':<{width}} {'points':>6}  {'played':>6}  "
        f"{'byes':>4}  {'diff':>6}"
    ]
    for s, names in rows:
        lines.append(
            f"{s['rank']:>3} {s['entry']:<6} {names:<{width}} {s['points']:>6.1f}  "
            f"{s['played']:>6}  {s['byes']:>4}  {s['score_difference']:>+6.1f}"
        )
    return "\n".join(lines)

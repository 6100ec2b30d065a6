"""Each ladder entry's state, worked out from the stored matches and results: its status
(available, playing, away, paused, held, validating, failed_validation, left), its
health, its results and, for one entry, its history with the ratings after each match.

Health, computed from the stored results (never stored apart, so it cannot
drift): an entry whose last ``pause_after`` games each ran out its clock is
paused, with the reason shown, until it is seen waiting again
``pause_seconds`` after its last timeout; one game played in time clears it.
House bots (the server's bot pool, the ladder's anchors) are never paused: a
timeout of theirs is the server's load, and pausing them would leave the bots
that joined with nobody to play. An entry that plays through a callback also
shows the dispatchers' books on how it answers its calls (``health.callback``,
:mod:`server.services.callbacks`); a failing callback's turns end in the clock's
default moves, and those pause it as any other entry's timeouts do.

:class:`LadderStats` is read by the public pages (:mod:`server.services.ladder_pages`)
and by the matchmaking (:mod:`server.services.ladder_plan`: a paused entry is not
matched).

A player's bot (:mod:`server.services.player_bots`) that its health sweep paused (a
hosted or callback bot whose turns keep failing, :mod:`server.services.bot_health`) is
paused on every ladder with that reason until its owner resumes it; a resume also
forgives the timeouts before it.
"""

from __future__ import annotations

import time
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from server.services import boards, views
from server.services.callbacks import health as callback_health
from server.services.core import Core
from server.services.ladder_entries import VALIDATING, pair_of, playing, pool
from server.services.wire import iso
from server.store import bots as bot_store
from server.store import callbacks as callback_store
from server.store import games as game_store
from server.store import ladders as store
from server.store import players as player_store
from server.store import ratings as rating_store
from server.store.ladders import LadderRecord
from server.tournaments import ladder as matching
from server.tournaments import ratings as rating_model


def _ms(seconds: float | None) -> float | None:
    return None if seconds is None else round(seconds * 1000, 1)


def _outcome(ranks: tuple[int, ...], rank: int) -> str:
    """A side's outcome of a contest: drawn when every side shares first place."""
    best = min(ranks)
    if ranks.count(best) == len(ranks):
        return "drawn"
    return "won" if rank == best else "lost"


def _validation_out(got: dict[str, Any] | None) -> dict[str, Any] | None:
    """An entry's validation as shown (None: it needs none)."""
    if not got:
        return None
    return {
        "status": got["state"],
        "attempt": got["attempt"],
        "game_id": got["game_id"],
        "reason": got["reason"],
    }


def _rating_out(got: dict[str, Any] | None) -> dict[str, float] | None:
    """A stored rating as shown: mu, sigma, the ordinal (mu - 3 sigma) and the 95% interval
    ``low``..``high`` (mu +- 1.96 sigma), or None."""
    if got is None:
        return None
    low, high = rating_model.interval((got["mu"], got["sigma"]))
    return {
        "mu": round(got["mu"], 3),
        "sigma": round(got["sigma"], 3),
        "ordinal": round(rating_model.ordinal((got["mu"], got["sigma"])), 3),
        "low": round(low, 3),
        "high": round(high, 3),
    }


@dataclass
class Tally:
    """What :meth:`LadderStats.tally` gathers from the stored matches and results."""

    players: set[str] = field(default_factory=set)
    timeouts: dict[str, list[tuple[float, int]]] = field(default_factory=lambda: defaultdict(list))
    results: dict[str, dict[str, int]] = field(
        default_factory=lambda: defaultdict(lambda: {"won": 0, "drawn": 0, "lost": 0})
    )
    last: dict[str, float] = field(default_factory=dict)
    history: list[dict[str, Any]] = field(default_factory=list)


class LadderStats:
    """The entries' state of a ladder, over the shared :class:`Core`."""

    def __init__(self, core: Core) -> None:
        self.core = core
        self.r = core.r

    def stats(
        self,
        record: LadderRecord,
        *,
        history_of: str | None = None,
        seen: dict[str, float] | None = None,
        now: float | None = None,
        tally: Tally | None = None,
    ) -> dict[str, dict[str, Any]]:
        """Per entry: status (available, playing, away, paused, left, held), health and results."""
        now = time.time() if now is None else now
        tally = tally or self.tally(record, history_of)
        everyone = sorted(set(record.entries) | set(tally.players))
        seen = seen if seen is not None else store.last_seen(self.r, everyone)
        names = self.names(everyone)
        moves = store.move_health(self.r, record.id, everyone)
        called = sorted(callback_store.having(self.r, everyone))
        books = callback_store.books(self.r, called) if called else {}
        of = bot_store.bots_of(self.r, everyone)
        bots = bot_store.health_of(self.r, sorted(set(of.values())))
        out = {
            p: self._entry_out(record, p, tally, seen, now, moves[p], bots.get(of.get(p, "")))
            | {"name": names.get(p)}
            | views.house(p)
            for p in everyone
        }
        hidden = self._sealed_failures(books)
        for p in everyone:  # a callback's own health: how it answers its calls
            book = books.get(p)
            if book is not None:  # nothing of a sealed table's calls
                book = (book[0], book[1], [f for f in book[2] if f["game_id"] not in hidden])
            out[p]["health"]["callback"] = callback_health(book) if book else None
        if history_of in out:
            got = rating_store.of_player(self.r, [pool(record.id)], history_of).get(pool(record.id))
            shown: dict[str, Any] | None = _rating_out(got)
            if got is not None and shown is not None:
                shown["games"] = got.get("games", 0)
                shown["provisional"] = (
                    rating_model.provisional(got["sigma"])
                    or shown["games"] < record.meta["provisional_games"]
                )
            out[history_of]["rating"] = shown
            numbers = [row["match"] for row in tally.history]
            after = {
                int(e.rpartition(":")[2]): v
                for e, v in rating_store.after(
                    self.r, pool(record.id), [f"{record.id}:{n}" for n in numbers]
                ).items()
            }
            missing = [n for n in numbers if n not in after]  # rated before they were kept so
            after |= store.after(self.r, record.id, missing)
            for row in tally.history:
                row["rating"] = _rating_out(after.get(row["match"], {}).get(history_of))
            out[history_of]["history"] = tally.history[::-1]
        return out

    def _sealed_failures(self, books: dict[str, tuple[Any, Any, list[dict[str, Any]]]]) -> set[str]:
        """The games among the callbacks' failures that are tables of a duplicate board in
        play (:func:`server.services.boards.in_play_among`): the public pages show
        nothing of them."""
        ids = sorted({f["game_id"] for _, _, failures in books.values() for f in failures})
        if not ids:
            return set()
        return boards.in_play_among(self.core, game_store.read_many(self.r, ids))

    def tally(self, record: LadderRecord, history_of: str | None, sealed: bool = False) -> Tally:
        """One pass over every match: timeouts per game, contest results, last played.

        A duplicate board's tables count once the board is over (both tables): until
        then a table's end and timeouts tell of the deal its twin plays, and the
        entry pages show nothing of them. ``sealed`` counts them at once (the
        scheduler's view: a table's timeouts pause its entry as soon as it is over).
        """
        matches = store.all_matches(self.r, record.id)
        games, results = store.all_results(self.r, record.id)
        tally = Tally()
        for n in sorted(matches):
            match = matches[n]
            tally.players.update(p for side in match["sides"] for p in side)
            finals = [results.get(store.slot(n, t)) for t in range(len(match["tables"]))]
            board_open = len(finals) > 1 and None in finals
            counted = finals if sealed or not board_open else [None] * len(finals)
            for seats, final in zip(match["tables"], counted, strict=True):
                if final is not None:
                    for s, p in enumerate(seats):
                        got = int(final["timeouts"].get(str(s), 0))
                        tally.timeouts[p].append((final["ended"], got))
                        tally.last[p] = max(tally.last.get(p, 0.0), final["ended"])
            ranks = None
            over = [f for f in finals if f is not None]
            if len(over) == len(finals):
                sides = tuple(tuple(s) for s in match["sides"])
                ranks = matching.contest_ranks(sides, match["tables"], over)
                for side, rank in zip(match["sides"], ranks, strict=True):
                    for p in side:
                        tally.results[p][_outcome(ranks, rank)] += 1
            if history_of and any(history_of in s for s in match["sides"]):
                tally.history.append(
                    self._history_row(n, match, games, finals, ranks, history_of, board_open)
                )
        return tally

    @staticmethod
    def _entry_out(
        record: LadderRecord,
        p: str,
        tally: Tally,
        seen: dict[str, float],
        now: float,
        moves: tuple[list[float], int],
        bot: tuple[str | None, float, float] | None = None,
    ) -> dict[str, Any]:
        meta = record.meta
        mine = [x for _, x in sorted(tally.timeouts[p])]
        resumed = bot[2] if bot is not None else 0.0  # the owner forgave what came before
        streak = matching.timed_out_streak([x for e, x in sorted(tally.timeouts[p]) if e > resumed])
        status, reason, until = "available", None, None
        partner = record.entries.get(p, {}).get("partner")
        validation = record.entries.get(p, {}).get("validation")
        if p not in record.entries:
            status = "left"
        elif validation and validation["state"] in VALIDATING:
            status = "validating"
        elif validation and validation["state"] == "failed":
            status = "failed_validation"
        elif partner and pair_of(record, p) is None:
            status = "held"
        elif bot is not None and bot[0] is not None:
            status, reason, until = "paused", bot[0], None
        elif streak >= meta["pause_after"] and not views.is_house(p):
            until = max(e for e, x in tally.timeouts[p] if x) + meta["pause_seconds"]
            if seen.get(p, 0) < until:
                status = "paused"
                reason = (
                    f"timed out in its last {streak} games; resumes when seen waiting "
                    f"after {iso(until)}"
                )
        if status == "available" and playing(record, p):
            status = "playing"  # seen or not: a bot at its games holds its turn stream
        elif status == "available" and seen.get(p, 0) < now - meta["seen_seconds"]:
            status = "away"
        return {
            "player_id": p,
            "status": status,
            "paused_reason": reason,
            "paused_until": until if status == "paused" else None,
            "joined": iso(record.entries[p]["joined"]) if p in record.entries else None,
            "partner": partner,
            "validation": _validation_out(validation),
            "last_seen_waiting": iso(seen.get(p)),
            "last_played": iso(tally.last.get(p)),
            "results": dict(tally.results[p]),
            "health": {
                "games": len(mine),
                "games_with_timeouts": sum(1 for x in mine if x),
                "timeouts": sum(mine),
                "timeout_streak": streak,
                "response_p50": _ms(matching.percentile(moves[0], 0.50)),
                "response_p99": _ms(matching.percentile(moves[0], 0.99)),
                "response_samples": len(moves[0]),
                "refused_moves": moves[1],
            },
        }

    @staticmethod
    def _history_row(
        n: int,
        match: dict[str, Any],
        games: dict[str, str],
        finals: list[dict[str, Any] | None],
        ranks: tuple[int, ...] | None,
        player: str,
        board_open: bool = False,
    ) -> dict[str, Any]:
        side = next(i for i, s in enumerate(match["sides"]) if player in s)
        table: list[str] = next((seats for seats in match["tables"] if player in seats), [])
        outcome = None if ranks is None else _outcome(ranks, ranks[side])
        ids = [games.get(store.slot(n, t)) for t in range(len(match["tables"]))]
        return {
            "match": n,
            "created": iso(match["created"]),
            "partners": [p for p in match["sides"][side] if p != player and p in table],
            "teammates": [p for p in match["sides"][side] if p != player and p not in table],
            "opponents": [p for i, s in enumerate(match["sides"]) if i != side for p in s],
            "outcome": outcome,
            "games": [
                {
                    "game_id": g,
                    "replay": f"/v1/games/{g}/replay" if g else None,
                    "over": None if board_open else f is not None,
                }
                for g, f in zip(ids, finals, strict=True)
            ],
        }

    def names(self, ids: list[str]) -> dict[str, str]:
        """The players' names, by id (a player removed since is left out)."""
        return {p: rec.name for p, rec in player_store.get_many(self.r, ids).items() if rec}

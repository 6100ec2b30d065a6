"""Ladder use cases: define, list, show, join, leave, the leaderboard, an entry's history.

A ladder is a standing competition: a bot joins once, and the scheduler
(:mod:`server.services.ladder_play`, on each pass) matches it whenever it is available and
rates every contest, for as long as it plays (docs/ladder.md). The matchmaking
is pure (:mod:`server.tournaments.ladder`); :meth:`Ladders.plan` feeds it what
Redis holds.

Who may do what: the admin defines ladders; a player joins or leaves a ladder
only for itself (the admin may for anyone). Joining is the player's consent to
be seated: the ladder seats nobody else, and each of its games records that
consent (``meta.tournament.consent``).

Sides: solo entries are paired into partnerships board by board; on a ladder of
``sides: "fixed"`` (two players a side) each player joins naming its partner, and
the pair is held until the partner joins naming it back. Only such an accepted
pair is matched, always as one side and rated as a team; either leaving takes
the pair out.

Caps: an entry plays at most ``max_games`` of the ladder's games at once (the
ladder's, or its own lower one); house bots have no cap, so one entry that stalls
its games holds only its own share of theirs, and a validated newcomer is matched
at the next passes however busy they are.

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

Validation: on a ladder with ``validation`` on (the default for a new ladder) and
house bots enough to fill a table with one newcomer, a new entry first plays one
unrated **validation game** against the house bots
(:meth:`server.services.ladder_play.LadderPlay.validate`, on the scheduler's pass,
once the entry is seen waiting); only an entry that ends it with no timeout and no
illegal move is matched and rated (status ``validating`` until then,
``failed_validation`` with the reason after a failed one; joining again tries
again; leaving and joining again is a new entry, which validates again, in a game
of its own: each validation's id derives from a random key).
:meth:`Ladders.revalidate` asks it again of a player on all its ladders (its
callback changed). House bots are never validated; neither are entries of a
ladder without such house bots (nothing to validate against) or of one defined
before validation existed.
"""

from __future__ import annotations

import secrets
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from server.games import REGISTRY
from server.services import boards, views
from server.services.callbacks import health as callback_health
from server.services.core import Core
from server.services.errors import Forbidden, InvalidRequest, NotFound
from server.services.names import MAX_TITLE_LENGTH, clean_name
from server.services.wire import iso
from server.store import callbacks as callback_store
from server.store import games as game_store
from server.store import ladders as store
from server.store import players as player_store
from server.store import ratings as rating_store
from server.store.ladders import LadderRecord
from server.tournaments import clock as clock_policy
from server.tournaments import ladder as matching
from server.tournaments import ratings as rating_model

DEFAULTS: dict[str, Any] = {
    "clock": {"move_seconds": 30.0, "bank_ms": 0},
    "timeout_policy": {"kind": "default_move"},
    "max_games": 2,
    "provisional_games": 10,
    "pause_after": 3,
    "pause_seconds": 60.0,
    "seen_seconds": 5.0,
    "rematch_seconds": 3.0,
    "validation": True,
}
VALIDATING = ("pending", "playing")
"""The states of a validation not over yet: the entry is ``validating``."""
RECENT_MATCHES = 64
"""How far back the scheduler looks for each entry's last match (rematch avoidance)."""


def pool(ladder_id: str) -> str:
    """The ladder's rating pool (its own, apart from the game's)."""
    return f"ladder:{ladder_id}"


def _ms(seconds: float | None) -> float | None:
    return None if seconds is None else round(seconds * 1000, 1)


def _outcome(ranks: tuple[int, ...], rank: int) -> str:
    """A side's outcome of a contest: drawn when every side shares first place."""
    best = min(ranks)
    if ranks.count(best) == len(ranks):
        return "drawn"
    return "won" if rank == best else "lost"


def _validation(attempt: int) -> dict[str, Any]:
    """A validation to play (its entry's ``attempt``-th), with a fresh random ``key`` its
    game's id derives from: no later attempt, nor a later entry of the same player
    (whose attempts count from 1 again), can find an earlier attempt's game."""
    return {
        "state": "pending",
        "attempt": attempt,
        "game_id": None,
        "reason": None,
        "key": secrets.token_hex(8),
    }


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


def validated(entry: dict[str, Any]) -> bool:
    """Whether an entry may be matched: it needs no validation, or passed it."""
    got = entry.get("validation")
    return not got or got["state"] == "passed"


def house_entries(record: LadderRecord) -> list[str]:
    """The ladder's house bots (its anchors, the validation games' other seats), by id."""
    return sorted(p for p in record.entries if views.is_house(p))


def _fixed(record: LadderRecord) -> bool:
    return record.meta.get("sides") == "fixed"


def _pair_of(record: LadderRecord, player: str) -> str | None:
    """The player's partner when both named each other (an accepted pair), else None."""
    partner = record.entries.get(player, {}).get("partner")
    if partner and record.entries.get(partner, {}).get("partner") == player:
        return str(partner)
    return None


def _playing(record: LadderRecord, player: str) -> bool:
    """Whether ``player`` sits at a table of an open match that has no result yet."""
    return any(
        player in seats and store.slot(n, t) not in record.results
        for n, match in record.open.items()
        for t, seats in enumerate(match["tables"])
    )


def label(name: str | None, player_id: str, shared: bool) -> str:
    """A leaderboard row's name, told apart by the player id's tail when another row
    has the same name (names need not be unique; ids are).

    >>> label("mybot", "9f3e1c77aa01b2c4", True), label("ann", "b2c4", False)
    ('mybot #b2c4', 'ann')
    """
    shown = name if name is not None else player_id
    return f"{shown} #{player_id[-4:]}" if shared else shown


def _rating_out(got: dict[str, Any] | None) -> dict[str, float] | None:
    """A stored rating as shown: mu, sigma and the ordinal (mu - 3 sigma), or None."""
    if got is None:
        return None
    return {
        "mu": round(got["mu"], 3),
        "sigma": round(got["sigma"], 3),
        "ordinal": round(rating_model.ordinal((got["mu"], got["sigma"])), 3),
    }


@dataclass
class _Tally:
    """What :meth:`Ladders._tally` gathers from the stored matches and results."""

    players: set[str] = field(default_factory=set)
    timeouts: dict[str, list[tuple[float, int]]] = field(default_factory=lambda: defaultdict(list))
    results: dict[str, dict[str, int]] = field(
        default_factory=lambda: defaultdict(lambda: {"won": 0, "drawn": 0, "lost": 0})
    )
    last: dict[str, float] = field(default_factory=dict)
    history: list[dict[str, Any]] = field(default_factory=list)


class Ladders:
    """The ladder use cases, over the shared :class:`Core`."""

    def __init__(self, core: Core) -> None:
        self.core = core
        self.r = core.r

    # -- define ------------------------------------------------------------------------
    def create(
        self,
        token: str | None,
        *,
        game: str,
        options: dict[str, Any] | None = None,
        table_size: int | None = None,
        side_size: int | None = None,
        duplicate: bool | None = None,
        name: str | None = None,
        sides: str | None = None,
        **settings: Any,
    ) -> dict[str, Any]:
        """Define a ladder (admin only) and return it.

        Args:
            table_size: seats per table (games with a variable number of players).
            side_size: players per side (partners); default the game's
                (:meth:`Game.side_size <server.games.Game.side_size>`: half the table
                in a two-sided game, e.g. three for six-player Pinochle; else one).
            duplicate: two-sided partnership games play duplicate boards (default True):
                twice a table's players at two tables, nobody at both; an ordinary game
                when fewer entries are available.
            sides: ``"solo"`` (default: entries paired per board) or ``"fixed"`` (pairs
                entered together; two players a side only).
            settings: ``clock``, ``timeout_policy``, ``max_games`` (concurrent games per
                entry), ``provisional_games``, ``pause_after``, ``pause_seconds``,
                ``seen_seconds``, ``rematch_seconds``, ``validation`` (see
                :data:`DEFAULTS` and the module doc).

        Raises:
            Unauthorized, Forbidden, InvalidRequest; the engine's InvalidOptions.
        """
        caller = self.core.caller(token)
        if not caller.is_admin:
            raise Forbidden("only the admin defines ladders")
        engine = REGISTRY.get(game)
        if engine is None:
            raise InvalidRequest("unknown game", {"game": [f"one of {sorted(REGISTRY)}"]})
        options = dict(options or {})
        if table_size is not None and engine.seat_option:
            options[engine.seat_option] = table_size
        seats = engine.new_state(options, "probe").num_seats  # checks the options
        if table_size is not None and table_size != seats:
            raise InvalidRequest("this game cannot seat that", {"table_size": [f"{seats} seats"]})
        side_size = side_size or engine.side_size(seats)
        if side_size < 1 or seats % side_size or seats // side_size < 2:
            raise InvalidRequest(
                "sides must split the table", {"side_size": [f"a divisor of {seats}, at most half"]}
            )
        sides = sides or "solo"
        if sides not in ("solo", "fixed") or (sides == "fixed" and side_size != 2):
            raise InvalidRequest(
                "fixed pairs need two players a side", {"sides": ["solo, or fixed with pairs"]}
            )
        side_count = seats // side_size
        duplicate = (side_count == 2 and side_size > 1) if duplicate is None else duplicate
        if duplicate and side_count != 2:
            raise InvalidRequest("duplicate boards need two sides", {"duplicate": ["two sides"]})
        meta = DEFAULTS | {k: v for k, v in settings.items() if v is not None}
        meta["clock"] = clock_policy.setting(meta["clock"])
        if int(meta["max_games"]) < 1:
            raise InvalidRequest("max_games too low", {"max_games": ["a match needs more"]})
        if name is not None:
            name = clean_name(name, max_length=MAX_TITLE_LENGTH)
        ladder_id = secrets.token_hex(8)
        meta |= {
            "name": name or f"{engine.title} ladder",
            "game": engine.id,
            "options": options,
            "table_size": seats,
            "side_size": side_size,
            "sides": sides,
            "duplicate": duplicate,
        }
        store.create(self.r, ladder_id, meta, time.time())
        return self.show(ladder_id)

    # -- join, leave -------------------------------------------------------------------
    def join(
        self,
        token: str | None,
        ladder_id: str,
        player_id: str | None = None,
        partner: str | None = None,
        *,
        max_games: int | None = None,
    ) -> dict:
        """Enter a player (the caller itself; the admin may name anyone); repeatable.

        ``max_games``: the entry's own cap on games at once (the ladder's is the most),
        set by the first join (a bot that will play N games and leave, one at a time).

        On a ladder of fixed pairs the player names its ``partner``: the entry is held
        until the partner joins naming it back (the same call), then the pair plays.
        Without a partner the call only confirms an entry made already.

        On a ladder that validates (see the module doc) a new entry is ``validating``
        until its validation game is over; joining again after a failed one tries
        once more.

        Raises:
            InvalidRequest: a partner missing (fixed pairs), given on a solo ladder,
                the player itself, or either of them entered with someone else.
            NotFound: no such ladder, player or partner.
        """
        player_id = self._subject(token, player_id)
        record = self._record(ladder_id)
        fixed = _fixed(record)
        if fixed and not partner:
            if player_id in record.entries:  # entered already (a bot runner joining)
                self._retry_validation(record, player_id)
                return self.entry(ladder_id, player_id)
            raise InvalidRequest("name your partner", {"partner": ["required: fixed pairs"]})
        if partner and not fixed:
            raise InvalidRequest("this ladder pairs solo entries", {"partner": ["not here"]})
        if partner == player_id:
            raise InvalidRequest("a pair is two players", {"partner": ["someone else"]})
        wanted = [player_id, *([partner] if partner else [])]
        known = player_store.get_many(self.r, wanted)
        for p in wanted:
            if known[p] is None:
                raise NotFound("no such player", {"player_id": p})
        self.core.admit_house_bots("ladders", wanted)
        if partner:
            self._check_pair(record, player_id, partner)
        fresh = _validation(1) if self._validates(record, player_id) else None
        if not store.join(self.r, ladder_id, player_id, time.time(), partner, max_games, fresh):
            self._retry_validation(record, player_id)
        return self.entry(ladder_id, player_id)

    # -- validation --------------------------------------------------------------------
    def _validates(self, record: LadderRecord, player_id: str) -> bool:
        """Whether an entry of ``player_id`` must pass a validation game here: the ladder
        validates, the player is no house bot, and the ladder's house bots fill a table
        with it."""
        if not record.meta.get("validation") or views.is_house(player_id):
            return False
        return len(house_entries(record)) >= record.meta["table_size"] - 1

    def _retry_validation(self, record: LadderRecord, player_id: str) -> None:
        """An entry that failed its validation (joining again) tries once more."""
        got = record.entries.get(player_id, {}).get("validation")
        if got and got["state"] == "failed":
            store.set_validation(
                self.r, record.id, player_id, _validation(got["attempt"] + 1), expected=got
            )

    def revalidate(self, player_id: str) -> list[str]:
        """Ask a validation game again of ``player_id`` on every ladder it is entered on
        that validates (its callback changed: the bot that plays it may have); a
        validation under way starts over. Returns the ids of those ladders."""
        out = []
        for ladder_id in store.ids(self.r):
            record = store.read(self.r, ladder_id)
            if record is None or player_id not in record.entries:
                continue
            if not self._validates(record, player_id):
                continue
            got = record.entries[player_id].get("validation")
            attempt = got["attempt"] + 1 if got else 1
            if store.set_validation(self.r, ladder_id, player_id, _validation(attempt)):
                out.append(ladder_id)
        return out

    @staticmethod
    def _check_pair(record: LadderRecord, player: str, partner: str) -> None:
        """Refuse a pair whose player or partner is entered with someone else."""
        mine = record.entries.get(player, {}).get("partner", partner)
        theirs = record.entries.get(partner, {}).get("partner", player)
        if mine != partner:
            raise InvalidRequest(
                "entered with another partner: leave first", {"partner": [f"now {mine}"]}
            )
        if theirs != player:
            raise InvalidRequest(
                "that player is entered with another partner", {"partner": ["taken"]}
            )

    def leave(self, token: str | None, ladder_id: str, player_id: str | None = None) -> dict:
        """Take a player out: it is not matched again. Its games in progress go on while
        it is seen waiting; once it is not (for ``seen_seconds``) the scheduler gives its
        turns there the clock's timeout policy at once
        (:meth:`server.services.ladder_play.LadderPlay.advance`). On a ladder of fixed
        pairs its accepted partner leaves with it."""
        player_id = self._subject(token, player_id)
        record = self._record(ladder_id)
        partner = _pair_of(record, player_id)
        leaving = [player_id, *([partner] if partner else [])]
        running = {
            got["game_id"]: p
            for p in leaving
            if (got := record.entries.get(p, {}).get("validation")) and got["state"] == "playing"
        }
        if not store.leave(self.r, ladder_id, *leaving, validations=running):
            raise NotFound("not on this ladder", {"player_id": player_id})
        # still seen while at a game here (whether it is gone decides how that game goes)
        store.forget(
            self.r, [p for p in leaving if not _playing(record, p) and p not in running.values()]
        )
        out = {"ladder_id": ladder_id, "player_id": player_id, "left": True}
        return out | ({"partner_left": partner} if partner else {})

    def _subject(self, token: str | None, player_id: str | None) -> str:
        caller = self.core.caller(token)
        if caller.is_admin and player_id:
            return player_id
        if caller.player is None:
            raise InvalidRequest("name the player", {"player_id": ["required for the admin"]})
        if player_id not in (None, caller.player.id):
            raise Forbidden("a player joins or leaves a ladder only for itself")
        return caller.player.id

    # -- reading -----------------------------------------------------------------------
    def list_ladders(self) -> dict[str, Any]:
        return {"ladders": [self._summary(rec) for i in store.ids(self.r) if (rec := self._get(i))]}

    def show(self, ladder_id: str) -> dict[str, Any]:
        """The ladder's settings and its entries with their state (playing, paused…)."""
        record = self._record(ladder_id)
        stats = self._stats(record)
        return self._summary(record) | {
            "entries": [stats[p] for p in sorted(record.entries)],
        }

    def leaderboard(self, ladder_id: str) -> dict[str, Any]:
        """Entries best first by ordinal (mu - 3 sigma); provisional until enough games."""
        record = self._record(ladder_id)
        stats = self._stats(record)
        ratings = rating_store.pool(self.r, pool(ladder_id))
        rows = rating_model.leaderboard({p: (v["mu"], v["sigma"]) for p, v in ratings.items()})
        names = self._names(list(ratings))
        counts = Counter(names.get(p) for p in ratings)
        board = []
        for row in rows:
            s = stats.get(row.player) or self._blank(record, row.player)
            board.append(
                {
                    "rank": row.rank,
                    "player_id": row.player,
                    "name": names.get(row.player),
                    "label": label(
                        names.get(row.player), row.player, counts[names.get(row.player)] > 1
                    ),
                    **views.house(row.player),
                    "ordinal": round(row.ordinal, 3),
                    "mu": round(row.mu, 3),
                    "sigma": round(row.sigma, 3),
                    "games": ratings[row.player].get("games", 0),
                    "provisional": ratings[row.player].get("games", 0)
                    < record.meta["provisional_games"],
                    "results": s["results"],
                    "last_played": s["last_played"],
                    "on_ladder": row.player in record.entries,
                }
            )
        return {"ladder_id": ladder_id, "leaderboard": board}

    def entry(self, ladder_id: str, player_id: str) -> dict[str, Any]:
        """One entry: state, health, rating and its games (newest first), with replay links."""
        record = self._record(ladder_id)
        stats = self._stats(record, history_of=player_id)
        if player_id not in stats:
            raise NotFound("never on this ladder", {"player_id": player_id})
        return stats[player_id]

    # -- for the scheduler ---------------------------------------------------------------
    def plan(self, record: LadderRecord, now: float) -> list[dict[str, Any]]:
        """The matches to start now among the available entries (see the module doc)."""
        meta = record.meta
        busy: dict[str, int] = defaultdict(int)
        for n, match in record.open.items():
            for t, seats in enumerate(match["tables"]):
                if store.slot(n, t) not in record.results:
                    for p in seats:
                        busy[p] += 1
        seen = store.last_seen(self.r, list(record.entries), enrol=True)
        free = [
            p
            for p in record.entries
            if seen.get(p, 0) >= now - meta["seen_seconds"]
            and validated(record.entries[p])
            and busy[p] < self._cap(record, p)
        ]
        if len(free) < meta["table_size"]:
            return []  # nobody to match: spare the reading of every result
        tally = self._tally(record, None, sealed=True)
        stats = self._stats(record, seen=seen, now=now, tally=tally)
        ratings = rating_store.pool(self.r, pool(record.id))
        candidates = [
            matching.Candidate(p, *self._rating(ratings, p))
            for p in free
            if stats[p]["status"] != "paused"
        ]
        idle = {p: now - t for p, t in tally.last.items()}
        found: list[tuple[matching.Match, bool]] = []
        if meta["duplicate"]:  # boards first; whoever is left plays an ordinary game
            boards = self._match(record, candidates, idle, teams=True)
            found += [(match, True) for match in boards]
            used = {p for match in boards for side in match for p in side}
            candidates = [c for c in candidates if c.player not in used]
        if len(candidates) >= meta["table_size"]:
            found += [(match, False) for match in self._match(record, candidates, idle)]
        return [
            {
                "sides": [list(side) for side in match],
                "tables": matching.tables(match, duplicate_board=board),
                "created": now,
            }
            for match, board in found
        ]

    @staticmethod
    def _cap(record: LadderRecord, player: str) -> float:
        """How many of the ladder's games at once ``player`` may be at: the ladder's
        ``max_games``, or the entry's own lower cap. House bots have none: the server
        sizes their play, and each opponent holds at most its own cap of their games,
        so one entry that stalls its games cannot keep the others from them."""
        if views.is_house(player):
            return float("inf")
        return min(record.meta["max_games"], record.entries[player].get("max_games") or 1e9)

    def _match(
        self,
        record: LadderRecord,
        candidates: list[matching.Candidate],
        idle: dict[str, float],
        *,
        teams: bool = False,
    ) -> list[matching.Match]:
        """Solo entries paired per board, or accepted fixed pairs (both members free).

        ``teams``: a duplicate board's sides are teams of two sides each (twice the
        players; see :func:`server.tournaments.ladder.tables`)."""
        meta = record.meta
        sides = meta["table_size"] // meta["side_size"]
        per_side = 2 if teams else 1
        recent, partners = self._recent(record)
        wait = meta.get("rematch_seconds", 0.0)
        if not _fixed(record):
            return matching.make_matches(
                candidates,
                sides=sides,
                seats_per_side=meta["side_size"] * per_side,
                recent=recent,
                partners=partners,
                idle=idle,
                rematch_wait=wait,
            )
        by_player = {c.player: c for c in candidates}
        pairs = [
            (c, by_player[q])
            for c in candidates
            if (q := _pair_of(record, c.player)) in by_player and c.player < q
        ]
        return matching.make_pair_matches(
            pairs,
            sides=sides,
            pairs_per_side=per_side,
            recent=recent,
            idle=idle,
            rematch_wait=wait,
        )

    @staticmethod
    def _rating(ratings: dict[str, dict[str, Any]], player: str) -> tuple[float, float]:
        got = ratings.get(player)
        return (
            (got["mu"], got["sigma"])
            if got
            else (rating_model.DEFAULT.mu, rating_model.DEFAULT.sigma)
        )

    def _recent(
        self, record: LadderRecord
    ) -> tuple[dict[str, frozenset[str]], dict[str, frozenset[str]]]:
        """Each player's companions (everyone) and partners in its last match."""
        first = max(0, record.matches_count - RECENT_MATCHES)
        met: dict[str, frozenset[str]] = {}
        partners: dict[str, frozenset[str]] = {}
        found = store.matches(self.r, record.id, list(range(first, record.matches_count)))
        for n in sorted(found):
            players = [p for side in found[n]["sides"] for p in side]
            for side in found[n]["sides"]:
                for p in side:
                    met[p] = frozenset(players) - {p}
                    partners[p] = frozenset(side) - {p}
        return met, partners

    # -- helpers -------------------------------------------------------------------------
    def _stats(
        self,
        record: LadderRecord,
        *,
        history_of: str | None = None,
        seen: dict[str, float] | None = None,
        now: float | None = None,
        tally: _Tally | None = None,
    ) -> dict[str, dict[str, Any]]:
        """Per entry: status (available, playing, away, paused, left, held), health and results."""
        now = time.time() if now is None else now
        tally = tally or self._tally(record, history_of)
        everyone = sorted(set(record.entries) | set(tally.players))
        seen = seen if seen is not None else store.last_seen(self.r, everyone)
        names = self._names(everyone)
        moves = store.move_health(self.r, record.id, everyone)
        called = sorted(callback_store.having(self.r, everyone))
        books = callback_store.books(self.r, called) if called else {}
        out = {
            p: self._entry_out(record, p, tally, seen, now, moves[p])
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

    def _tally(self, record: LadderRecord, history_of: str | None, sealed: bool = False) -> _Tally:
        """One pass over every match: timeouts per game, contest results, last played.

        A duplicate board's tables count once the board is over (both tables): until
        then a table's end and timeouts tell of the deal its twin plays, and the
        entry pages show nothing of them. ``sealed`` counts them at once (the
        scheduler's view: a table's timeouts pause its entry as soon as it is over).
        """
        matches = store.all_matches(self.r, record.id)
        games, results = store.all_results(self.r, record.id)
        tally = _Tally()
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
        tally: _Tally,
        seen: dict[str, float],
        now: float,
        moves: tuple[list[float], int],
    ) -> dict[str, Any]:
        meta = record.meta
        mine = [x for _, x in sorted(tally.timeouts[p])]
        streak = matching.timed_out_streak(mine)
        status, reason, until = "available", None, None
        partner = record.entries.get(p, {}).get("partner")
        validation = record.entries.get(p, {}).get("validation")
        if p not in record.entries:
            status = "left"
        elif validation and validation["state"] in VALIDATING:
            status = "validating"
        elif validation and validation["state"] == "failed":
            status = "failed_validation"
        elif partner and _pair_of(record, p) is None:
            status = "held"
        elif streak >= meta["pause_after"] and not views.is_house(p):
            until = max(e for e, x in tally.timeouts[p] if x) + meta["pause_seconds"]
            if seen.get(p, 0) < until:
                status = "paused"
                reason = (
                    f"timed out in its last {streak} games; resumes when seen waiting "
                    f"after {iso(until)}"
                )
        if status == "available" and _playing(record, p):
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

    def _blank(self, record: LadderRecord, player: str) -> dict[str, Any]:
        return {"results": {"won": 0, "drawn": 0, "lost": 0}, "last_played": None}

    def _summary(self, record: LadderRecord) -> dict[str, Any]:
        meta = record.meta
        return {
            "id": record.id,
            "name": meta["name"],
            "game": meta["game"],
            "options": meta["options"],
            "table_size": meta["table_size"],
            "side_size": meta["side_size"],
            "sides": meta.get("sides", "solo"),
            "duplicate": meta["duplicate"],
            "clock": meta["clock"],
            "timeout_policy": meta["timeout_policy"],
            "max_games": meta["max_games"],
            "provisional_games": meta["provisional_games"],
            "pause_after": meta["pause_after"],
            "pause_seconds": meta["pause_seconds"],
            "seen_seconds": meta["seen_seconds"],
            "rematch_seconds": meta.get("rematch_seconds", 0.0),
            "validation": bool(meta.get("validation", False)),
            "created": iso(record.created),
            "entries_count": len(record.entries),
            "matches": record.matches_count,
        }

    def _get(self, ladder_id: str) -> LadderRecord | None:
        return store.read(self.r, ladder_id)

    def _record(self, ladder_id: str) -> LadderRecord:
        record = store.read(self.r, ladder_id)
        if record is None:
            raise NotFound("no such ladder", {"ladder_id": ladder_id})
        return record

    def _names(self, ids: list[str]) -> dict[str, str]:
        return {p: rec.name for p, rec in player_store.get_many(self.r, ids).items() if rec}

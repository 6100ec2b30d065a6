"""Ladder use cases: define, list, show, join, leave, the leaderboard, an entry's history.

A ladder is a standing competition: a bot joins once, and the scheduler
(:mod:`server.services.ladder_play`, on each pass) matches it whenever it is available and
rates every contest, for as long as it plays (docs/ladder.md).

:class:`Ladders` is what the API calls. It defines ladders and keeps their entries
(join, leave, validation) itself, and hands the rest to its collaborators over the
same :class:`Core`: each entry's state from the stored results
(:class:`~server.services.ladder_stats.LadderStats`: status, health, results,
history), the public pages (:class:`~server.services.ladder_pages.LadderPages`) and
the matchmaking plan (:class:`~server.services.ladder_plan.Matchmaker`, fed to the pure
:mod:`server.tournaments.ladder`). What a ladder's record says of its entries (who is
paired, validated, playing) is :mod:`server.services.ladder_entries`.

Who may do what: the admin defines ladders; a player joins or leaves a ladder
only for itself (the admin may for anyone). Joining is the player's consent to
be seated: the ladder seats nobody else, and each of its games records that
consent (``meta.tournament.consent``).

Sides: solo entries are paired into partnerships board by board; on a ladder of
``sides: "fixed"`` (two players a side) each player joins naming its partner, and
the pair is held until the partner joins naming it back. Only such an accepted
pair is matched, always as one side and rated as a team; either leaving takes
the pair out.

Caps (``max_games``, the ladder's or an entry's own lower one; none for house bots)
are the matchmaking's (:mod:`server.services.ladder_plan`); health and pauses are
worked out from the stored results (:mod:`server.services.ladder_stats`).

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
from typing import Any

from server.games import REGISTRY
from server.services.core import Core
from server.services.errors import Forbidden, InvalidRequest, NotFound
from server.services.ladder_entries import (
    fixed,
    new_validation,
    pair_of,
    playing,
    pool,
    read,
    validates,
)
from server.services.ladder_pages import LadderPages, label
from server.services.ladder_plan import Matchmaker
from server.services.ladder_stats import LadderStats
from server.services.names import MAX_TITLE_LENGTH, clean_name
from server.store import bots as bot_store
from server.store import ladders as store
from server.store import players as player_store
from server.store.ladders import LadderRecord
from server.tournaments import clock as clock_policy

__all__ = ["DEFAULTS", "Ladders", "label", "pool"]
"""What other code imports from here: ``label`` (:mod:`server.services.ladder_pages`) and
``pool`` (:mod:`server.services.ladder_entries`) are kept importable from this module."""

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


class Ladders:
    """The ladder use cases, over the shared :class:`Core`."""

    def __init__(self, core: Core) -> None:
        self.core = core
        self.r = core.r
        self.stats = LadderStats(core)
        self.pages = LadderPages(core, self.stats)
        self.matchmaker = Matchmaker(core, self.stats)

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
        record = read(self.r, ladder_id)
        pairs = fixed(record)
        if pairs and not partner:
            if player_id in record.entries:  # entered already (a bot runner joining)
                self._retry_validation(record, player_id)
                return self.entry(ladder_id, player_id)
            raise InvalidRequest("name your partner", {"partner": ["required: fixed pairs"]})
        if partner and not pairs:
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
        fresh = new_validation(1) if validates(record, player_id) else None
        if not store.join(self.r, ladder_id, player_id, time.time(), partner, max_games, fresh):
            self._retry_validation(record, player_id)
        return self.entry(ladder_id, player_id)

    # -- validation --------------------------------------------------------------------
    def _retry_validation(self, record: LadderRecord, player_id: str) -> None:
        """An entry that failed its validation (joining again) tries once more."""
        got = record.entries.get(player_id, {}).get("validation")
        if got and got["state"] == "failed":
            store.set_validation(
                self.r, record.id, player_id, new_validation(got["attempt"] + 1), expected=got
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
            if not validates(record, player_id):
                continue
            got = record.entries[player_id].get("validation")
            attempt = got["attempt"] + 1 if got else 1
            if store.set_validation(self.r, ladder_id, player_id, new_validation(attempt)):
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
        record = read(self.r, ladder_id)
        partner = pair_of(record, player_id)
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
            self.r, [p for p in leaving if not playing(record, p) and p not in running.values()]
        )
        out = {"ladder_id": ladder_id, "player_id": player_id, "left": True}
        return out | ({"partner_left": partner} if partner else {})

    def _subject(self, token: str | None, player_id: str | None) -> str:
        caller = self.core.caller(token)
        if caller.is_admin and player_id:
            return player_id
        if caller.player is None:
            raise InvalidRequest("name the player", {"player_id": ["required for the admin"]})
        if player_id in (None, caller.player.id):
            return caller.player.id
        if player_id in bot_store.owned_identities(self.r, caller.player.id, [player_id]):
            return player_id  # its owner enters a bot (server/services/player_bots.py)
        raise Forbidden("a player joins or leaves a ladder only for itself (or its bots)")

    # -- reading (the public pages) ------------------------------------------------------
    def list_ladders(self) -> dict[str, Any]:
        """Every ladder's settings and counts (:meth:`LadderPages.list_ladders`)."""
        return self.pages.list_ladders()

    def show(self, ladder_id: str) -> dict[str, Any]:
        """The ladder's settings and its entries with their state (:meth:`LadderPages.show`)."""
        return self.pages.show(ladder_id)

    def leaderboard(self, ladder_id: str) -> dict[str, Any]:
        """Entries best first by ordinal (:meth:`LadderPages.leaderboard`)."""
        return self.pages.leaderboard(ladder_id)

    def entry(self, ladder_id: str, player_id: str) -> dict[str, Any]:
        """One entry with its history (:meth:`LadderPages.entry`)."""
        return self.pages.entry(ladder_id, player_id)

    # -- for the scheduler ---------------------------------------------------------------
    def plan(self, record: LadderRecord, now: float) -> list[dict[str, Any]]:
        """The matches to start now among the available entries (:meth:`Matchmaker.plan`)."""
        return self.matchmaker.plan(record, now)

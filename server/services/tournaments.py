"""Tournament use cases: create, enter, start, show, list, standings.

Like the other services, plain values in, plain dicts out, typed errors
(:mod:`server.services.errors`). Creating, entering and starting are here; what is
read (show, list, standings) is :mod:`server.services.tournament_pages`, which
:class:`Tournaments` hands those calls to. The scheduler drives a started tournament
through :mod:`server.services.rounds`; what that shares with these use cases (the
snapshot of a stored tournament, each round's randomness) is
:mod:`server.services.brackets`, and rating a game exactly once is
:meth:`server.services.ratings.Ratings.rate`.

Who may do what:

* create a tournament: any registered player, or the admin;
* enter: the tournament's creator or the admin may enter any players; a
  player may enter an entry it is part of (e.g. itself with its partner).
  Only the admin enters others directly: anyone else named in an entry gets an
  invitation, and the entry is held until they all accept
  (:mod:`server.services.invitations`); a tournament with a held entry cannot
  start (409 ``invitations_pending``);
* start: the creator or the admin;
* read a tournament, its standings and the leaderboards: anyone. They show
  pairings, results and game ids only — never a card; each game's own view
  decides what a caller may see of it.

An entry is one player per seat of a side (Concerto: two players). The number
of players per entry is fixed when the tournament is created
(``seats_per_entry``), or else by its first entry; a table seats
``num_seats / seats_per_entry`` entries.
"""

from __future__ import annotations

import hmac
import secrets
import time
from typing import Any

from server.games import REGISTRY
from server.services import brackets, views
from server.services.bots import BOT_SEAT
from server.services.core import Core
from server.services.errors import (
    CannotStart,
    Forbidden,
    InvalidRequest,
    InvitationsPending,
    NotFound,
    UnknownBot,
    UnplayableFormat,
)
from server.services.invitations import Invitations, needs_invitation, new_id
from server.services.lobby import PER_CREATOR
from server.services.names import MAX_TITLE_LENGTH, clean_name
from server.services.tournament_pages import TournamentPages, read
from server.store import apps as app_store
from server.store import bots as bot_store
from server.store import lobby as lobby_store
from server.store import players as player_store
from server.store import tournaments as store
from server.store.players import PlayerRecord
from server.store.tournaments import EntriesChanged, TournamentRecord
from server.tournaments import clock as clock_policy
from server.tournaments.formats import Format, next_round
from server.tournaments.pairing.tables import PairingError

DEFAULT_CLOCK = {"move_seconds": 60.0, "bank_ms": 0}
DEFAULT_POLICY = {"kind": "default_move"}


class Tournaments:
    """The tournament use cases, over the shared :class:`Core`."""

    def __init__(
        self, core: Core, invitations: Invitations, *, per_creator: int = PER_CREATOR
    ) -> None:
        self.core = core
        self.r = core.r
        self.scripts = core.scripts
        self.invitations = invitations
        self.pages = TournamentPages(core, per_creator=per_creator)

    # -- create, enter, start ------------------------------------------------------
    def create(
        self,
        token: str | None,
        *,
        game: str,
        format: str | None = None,
        options: dict[str, Any] | None = None,
        rounds: int | None = None,
        boards_per_match: int | None = None,
        seats_per_entry: int | None = None,
        min_table_size: int | None = None,
        clock: dict[str, Any] | None = None,
        timeout_policy: dict[str, Any] | None = None,
        name: str | None = None,
    ) -> dict[str, Any]:
        """Create an open tournament and return it (see the module docstring for who may);
        no ``format``:
        :func:`server.services.brackets.default_format`.

        Raises:
            Unauthorized; InvalidRequest (unknown game, options the game refuses,
            a geometry the game cannot seat); UnplayableFormat (duplicate for a
            game without two fixed sides); the engine's InvalidOptions.
        """
        caller = self.core.caller(token)
        if name is not None:
            name = clean_name(name, max_length=MAX_TITLE_LENGTH)
        engine = REGISTRY.get(game)
        if engine is None:
            raise InvalidRequest("unknown game", {"game": [f"one of {sorted(REGISTRY)}"]})
        options = dict(options or {})
        num_seats = engine.new_state(options, "probe").num_seats  # checks the options
        try:
            fmt = (
                Format(format) if format is not None else brackets.default_format(engine.two_sides)
            )
        except ValueError:
            raise InvalidRequest(
                "unknown format", {"format": [f"one of {[f.value for f in Format]}"]}
            ) from None
        if fmt is Format.DUPLICATE and not engine.two_sides:
            raise UnplayableFormat(
                f"{engine.title} cannot be played as duplicate",
                {"format": ["duplicate compares two fixed sides; this game has none"]},
            )
        problems: dict[str, list[str]] = {}
        if rounds is not None and fmt is Format.KNOCKOUT:
            problems["rounds"] = ["a knockout ends by itself: leave rounds out"]
        if boards_per_match is not None and fmt is not Format.DUPLICATE:
            problems["boards_per_match"] = ["only for the duplicate format"]
        if seats_per_entry is not None:
            problem = brackets.entry_problem(fmt, num_seats, seats_per_entry)
            if problem:
                problems["seats_per_entry"] = [problem]
        if min_table_size is not None:
            seats_per_entry = seats_per_entry or 1
            problem = brackets.min_table_problem(
                engine, options, fmt, num_seats, seats_per_entry, min_table_size
            )
            if problem:
                problems["min_table_size"] = [problem]
        if problems:
            raise InvalidRequest("this tournament cannot be held", problems)
        tournament_id = secrets.token_hex(8)
        meta = {
            "name": name or f"{engine.title} {fmt.value.replace('_', ' ')}",
            "game": engine.id,
            "options": options,
            "format": fmt.value,
            "rounds": rounds,
            "boards_per_match": (boards_per_match or 1) if fmt is Format.DUPLICATE else None,
            "seats_per_entry": seats_per_entry,
            "min_table_size": min_table_size,
            "num_seats": num_seats,
            "clock": clock_policy.setting(clock or DEFAULT_CLOCK),
            "timeout_policy": dict(timeout_policy or DEFAULT_POLICY),
            "created_by": caller.player.id if caller.player else "admin",
        }
        now = time.time()
        store.create(self.r, tournament_id, meta, now)
        lobby_store.add_tournament(self.r, tournament_id, now)
        return self.show(tournament_id)

    def enter(
        self,
        token: str | None,
        tournament_id: str,
        players: list[str],
        name: str | None = None,
        code: str | None = None,
    ) -> dict[str, Any]:
        """Enter one entry (one player per seat of a side) while the tournament is open;
        ``name`` is its team name (shown instead of its players' names); a player given
        as ``"bot:<name>"`` is an identity of that house bot not entered yet. Where the
        organiser set a join code, a player entering itself gives it as ``code``.

        House bots: the creator or the admin may enter an entry of house bots only as a
        *reference entry* (its games are not rated) where the operator lets organisers
        (``reference`` in ``PARLOUR_HOUSE_BOTS``, the default); anyone may enter them
        where the operator lets them play in tournaments (``tournaments``).

        Raises:
            Unauthorized, Forbidden (see the module docstring; a house bot where the
            operator does not let them play), NotFound (the
            tournament or a player), InvalidRequest (a player twice, a size the
            game cannot seat), and the store's EntriesClosed, AlreadyEntered,
            WrongEntrySize (409).
        """
        caller = self.core.caller(token)
        if name is not None:
            name = clean_name(name)
        record = read(self.r, tournament_id)
        players = self._house_bots(record, players)
        organiser = caller.is_admin or (
            caller.player is not None and caller.player.id == record.meta["created_by"]
        )
        owned = (  # a player's own bots: entering them is their consent
            bot_store.owned_identities(self.r, caller.player.id, players)
            if caller.player
            else set()
        )
        mine = caller.player is not None and (
            organiser or caller.player.id in players or bool(owned)
        )
        if not (caller.is_admin or mine):
            raise Forbidden("you may enter yourself, or anyone in a tournament you created")
        if (
            record.join_code is not None
            and not organiser
            and not hmac.compare_digest(record.join_code.encode(), (code or "").encode())
        ):
            raise Forbidden("this tournament asks for its join code: ask its organiser")
        if len(set(players)) != len(players):
            raise InvalidRequest(
                "a player may hold one seat of an entry", {"players": ["a player appears twice"]}
            )
        problem = brackets.entry_problem(
            Format(record.meta["format"]), record.meta["num_seats"], len(players)
        )
        if problem:
            raise InvalidRequest("this entry cannot be seated", {"players": [problem]})
        found = player_store.get_many(self.r, players)
        missing = {str(i): "no such player" for i, p in enumerate(players) if found[p] is None}
        if missing:
            raise NotFound("no such player", {"players": missing})
        reference = (
            all(views.is_house(p) for p in players)
            and organiser
            and "reference" in self.core.house_bots_in
            and "tournaments" not in self.core.house_bots_in
        )
        if not reference:
            self.core.admit_house_bots("tournaments", players)
        inviter = caller.player.id if caller.player else None
        pending = [p for p in players if needs_invitation(p, inviter) and p not in owned]
        sent: list[tuple[str, dict[str, Any]]] = []
        if pending and caller.player is not None:  # first: a refusal leaves nothing behind
            invitation = self._invitation(record, players, caller.player)
            sent = [(p, invitation) for p in pending]
            self.invitations.reserve(caller.player.id, sent)
        try:
            entry_id = store.add_entry(
                self.r, self.scripts, tournament_id, players, pending, name, reference
            )
        except BaseException:
            if sent and caller.player is not None:
                self.invitations.cancel(caller.player.id, sent)
            raise
        if sent:
            invitation = {**sent[0][1], "entry_id": entry_id}
            self.invitations.deliver([(p, invitation) for p in pending], rewrite=True)
        return {
            "id": entry_id,
            "seed": int(entry_id[1:]),
            "name": name,
            "reference": reference,
            "players": [
                {"id": p, "name": rec.name} | views.house(p) for p in players if (rec := found[p])
            ],
            "pending": pending,
        }

    def _house_bots(self, record: TournamentRecord, players: list[str]) -> list[str]:
        """``players`` with each ``"bot:<name>"`` replaced by an identity of that house bot
        that is in no entry of the tournament yet.

        Raises:
            UnknownBot (400): no such bot for this game, or no identity of it left.
        """
        if not any(p.startswith(BOT_SEAT) for p in players):
            return players
        pool = app_store.bot_pool(self.r)
        taken = {p for _, entered in record.entries for p in entered}
        out, problems = [], {}
        for i, p in enumerate(players):
            if not p.startswith(BOT_SEAT):
                out.append(p)
                continue
            bot = pool.get(p[len(BOT_SEAT) :])
            free = [b for b in (bot or {}).get("players", []) if b not in taken and b not in out]
            if bot is None or (
                bot["games"] is not None and record.meta["game"] not in bot["games"]
            ):
                problems[str(i)] = f"no house bot {p!r} for this game; the pool has {sorted(pool)}"
            elif not free:
                problems[str(i)] = f"every identity of {p!r} is entered already"
            else:
                out.append(free[0])
        if problems:
            raise UnknownBot(problems)
        return out

    def _invitation(
        self, record: TournamentRecord, players: list[str], inviter: PlayerRecord
    ) -> dict[str, Any]:
        """The held entry's invitation (one id, shared by its invited players); its
        ``entry_id`` is None until the entry is made."""
        now = time.time()
        return self.invitations.record(
            new_id(),
            kind="tournament",
            inviter={"kind": "player", "id": inviter.id, "name": inviter.name},
            target={
                "tournament_id": record.id,
                "tournament": record.meta["name"],
                "game": record.meta["game"],
                "entry_id": None,
                "players": players,
            },
            now=now,
        )

    def start(self, token: str | None, tournament_id: str) -> dict[str, Any]:
        """Close the entries and hand the tournament to the scheduler.

        The first round is paired here once, as a check (the scheduler pairs
        it again, identically, from the same data): a tournament that cannot
        be paired is refused now rather than stuck later.

        Raises:
            Unauthorized, Forbidden (only the creator or the admin), NotFound,
            InvitationsPending, CannotStart, and the store's EntriesClosed (409).
        """
        caller = self.core.caller(token)
        for _ in range(3):
            record = read(self.r, tournament_id)
            if not (
                caller.is_admin
                or (caller.player is not None and caller.player.id == record.meta["created_by"])
            ):
                raise Forbidden("only the tournament's creator or the admin may start it")
            if record.status != "open":
                raise store.EntriesClosed(record.status)
            if record.pending and self.invitations.free_expired_entries(
                tournament_id, record.pending
            ):
                record = read(self.r, tournament_id)
            if record.pending:
                raise InvitationsPending(
                    "every invited player must accept before the start",
                    {"entries": {e: list(p) for e, p in record.pending.items()}},
                )
            snap = brackets.snapshot(record)
            if snap is None or len(snap.entries) < 2:
                raise CannotStart(
                    "a tournament needs at least two entries", {"entries": len(record.entries)}
                )
            try:
                first = next_round(snap, brackets.round_rng(tournament_id, 0))
            except PairingError as exc:
                raise CannotStart(f"the first round cannot be paired: {exc}") from None
            if first is None or not first.tables:
                raise CannotStart("the first round has no table")
            try:
                store.start(
                    self.r,
                    self.scripts,
                    tournament_id,
                    entries=len(record.entries),
                    now=time.time(),
                    games_planned=brackets.planned_games(snap, first),
                    consented=True,  # no entry is held (checked above, with the count)
                )
            except EntriesChanged:
                continue  # an entry arrived meanwhile: check again with it
            return self.show(tournament_id)
        raise CannotStart("entries keep arriving: try again")

    # -- reading (public) -----------------------------------------------------------
    def show(self, tournament_id: str) -> dict[str, Any]:
        """The tournament: settings, entries, rounds with their games and results, standings
        (:meth:`TournamentPages.show <server.services.tournament_pages.TournamentPages.show>`).
        """
        return self.pages.show(tournament_id)

    def list_tournaments(self, limit: int = 20) -> dict[str, Any]:
        """The lobby's list: the newest tournaments, each with its leader(s) once one has
        played (:meth:`TournamentPages.list_tournaments
        <server.services.tournament_pages.TournamentPages.list_tournaments>`)."""
        return self.pages.list_tournaments(limit)

    def sheets(self, tournament_id: str) -> dict[str, Any]:
        """Standings, cross-table and games (:meth:`TournamentPages.sheets
        <server.services.tournament_pages.TournamentPages.sheets>`)."""
        return self.pages.sheets(tournament_id)

    def sheet_csv(self, tournament_id: str, part: str) -> str:
        """One sheet as CSV (:meth:`TournamentPages.sheet_csv
        <server.services.tournament_pages.TournamentPages.sheet_csv>`)."""
        return self.pages.sheet_csv(tournament_id, part)

    def standings(self, tournament_id: str) -> dict[str, Any]:
        """The standings alone (:meth:`TournamentPages.standings
        <server.services.tournament_pages.TournamentPages.standings>`)."""
        return self.pages.standings(tournament_id)

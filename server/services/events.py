"""An organiser's use cases for a tournament run as an event (a class, a club night):
a roster made into players in one call, a join code, closing registration,
withdrawing an entry, voiding tables to have them replayed.

Who may do what:

* **roster** (:meth:`Events.roster`): the admin, or the tournament's creator if the
  operator lists that player in ``PARLOUR_ORGANISERS``. Each row becomes a new player
  with a token (shown in this answer only; each student rotates their own with
  ``POST /v1/me/token``, the admin anyone's); the rows of one ``team`` are one entry,
  named after the team. At most :data:`MAX_ROSTER` rows a call. Consent as for any
  entry (:meth:`Tournaments.enter <server.services.tournaments.Tournaments.enter>`):
  the organiser's entries are held until each student accepts the invitation with
  their own token; only the admin's are entered directly.
* **join code** (:meth:`Events.join_code`), **close registration**, **void**: the
  creator or the admin. Once a join code is set, a player entering itself (the
  students' way in without a roster) must give it; a new code replaces the old.
* **withdraw**: the creator, the admin, or a player of the entry. Open: the entry is
  removed. Running: each of its tables with no game yet is forfeited (it loses, its
  table-mates win, nothing is rated); a game already under way is played out and counts.
  Withdrawing twice answers the same.
* **void** tables of a round: each must be over; its result is struck and the scheduler
  plays the table again under a new game id, with a new deal. In swiss and knockout
  only the last round paired (the next one is paired from its results); never in
  duplicate (the replay would be dealt the board whose cards the others' games show).
  A rating applied for the table stays applied: the replay is not rated again.
"""

from __future__ import annotations

import csv
import io
import secrets
from typing import Any

from server.services.core import Core
from server.services.errors import (
    Contention,
    Forbidden,
    GameNotFinished,
    InvalidRequest,
    NotFound,
    UnplayableFormat,
)
from server.services.names import clean_name, clean_player_name
from server.services.players import Players
from server.services.tournament_pages import read
from server.services.tournaments import Tournaments
from server.store import apps as app_store
from server.store import events as event_store
from server.store.tournaments import EntriesClosed, TournamentRecord
from server.tournaments.formats import Format

MAX_ROSTER = 200
"""Rows of one roster call at most."""
MAX_ROSTER_CSV = 64 * 1024
"""Characters of a roster's CSV at most."""


def parse_roster(text: str) -> list[dict[str, str]]:
    """A roster's CSV: a header naming ``name`` (and optionally ``team``), a row each.

    >>> parse_roster("name,team\\nAda,Owls\\nBo,\\n")
    [{'name': 'Ada', 'team': 'Owls'}, {'name': 'Bo'}]

    Raises:
        InvalidRequest: no ``name`` column, or too many rows.
    """
    reader = csv.DictReader(io.StringIO(text))
    if reader.fieldnames is None or "name" not in [f.strip() for f in reader.fieldnames]:
        raise InvalidRequest("a roster's CSV needs a header with name", {"csv": ["no name"]})
    rows: list[dict[str, str]] = []
    for raw in reader:
        row = {k.strip(): (v or "").strip() for k, v in raw.items() if k}
        if not row.get("name"):
            continue
        rows.append({"name": row["name"], **({"team": row["team"]} if row.get("team") else {})})
        if len(rows) > MAX_ROSTER:
            raise InvalidRequest("roster too long", {"csv": [f"at most {MAX_ROSTER} rows"]})
    return rows


class Events:
    """The organiser's use cases, over the shared :class:`Core` and the tournaments."""

    def __init__(self, core: Core, tournaments: Tournaments) -> None:
        self.core = core
        self.r = core.r
        self.tournaments = tournaments
        self.players = Players(core)

    def _organiser(self, token: str | None, record: TournamentRecord) -> str | None:
        """The organising player's id (None: the admin).

        Raises:
            Forbidden: neither the creator nor the admin.
        """
        caller = self.core.caller(token)
        if caller.is_admin:
            return None
        if caller.player is not None and caller.player.id == record.meta["created_by"]:
            return caller.player.id
        raise Forbidden("only the tournament's creator or the admin may do this")

    def roster(
        self,
        token: str | None,
        tournament_id: str,
        players: list[dict[str, str]] | None = None,
        csv_text: str | None = None,
    ) -> dict[str, Any]:
        """Make a player of every roster row and enter them, a team to an entry.

        Everything is checked before anything is made (names, team sizes, the
        tournament open, an organiser's rows within its open invitations' limit): a
        refused roster makes no player. An entry refused on the way (the tournament
        started meanwhile, the invitations' limit reached) takes back the entries
        made before it; the players made stay, their tokens never shown.

        Raises:
            Forbidden, NotFound, InvalidRequest, and what
            :meth:`Tournaments.enter <server.services.tournaments.Tournaments.enter>` raises.
        """
        record = read(self.r, tournament_id)
        organiser = self._organiser(token, record)
        if organiser is not None and organiser not in self.core.organisers:
            raise Forbidden("the operator does not let this player make players in bulk")
        if record.status != "open" or record.registration_closed:
            raise EntriesClosed("closed" if record.registration_closed else record.status)
        rows = list(players or []) + (parse_roster(csv_text) if csv_text else [])
        if not rows:
            raise InvalidRequest("an empty roster", {"players": ["no row"]})
        if len(rows) > MAX_ROSTER:
            raise InvalidRequest("roster too long", {"players": [f"at most {MAX_ROSTER} rows"]})
        house = app_store.bot_pool(self.r)
        groups: dict[str, list[str]] = {}
        for i, row in enumerate(rows):
            name = clean_player_name(row["name"], house, field=f"players.{i}.name")
            team = clean_name(row["team"], f"players.{i}.team") if row.get("team") else None
            groups.setdefault(team or f"\0{i}", []).append(name)
        sizes = {len(g) for g in groups.values()}
        wanted = record.seats_per_entry
        if len(sizes) > 1 or (wanted is not None and sizes != {wanted}):
            raise InvalidRequest(
                "every team needs the same number of players",
                {"players": [f"teams of {sorted(sizes)}; entries of {wanted or 'one size'}"]},
            )
        cap = self.tournaments.invitations.per_inviter
        if organiser is not None and len(rows) > cap:
            raise InvalidRequest(
                "roster too long for your open invitations",
                {"players": [f"at most {cap}: each player gets an invitation to accept"]},
            )
        made: list[dict[str, Any]] = []
        try:
            for team, names in groups.items():
                new = [self.players.make(name) for name in names]
                entry = self.tournaments.enter(
                    token,
                    tournament_id,
                    [p["id"] for p in new],
                    name=None if team.startswith("\0") else team,
                )
                made.append({"entry": entry, "players": new})
        except BaseException:
            for done in made:  # what was entered goes: the roster is all or nothing
                event_store.withdraw(self.r, tournament_id, done["entry"]["id"])
            raise
        return {"id": tournament_id, "entries": made}

    def join_code(self, token: str | None, tournament_id: str) -> dict[str, Any]:
        """A new join code for an open tournament (the one before it stops working):
        from now on a player entering itself gives it. Shown in this answer only."""
        self._organiser(token, read(self.r, tournament_id))
        code = secrets.token_urlsafe(6)
        event_store.set_join_code(self.r, tournament_id, code)
        return {"id": tournament_id, "code": code}

    def close_registration(self, token: str | None, tournament_id: str) -> dict[str, Any]:
        """No more entries (the tournament stays open until started); repeatable."""
        self._organiser(token, read(self.r, tournament_id))
        event_store.close_registration(self.r, tournament_id)
        return self.tournaments.show(tournament_id)

    def withdraw(self, token: str | None, tournament_id: str, entry_id: str) -> dict[str, Any]:
        """Withdraw an entry (see the module docstring): the tournament as it is now."""
        record = read(self.r, tournament_id)
        players = dict(record.entries).get(entry_id)
        if players is None:
            raise NotFound("no such entry", {"tournament_id": tournament_id})
        caller = self.core.caller(token)
        if not (caller.player is not None and caller.player.id in players):
            self._organiser(token, record)
        if entry_id not in record.withdrawn:
            try:
                event_store.withdraw(self.r, tournament_id, entry_id)
            except event_store.EntryMissing:
                raise NotFound("no such entry", {"tournament_id": tournament_id}) from None
            except event_store.AlreadyWithdrawn:
                pass
            except event_store.Busy:
                raise Contention("the tournament kept changing: try again") from None
        return self.tournaments.show(tournament_id)

    def void(
        self, token: str | None, tournament_id: str, round_index: int, tables: list[int] | None
    ) -> dict[str, Any]:
        """Void tables of a round (all of them if ``tables`` is None) to have them replayed
        (see the module docstring); answers the voided game ids and the tournament."""
        record = read(self.r, tournament_id)
        self._organiser(token, record)
        fmt = Format(record.meta["format"])
        if fmt is Format.DUPLICATE:
            raise UnplayableFormat(
                "a duplicate board cannot be replayed",
                {"format": ["its replay would be dealt cards the board's other games show"]},
            )
        if record.status != "running":
            raise EntriesClosed(record.status)  # 409 entries_closed, details.status
        if round_index >= len(record.rounds):
            raise InvalidRequest("no such round", {"round": [f"{len(record.rounds)} paired"]})
        count = len(record.rounds[round_index]["tables"])
        chosen = list(range(count)) if tables is None else sorted(set(tables))
        if not chosen or any(not 0 <= t < count for t in chosen):
            raise InvalidRequest("no such table", {"tables": [f"0..{count - 1}"]})
        try:
            voided = event_store.void(
                self.r,
                tournament_id,
                round_index,
                chosen,
                last_only=fmt in (Format.SWISS, Format.KNOCKOUT),
            )
        except event_store.NotVoidable as exc:
            if "not over" in str(exc):
                raise GameNotFinished(str(exc), {"status": "playing"}) from None
            raise InvalidRequest(str(exc), {"round": [str(exc)]}) from None
        except event_store.Busy:
            raise Contention("the tournament kept changing: try again") from None
        return {"voided": voided, "tournament": self.tournaments.show(tournament_id)}

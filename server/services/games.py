"""A game's use cases: create (by a player, an app or the scheduler), join, leave, view, move.

Plain values in (a bearer token string or None, decoded bodies), plain dicts
out, typed errors (:mod:`server.services.errors`) that the API maps to statuses.

:class:`Games` is what the API and the other features call. It decides who may
create what, and joins and leaves seats, itself; it hands the rest to its
collaborators over the same :class:`Core`: the one path every new game takes
(:class:`~server.services.new_games.NewGames`: validate, store, announce) and the
game in play (:class:`~server.services.moves.Moves`: the caller's view, a move and
its commit, the clocked games' deadlines).
"""

from __future__ import annotations

import time
from typing import Any

from server.games import BaseState
from server.services import notifications, views
from server.services.bots import HouseGames, resolve_bots
from server.services.callers import Caller
from server.services.core import Core, Read
from server.services.errors import Forbidden, InvalidRequest
from server.services.invitations import Invitations
from server.services.moves import Moves
from server.services.new_games import NewGames
from server.store import games as game_store
from server.store import players as player_store
from server.store.errors import AlreadySeated, StoreError
from server.store.games import GameRecord


class Games:
    """Creating and playing games, over the shared :class:`Core`."""

    def __init__(self, core: Core, invitations: Invitations) -> None:
        self.core = core
        self.r = core.r
        self.invitations = invitations
        self.house_games = HouseGames(core.r)
        """The caps on the games players make seating only house bots."""
        self.new = NewGames(core, invitations)
        self.moves = Moves(core)

    # -- creating ---------------------------------------------------------------------
    def create_game(
        self,
        token: str | None,
        *,
        game: str,
        options: dict[str, Any] | None = None,
        seats: list[str | None] | None = None,
        allow_multiple_seats: bool = False,
        deals: list[dict[str, Any]] | None = None,
        seed: str | None = None,
    ) -> dict[str, Any]:
        """Create a game and return the creator's view.

        A seat naming another player is held for them until they accept the
        invitation it sends (:mod:`server.services.invitations`); the admin seats
        anyone directly.

        A player's game seating only house bots counts against the caps of
        :attr:`house_games` (the admin's does not).

        Raises:
            Unauthorized, Forbidden (``deals``/``seed`` are admin-only; the caller's
            house-only games at their cap), RateLimited (the server's house-only
            games at their cap), InvalidRequest (unknown game, bad seats, unknown
            bots), NotFound (unknown player), InvalidOptions / InvalidDeal from the
            engine.
        """
        caller = self.core.caller(token)
        seats = resolve_bots(self.r, game, seats)  # "bot:<name>" seats
        self.core.admit_house_bots("games", seats or [])
        admin_only = [name for name, value in (("deals", deals), ("seed", seed)) if value]
        if admin_only and not caller.is_admin:
            raise Forbidden("only the admin may preset deals or the seed", {"fields": admin_only})
        inviter = caller.player.id if caller.player else None
        house_only = self.house_games.house_only(seats)
        if inviter is not None and house_only:
            self.house_games.admit(inviter)
        created = self.new.create(
            game=game,
            options=options,
            seats=seats,
            allow_multiple_seats=allow_multiple_seats,
            deals=deals,
            seed=seed,
            created_by=inviter or "admin",
            holds=self.new.holds(seats, inviter),
            inviter={"kind": "player", "id": inviter, "name": caller.player.name}
            if caller.player
            else None,
        )
        assert created is not None  # a fresh id: nothing existed under it
        record, state = created
        if inviter is not None and house_only:
            self.house_games.add(inviter, record.id)
        mine = views.seats_of(record, caller.player.id) if caller.player else []
        return views.view(record, state, views.pick_seat(state, mine))

    def create_app_game(
        self,
        *,
        game_id: str,
        game: str,
        options: dict[str, Any] | None,
        seats: list[str | None],
        app: dict[str, Any],
        registered: list[str] | None = None,
        clock: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """An app's game (:mod:`server.services.apps`): the same path as :meth:`create_game`,
        its seats already given to guests and bots; answers the spectator's view.

        ``registered``: the seats' registered players (not the app's own guests nor
        bots): their seats are held until they accept the app's invitation. ``clock``:
        a move clock, as :meth:`create_tournament_game`'s (a visitor's game has one)."""
        created = self.new.create(
            game=game,
            options=options,
            seats=seats,
            game_id=game_id,
            clock=clock,
            created_by=app["id"],
            extra_meta={"app": app},
            holds=self.new.holds(registered or [], app["id"]),
            inviter={"kind": "app", "id": app["id"], "name": app.get("name")},
        )
        assert created is not None  # a fresh random id is never taken
        record, state = created
        notifications.after_commit(self.r, record, state, start=True)
        return views.view(record, state, None)

    def create_tournament_game(
        self,
        *,
        game_id: str,
        game: str,
        options: dict[str, Any],
        seats: list[str],
        seed: str | None,
        clock: dict[str, Any],
        tournament: dict[str, Any],
        now: float | None = None,
    ) -> bool:
        """Create one table's game for the scheduler, once: the same path as :meth:`create_game`.

        The id is derived by the caller (tournament, round, table), so several
        schedulers may call this for the same table: the first creates the game,
        with its move clock, and every later call changes nothing.

        Args:
            game_id: the derived id.
            seed: the deal seed (a duplicate board's, shared by all its tables), or
                None for the usual seed from the server secret and the game id.
            clock: ``{"move_seconds", "bank_ms", "timeout_policy"}`` (``bank_ms``
                optional: each seat's time bank, default none).
            tournament: ``{"id", "round", "table", "board"}``, kept in the game's meta.

        Returns:
            True if this call created the game.
        """
        now = time.time() if now is None else now
        table: list[str | None] = list(seats)
        created = self.new.create(
            game=game,
            options=options,
            seats=table,
            seed=seed,
            created_by="scheduler",
            game_id=game_id,
            clock=clock,
            extra_meta={"tournament": tournament},
            now=now,
        )
        return created is not None

    # -- playing ----------------------------------------------------------------------
    def join(self, token: str | None, game_id: str, seat: int | None = None) -> dict[str, Any]:
        """Take ``seat`` (or the lowest open seat) and return the joiner's view.

        Raises:
            SeatTaken, AlreadySeated, NoOpenSeat (409); InvalidRequest (no such seat).
        """
        got = self.core.read(token, game_id, required=True)
        player = got.caller.player if got.caller else None
        if player is None:
            raise Forbidden("the admin token is not a player")
        record = got.game
        if self.invitations.free_expired_seats(game_id, record.seats):
            record = self.core.game(game_id) or record
        num_seats = record.meta["num_seats"]
        if seat is not None and not 0 <= seat < num_seats:
            raise InvalidRequest("no such seat", {"seat": [f"seats are 0..{num_seats - 1}"]})
        seat = self._seat_of_app_game(got.caller, record, seat)
        player_store.add_game(self.r, [player.id], game_id)
        try:
            taken, status = game_store.join(
                self.r,
                self.core.scripts,
                game_id,
                seat=seat,
                player=player,
                allow_multiple=record.meta["allow_multiple_seats"],
                num_seats=num_seats,
            )
        except StoreError as exc:
            if not isinstance(exc, AlreadySeated) and not views.seats_of(record, player.id):
                player_store.remove_game(self.r, [player.id], game_id)
            raise
        record = self.core.game(game_id) or record
        state = views.state_of(record)
        if status == "active":
            self.core.wake_to_move(record, state)
        return views.view(record, state, taken)

    @staticmethod
    def _seat_of_app_game(
        caller: Caller | None, record: GameRecord, seat: int | None
    ) -> int | None:
        """The seat a join may take in an app's game: its seats are the app's to give, so
        only the guest bound to a seat takes it (back); anyone may join any other game.

        Raises:
            Forbidden: a guest asks for another seat, or a stranger for an app's seat.
        """
        guest = caller.guest if caller else None
        if guest is None and not record.meta.get("app"):
            return seat
        if guest is None or (seat is not None and seat != guest.seat):
            raise Forbidden(
                "the seats of an app's game are the app's to give: a guest takes its own only"
            )
        return guest.seat

    def leave(self, token: str | None, game_id: str, seat: int) -> dict[str, Any]:
        """Free the caller's ``seat`` (any seat, for the admin) of a game still waiting.

        One compare-and-set in Redis: the game must still be waiting and the seat the
        caller's, so a leave never races a join into a started game with an open seat.
        The game's ``version`` does not change (no move was made: a retried move keeps
        its meaning). The holder's game list drops the game once they hold no seat of it.
        Answers the caller's view afterwards (a spectator's, once they hold no seat).

        Raises:
            Unauthorized, NotFound, InvalidRequest (no such seat); SeatNotYours (403);
            GameStarted, SeatOpen, SeatHeld (an invitation's: decline it instead) (409).
        """
        got = self.core.read(token, game_id, required=True)
        assert got.caller is not None  # required=True
        player = got.caller.player
        num_seats = got.game.meta["num_seats"]
        if not 0 <= seat < num_seats:
            raise InvalidRequest("no such seat", {"seat": [f"seats are 0..{num_seats - 1}"]})
        holder, left = game_store.leave(
            self.r,
            self.core.scripts,
            game_id,
            seat=seat,
            player_id=None if player is None else player.id,
        )
        if not left:
            player_store.remove_game(self.r, [holder], game_id)
        return self.view(token, game_id)

    def view(self, token: str | None, game_id: str, seat: int | None = None) -> dict[str, Any]:
        """The caller's view of a game (a spectator's without a token or a seat):
        :meth:`Moves.view <server.services.moves.Moves.view>`."""
        return self.moves.view(token, game_id, seat)

    def move(
        self,
        token: str | None,
        game_id: str,
        move: Any,
        version: int | None = None,
        seat: int | None = None,
    ) -> dict[str, Any]:
        """Apply the caller's move: :meth:`Moves.move <server.services.moves.Moves.move>`."""
        return self.moves.move(token, game_id, move, version, seat)

    def move_as(
        self,
        player_id: str,
        game_id: str,
        move: Any,
        version: int,
        seat: int,
        read: Read | None = None,
        state: BaseState | None = None,
    ) -> dict[str, Any]:
        """The dispatcher's move for a callback player:
        :meth:`Moves.move_as <server.services.moves.Moves.move_as>`."""
        return self.moves.move_as(player_id, game_id, move, version, seat, read, state)

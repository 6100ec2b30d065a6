"""A game's use cases: create (by a player, an app or the scheduler), join, leave, view, move.

Plain values in (a bearer token string or None, decoded bodies), plain dicts
out, typed errors (:mod:`server.services.errors`) that the API maps to statuses.

Clocked games (tournament games, see :mod:`server.tournaments.clock`): a move
checks its seat's deadline before the engine sees it, and each commit re-arms
the deadlines as a repeatable step after it (:meth:`Core.arm`); the timeouts
themselves are :mod:`server.services.clocks`.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from server.games import REGISTRY, BaseState, GameError, GameOver
from server.games.record import deal_commitment
from server.services import boards, notifications, views
from server.services.bots import HouseGames, resolve_bots
from server.services.core import Caller, Core, Read, to_wake
from server.services.errors import (
    DeadlinePassed,
    Forbidden,
    GameNotStarted,
    InvalidRequest,
    InvitationsPending,
    NotFound,
)
from server.services.invitations import Invitations, needs_invitation, new_id
from server.services.wire import iso
from server.store import clocks as clock_store
from server.store import games as game_store
from server.store import lobby as lobby_store
from server.store import players as player_store
from server.store.errors import AlreadySeated, StaleVersion, StoreError
from server.store.games import GameRecord
from server.store.players import PlayerRecord


class Games:
    """Creating and playing games, over the shared :class:`Core`."""

    def __init__(self, core: Core, invitations: Invitations) -> None:
        self.core = core
        self.r = core.r
        self.invitations = invitations
        self.house_games = HouseGames(core.r)
        """The caps on the games players make seating only house bots."""

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
        created = self._create(
            game=game,
            options=options,
            seats=seats,
            allow_multiple_seats=allow_multiple_seats,
            deals=deals,
            seed=seed,
            created_by=inviter or "admin",
            holds=self._holds(seats, inviter),
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
        created = self._create(
            game=game,
            options=options,
            seats=seats,
            game_id=game_id,
            clock=clock,
            created_by=app["id"],
            extra_meta={"app": app},
            holds=self._holds(registered or [], app["id"]),
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
        created = self._create(
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

    def _create(
        self,
        *,
        game: str,
        options: dict[str, Any] | None,
        seats: list[str | None] | None,
        created_by: str,
        allow_multiple_seats: bool = False,
        deals: list[dict[str, Any]] | None = None,
        seed: str | None = None,
        game_id: str | None = None,
        clock: dict[str, Any] | None = None,
        extra_meta: dict[str, Any] | None = None,
        now: float | None = None,
        holds: dict[str, str] | None = None,
        inviter: dict[str, Any] | None = None,
    ) -> tuple[GameRecord, BaseState] | None:
        """Validate, store and announce a new game (None: ``game_id`` existed already).

        ``holds``: player id -> invitation id, for the players whose seats are held
        until they accept (``inviter`` is who invites them)."""
        engine = REGISTRY.get(game)
        if engine is None:
            raise InvalidRequest("unknown game", {"game": [f"one of {sorted(REGISTRY)}"]})
        options = dict(options or {})
        if seats is not None and engine.seat_option and engine.seat_option not in options:
            options[engine.seat_option] = len(seats)
        exclusive = game_id is not None
        game_id = game_id or secrets.token_hex(8)
        seed = seed or self.core.seed_for(game_id)
        state = engine.new_state(options, seed, deals)  # checks options and presets
        seats = list(seats) if seats is not None else [None] * state.num_seats
        found = self._seated(engine.id, state.num_seats, seats, allow_multiple_seats)
        meta = {
            "game": engine.id,
            "options": state.public_options(),
            "num_seats": len(seats),
            "allow_multiple_seats": allow_multiple_seats,
            "deal_commitment": deal_commitment(seed),
            "created_by": created_by,
            **({"clock": clock} if clock else {}),
            **(extra_meta or {}),
        }
        now = time.time() if now is None else now
        holds = holds or {}
        seat_map = {
            i: {"player_id": p, "name": found[p].name, **self._held(holds.get(p), now)}
            for i, p in enumerate(seats)
            if p is not None
        }
        record = GameRecord(
            id=game_id,
            version=0,
            state=state.to_dict(),
            meta=meta,
            status="active" if len(seat_map) == len(seats) and not holds else "waiting",
            seats=seat_map,
        )
        clock_fields = None
        if clock:
            clock_fields = clock_store.initial(
                clock["move_seconds"],
                clock["timeout_policy"],
                state.to_move(),
                now,
                int(clock.get("bank_ms") or 0),
            )
        invitations = self._invitations(record, holds, inviter, now)
        if invitations and inviter is not None:  # first: a refusal leaves nothing behind
            self.invitations.reserve(inviter["id"], invitations)
        try:
            player_store.add_game(
                self.r, [p for p in seats if p is not None and p not in holds], game_id
            )
            events = [views.event(e, 0) for e in engine.opening_events(state)]
            seq = game_store.create(self.r, record, events, clock=clock_fields, only_new=exclusive)
        except BaseException:
            if invitations and inviter is not None:
                self.invitations.cancel(inviter["id"], invitations)
            raise
        if seq is None:
            if invitations and inviter is not None:
                self.invitations.cancel(inviter["id"], invitations)
            return None
        record.seq = seq
        self.invitations.deliver(invitations)
        lobby_store.add_live(self.r, game_id, time.time(), created_by)
        self.core.wake_to_move(record, state)
        if clock and clock_fields:
            bank = int(clock.get("bank_ms") or 0) / 1000
            first = now + clock["move_seconds"] + bank if state.to_move() else None
            clock_store.index(self.r, game_id, first)
        return record, state

    @staticmethod
    def _holds(seats: Sequence[str | None] | None, inviter: str | None) -> dict[str, str]:
        """Player id -> a new invitation id, for each seated player who must consent."""
        named = dict.fromkeys(p for p in seats or [] if p is not None)
        return {p: new_id() for p in named if needs_invitation(p, inviter)}

    def _held(self, invitation_id: str | None, now: float) -> dict[str, Any]:
        """The extra fields of a seat held for an invitation (none for a seat taken)."""
        if invitation_id is None:
            return {}
        return {"pending": True, "invitation": invitation_id, "expires": now + self.invitations.ttl}

    def _invitations(
        self,
        record: GameRecord,
        holds: dict[str, str],
        inviter: dict[str, Any] | None,
        now: float,
    ) -> list[tuple[str, dict[str, Any]]]:
        """Each held player's invitation, to store before the game (under the limits)."""
        if not holds or inviter is None:
            return []
        return [
            (
                pid,
                self.invitations.record(
                    iid,
                    kind="game",
                    inviter=inviter,
                    target={
                        "game_id": record.id,
                        "game": record.meta["game"],
                        "seats": [s for s, v in record.seats.items() if v["player_id"] == pid],
                    },
                    now=now,
                ),
            )
            for pid, iid in holds.items()
        ]

    def _seated(
        self, game: str, num_seats: int, seats: list[str | None], allow_multiple: bool
    ) -> dict[str, PlayerRecord]:
        """The players of a new game's taken seats, in seat order, once the seats are valid.

        Raises:
            InvalidRequest (a wrong count, a player twice), NotFound (no such player).
        """
        if len(seats) != num_seats:
            raise InvalidRequest(
                "wrong number of seats", {"seats": [f"this {game} game has {num_seats} seats"]}
            )
        taken = [pid for pid in seats if pid is not None]
        if not allow_multiple and len(set(taken)) != len(taken):
            raise InvalidRequest(
                "a player may hold one seat unless allow_multiple_seats",
                {"seats": ["a player appears twice"]},
            )
        found = player_store.get_many(self.r, taken)
        missing = {
            str(i): "no such player" for i, p in enumerate(seats) if p is not None and not found[p]
        }
        if missing:
            raise NotFound("no such player", {"seats": missing})
        return {pid: rec for pid in taken if (rec := found[pid]) is not None}

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
        """The caller's view of a game (a spectator's without a token or a seat)."""
        got = self.core.read(token, game_id, required=False, with_clock=True)
        record = got.game
        state = views.state_of(record)
        player = got.caller.player if got.caller else None
        mine = views.seats_of(record, player.id) if player else []
        shown = views.view(
            record, state, views.pick_seat(state, mine, seat), self.core.clock(record)
        )
        return boards.view(self.core, got.caller, record, shown)  # a duplicate board's secrecy

    def move(
        self,
        token: str | None,
        game_id: str,
        move: Any,
        version: int | None = None,
        seat: int | None = None,
    ) -> dict[str, Any]:
        """Apply the caller's move: one read, the engine, one compare-and-set, then wake-ups.

        A ``version`` that is stale raises StaleVersion and changes nothing,
        except when the same seat's same move was already accepted at that
        version: then the current view is the answer (a safe retry).

        In a clocked game, a move that arrives after its seat's deadline (its
        turn's start + the per-move time + its time bank left) is refused
        (DeadlinePassed) before the engine sees it: the timeout policy makes that
        move. An accepted move commits, with it, the seat's latency (its turn's
        start to now) and its bank left: whatever of the latency ran past the
        per-move time is taken from the bank.

        Raises:
            Unauthorized, NotFound, Forbidden (no seat here), StaleVersion,
            GameNotStarted, DeadlinePassed, GameOver (also once aborted), and
            the engine's MalformedMove, IllegalMove, NotYourTurn.
        """
        now = time.time()
        got = self.core.read(token, game_id, required=True, accepted_at=version, with_clock=True)
        return self._move(token, got, move, version, seat, now)

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
        """:meth:`move` for ``player_id`` without its token: the dispatcher submits a
        callback player's answer so, always with the turn's version (compare-and-set:
        a move the player also made another way is accepted once).

        ``read``: the game as the dispatcher read it for this turn
        (:meth:`Core.read_as`, at ``version``), used instead of a read of its own: if
        the game moved on since, the commit's compare-and-set refuses the move
        (StaleVersion) or finds the same move accepted (a duplicate: no error);
        ``state``: its engine state, not played on (only with ``read``)."""
        now = time.time()
        if read is None:
            read, state = self.core.read_as(player_id, game_id, accepted_at=version), None
        return self._move(None, read, move, version, seat, now, state)

    def _move(
        self,
        token: str | None,
        got: Read,
        move: Any,
        version: int | None,
        seat: int | None,
        now: float,
        state: BaseState | None = None,
    ) -> dict[str, Any]:
        record, accepted = got.game, got.accepted
        player = got.caller.player if got.caller else None
        mine = views.seats_of(record, player.id) if player else []
        if not mine or (seat is not None and seat not in mine):
            raise Forbidden("you hold no such seat in this game")
        if state is None:
            state = views.state_of(record)
        if version is not None and version != record.version:
            if accepted and views.is_retry(state, accepted, move, mine if seat is None else [seat]):
                shown = views.view(record, state, accepted["seat"], self.core.clock(record))
                return boards.view(self.core, got.caller, record, shown)
            raise StaleVersion(record.version)
        if record.status == "waiting":
            held = sorted({v["player_id"] for v in record.seats.values() if v.get("pending")})
            if held:
                raise InvitationsPending(
                    "the game starts once every invited player has accepted", {"players": held}
                )
            raise GameNotStarted("the game starts when every seat is taken")
        if record.status == "aborted":
            raise GameOver()
        picked = views.pick_seat(state, mine, seat)
        assert picked is not None  # ``mine`` is not empty
        clock = self.core.clock(record)
        if clock is not None and clock.version == record.version:
            deadline = clock.deadlines.get(picked)
            if deadline is not None and now > deadline and picked in state.to_move():
                raise DeadlinePassed(
                    "your deadline for this move has passed",
                    {"deadline": iso(deadline)},
                )
        shown = self._commit(token, record, state, picked, move, clock)
        return boards.view(self.core, got.caller, record, shown)  # the last move of a board table

    def _commit(
        self,
        token: str | None,
        record: GameRecord,
        state: BaseState,
        seat: int,
        move: Any,
        clock: clock_store.Clock | None,
    ) -> dict[str, Any]:
        """The engine applies ``move``; one compare-and-set commits it; then the repeatable
        steps (wake-ups, the clock). A duplicate that lost the race answers the view."""
        try:
            events = state.apply(seat, move)
        except GameError:  # told to the play hook's subscribers (Core.refused)
            self.core.refused(record, record.seats[seat]["player_id"])
            raise
        normalized = state.normalize_move(move)  # shape only: as accepted, for safe retries
        status = "finished" if state.is_over() else "active"
        # Unclocked, the next movers' turns ride in the commit's round trip; clocked,
        # they follow the arming of the clock, whose deadline their views show.
        push_now = status == "active" and clock is None
        after = replace(record, version=record.version + 1, status=status)
        spent = None  # the seat's bank left and latency, once its turn's clock is known
        if clock is not None and clock.version == record.version:
            spent = clock.spend(seat, time.time())
        clock_fields = None
        if clock is not None and spent is not None:  # committed with the move
            clock_fields = {f"b:{seat}": spent[0], f"l:{seat}": spent[1]}
            clock = replace(
                clock,
                banks=clock.banks | {seat: spent[0]},
                latencies=clock.latencies | {seat: spent[1]},
            )
        try:
            record.version, record.seq = game_store.commit(
                self.r,
                self.core.scripts,
                record.id,
                expected_version=record.version,
                state=state.to_dict(),
                status=status,
                move={"seat": seat, "move": normalized},
                events=[views.event(e, record.version + 1) for e in events],
                wake=to_wake(record, state) if push_now else (),
                turns=views.rendered_turns(after, state) if push_now else None,
                clock=clock_fields,
            )
        except StaleVersion as exc:
            if exc.accepted == {"seat": seat, "move": normalized}:
                if token is None:  # the dispatcher's: it needs no view
                    return {}
                return self.view(token, record.id, seat)  # a duplicate that lost the race
            raise
        record.status = status
        self.core.after_commit(record, state, woken=True)
        if spent is not None:  # the latency: from the seat's turn's start to the commit
            self.core.moved(record, record.seats[seat]["player_id"], spent[1] / 1000)
        if clock is not None:
            clock = self.core.arm(record, state, clock, mover=seat)
            self.core.wake_to_move(record, state, clock)
        return views.view(record, state, seat, clock)

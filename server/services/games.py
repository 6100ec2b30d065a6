"""The use cases of Parlour: register, create, join, view, move, long-poll, replay, clocks.

This layer orchestrates the store (Redis) and the engines (``server.games``)
and knows nothing about HTTP: it takes plain values (a bearer token string or
None, decoded bodies) and returns plain dicts, raising typed errors that the
API layer maps to statuses in one table (``server/api/errors.py``).

Hidden information: every view comes from the engine's ``view(seat)`` and every
event passes ``server.games.visible``; nothing here reads a hand itself except
the replay of a finished game, which reveals everything by design.

Clocked games (tournament games, see :mod:`server.tournaments.clock`): a move
checks its seat's deadline before the engine sees it, and each commit re-arms
the deadlines as a repeatable step after it; :meth:`Service.timeout` is what
the scheduler calls when a deadline has passed.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from dataclasses import dataclass, replace
from typing import Any

from redis import Redis

from server.analysis import par_of
from server.games import REGISTRY, BaseState, Event, Game, GameOver, MalformedMove, visible
from server.services.notifications import after_commit as app_after_commit
from server.store import apps as app_store
from server.store import clocks as clock_store
from server.store import games as game_store
from server.store import lobby as lobby_store
from server.store import players as player_store
from server.store import ratings as rating_store
from server.store.apps import GuestBinding
from server.store.clocks import Clock
from server.store.errors import AlreadySeated, StaleVersion, StoreError
from server.store.games import GameRecord
from server.store.players import PlayerRecord
from server.store.scripts import Scripts
from server.tournaments import clock as clock_policy


class ServiceError(Exception):
    """Base of the use-case errors. ``details`` never names hidden cards."""

    def __init__(self, message: str, details: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.details = details or {}


class InvalidRequest(ServiceError):
    """Well-formed JSON whose content the service cannot accept (400)."""


class Unauthorized(ServiceError):
    """Missing or unknown token (401)."""


class Forbidden(ServiceError):
    """A known caller asking for something it may not do (403)."""


class NotFound(ServiceError):
    """No such game or player (404)."""


class GameNotStarted(ServiceError):
    """Moves wait until every seat is taken (409)."""


class GameNotFinished(ServiceError):
    """Replay frames (every hand at every step) open only once the game is over (409)."""


class DeadlinePassed(ServiceError):
    """The seat's move deadline passed before its move arrived (409): the clock's
    timeout policy decides that move now, not the player."""


@dataclass(frozen=True, slots=True)
class Caller:
    """Who is calling: a player, the admin, or (``None`` in place of a Caller) nobody."""

    player: PlayerRecord | None
    is_admin: bool = False
    guest: GuestBinding | None = None
    """Set for a guest's token (issue 11): valid for one seat of one game only."""


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def deal_commitment(seed: str) -> str:
    """The published hash of a game's seed material: SHA-256 hex of the seed's UTF-8 bytes.

    >>> deal_commitment("abc")[:16]
    'ba7816bf8f01cfea'
    """
    return _sha256(seed)


def split_token(token: str) -> tuple[str, str] | None:
    """A player token is ``<player_id>.<secret>``; None when it has another shape.

    Carrying the id lets the record be read by id, so the secret's hash is
    compared in constant time instead of being used as a lookup key.
    """
    pid, dot, secret = token.partition(".")
    if not dot or not pid or not secret or not pid.isalnum() or len(pid) > 32:
        return None
    return pid, secret


def _event_out(number: int, event: dict[str, Any], *, with_audience: bool = False) -> dict:
    out = {"seq": number, "version": event["version"], "kind": event["kind"], "data": event["data"]}
    if with_audience:
        out["visible_to"] = event["visible_to"]
    return out


def rating_out(stored: dict[str, Any]) -> dict[str, Any]:
    """A stored rating as the API shows it: ``mu``, ``sigma``, ``ordinal`` (mu - 3 sigma), games."""
    return {
        "mu": stored["mu"],
        "sigma": stored["sigma"],
        "ordinal": stored["mu"] - 3 * stored["sigma"],
        "games": stored.get("games", 0),
    }


class Service:
    """The use cases over one Redis client.

    Args:
        r: the Redis client (see :func:`server.store.connect`).
        admin_token: the admin's bearer token, or None for no admin.
        max_wait: the server's cap on long-poll waits, in seconds.
        open_registration: whether anyone may register (the admin always may).
        seed_secret: the secret deal seeds derive from; None keeps one in Redis.
    """

    def __init__(
        self,
        r: Redis,
        *,
        admin_token: str | None,
        max_wait: float = 30.0,
        open_registration: bool = True,
        seed_secret: str | None = None,
    ) -> None:
        self.r = r
        self.scripts = Scripts.register(r)
        self._admin_digest = _sha256(admin_token).encode() if admin_token else None
        self.max_wait = max_wait
        self.open_registration = open_registration
        self._seed_secret = seed_secret

    # -- callers ----------------------------------------------------------------
    def _is_admin(self, token: str) -> bool:
        return self._admin_digest is not None and hmac.compare_digest(
            _sha256(token).encode(), self._admin_digest
        )

    def _verify(
        self, token: str, record: PlayerRecord | None, game_id: str | None = None
    ) -> Caller:
        """Check a player token against the record read for its id (constant time).

        A guest's token (an app's invitation) is bound to one game: anywhere
        else it is refused, and once expired it is unknown.
        """
        parts = split_token(token)
        if (
            record is None
            or parts is None
            or not hmac.compare_digest(_sha256(parts[1]).encode(), record.token_sha256.encode())
        ):
            raise Unauthorized("unknown token")
        if not record.id.startswith(app_store.GUEST_PREFIX):
            return Caller(record)
        guest = app_store.guest(self.r, record.id)
        if guest is None or guest.expired(time.time()):
            raise Unauthorized("this guest token has expired")
        if guest.game_id != game_id:
            raise Forbidden("a guest token is valid only in its own game")
        return Caller(record, guest=guest)

    def caller(self, token: str | None, *, required: bool = True) -> Caller | None:
        """Resolve a bearer token (one round trip for a player token).

        Raises:
            Unauthorized: the token is unknown, or missing while ``required``.
        """
        if token is None:
            if required:
                raise Unauthorized("missing bearer token")
            return None
        if self._is_admin(token):
            return Caller(None, is_admin=True)
        parts = split_token(token)
        if parts is None:
            raise Unauthorized("unknown token")
        return self._verify(token, player_store.get(self.r, parts[0]))

    def _player(self, token: str | None) -> PlayerRecord:
        caller = self.caller(token)
        if caller.player is None:
            raise Forbidden("the admin token is not a player")
        return caller.player

    def _read(
        self,
        token: str | None,
        game_id: str,
        *,
        required: bool,
        accepted_at: int | None = None,
        with_clock: bool = False,
    ) -> tuple[Caller | None, GameRecord, dict[str, Any] | None]:
        """The caller and the game in one round trip (the token read is pipelined, and so
        is the clock's with ``with_clock``: :meth:`_clock` then needs no read of its own)."""
        pid = None
        if token is not None and not self._is_admin(token):
            parts = split_token(token)
            if parts is None:
                raise Unauthorized("unknown token")
            pid = parts[0]
        got = game_store.read(
            self.r, game_id, player_id=pid, accepted_at=accepted_at, with_clock=with_clock
        )
        if token is None:
            if required:
                raise Unauthorized("missing bearer token")
            caller = None
        elif pid is None:
            caller = Caller(None, is_admin=True)
        else:
            caller = self._verify(token, got.player, game_id)
        if got.game is None:
            raise NotFound("no such game", {"game_id": game_id})
        return caller, got.game, got.accepted

    # -- players ----------------------------------------------------------------
    def register(self, token: str | None, name: str) -> dict[str, Any]:
        """A new player and its token, shown this once.

        Raises:
            Forbidden: registration is closed and the caller is not the admin.
        """
        if not self.open_registration:
            caller = self.caller(token)
            if not caller.is_admin:
                raise Forbidden("registration is closed")
        player_id = secrets.token_hex(8)
        token = f"{player_id}.{secrets.token_urlsafe(32)}"
        record = PlayerRecord(player_id, name, _sha256(token.partition(".")[2]))
        player_store.create(self.r, record)
        return {"id": player_id, "name": name, "token": token}

    def me(self, token: str | None) -> dict[str, Any]:
        """The caller's profile, ratings (per game it has played rated) and unfinished games."""
        player = self._player(token)
        ratings = rating_store.of_player(self.r, REGISTRY, player.id)
        return {
            "id": player.id,
            "name": player.name,
            "ratings": {game: rating_out(r) for game, r in ratings.items()},
            "games": player_store.games(self.r, player.id),
        }

    # -- rules ------------------------------------------------------------------
    @staticmethod
    def rules() -> dict[str, Any]:
        """Every registered game with its seat counts, variants and options (with defaults)."""
        return {
            "games": [
                {
                    "id": game.id,
                    "title": game.title,
                    "seats": list(game.seats),
                    "variants": list(game.options.get("rules", {}).get("choices", [])),
                    "options": {name: dict(spec) for name, spec in game.options.items()},
                }
                for game in REGISTRY.values()
            ]
        }

    # -- games ------------------------------------------------------------------
    def board_seed(self, tournament_id: str, board: int) -> str:
        """The deal seed of a duplicate board: both of its tables are dealt from it.

        Derived like a game's seed, from the server secret and a name no game
        id can take (game ids are hex), so it is as secret and as fixed.
        """
        return self._seed_for(f"{tournament_id}:board:{board}")

    def _seed_for(self, game_id: str) -> str:
        """The deal seed: an HMAC of the game id under the server secret (DESIGN.md "Fairness")."""
        if self._seed_secret is None:
            self._seed_secret = game_store.server_secret(self.r, secrets.token_hex(32))
        return hmac.new(self._seed_secret.encode(), game_id.encode(), hashlib.sha256).hexdigest()

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

        Raises:
            Unauthorized, Forbidden (``deals``/``seed`` are admin-only),
            InvalidRequest (unknown game, bad seats), NotFound (unknown player),
            InvalidOptions / InvalidDeal from the engine.
        """
        caller = self.caller(token)
        seats = app_store.resolve_bots(self.r, game, seats)  # "bot:<name>" seats (issue 11)
        admin_only = [name for name, value in (("deals", deals), ("seed", seed)) if value]
        if admin_only and not caller.is_admin:
            raise Forbidden("only the admin may preset deals or the seed", {"fields": admin_only})
        record, state = self._create(
            game=game,
            options=options,
            seats=seats,
            allow_multiple_seats=allow_multiple_seats,
            deals=deals,
            seed=seed,
            created_by=caller.player.id if caller.player else "admin",
        )
        mine = caller.player and self._seats_of(record, caller.player.id)
        return self._view(record, state, self._pick_seat(record, state, mine or []))

    def create_app_game(
        self,
        *,
        game_id: str,
        game: str,
        options: dict[str, Any] | None,
        seats: list[str | None],
        app: dict[str, Any],
    ) -> dict[str, Any]:
        """An app's game (:mod:`server.services.apps`): the same path as :meth:`create_game`,
        its seats already given to guests and bots; answers the spectator's view."""
        record, state = self._create(
            game=game,
            options=options,
            seats=seats,
            game_id=game_id,
            created_by=app["id"],
            extra_meta={"app": app},
        )
        app_after_commit(self.r, record, state, start=True)
        return self._view(record, state, None)

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
            seed: the deal seed (a duplicate board's, shared by its two tables), or
                None for the usual seed from the server secret and the game id.
            clock: ``{"move_seconds", "timeout_policy"}``.
            tournament: ``{"id", "round", "table", "board"}``, kept in the game's meta.

        Returns:
            True if this call created the game.
        """
        now = time.time() if now is None else now
        created = self._create(
            game=game,
            options=options,
            seats=list(seats),
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
    ) -> tuple[GameRecord, BaseState] | None:
        """Validate, store and announce a new game (None: ``game_id`` existed already)."""
        engine = REGISTRY.get(game)
        if engine is None:
            raise InvalidRequest("unknown game", {"game": [f"one of {sorted(REGISTRY)}"]})
        options = dict(options or {})
        if seats is not None and engine.seat_option and engine.seat_option not in options:
            options[engine.seat_option] = len(seats)
        exclusive = game_id is not None
        game_id = game_id or secrets.token_hex(8)
        seed = seed or self._seed_for(game_id)
        state = engine.new_state(options, seed, deals)  # checks options and presets
        seats = list(seats) if seats is not None else [None] * state.num_seats
        if len(seats) != state.num_seats:
            raise InvalidRequest(
                "wrong number of seats",
                {"seats": [f"this {engine.id} game has {state.num_seats} seats"]},
            )
        taken = [pid for pid in seats if pid is not None]
        if not allow_multiple_seats and len(set(taken)) != len(taken):
            raise InvalidRequest(
                "a player may hold one seat unless allow_multiple_seats",
                {"seats": ["a player appears twice"]},
            )
        found = player_store.get_many(self.r, taken)
        missing = {
            str(i): "no such player"
            for i, p in enumerate(seats)
            if p is not None and found[p] is None
        }
        if missing:
            raise NotFound("no such player", {"seats": missing})

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
        seat_map = {
            i: {"player_id": p, "name": found[p].name} for i, p in enumerate(seats) if p is not None
        }
        record = GameRecord(
            id=game_id,
            version=0,
            state=state.to_dict(),
            meta=meta,
            status="active" if len(seat_map) == len(seats) else "waiting",
            seats=seat_map,
        )
        clock_fields = None
        if clock:
            now = time.time() if now is None else now
            clock_fields = clock_store.initial(
                clock["move_seconds"], clock["timeout_policy"], state.to_move(), now
            )
        player_store.add_game(self.r, taken, game_id)
        events = [self._event(e, 0) for e in engine.opening_events(state)]
        seq = game_store.create(self.r, record, events, clock=clock_fields, only_new=exclusive)
        if seq is None:
            return None
        record.seq = seq
        lobby_store.add_live(self.r, game_id, time.time())
        self._wake_to_move(record, state)
        if clock_fields:
            clock_store.index(
                self.r, game_id, now + clock["move_seconds"] if state.to_move() else None
            )
        return record, state

    def join(self, token: str | None, game_id: str, seat: int | None = None) -> dict[str, Any]:
        """Take ``seat`` (or the lowest open seat) and return the joiner's view.

        Raises:
            SeatTaken, AlreadySeated, NoOpenSeat (409); InvalidRequest (no such seat).
        """
        caller, record, _ = self._read(token, game_id, required=True)
        if caller.player is None:
            raise Forbidden("the admin token is not a player")
        num_seats = record.meta["num_seats"]
        if seat is not None and not 0 <= seat < num_seats:
            raise InvalidRequest("no such seat", {"seat": [f"seats are 0..{num_seats - 1}"]})
        player_store.add_game(self.r, [caller.player.id], game_id)
        try:
            taken, status = game_store.join(
                self.r,
                self.scripts,
                game_id,
                seat=seat,
                player=caller.player,
                allow_multiple=record.meta["allow_multiple_seats"],
                num_seats=num_seats,
            )
        except StoreError as exc:
            if not isinstance(exc, AlreadySeated) and not self._seats_of(record, caller.player.id):
                player_store.remove_game(self.r, [caller.player.id], game_id)
            raise
        record = game_store.read(self.r, game_id).game
        state = self._engine(record).from_dict(record.state)
        if status == "active":
            self._wake_to_move(record, state)
        return self._view(record, state, taken)

    def view(self, token: str | None, game_id: str, seat: int | None = None) -> dict[str, Any]:
        """The caller's view of a game (a spectator's without a token or a seat)."""
        caller, record, _ = self._read(token, game_id, required=False, with_clock=True)
        state = self._engine(record).from_dict(record.state)
        mine = self._seats_of(record, caller.player.id) if caller and caller.player else []
        return self._view(
            record, state, self._pick_seat(record, state, mine, seat), self._clock(record)
        )

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

        In a clocked game, a move that arrives after its seat's deadline is
        refused (DeadlinePassed) before the engine sees it: the timeout policy
        makes that move.

        Raises:
            Unauthorized, NotFound, Forbidden (no seat here), StaleVersion,
            GameNotStarted, DeadlinePassed, GameOver (also once aborted), and
            the engine's MalformedMove, IllegalMove, NotYourTurn.
        """
        now = time.time()
        caller, record, accepted = self._read(
            token, game_id, required=True, accepted_at=version, with_clock=True
        )
        mine = self._seats_of(record, caller.player.id) if caller.player else []
        if not mine or (seat is not None and seat not in mine):
            raise Forbidden("you hold no such seat in this game")
        engine = self._engine(record)
        state = engine.from_dict(record.state)
        if version is not None and version != record.version:
            if self._is_retry(state, accepted, move, mine if seat is None else [seat]):
                return self._view(record, state, accepted["seat"], self._clock(record))
            raise StaleVersion(record.version)
        if record.status == "waiting":
            raise GameNotStarted("the game starts when every seat is taken")
        if record.status == "aborted":
            raise GameOver()
        seat = self._pick_seat(record, state, mine, seat)
        clock = self._clock(record)
        if clock is not None and clock.version == record.version:
            deadline = clock.deadlines.get(seat)
            if deadline is not None and now > deadline and seat in state.to_move():
                raise DeadlinePassed(
                    "your deadline for this move has passed",
                    {"deadline": clock_policy.iso(deadline)},
                )
        events = state.apply(seat, move)
        normalized = state.normalize_move(move)  # shape only: as accepted, for safe retries
        status = "finished" if state.is_over() else "active"
        try:
            record.version, record.seq = game_store.commit(
                self.r,
                self.scripts,
                game_id,
                expected_version=record.version,
                state=state.to_dict(),
                status=status,
                move={"seat": seat, "move": normalized},
                events=[self._event(e, record.version + 1) for e in events],
                wake=self._to_wake(record, state) if status == "active" else (),
            )
        except StaleVersion as exc:
            if exc.accepted == {"seat": seat, "move": normalized}:
                return self.view(token, game_id, seat)  # a duplicate that lost the race
            raise
        record.status = status
        self._after_commit(record, state, woken=True)
        if clock is not None:
            clock = self._arm(record, state, clock, mover=seat)
        return self._view(record, state, seat, clock)

    def events(
        self,
        token: str | None,
        game_id: str,
        after: int = 0,
        wait: float = 0.0,
        seat: int | None = None,
    ) -> dict[str, Any]:
        """Events numbered above ``after`` that the caller may see, long-polled up to ``wait``."""
        caller, record, _ = self._read(token, game_id, required=False)
        mine = self._seats_of(record, caller.player.id) if caller and caller.player else []
        if seat is not None and seat not in mine:
            raise Forbidden("you hold no such seat in this game")
        you = seat if seat is not None else (mine[0] if mine else None)
        deadline = time.monotonic() + min(wait, self.max_wait)
        last = after
        while True:
            block_ms = int(max(0.0, deadline - time.monotonic()) * 1000)
            got = game_store.events(self.r, game_id, last, block_ms)
            if got:
                last = got[-1][0]
            shown = [_event_out(n, e) for n, e in got if visible(Event.from_dict(e), you)]
            if shown or block_ms <= 0:
                return {"events": shown, "last": last}

    def replay(self, token: str | None, game_id: str) -> dict[str, Any]:
        """The public record while playing; everything, hands and seed, once finished.

        A table of a duplicate board reveals nothing more until its twin table
        (same cards, seats swapped) is over too: its hands are the twin's.
        """
        _, record, _ = self._read(token, game_id, required=False)
        finished = record.status == "finished" and self._twin_over(record)
        stored = game_store.all_events(self.r, game_id)
        events = [
            _event_out(n, e, with_audience=finished)
            for n, e in stored
            if finished or visible(Event.from_dict(e), None)
        ]
        state = self._engine(record).from_dict(record.state)
        return {
            **self._header(record),
            "events": events,
            "result": self._result(record, state, self._clock(record)),
            "revealed": state.reveal() if finished else None,
            # per-game analysis of the full record (Concerto: each deal's par)
            "par": par_of(record.meta["game"], record.meta["options"], [e for _, e in stored])
            if finished
            else None,
        }

    def replay_frame(self, token: str | None, game_id: str, version: int) -> dict[str, Any]:
        """A finished game as it stood at ``version``: the spectator's view and every seat's.

        These are the frames of a replay: step through the game move by move with
        every hand shown, or "as seat X saw it" (seat X's own view at that step,
        which is exactly what it knew then). The engine rebuilds the state from
        the opening state and the moves accepted since, so a frame shows what the
        live game showed. Only once the game is finished (and a duplicate twin
        too), like the replay's ``revealed``.

        Raises:
            Unauthorized (a bad token), NotFound (no such game, or version outside
            ``0..version``), GameNotFinished.
        """
        _, record, _ = self._read(token, game_id, required=False)
        if not (record.status == "finished" and self._twin_over(record)):
            raise GameNotFinished(
                "a game's frames open once it is finished", {"status": record.status}
            )
        if not 0 <= version <= record.version:
            raise NotFound("no such version", {"version": [f"0..{record.version}"]})
        opening, moves = game_store.history(self.r, game_id)
        if opening is None or any(v not in moves for v in range(version)):
            raise NotFound("this game's history was not kept", {})
        state = self._engine(record).from_dict(opening)
        for v in range(version):
            state.apply(moves[v]["seat"], moves[v]["move"])
        at = replace(record, version=version, status="finished" if state.is_over() else "active")
        return {
            "id": record.id,
            "version": version,
            "last_version": record.version,
            "move": moves[version - 1] if version else None,
            "public": self._view(at, state, None),
            "views": [self._view(at, state, s) for s in range(record.meta["num_seats"])],
        }

    def list_games(self, status: str = "live", limit: int = 50) -> dict[str, Any]:
        """The lobby's list: the newest live (waiting or active) or ended games.

        Public parts only, what any spectator's view shows: seats, whose turn,
        scores, the result. The index is a hint; each game's own status decides,
        and a game found ended in the live index is moved on the way.

        Args:
            status: ``live`` or ``finished`` (finished or aborted).
            limit: at most this many games, newest first.
        """
        indexed = lobby_store.games(self.r, status, limit)
        records = {g.id: g for g in game_store.read_many(self.r, [gid for gid, _ in indexed])}
        ended, gone, out = [], [], []
        for gid, at in indexed:
            record = records.get(gid)
            if record is None:
                gone.append(gid)
                continue
            over = record.status in ("finished", "aborted")
            if over and status == "live":
                ended.append((gid, time.time()))
                continue
            state = self._engine(record).from_dict(record.state)
            public = state.view(None)
            clock = self._clock(record) if record.status == "aborted" else None
            tournament = record.meta.get("tournament")
            out.append(
                {
                    "id": record.id,
                    "game": record.meta["game"],
                    "status": record.status,
                    "version": record.version,
                    "seats": self._seats(record),
                    "to_move": public["to_move"] if record.status == "active" else [],
                    "scores": public.get("scores"),
                    "result": self._result(record, state, clock),
                    "created": None if over else clock_policy.iso(at),
                    "ended": clock_policy.iso(at) if over else None,
                    "tournament": None
                    if tournament is None
                    else {
                        "id": tournament["id"],
                        "round": tournament.get("round"),
                        "table": tournament.get("table"),
                    },
                }
            )
        lobby_store.settle(self.r, ended, gone)
        return {"status": status, "games": out}

    def _twin_over(self, record: GameRecord) -> bool:
        """Whether the game's duplicate twin, if it has one, is finished or aborted."""
        twin = (record.meta.get("tournament") or {}).get("twin")
        if twin is None:
            return True
        found = game_store.read(self.r, twin).game
        return found is None or found.status in ("finished", "aborted")

    def turns(self, token: str | None, wait: float = 0.0) -> dict[str, Any]:
        """Every game where the caller is to act, long-polled up to ``wait`` seconds.

        The truth comes from the game states; a wake-up only ends the wait early.
        """
        player = self._player(token)
        deadline = time.monotonic() + min(wait, self.max_wait)
        while True:
            last_wake, game_ids = player_store.turn_snapshot(self.r, player.id)
            turns = []
            done = []
            records = game_store.read_many(self.r, game_ids)
            clocks = clock_store.read_many(
                self.r, [g.id for g in records if g.status == "active" and g.meta.get("clock")]
            )
            for record in records:
                if record.status in ("finished", "aborted"):
                    done.append(record.id)
                if record.status != "active":
                    continue
                state = self._engine(record).from_dict(record.state)
                for seat in self._seats_of(record, player.id):
                    if seat in state.to_move():
                        view = self._view(record, state, seat, clocks.get(record.id))
                        turns.append(
                            {
                                "game_id": record.id,
                                "seat": seat,
                                "version": record.version,
                                "view": view,
                            }
                        )
            if done:  # a cleanup that an earlier request did not get to finish
                player_store.forget_games(self.r, player.id, done)
            block_ms = int(max(0.0, deadline - time.monotonic()) * 1000)
            if turns or block_ms <= 0:
                return {"turns": turns}
            player_store.wait_wake(self.r, player.id, last_wake, block_ms)

    # -- clocks (called by the scheduler) -----------------------------------------
    def timeout(self, game_id: str, now: float | None = None) -> str:
        """Apply the move clock to one game whose indexed deadline has come.

        Re-reads the truth (the game and its clock) and acts on at most one
        seat: the first seat to move whose deadline is at or before ``now`` gets
        its timeout policy (:mod:`server.tournaments.clock`), committed together
        with the clock's bookkeeping; a move that beat it to the commit wins
        and nothing happens. Call again while it returns ``default_move``
        (several seats may be due at once).

        Returns:
            ``default_move`` or ``forfeit`` (applied); ``moved`` (a move arrived
            first); ``waiting`` (nobody is due yet; the index is corrected);
            ``rearmed`` (the deadlines of the current version had been lost and
            were set afresh); ``over`` (the game is no longer active, or gone).
        """
        now = time.time() if now is None else now
        record = game_store.read(self.r, game_id).game
        clock = clock_store.read(self.r, game_id)
        if record is None or clock is None or record.status != "active":
            clock_store.index(self.r, game_id, None)
            return "over"
        state = self._engine(record).from_dict(record.state)
        if clock.version < record.version:  # a crash between a commit and its arming
            self._arm(record, state, clock, mover=None, restart=True)
            return "rearmed"
        due = [s for s in state.to_move() if clock.deadlines.get(s, now + 1) <= now]
        if not due:
            clock_store.index(self.r, game_id, clock.earliest())
            return "waiting"
        seat = due[0]
        count = clock.timeouts.get(seat, 0) + 1
        action = clock_policy.action(clock.policy, count)
        announce = Event("timeout", {"seat": seat, "timeouts": count, "action": action})
        version = record.version + 1
        if action == clock_policy.FORFEIT:
            scores = list(state.view(None).get("scores") or [0] * record.meta["num_seats"])
            forfeit = {"seat": seat, "scores": scores, "timeouts": count}
            status, move, events = "aborted", {"type": "forfeit"}, [announce]
        else:
            forfeit = None
            move = clock_policy.default_move(state.legal_moves(seat))
            events = [announce, *state.apply(seat, move)]
            status = "finished" if state.is_over() else "active"
        try:
            record.version, record.seq = clock_store.commit_timeout(
                self.r,
                self.scripts,
                game_id,
                expected_version=record.version,
                state=state.to_dict(),
                status=status,
                move={"seat": seat, "move": move, "timeout": True},
                seat=seat,
                forfeit=forfeit,
                events=[self._event(e, version) for e in events],
            )
        except StaleVersion:
            return "moved"
        record.status = status
        self._after_commit(record, state)
        self._arm(record, state, clock, mover=seat, now=now)
        return action

    def final_results(self, game_ids: list[str]) -> dict[str, dict[str, Any]]:
        """The results of those games that are over, for the scheduler.

        Returns:
            game id -> ``{"scores": per seat, "winners": seats, "forfeit": seat or
            None}`` for every finished game and every game aborted by a forfeit;
            games still being played are left out.
        """
        records = [
            g for g in game_store.read_many(self.r, game_ids) if g.status in ("finished", "aborted")
        ]
        clocks = clock_store.read_many(self.r, [g.id for g in records if g.status == "aborted"])
        out: dict[str, dict[str, Any]] = {}
        for record in records:
            if record.status == "finished":
                outcome = self._engine(record).from_dict(record.state).outcome()
                if outcome is not None:
                    out[record.id] = {
                        "scores": list(outcome.scores),
                        "winners": list(outcome.winners),
                        "forfeit": None,
                    }
            elif record.id in clocks and clocks[record.id].forfeit is not None:
                forfeit = clocks[record.id].forfeit
                out[record.id] = {
                    "scores": forfeit["scores"],
                    "winners": [],
                    "forfeit": forfeit["seat"],
                }
        return out

    def ping(self, round_trips: int = 1, reply_bytes: int = 0) -> dict[str, Any]:
        """Redis round trips, one after the other: readiness, and the stack's ceiling
        in benchmarks (one trip), or the floor under a move (two trips, read then
        commit, and ``reply_bytes`` of padding: a view's size, with no work)."""
        for _ in range(round_trips):
            self.r.ping()
        return {"ok": True, "padding": "." * reply_bytes} if reply_bytes else {"ok": True}

    # -- helpers ----------------------------------------------------------------
    @staticmethod
    def _engine(record: GameRecord) -> Game:
        return REGISTRY[record.meta["game"]]

    @staticmethod
    def _event(event: Event, version: int) -> dict[str, Any]:
        return event.to_dict() | {"version": version}

    @staticmethod
    def _seats_of(record: GameRecord, player_id: str) -> list[int]:
        return sorted(s for s, v in record.seats.items() if v["player_id"] == player_id)

    @staticmethod
    def _seats(record: GameRecord) -> list[dict[str, Any]]:
        return [
            {
                "seat": s,
                "player_id": record.seats.get(s, {}).get("player_id"),
                "name": record.seats.get(s, {}).get("name"),
            }
            for s in range(record.meta["num_seats"])
        ]

    @staticmethod
    def _pick_seat(
        record: GameRecord, state: BaseState, mine: list[int], wanted: int | None = None
    ) -> int | None:
        """The seat a request speaks for: the one asked for, else one to move, else the first.

        Raises:
            Forbidden: ``wanted`` is not one of the caller's seats.
        """
        if wanted is not None:
            if wanted not in mine:
                raise Forbidden("you hold no such seat in this game")
            return wanted
        to_move = state.to_move()
        return next((s for s in mine if s in to_move), mine[0] if mine else None)

    @staticmethod
    def _is_retry(
        state: BaseState, accepted: dict[str, Any] | None, move: Any, seats: list[int]
    ) -> bool:
        """Was exactly this move already accepted for one of ``seats`` at the version sent?

        A move the clock made for a timed-out seat is not the player's: never a retry.
        """
        if accepted is None or accepted.get("timeout") or accepted["seat"] not in seats:
            return False
        try:
            return state.normalize_move(move) == accepted["move"]
        except MalformedMove:
            return False

    def _view(
        self, record: GameRecord, state: BaseState, seat: int | None, clock: Clock | None = None
    ) -> dict[str, Any]:
        """API.md "The view": the engine's view for ``seat`` plus the game's record.

        ``deadline`` (clocked games): the seat's own deadline when it is to
        move, else the earliest deadline of the seats to move; null otherwise.
        """
        view = state.view(seat)
        if record.status in ("waiting", "aborted"):
            view["to_move"], view["legal_moves"] = [], []  # nobody moves: not started, or stopped
        view["result"] = self._result(record, state, clock)
        deadline = None
        if clock is not None and record.status == "active":
            to_move = [s for s in view["to_move"] if s in clock.deadlines]
            if seat in to_move:
                deadline = clock.deadlines[seat]
            elif to_move:
                deadline = min(clock.deadlines[s] for s in to_move)
        return {
            **self._header(record),
            "you": seat,
            "deadline": clock_policy.iso(deadline),
            **view,
        }

    def _header(self, record: GameRecord) -> dict[str, Any]:
        """What every game resource starts with (the view, the replay): all public."""
        return {
            "id": record.id,
            "game": record.meta["game"],
            "options": record.meta["options"],
            "status": record.status,
            "version": record.version,
            "seats": self._seats(record),
            "deal_commitment": record.meta["deal_commitment"],
        }

    @staticmethod
    def _result(record: GameRecord, state: BaseState, clock: Clock | None) -> dict[str, Any] | None:
        """The engine's outcome, or for a game aborted by a forfeit, the forfeit.

        A forfeit's ``scores`` are the (public) scores when the game stopped,
        ``forfeit`` is the seat that forfeited and ``winners`` is empty: what the
        forfeit means for a tournament table is the tournament's business
        (:func:`server.tournaments.clock.forfeit_result`).
        """
        if record.status == "aborted" and clock is not None and clock.forfeit is not None:
            return {
                "termination": "forfeit",
                "scores": clock.forfeit["scores"],
                "winners": [],
                "forfeit": clock.forfeit["seat"],
            }
        outcome = state.outcome()
        return None if outcome is None else outcome.to_dict()

    def _clock(self, record: GameRecord) -> Clock | None:
        """The game's clock (only for clocked games): as read with the game, or one read."""
        if not record.meta.get("clock"):
            return None
        if record.clock is not None:
            return clock_store.parse(record.clock)
        return clock_store.read(self.r, record.id)

    def _arm(
        self,
        record: GameRecord,
        state: BaseState,
        clock: Clock,
        *,
        mover: int | None,
        restart: bool = False,
        now: float | None = None,
    ) -> Clock:
        """After a commit (a move or a timeout): the deadlines of the new version, then
        the index. Repeatable; ``now`` is when the fresh deadlines start."""
        to_move = state.to_move() if record.status == "active" else []
        now = time.time() if now is None else now
        armed = clock_store.arm(
            self.r,
            self.scripts,
            record.id,
            version=record.version,
            to_move=to_move,
            mover=mover,
            fresh=now + clock.move_seconds,
            restart=restart,
        )
        if armed is None:  # a later version armed it already: read what is there
            clock = clock_store.read(self.r, record.id) or clock
        else:
            clock = replace(clock, version=record.version, deadlines=armed)
        clock_store.index(self.r, record.id, clock.earliest() if to_move else None)
        return clock

    @staticmethod
    def _to_wake(record: GameRecord, state: BaseState) -> list[str]:
        """The players of the seats to move."""
        return [record.seats[s]["player_id"] for s in state.to_move() if s in record.seats]

    def _wake_to_move(self, record: GameRecord, state: BaseState) -> None:
        """Wake the players to move (a repeatable hint, after the commit)."""
        if record.status != "active":
            return
        pids = self._to_wake(record, state)
        if pids:
            player_store.wake(self.r, pids, record.id)

    def _after_commit(self, record: GameRecord, state: BaseState, woken: bool = False) -> None:
        """Persisting came first; now the separate, repeatable step: wake-ups and cleanup.

        ``woken``: the players to move were woken with the commit already
        (``game_store.commit(wake=...)``)."""
        if record.status in ("finished", "aborted"):
            lobby_store.settle(self.r, [(record.id, time.time())])
            pids = [v["player_id"] for v in record.seats.values()]
            player_store.remove_game(self.r, pids, record.id)
            player_store.wake(self.r, pids, record.id)
        elif not woken:
            self._wake_to_move(record, state)
        app_after_commit(self.r, record, state)  # an app's game: webhooks, guests' expiry

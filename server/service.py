"""The use cases of Parlour: register, create, join, view, move, long-poll, replay.

This layer orchestrates the store (Redis) and the engines (``server.games``)
and knows nothing about HTTP: it takes plain values (a bearer token string or
None, decoded bodies) and returns plain dicts, raising typed errors that the
API layer maps to statuses in one table (``server/api/errors.py``).

Hidden information: every view comes from the engine's ``view(seat)`` and every
event passes ``server.games.visible``; nothing here reads a hand itself except
the replay of a finished game, which reveals everything by design.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from dataclasses import dataclass
from typing import Any

from redis import Redis

from server.games import REGISTRY, BaseState, Event, Game, MalformedMove, visible
from server.store import games as game_store
from server.store import players as player_store
from server.store.errors import AlreadySeated, StaleVersion, StoreError
from server.store.games import GameRecord
from server.store.players import PlayerRecord
from server.store.scripts import Scripts


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


@dataclass(frozen=True, slots=True)
class Caller:
    """Who is calling: a player, the admin, or (``None`` in place of a Caller) nobody."""

    player: PlayerRecord | None
    is_admin: bool = False


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
    out = {"seq": number, "version": event["version"], "kind": event["kind"],
           "data": event["data"]}
    if with_audience:
        out["visible_to"] = event["visible_to"]
    return out


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

    def _verify(self, token: str, record: PlayerRecord | None) -> Caller:
        """Check a player token against the record read for its id (constant time)."""
        parts = split_token(token)
        if record is None or parts is None or not hmac.compare_digest(
            _sha256(parts[1]).encode(), record.token_sha256.encode()
        ):
            raise Unauthorized("unknown token")
        return Caller(record)

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
        self, token: str | None, game_id: str, *, required: bool, accepted_at: int | None = None
    ) -> tuple[Caller | None, GameRecord, dict[str, Any] | None]:
        """The caller and the game in one round trip (the token read is pipelined)."""
        pid = None
        if token is not None and not self._is_admin(token):
            parts = split_token(token)
            if parts is None:
                raise Unauthorized("unknown token")
            pid = parts[0]
        got = game_store.read(self.r, game_id, player_id=pid, accepted_at=accepted_at)
        if token is None:
            if required:
                raise Unauthorized("missing bearer token")
            caller = None
        elif pid is None:
            caller = Caller(None, is_admin=True)
        else:
            caller = self._verify(token, got.player)
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
        """The caller's profile, ratings and unfinished games."""
        player = self._player(token)
        return {
            "id": player.id,
            "name": player.name,
            "ratings": {},
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
        admin_only = [name for name, value in (("deals", deals), ("seed", seed)) if value]
        if admin_only and not caller.is_admin:
            raise Forbidden("only the admin may preset deals or the seed",
                            {"fields": admin_only})
        engine = REGISTRY.get(game)
        if engine is None:
            raise InvalidRequest("unknown game", {"game": [f"one of {sorted(REGISTRY)}"]})
        options = dict(options or {})
        if seats is not None and engine.seat_option and engine.seat_option not in options:
            options[engine.seat_option] = len(seats)
        game_id = secrets.token_hex(8)
        seed = seed or self._seed_for(game_id)
        state = engine.new_state(options, seed, deals)  # checks options and presets
        seats = list(seats) if seats is not None else [None] * state.num_seats
        if len(seats) != state.num_seats:
            raise InvalidRequest("wrong number of seats",
                                 {"seats": [f"this {engine.id} game has {state.num_seats} seats"]})
        taken = [pid for pid in seats if pid is not None]
        if not allow_multiple_seats and len(set(taken)) != len(taken):
            raise InvalidRequest("a player may hold one seat unless allow_multiple_seats",
                                 {"seats": ["a player appears twice"]})
        found = player_store.get_many(self.r, taken)
        missing = {str(i): "no such player" for i, p in enumerate(seats)
                   if p is not None and found[p] is None}
        if missing:
            raise NotFound("no such player", {"seats": missing})

        meta = {
            "game": engine.id,
            "options": state.public_options(),
            "num_seats": len(seats),
            "allow_multiple_seats": allow_multiple_seats,
            "deal_commitment": deal_commitment(seed),
            "created_by": caller.player.id if caller.player else "admin",
        }
        seat_map = {i: {"player_id": p, "name": found[p].name}
                    for i, p in enumerate(seats) if p is not None}
        record = GameRecord(
            id=game_id, version=0, state=state.to_dict(), meta=meta,
            status="active" if len(seat_map) == len(seats) else "waiting", seats=seat_map,
        )
        player_store.add_game(self.r, taken, game_id)
        events = [self._event(e, 0) for e in engine.opening_events(state)]
        record.seq = game_store.create(self.r, record, events)
        self._wake_to_move(record, state)
        mine = caller.player and self._seats_of(record, caller.player.id)
        return self._view(record, state, self._pick_seat(record, state, mine or []))

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
                self.r, self.scripts, game_id, seat=seat, player=caller.player,
                allow_multiple=record.meta["allow_multiple_seats"], num_seats=num_seats,
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
        caller, record, _ = self._read(token, game_id, required=False)
        state = self._engine(record).from_dict(record.state)
        mine = self._seats_of(record, caller.player.id) if caller and caller.player else []
        return self._view(record, state, self._pick_seat(record, state, mine, seat))

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

        Raises:
            Unauthorized, NotFound, Forbidden (no seat here), StaleVersion,
            GameNotStarted, and the engine's MalformedMove, IllegalMove,
            NotYourTurn, GameOver.
        """
        caller, record, accepted = self._read(token, game_id, required=True, accepted_at=version)
        mine = self._seats_of(record, caller.player.id) if caller.player else []
        if not mine or (seat is not None and seat not in mine):
            raise Forbidden("you hold no such seat in this game")
        engine = self._engine(record)
        state = engine.from_dict(record.state)
        if version is not None and version != record.version:
            if self._is_retry(state, accepted, move, mine if seat is None else [seat]):
                return self._view(record, state, accepted["seat"])
            raise StaleVersion(record.version)
        if record.status == "waiting":
            raise GameNotStarted("the game starts when every seat is taken")
        seat = self._pick_seat(record, state, mine, seat)
        events = state.apply(seat, move)
        normalized = state.normalize_move(move)  # shape only: as accepted, for safe retries
        status = "finished" if state.is_over() else "active"
        try:
            record.version, record.seq = game_store.commit(
                self.r, self.scripts, game_id,
                expected_version=record.version,
                state=state.to_dict(),
                status=status,
                move={"seat": seat, "move": normalized},
                events=[self._event(e, record.version + 1) for e in events],
            )
        except StaleVersion as exc:
            if exc.accepted == {"seat": seat, "move": normalized}:
                return self.view(token, game_id, seat)  # a duplicate that lost the race
            raise
        record.status = status
        self._after_commit(record, state)
        return self._view(record, state, seat)

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
            shown = [
                _event_out(n, e) for n, e in got
                if visible(Event.from_dict(e), you)
            ]
            if shown or block_ms <= 0:
                return {"events": shown, "last": last}

    def replay(self, token: str | None, game_id: str) -> dict[str, Any]:
        """The public record while playing; everything, hands and seed, once finished."""
        _, record, _ = self._read(token, game_id, required=False)
        finished = record.status == "finished"
        events = [
            _event_out(n, e, with_audience=finished)
            for n, e in game_store.all_events(self.r, game_id)
            if finished or visible(Event.from_dict(e), None)
        ]
        state = self._engine(record).from_dict(record.state)
        return {
            "id": record.id,
            "game": record.meta["game"],
            "options": record.meta["options"],
            "status": record.status,
            "version": record.version,
            "seats": self._seats(record),
            "deal_commitment": record.meta["deal_commitment"],
            "events": events,
            "result": state.view(None)["result"],
            "revealed": state.reveal() if finished else None,
        }

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
            for record in game_store.read_many(self.r, game_ids):
                if record.status == "finished":
                    done.append(record.id)
                if record.status != "active":
                    continue
                state = self._engine(record).from_dict(record.state)
                for seat in self._seats_of(record, player.id):
                    if seat in state.to_move():
                        turns.append({"game_id": record.id, "seat": seat,
                                      "version": record.version,
                                      "view": self._view(record, state, seat)})
            if done:  # a cleanup that an earlier request did not get to finish
                player_store.forget_games(self.r, player.id, done)
            block_ms = int(max(0.0, deadline - time.monotonic()) * 1000)
            if turns or block_ms <= 0:
                return {"turns": turns}
            player_store.wait_wake(self.r, player.id, last_wake, block_ms)

    def ping(self) -> dict[str, Any]:
        """One Redis round trip: readiness, and the stack's ceiling in benchmarks."""
        self.r.ping()
        return {"ok": True}

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
            {"seat": s, "player_id": record.seats.get(s, {}).get("player_id"),
             "name": record.seats.get(s, {}).get("name")}
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
        """Was exactly this move already accepted for one of ``seats`` at the version sent?"""
        if accepted is None or accepted["seat"] not in seats:
            return False
        try:
            return state.normalize_move(move) == accepted["move"]
        except MalformedMove:
            return False

    def _view(self, record: GameRecord, state: BaseState, seat: int | None) -> dict[str, Any]:
        """API.md "The view": the engine's view for ``seat`` plus the game's record."""
        view = state.view(seat)
        if record.status == "waiting":
            view["to_move"], view["legal_moves"] = [], []  # nobody moves before every seat is taken
        return {
            "id": record.id,
            "game": record.meta["game"],
            "options": record.meta["options"],
            "status": record.status,
            "version": record.version,
            "seats": self._seats(record),
            "you": seat,
            "deadline": None,
            "deal_commitment": record.meta["deal_commitment"],
            **view,
        }

    def _wake_to_move(self, record: GameRecord, state: BaseState) -> None:
        """Wake the players to move (a repeatable hint, after the commit)."""
        if record.status != "active":
            return
        pids = [record.seats[s]["player_id"] for s in state.to_move() if s in record.seats]
        if pids:
            player_store.wake(self.r, pids, record.id)

    def _after_commit(self, record: GameRecord, state: BaseState) -> None:
        """Persisting came first; now the separate, repeatable step: wake-ups and cleanup."""
        if record.status == "finished":
            pids = [v["player_id"] for v in record.seats.values()]
            player_store.remove_game(self.r, pids, record.id)
            player_store.wake(self.r, pids, record.id)
        else:
            self._wake_to_move(record, state)

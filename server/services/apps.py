"""Embedding Parlour in other apps: apps, guests and invitations, webhooks, bot seats.

* **Apps.** The admin creates an app (``POST /v1/apps``); its token
  (``app<hex>.<secret>``, shown once, stored hashed) belongs on the app's
  backend, never in a browser: it creates games and registers webhooks.
* **Invitations.** An app creates a game with ``seats`` such as ``[null,
  "bot:concerto_signals", null, "bot:concerto_signals"]``. Each ``null`` seat
  gets a guest: a player made for that seat, seated at once, whose token is
  the invitation (with a link built from the app's ``invite_url``). A person
  opening it plays that seat without registering. The guest token works only
  for that game (anything else: 403) and only for its seat; it expires
  ``guest_ttl`` after the invitation, or ``guest_grace`` after the game ends
  (until then it can still read its seat's final view, which reveals nothing:
  the replay of a finished game shows every hand to anyone). After that: 401.
* **Bot seats** (``"bot:<name>"``) are played by the server's bot pool
  (:mod:`server.processes.botpool`), which registers its identities through
  :meth:`Apps.ensure_bots` (admin only) and plays over HTTP like any bot.
* **Webhooks**: see :mod:`server.processes.webhooks`. The app (its current token)
  and the admin list and remove them; they end with the token that could add them:
  a revocation removes them, a rotation too unless asked to keep them.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from typing import Any
from urllib.parse import urlencode

from server.services import names, targets
from server.services.bots import resolve_bots
from server.services.callers import sha256, split_token
from server.services.core import Core
from server.services.errors import Forbidden, InvalidRequest, NotFound, Unauthorized
from server.services.games import Games
from server.services.notifications import EVENTS
from server.services.targets import check_target_url
from server.services.wire import iso
from server.store import apps as app_store
from server.store import games as game_store
from server.store import players as player_store
from server.store import webhooks as webhook_store
from server.store.apps import APP_PREFIX, BOT_PREFIX, GUEST_PREFIX, AppRecord, GuestBinding
from server.store.players import PlayerRecord


class Apps:
    """The app use cases, over the shared :class:`Core` and the game use cases.

    Args:
        core: the shared core (Redis, callers).
        games: the game use cases (an app's game is created like any other).
        guest_ttl: seconds an invitation stays valid at most.
        guest_grace: seconds a guest token may still read its game once it ended.
        webhook_allow: internal ranges webhooks may target all the same
            (:func:`server.services.targets.allowlist`).
    """

    def __init__(
        self,
        core: Core,
        games: Games,
        *,
        guest_ttl: float = 86400.0,
        guest_grace: float = 3600.0,
        webhook_allow: tuple[targets.Network, ...] = (),
    ) -> None:
        self.core = core
        self.games = games
        self.r = core.r
        self.guest_ttl = guest_ttl
        self.guest_grace = guest_grace
        self.webhook_allow = webhook_allow

    # -- callers ----------------------------------------------------------------
    def _admin(self, token: str | None) -> None:
        if not self.core.caller(token).is_admin:
            raise Forbidden("only the admin may do this")

    def _app(self, token: str | None, app_id: str) -> AppRecord:
        """The app ``app_id``, if the caller is that app or the admin.

        Raises:
            Unauthorized: no token, or an unknown one.
            Forbidden: a player, a guest, or another app.
            NotFound: no such app (asked by the admin).
        """
        if token is None:
            raise Unauthorized("missing bearer token")
        parts = split_token(token)
        if parts is not None and parts[0].startswith(APP_PREFIX):
            app = app_store.get_app(self.r, parts[0])
            if app is None or not hmac.compare_digest(
                sha256(parts[1]).encode(), app.token_sha256.encode()
            ):
                raise Unauthorized("unknown token")
            if app.id != app_id:
                raise Forbidden("an app token acts only for its own app")
            return app
        self._admin(token)
        app = app_store.get_app(self.r, app_id)
        if app is None:
            raise NotFound("no such app", {"app_id": app_id})
        return app

    # -- apps ---------------------------------------------------------------------
    def create_app(
        self, token: str | None, name: str, invite_url: str | None = None
    ) -> dict[str, Any]:
        """A new app and its token, shown this once (admin only)."""
        self._admin(token)
        name = names.clean_name(name)
        targets.check_url(invite_url, "invite_url")
        app_id = APP_PREFIX + secrets.token_hex(8)
        secret = secrets.token_urlsafe(32)
        app_store.create_app(self.r, AppRecord(app_id, name, sha256(secret), invite_url))
        return {"id": app_id, "name": name, "token": f"{app_id}.{secret}", "invite_url": invite_url}

    def get_app(self, token: str | None, app_id: str) -> dict[str, Any]:
        """The app, its webhooks (without their secrets) and its latest deliveries."""
        app = self._app(token, app_id)
        return {
            "id": app.id,
            "name": app.name,
            "invite_url": app.invite_url,
            "webhooks": self._webhooks(app.id),
            "deliveries": webhook_store.outcomes(self.r, app.id),
        }

    def _webhooks(self, app_id: str) -> list[dict[str, Any]]:
        """The app's webhooks, oldest first, without their secrets (shown once only)."""
        return [
            {k: h[k] for k in ("id", "url", "events", "created")}
            for h in webhook_store.of_app(self.r, app_id)
        ]

    # -- webhooks ---------------------------------------------------------------------
    def list_webhooks(self, token: str | None, app_id: str) -> dict[str, Any]:
        """``{"webhooks": [...]}``: the app's webhooks, without their secrets."""
        return {"webhooks": self._webhooks(self._app(token, app_id).id)}

    def add_webhook(
        self, token: str | None, app_id: str, url: str, events: list[str] | None = None
    ) -> dict[str, Any]:
        """Register ``url`` for ``events`` (default: all); the signing secret is shown once."""
        app = self._app(token, app_id)
        check_target_url(url, self.webhook_allow)
        events = list(dict.fromkeys(events or EVENTS))
        unknown = [e for e in events if e not in EVENTS]
        if unknown:
            raise InvalidRequest("unknown event", {"events": [f"one of {list(EVENTS)}"]})
        hook = {
            "id": "wh" + secrets.token_hex(6),
            "url": url,
            "events": events,
            "secret": "whsec_" + secrets.token_urlsafe(32),
            "created": time.time(),
        }
        webhook_store.add(self.r, app.id, hook)
        return hook

    def remove_webhook(self, token: str | None, app_id: str, webhook_id: str) -> None:
        """Remove the app's webhook ``webhook_id``: nothing more is sent to it, not even
        a delivery queued already (it ends as ``dropped``).

        Raises:
            NotFound: the app has no webhook by that id.
        """
        app = self._app(token, app_id)
        if not webhook_store.remove(self.r, app.id, webhook_id):
            raise NotFound("no such webhook", {"webhook_id": webhook_id})

    # -- the app's token ----------------------------------------------------------------
    def _swap_token(
        self, token: str | None, app_id: str, new: str, keep_webhooks: bool = False
    ) -> tuple[AppRecord, int]:
        """Replace the app's token hash and remove its webhooks (unless ``keep_webhooks``)
        in one script; the app itself (its current token) or the admin. Returns the app
        and how many webhooks it had."""
        app = self._app(token, app_id)
        by_app = token is not None and token.startswith(app.id + ".")
        old = app.token_sha256 if by_app else None
        count = app_store.swap_app_token(self.r, self.core.scripts, app.id, old, new, keep_webhooks)
        if count is None:
            if by_app:
                raise Unauthorized("unknown token")  # rotated meanwhile
            raise NotFound("no such app", {"app_id": app_id})
        return app, count

    def rotate_token(
        self, token: str | None, app_id: str, keep_webhooks: bool = False
    ) -> dict[str, Any]:
        """A new token for the app (shown this once); the old one dies at once.

        The app itself or the admin may: the admin is how a revoked app gets back in.
        The app's webhooks are removed with the old token (whoever held it may have
        added one), unless ``keep_webhooks``: then they stay as they are, and the app
        should list them and remove any it does not know. The answer's ``webhooks``
        says how many there were and whether they were kept.
        """
        secret = secrets.token_urlsafe(32)
        app, count = self._swap_token(token, app_id, sha256(secret), keep_webhooks)
        return {
            "id": app.id,
            "name": app.name,
            "token": f"{app.id}.{secret}",
            "invite_url": app.invite_url,
            "webhooks": {"count": count, "kept": keep_webhooks},
        }

    def revoke_token(self, token: str | None, app_id: str) -> None:
        """The app's token stops working (the app itself or the admin), and its webhooks
        are removed with it. The app stays, with its games and guests: guests keep
        playing; the admin may issue a new token (:meth:`rotate_token`), and the app
        then adds its webhooks again."""
        self._swap_token(token, app_id, player_store.REVOKED)

    # -- games and invitations -------------------------------------------------------
    def create_game(
        self,
        token: str | None,
        app_id: str,
        *,
        game: str,
        seats: list[str | None],
        options: dict[str, Any] | None = None,
        guest_names: list[str] | None = None,
    ) -> dict[str, Any]:
        """A game with a guest (and an invitation) per ``null`` seat and bots by name.

        Args:
            seats: per seat ``null`` (a guest), ``"bot:<name>"`` (the bot pool) or
                a player id (a registered player: the seat is held until that
                player accepts the app's invitation, :mod:`server.services.invitations`).
            guest_names: display names of the guests, in seat order (default "Guest").

        Returns:
            ``{"game": the spectator's view, "invitations": [{"seat", "token",
            "url", "expires"}]}``.
        """
        app = self._app(token, app_id)
        seats = resolve_bots(self.r, game, seats) or []
        self.core.admit_house_bots("apps", seats)
        registered = [p for p in seats if p is not None]  # the guests made below need none
        open_seats = [i for i, s in enumerate(seats) if s is None]
        shown = self._guest_names(guest_names or [])
        if len(shown) > len(open_seats):
            raise InvalidRequest(
                "more guest names than open seats",
                {"guest_names": [f"{len(open_seats)} open seats"]},
            )
        shown += ["Guest"] * (len(open_seats) - len(shown))
        game_id = secrets.token_hex(8)
        expires = time.time() + self.guest_ttl
        guests, invitations = [], []
        for seat, name in zip(open_seats, shown, strict=True):
            guest_id = GUEST_PREFIX + secrets.token_hex(8)
            guest_token = f"{guest_id}.{secrets.token_urlsafe(32)}"
            guests.append(
                (
                    PlayerRecord(guest_id, name, sha256(guest_token.partition(".")[2])),
                    GuestBinding(guest_id, game_id, seat, app.id, expires),
                )
            )
            seats[seat] = guest_id
            invitations.append(
                {
                    "seat": seat,
                    "token": guest_token,
                    "expires": iso(expires),
                    "url": None
                    if app.invite_url is None
                    else app.invite_url
                    + "#"
                    + urlencode({"game": game_id, "seat": seat, "token": guest_token}),
                }
            )
        app_store.create_guests(self.r, guests)  # they expire by themselves if creation fails
        view = self.games.create_app_game(
            game_id=game_id,
            game=game,
            options=options,
            seats=seats,
            app={"id": app.id, "name": app.name, "guest_grace": self.guest_grace},
            registered=registered,
        )
        return {"game": view, "invitations": invitations}

    def _guest_names(self, given: list[str]) -> list[str]:
        """The guests' names as stored (:func:`server.services.names.clean_player_name`).

        Raises:
            InvalidRequest: ``details.guest_names`` maps each refused name's index to why.
        """
        pool = app_store.bot_pool(self.r)
        shown, problems = [], {}
        for i, name in enumerate(given):
            try:
                shown.append(names.clean_player_name(name, pool))
            except InvalidRequest as exc:
                problems[str(i)] = exc.details["name"]
        if problems:
            raise InvalidRequest("this name cannot be used", {"guest_names": problems})
        return shown

    # -- the bot pool ------------------------------------------------------------------
    def bots(self) -> dict[str, Any]:
        """The bots ``"bot:<name>"`` seats can name, with the games each plays."""
        pool = app_store.bot_pool(self.r)
        return {
            "bots": [
                {"name": name, "games": bot["games"], "seats": len(bot["players"])}
                for name, bot in sorted(pool.items())
            ]
        }

    def ensure_bots(self, token: str | None, bots: list[dict[str, Any]]) -> dict[str, Any]:
        """Make sure the pool has ``count`` identities of each bot; return them with tokens.

        Admin only: this is how ``parlour botpool`` learns its tokens over HTTP.
        Idempotent: the identities stay (games in progress keep their players)
        and each token is derived from the server secret and the player id, so
        every call, from any pool process on any host, gets the same tokens.
        """
        self._admin(token)
        secret = game_store.server_secret(self.r, secrets.token_hex(32))
        pool = app_store.bot_pool(self.r)
        out = []
        for spec in bots:
            name = spec["name"]
            ids = list(pool.get(name, {}).get("players", []))
            while len(ids) < spec["count"]:
                ids.append(BOT_PREFIX + secrets.token_hex(8))
            players = []
            for n, pid in enumerate(ids, start=1):
                player_secret = hmac.new(
                    secret.encode(), f"botpool:{pid}".encode(), hashlib.sha256
                ).hexdigest()
                record = PlayerRecord(pid, f"{name} #{n}", sha256(player_secret))
                player_store.create(self.r, record)
                players.append({"id": pid, "name": record.name, "token": f"{pid}.{player_secret}"})
            app_store.set_bot(self.r, name, spec.get("games"), ids)
            out.append({"name": name, "games": spec.get("games"), "players": players})
        return {"bots": out}

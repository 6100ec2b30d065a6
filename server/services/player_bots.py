"""A player's bots (``/v1/me/bots``): each a resource of its owner, of one kind, that
enters ladders and tournaments as one entry and fills every seat of its side.

* ``hosted``: the server runs the bot's code, an uploaded bundle
  (:mod:`server.services.bot_uploads`), each seat in a sandbox of its own, taken from
  Redis by the sandbox workers (:mod:`server.services.hosted`, ``parlour sandbox``).
  A new upload is a new version; each game pins the version of its first turn. A host
  that cannot sandbox (no live sandbox worker says it can) refuses to create one
  (:class:`~server.services.errors.SandboxUnavailable`): code is never run plainly.
* ``callback``: the server calls a URL with each turn (the callbacks' mechanism,
  :mod:`server.services.callbacks`), for every identity of the bot, one secret.
* ``connected``: the owner's runner plays it; the identities' tokens are answered once.

**Identities.** A bot plays as player identities of its own (:data:`IDENTITIES` of
them: the most seats one side holds in any game of the registry), so seating, views
and hidden-information filtering apply to it unchanged: each seat sees its own view.

**Health.** Every bot shows one ``health`` (``ok`` or ``paused``, the reason, since
when): paused by its health sweep (:mod:`server.services.bot_health`: a hosted or
callback bot whose turns keep failing) or, for any kind, paused on a ladder it is on
(its games there ran out their clocks: a connected bot that stopped). :meth:`resume`
(its owner) clears both: the pause and the timeouts before it.

**Consent.** Entering its bot is the owner's consent for it: the owner (and only the
owner) may enter a bot's identities in a ladder or a tournament, and nobody else is
seated by it.
"""

from __future__ import annotations

import base64
import binascii
import secrets
import time
from typing import Any

from server.games import REGISTRY
from server.services import boards, targets, wire
from server.services.bot_uploads import normalize
from server.services.callbacks import new_secret
from server.services.callers import sha256
from server.services.core import Core
from server.services.errors import (
    Forbidden,
    GameNotFinished,
    InvalidRequest,
    NotFound,
    SandboxUnavailable,
)
from server.services.ladders import Ladders
from server.services.names import clean_name
from server.services.targets import check_target_url
from server.services.tournaments import Tournaments
from server.store import bots as store
from server.store import callbacks as callback_store
from server.store import ladders as ladder_store
from server.store import players as player_store
from server.store.players import PlayerRecord

KINDS = ("hosted", "callback", "connected")
IDENTITIES = max(spec.side_size(max(spec.seats)) for spec in REGISTRY.values())
"""Player identities per bot: the most seats one side holds in any registered game."""
BOT_ID_PREFIX = "bt"
PER_OWNER = 20
"""Bots one player may own."""
MAX_URL = 2048


class PlayerBots:
    """A player's bots, over the shared :class:`Core`.

    Args:
        allow: internal ranges callback bots may reach all the same.
    """

    def __init__(
        self,
        core: Core,
        ladders: Ladders,
        tournaments: Tournaments,
        allow: tuple[targets.Network, ...] = (),
    ) -> None:
        self.core = core
        self.r = core.r
        self.ladders = ladders
        self.tournaments = tournaments
        self.allow = allow

    # -- the resource ------------------------------------------------------------------
    def create(
        self,
        token: str | None,
        name: Any,
        kind: str,
        bundle: dict[str, Any] | None = None,
        url: str | None = None,
    ) -> dict[str, Any]:
        """A new bot of the caller's, with version 1 for a hosted one.

        Raises:
            Unauthorized, Forbidden (the admin; too many bots), InvalidRequest (a bad
            name, kind, URL or bundle), SandboxUnavailable (hosted, where no host can
            sandbox).
        """
        owner = self.core.player(token)
        label = clean_name(name) if isinstance(name, str) else None
        if not label:
            raise InvalidRequest("name the bot", {"name": ["1 to 40 printable characters"]})
        if kind not in KINDS:
            raise InvalidRequest("unknown kind", {"kind": [f"one of {', '.join(KINDS)}"]})
        if len(store.owned(self.r, owner.id)) >= PER_OWNER:
            raise Forbidden(f"a player owns at most {PER_OWNER} bots")
        blob, digest = self._check_kind(kind, bundle, url)
        bot_id = BOT_ID_PREFIX + secrets.token_hex(8)
        tokens, identities = {}, []
        for n in range(1, IDENTITIES + 1):
            pid = store.IDENTITY_PREFIX + secrets.token_hex(8)
            secret = secrets.token_urlsafe(24)
            player_store.create(self.r, PlayerRecord(pid, f"{label} #{n}", sha256(secret)))
            identities.append(pid)
            tokens[pid] = f"{pid}.{secret}"
        store.create(
            self.r,
            {"id": bot_id, "owner": owner.id, "name": label, "kind": kind,
             "identities": identities, "created": time.time(), "url": url},
        )  # fmt: skip
        out = self.show(token, bot_id)
        if kind == "hosted" and blob is not None and digest is not None:
            store.add_version(self.r, bot_id, blob, digest)
            store.list_hosted(self.r, identities)
            out = self.show(token, bot_id)
        elif kind == "callback" and url is not None:
            signing = new_secret()
            for pid in identities:
                callback_store.put(self.r, pid, url, signing, time.time())
            out["secret"] = signing
        else:
            out["tokens"] = [{"player_id": p, "token": tokens[p]} for p in identities]
        return out

    def _check_kind(
        self, kind: str, bundle: dict[str, Any] | None, url: str | None
    ) -> tuple[bytes | None, str | None]:
        """What the kind needs, checked: a hosted bot's bundle (normalized), else none."""
        if kind == "callback":
            if not isinstance(url, str) or not url or len(url) > MAX_URL:
                raise InvalidRequest("a callback bot needs its URL", {"url": ["an http(s) URL"]})
            check_target_url(url, self.allow, "callbacks")
        elif url is not None:
            raise InvalidRequest("only a callback bot has a URL", {"url": ["callback only"]})
        if kind == "hosted":
            self.require_sandbox()
            return self._bundle(bundle)
        if bundle is not None:
            raise InvalidRequest("only a hosted bot has a bundle", {"bundle": ["hosted only"]})
        return None, None

    def _bundle(self, bundle: Any) -> tuple[bytes, str]:
        if not isinstance(bundle, dict):
            raise InvalidRequest("a hosted bot needs its code", {"bundle": ["required"]})
        try:
            content = base64.b64decode(bundle.get("content_base64", ""), validate=True)
        except (binascii.Error, ValueError, TypeError):
            raise InvalidRequest("not base64", {"bundle": ["content_base64: base64"]}) from None
        return normalize(str(bundle.get("filename", "")), content)

    def require_sandbox(self, now: float | None = None) -> None:
        """Raise :class:`SandboxUnavailable` unless a live sandbox worker can sandbox."""
        now = time.time() if now is None else now
        hosts = store.hosts(self.r)
        if any(h.get("ok") and h.get("until", 0) > now for h in hosts.values()):
            return
        reasons = sorted({h.get("reason", "") for h in hosts.values() if h.get("reason")})
        raise SandboxUnavailable(
            "this server cannot run hosted bots: no sandbox worker can sandbox code here",
            {"reasons": reasons[:3]},
        )

    def _mine(self, token: str | None, bot_id: str) -> dict[str, Any]:
        owner = self.core.player(token)
        bot = store.get(self.r, bot_id) if isinstance(bot_id, str) else None
        if bot is None or bot["owner"] != owner.id:
            raise NotFound("no such bot of yours", {"bot_id": bot_id})
        return bot

    def show(self, token: str | None, bot_id: str) -> dict[str, Any]:
        """The caller's bot: its kind, identities and versions."""
        bot = self._mine(token, bot_id)
        versions = []
        for n in range(1, bot["version"] + 1):
            got = store.version(self.r, bot_id, n)
            if got is not None:
                created = wire.iso(got["created"])
                versions.append({"version": n, "sha256": got["sha256"], "size": got["size"],
                                 "created": created, "seats_played": got["games"]})  # fmt: skip
        return {
            "id": bot_id,
            "name": bot["name"],
            "kind": bot["kind"],
            "identities": bot["identities"],
            "version": bot["version"] or None,
            "versions": versions,
            "url": bot.get("url"),
            "created": wire.iso(bot["created"]),
            "health": self._health(bot),
        }

    def _health(self, bot: dict[str, Any]) -> dict[str, Any]:
        """The bot's health: paused by its health sweep, or on the ladders it is on."""
        played = bot["kind"] in ("hosted", "callback")  # turns the server plays for it
        failing = store.failing(self.r, bot["id"]) if played else None
        out: dict[str, Any] = {"status": "ok", "reason": None, "since": None,
                               "failed_turns_in_a_row": failing, "ladders": []}  # fmt: skip
        if bot.get("paused_reason"):
            out |= {"status": "paused", "reason": bot["paused_reason"],
                    "since": wire.iso(bot.get("paused_since"))}  # fmt: skip
        for ladder_id in ladder_store.ids(self.r):
            record = ladder_store.read(self.r, ladder_id)
            mine = [p for p in bot["identities"] if record is not None and p in record.entries]
            if record is None or not mine:
                continue
            stats = self.ladders.stats.stats(record)
            for p in mine:
                entry = stats[p]
                if entry["status"] == "paused":
                    out["ladders"].append({"ladder_id": ladder_id, "player_id": p,
                                           "reason": entry["paused_reason"]})  # fmt: skip
                    if out["status"] == "ok":
                        out |= {"status": "paused", "reason": entry["paused_reason"],
                                "since": entry["last_played"]}  # fmt: skip
        return out

    def resume(self, token: str | None, bot_id: str, now: float | None = None) -> dict[str, Any]:
        """The owner resumes the bot: its pause is cleared, its run of failed turns and
        the ladders' timeouts before now are forgiven, and its entries are matched again."""
        bot = self._mine(token, bot_id)
        store.resume(self.r, bot["id"], time.time() if now is None else now)
        return self.show(token, bot_id)

    def list(self, token: str | None) -> dict[str, Any]:
        owner = self.core.player(token)
        return {"bots": [self.show(token, b) for b in store.owned(self.r, owner.id)]}

    def upload(self, token: str | None, bot_id: str, bundle: Any) -> dict[str, Any]:
        """A new version of the caller's hosted bot: the games that start from now on
        play it (a game in progress keeps the version it pinned); the ladders ask a
        validation game of it again."""
        bot = self._mine(token, bot_id)
        if bot["kind"] != "hosted":
            raise InvalidRequest("only a hosted bot has versions", {"bot_id": ["not hosted"]})
        self.require_sandbox()
        blob, digest = self._bundle(bundle)
        store.add_version(self.r, bot_id, blob, digest)
        for pid in bot["identities"]:
            self.ladders.revalidate(pid)
        return self.show(token, bot_id)

    # -- entries -----------------------------------------------------------------------
    def enter_ladder(self, token: str | None, bot_id: str, ladder_id: str) -> dict[str, Any]:
        """Enter the bot in a ladder as one entry: on a ladder of fixed pairs its two
        identities as the pair, else its first identity."""
        bot = self._mine(token, bot_id)
        first, *rest = bot["identities"]
        shown = self.ladders.show(ladder_id)
        if shown.get("sides") == "fixed":
            partner = rest[0]
            self.ladders.join(token, ladder_id, first, partner=partner)
            self.ladders.join(token, ladder_id, partner, partner=first)
        else:
            self.ladders.join(token, ladder_id, first)
        return self.ladders.entry(ladder_id, first)

    def enter_tournament(
        self, token: str | None, bot_id: str, tournament_id: str, seats: int
    ) -> dict[str, Any]:
        """Enter the bot in a tournament as one entry of ``seats`` of its identities."""
        bot = self._mine(token, bot_id)
        if not 1 <= seats <= len(bot["identities"]):
            raise InvalidRequest("this bot cannot fill that", {"seats": [f"1 to {IDENTITIES}"]})
        return self.tournaments.enter(token, tournament_id, bot["identities"][:seats])

    # -- logs --------------------------------------------------------------------------
    def logs(self, token: str | None, bot_id: str, game_id: str) -> dict[str, Any]:
        """The bot's hosted seats of a game that is over: the version that played each,
        its failures by kind and its stderr's tail. Only the owner, only once the game is
        over and, for a table of a duplicate board, the whole board (a seat's log could
        tell what its cards were).

        Raises:
            NotFound: not the caller's bot, or it played no seat of that game;
            GameNotFinished: the game is still being played; BoardInPlay: another table
                of its board is.
        """
        self._mine(token, bot_id)
        record = self.core.game(game_id) if isinstance(game_id, str) else None
        seats = store.game_seats(self.r, game_id) if record is not None else {}
        mine = {s: v for s, v in seats.items() if v.get("bot") == bot_id}
        if record is None or not mine:
            raise NotFound("this bot played no seat of that game", {"game_id": game_id})
        if record.status not in ("finished", "aborted"):
            raise GameNotFinished(
                "the logs are shown once the game is over", {"status": record.status}
            )
        if boards.in_play(self.core, record):  # a twin table still plays the same deal
            raise boards.refusal(record)
        return {
            "game_id": game_id,
            "seats": [{"seat": s, **mine[s]} for s in sorted(mine)],
        }

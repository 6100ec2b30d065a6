"""``client.tournaments``: create, enter, start and follow tournaments."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from .base import _Namespace, _q


class Tournaments(_Namespace):
    """Tournaments: create, enter, start, follow."""

    def create(
        self,
        game: str,
        format: str | None = None,
        *,
        options: Mapping[str, Any] | None = None,
        rounds: int | None = None,
        clock: Mapping[str, Any] | None = None,
        timeout_policy: Any = None,
        **settings: Any,
    ) -> dict[str, Any]:
        """``POST /v1/tournaments``; ``settings`` passes the other fields of the body
        (``name``, ``boards_per_match``, ``seats_per_entry``, ``min_table_size``); no
        ``format``: the server's default (duplicate for a partnership game, else
        round_robin), named in the answer's ``format``."""
        body: dict[str, Any] = {"game": game, "options": dict(options or {})}
        for key, value in (("format", format), ("rounds", rounds), ("clock", clock),
                           ("timeout_policy", timeout_policy), *settings.items()):  # fmt: skip
            if value is not None:
                body[key] = value
        return cast(dict[str, Any], self._r.request("POST", "/v1/tournaments", json=body))

    def enter(self, tournament_id: str, players: Sequence[str]) -> dict[str, Any]:
        """``POST /v1/tournaments/{id}/entries``: one entry."""
        return cast(
            dict[str, Any],
            self._r.request(
                "POST",
                f"/v1/tournaments/{_q(tournament_id)}/entries",
                json={"players": list(players)},
            ),
        )

    def start(self, tournament_id: str) -> dict[str, Any]:
        """``POST /v1/tournaments/{id}/start``."""
        return cast(
            dict[str, Any],
            self._r.request("POST", f"/v1/tournaments/{_q(tournament_id)}/start", json={}),
        )

    def get(self, tournament_id: str) -> dict[str, Any]:
        """``GET /v1/tournaments/{id}``: status, rounds, games, standings."""
        return cast(dict[str, Any], self._r.request("GET", f"/v1/tournaments/{_q(tournament_id)}"))

    def list(self, limit: int | None = None) -> dict[str, Any]:
        """``GET /v1/tournaments``: the newest tournaments with their leaders."""
        return cast(
            dict[str, Any], self._r.request("GET", "/v1/tournaments", params={"limit": limit})
        )

    def standings(self, tournament_id: str) -> dict[str, Any]:
        """``GET /v1/tournaments/{id}/standings``."""
        return cast(
            dict[str, Any],
            self._r.request("GET", f"/v1/tournaments/{_q(tournament_id)}/standings"),
        )

    # -- an organiser's event (docs/organisers.md) -------------------------------------
    def roster(
        self,
        tournament_id: str,
        players: Sequence[Mapping[str, str]] | None = None,
        csv: str | None = None,
    ) -> dict[str, Any]:
        """``POST /v1/tournaments/{id}/roster``: a player (and its token, shown once) for
        every row (``name``, optional ``team``), entered a team to an entry."""
        body: dict[str, Any] = {}
        if players is not None:
            body["players"] = [dict(p) for p in players]
        if csv is not None:
            body["csv"] = csv
        return cast(
            dict[str, Any],
            self._r.request("POST", f"/v1/tournaments/{_q(tournament_id)}/roster", json=body),
        )

    def enter_named(
        self,
        tournament_id: str,
        players: Sequence[str],
        name: str | None = None,
        code: str | None = None,
    ) -> dict[str, Any]:
        """``POST /v1/tournaments/{id}/entries`` with a team ``name`` (players may be
        ``"bot:<name>"``: a house bot, entered as a reference entry) and the tournament's
        join ``code`` where a player enters itself and the organiser set one."""
        body: dict[str, Any] = {"players": list(players)}
        if name is not None:
            body["name"] = name
        if code is not None:
            body["code"] = code
        return cast(
            dict[str, Any],
            self._r.request("POST", f"/v1/tournaments/{_q(tournament_id)}/entries", json=body),
        )

    def join_code(self, tournament_id: str) -> dict[str, Any]:
        """``POST /v1/tournaments/{id}/join-code``: a new join code, shown this once."""
        return cast(
            dict[str, Any],
            self._r.request("POST", f"/v1/tournaments/{_q(tournament_id)}/join-code", json={}),
        )

    def close(self, tournament_id: str) -> dict[str, Any]:
        """``POST /v1/tournaments/{id}/close``: no more entries."""
        return cast(
            dict[str, Any],
            self._r.request("POST", f"/v1/tournaments/{_q(tournament_id)}/close", json={}),
        )

    def withdraw(self, tournament_id: str, entry_id: str) -> dict[str, Any]:
        """``POST /v1/tournaments/{id}/entries/{entry}/withdraw``."""
        path = f"/v1/tournaments/{_q(tournament_id)}/entries/{_q(entry_id)}/withdraw"
        return cast(dict[str, Any], self._r.request("POST", path, json={}, idempotent=True))

    def void(
        self, tournament_id: str, round_index: int, tables: Sequence[int] | None = None
    ) -> dict[str, Any]:
        """``POST /v1/tournaments/{id}/rounds/{index}/void``: replay those tables (all of the
        round's if ``tables`` is None)."""
        body = {} if tables is None else {"tables": list(tables)}
        path = f"/v1/tournaments/{_q(tournament_id)}/rounds/{int(round_index)}/void"
        return cast(dict[str, Any], self._r.request("POST", path, json=body))

    def sheets(self, tournament_id: str) -> dict[str, Any]:
        """``GET /v1/tournaments/{id}/sheets``: standings, tie-breaks, cross-table, games."""
        return cast(
            dict[str, Any], self._r.request("GET", f"/v1/tournaments/{_q(tournament_id)}/sheets")
        )

    def sheet_csv(self, tournament_id: str, part: str = "standings") -> str:
        """``GET /v1/tournaments/{id}/sheets.csv?part=...``: one sheet as CSV text."""
        return self._r.text(f"/v1/tournaments/{_q(tournament_id)}/sheets.csv", {"part": part})

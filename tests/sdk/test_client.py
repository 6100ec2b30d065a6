"""The SDK's error table and retry policy, against a real socket answering canned replies.

Expected mappings come from docs/api.md's error table (status and code per case),
not from the SDK. The live server tests (``test_live.py``) check the same
classes against the real Parlour server.
"""

from __future__ import annotations

import inspect
import json
import socket
from collections.abc import Iterator

import pytest

import client_sdk
from client_sdk import Client
from client_sdk.errors import (
    ERRORS_BY_CODE,
    AlreadyEntered,
    AlreadySeated,
    BoardInPlay,
    CannotStart,
    ConnectionError,
    DeadlinePassed,
    EntriesClosed,
    Forbidden,
    GameNotFinished,
    GameNotStarted,
    GameOver,
    GameStarted,
    IllegalMove,
    InvalidRequest,
    InvitationExpired,
    InvitationRefused,
    InvitationsPending,
    NoOpenSeat,
    NotFound,
    NotYourTurn,
    ParlourError,
    RateLimited,
    SeatHeld,
    SeatOpen,
    SeatTaken,
    ServerError,
    StaleVersion,
    TooManyInvitations,
    Unauthorized,
    WrongEntrySize,
)
from client_sdk.namespaces.base import _Namespace
from tests import spec
from tests.sdk.canned import DROP, Answer, CannedServer, error


@pytest.fixture
def server() -> Iterator[CannedServer]:
    with CannedServer() as s:
        yield s


def make_client(url: str, **options) -> tuple[Client, list[float]]:
    """A client whose retry sleeps are recorded instead of slept."""
    options.setdefault("backoff", 0.01)
    client = Client(url, "t0k3n", **options)
    sleeps: list[float] = []
    client.requestor.sleep = sleeps.append
    return client, sleeps


# -- one table, keyed by the API's error code ----------------------------------

# (status, code, class): docs/api.md#errors, plus the server's extra 409 codes.
API_ERRORS = [
    (400, "invalid_request", InvalidRequest),
    (401, "unauthorized", Unauthorized),
    (403, "forbidden", Forbidden),
    (403, "board_in_play", BoardInPlay),
    (404, "not_found", NotFound),
    (409, "not_your_turn", NotYourTurn),
    (409, "stale_version", StaleVersion),
    (409, "game_over", GameOver),
    (409, "seat_taken", SeatTaken),
    (409, "already_seated", AlreadySeated),
    (409, "no_open_seat", NoOpenSeat),
    (409, "game_not_started", GameNotStarted),
    (409, "deadline_passed", DeadlinePassed),
    (409, "game_not_finished", GameNotFinished),
    (409, "game_started", GameStarted),
    (409, "seat_open", SeatOpen),
    (409, "seat_held", SeatHeld),
    (409, "entries_closed", EntriesClosed),
    (409, "already_entered", AlreadyEntered),
    (409, "wrong_entry_size", WrongEntrySize),
    (409, "cannot_start", CannotStart),
    (409, "invitations_pending", InvitationsPending),
    (409, "invitation_expired", InvitationExpired),
    (409, "too_many_invitations", TooManyInvitations),
    (409, "invitation_refused", InvitationRefused),
    (422, "illegal_move", IllegalMove),
    (422, "unplayable_format", InvalidRequest),
    (429, "rate_limited", RateLimited),
    (429, "too_many_streams", RateLimited),
]


def test_every_code_of_the_table_is_covered() -> None:
    assert {code for _, code, _ in API_ERRORS} == set(ERRORS_BY_CODE)


def test_every_client_error_the_server_can_send_has_its_class() -> None:
    """The server's one error table is the source: a new 4xx code there must reach the SDK.

    (5xx codes need no class of their own: they are ServerError, and retried.)
    """
    from server.api.errors import ERRORS

    server_codes = {code for status, code, _ in ERRORS.values() if status < 500}
    assert server_codes - {"rate_limited"} <= set(ERRORS_BY_CODE)


@pytest.mark.parametrize(("status", "code", "cls"), API_ERRORS)
def test_error_code_chooses_the_class_and_4xx_is_never_retried(
    server: CannedServer, status: int, code: str, cls: type[ParlourError]
) -> None:
    # Retry-After far beyond max_backoff: even the 429 is handed to the caller at once.
    server.answer(error(status, code, {"field": ["bad"]}, X_Request_Id="req-42",
                        Retry_After="600"))  # fmt: skip
    client, sleeps = make_client(server.url)
    with pytest.raises(cls) as caught:
        client.games.move("g1", {"type": "pass"}, version=3)
    err = caught.value
    assert (err.status, err.code, err.message) == (status, code, f"{code} happened")
    assert err.details == {"field": ["bad"]}
    assert err.request_id == "req-42"
    assert "req-42" in str(err) and code in str(err)
    assert len(server.seen) == 1 and sleeps == []


def test_a_stream_refused_with_a_cut_off_answer_is_a_connection_error(
    server: CannedServer,
) -> None:
    """A stream refused by a server that goes down halfway through its error body is a
    dropped connection (the reader reconnects), never requests' own exception escaping
    (it once stopped a house bot in the bot pool while ``parlour serve`` shut down)."""
    body = json.dumps({"error": {"code": "unavailable", "message": "storage unavailable"}})
    server.answer(Answer(503, raw=body.encode()[:20], cut=len(body) - 20))
    client, _ = make_client(server.url)
    with pytest.raises(ConnectionError) as caught:
        next(client.turns.stream())
    assert caught.value.code == "connection_error"


def test_illegal_move_carries_the_legal_moves(server: CannedServer) -> None:
    legal = [{"type": "play", "card": "QS"}, {"type": "pass"}]
    server.answer(error(422, "illegal_move", {"legal_moves": legal}))
    client, _ = make_client(server.url)
    with pytest.raises(IllegalMove) as caught:
        client.games.move("g1", {"type": "play", "card": "2C"}, version=1)
    assert caught.value.legal_moves == legal


def test_rate_limited_carries_retry_after(server: CannedServer) -> None:
    server.answer(error(429, "rate_limited", Retry_After="30"))
    client, _ = make_client(server.url, max_backoff=5)
    with pytest.raises(RateLimited) as caught:
        client.games.view("g1")
    assert caught.value.retry_after == 30.0


def test_conflicts_share_a_base_class() -> None:
    for cls in (NotYourTurn, StaleVersion, GameOver, SeatTaken):
        assert issubclass(cls, client_sdk.Conflict)


def test_unknown_codes_and_bodies_fall_back_on_the_status(server: CannedServer) -> None:
    server.answer(error(418, "teapot"), Answer(502, raw=b"<html>bad gateway</html>"))
    client, _ = make_client(server.url, max_retries=0)
    with pytest.raises(ParlourError) as caught:
        client.players.me()
    assert type(caught.value) is ParlourError and caught.value.code == "teapot"
    with pytest.raises(ServerError) as caught:
        client.players.me()
    assert caught.value.status == 502 and caught.value.code == "server_error"


# -- retries: connection errors, 5xx and 429 only ------------------------------


def test_503_is_retried_with_exponential_backoff_and_jitter(server: CannedServer) -> None:
    server.answer(error(503, "unavailable"), error(503, "unavailable"),
                  error(503, "unavailable"), Answer(200, {"turns": []}))  # fmt: skip
    client, sleeps = make_client(server.url, max_retries=3, backoff=0.1)
    assert client.turns.wait(0) == {"turns": []}
    assert len(server.seen) == 4
    # equal jitter: attempt k sleeps between half and all of 0.1 * 2**k
    for k, slept in enumerate(sleeps):
        assert 0.05 * 2**k <= slept <= 0.1 * 2**k
    assert len(sleeps) == 3


def test_dropped_connection_is_retried_for_a_get(server: CannedServer) -> None:
    server.answer(DROP, Answer(200, {"id": "g1"}))
    client, sleeps = make_client(server.url)
    assert client.games.view("g1") == {"id": "g1"}
    assert len(server.seen) == 2 and len(sleeps) == 1


def test_read_timeout_is_retried_for_a_get(server: CannedServer) -> None:
    server.answer(Answer(200, {"late": True}, delay=0.6), Answer(200, {"late": False}))
    client, _ = make_client(server.url, timeout=0.2)
    assert client.games.view("g1") == {"late": False}


def test_a_move_with_version_is_retried_with_the_same_body(server: CannedServer) -> None:
    server.answer(error(500, "internal_error"), DROP, Answer(200, {"version": 8}))
    client, _ = make_client(server.url)
    assert client.games.move("g1", {"type": "play", "card": "QS"}, version=7) == {"version": 8}
    bodies = [s.body for s in server.seen]
    assert bodies == [{"move": {"type": "play", "card": "QS"}, "version": 7}] * 3


def test_a_move_without_version_is_not_retried(server: CannedServer) -> None:
    """Without a version the server cannot recognise a repeat: it might apply it twice."""
    server.answer(error(500, "internal_error"))
    client, sleeps = make_client(server.url)
    with pytest.raises(ServerError):
        client.games.move("g1", {"type": "pass"})
    server.answer(DROP)
    with pytest.raises(ConnectionError):
        client.games.move("g1", {"type": "pass"})
    assert len(server.seen) == 2 and sleeps == []


def test_a_callback_secret_is_never_sent_twice_and_errors_are_the_sdks(
    server: CannedServer,
) -> None:
    """Setting a callback or rotating its secret answers a fresh secret: a repeat after a
    lost answer would replace the one that was lost, so neither is retried. The
    contract's refusals are the SDK's usual errors."""
    server.answer(DROP, DROP, error(500, "internal_error"))
    client, sleeps = make_client(server.url)
    with pytest.raises(ConnectionError):
        client.players.set_callback("https://bot.example/turn")
    with pytest.raises(ConnectionError):
        client.players.rotate_callback_secret()
    with pytest.raises(ServerError):
        client.players.rotate_callback_secret()
    assert len(server.seen) == 3 and sleeps == []
    server.answer(
        error(404, "not_found"),
        error(400, "invalid_request"),
        Answer(200, {"url": "https://bot.example/turn", "secret": "cbs_new"}),
        Answer(204, raw=b""),
    )
    with pytest.raises(NotFound):
        client.players.callback()
    with pytest.raises(InvalidRequest):
        client.players.set_callback("http://127.0.0.1/turn")
    assert client.players.set_callback("https://bot.example/turn")["secret"] == "cbs_new"
    assert client.players.remove_callback() is None


def test_creating_a_game_is_retried_only_when_the_server_did_not_act(
    server: CannedServer,
) -> None:
    server.answer(error(503, "unavailable"), Answer(201, {"id": "g1"}))
    client, _ = make_client(server.url)
    assert client.games.create("concerto") == {"id": "g1"}
    server.answer(DROP)
    with pytest.raises(ConnectionError):
        client.games.create("concerto")
    assert len(server.seen) == 3


@pytest.mark.parametrize("status", [409, 422, 400])
def test_4xx_is_not_retried_even_on_a_get(server: CannedServer, status: int) -> None:
    server.answer(error(status, "whatever"), Answer(200, {}))
    client, sleeps = make_client(server.url)
    with pytest.raises(ParlourError):
        client.games.view("g1")
    assert len(server.seen) == 1 and sleeps == []


@pytest.mark.parametrize(("status", "code"), [(429, "rate_limited"), (503, "unavailable")])
def test_retry_after_is_honoured_exactly(server: CannedServer, status: int, code: str) -> None:
    server.answer(error(status, code, Retry_After="2"), Answer(200, {"turns": []}))
    client, sleeps = make_client(server.url)
    client.turns.wait(1)
    assert sleeps == [2.0]


def test_retries_give_up_after_max_retries(server: CannedServer) -> None:
    server.answer(*[error(500, "internal_error")] * 5)
    client, sleeps = make_client(server.url, max_retries=2)
    with pytest.raises(ServerError):
        client.games.replay("g1")
    assert len(server.seen) == 3 and len(sleeps) == 2


def test_refused_connection_is_retried_then_raised() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    client, sleeps = make_client(f"http://127.0.0.1:{port}", max_retries=2)
    with pytest.raises(ConnectionError) as caught:
        client.players.register("never sent")  # not idempotent, but never reached the server
    assert isinstance(caught.value, OSError)  # also a builtin ConnectionError
    assert len(sleeps) == 2


# -- what is sent --------------------------------------------------------------


def test_requests_carry_token_timeout_and_escaped_ids(server: CannedServer) -> None:
    server.answer(Answer(200, {}), Answer(200, {}))
    client, _ = make_client(server.url)
    client.games.view("a/b?c")
    Client(server.url).games.rules()
    first, second = server.seen
    assert first.path == "/v1/games/a%2Fb%3Fc"
    assert first.headers["authorization"] == "Bearer t0k3n"
    assert "authorization" not in second.headers


# Every SDK method with sample arguments: what it must send (docs/api.md / openapi.yaml).
CALLS = [
    (lambda c: c.players.register("ann"), "POST", "/v1/players", {"name": "ann"}),
    (lambda c: c.players.me(), "GET", "/v1/players/me", None),
    (lambda c: c.games.rules(), "GET", "/v1/rules", None),
    (lambda c: c.games.create("concerto", {"deals": 1}, ["p1", None],
                              allow_multiple_seats=True, seed="s"),
     "POST", "/v1/games", {"game": "concerto", "options": {"deals": 1}, "seats": ["p1", None],
                           "allow_multiple_seats": True, "seed": "s"}),
    (lambda c: c.games.join("G", seat=2), "POST", "/v1/games/{game_id}/join", {"seat": 2}),
    (lambda c: c.games.view("G", seat=1), "GET", "/v1/games/{game_id}", None),
    (lambda c: c.games.leave("G", 1), "DELETE", "/v1/games/{game_id}/seats/{seat}", None),
    (lambda c: c.games.move("G", {"type": "pass"}, version=4, seat=1),
     "POST", "/v1/games/{game_id}/moves", {"move": {"type": "pass"}, "version": 4, "seat": 1}),
    (lambda c: c.games.events("G", after=5, wait=1), "GET", "/v1/games/{game_id}/events", None),
    (lambda c: c.games.replay("G"), "GET", "/v1/games/{game_id}/replay", None),
    (lambda c: c.turns.wait(2), "GET", "/v1/me/turns", None),
    (lambda c: c.tournaments.create("concerto", "swiss", rounds=3),
     "POST", "/v1/tournaments", {"game": "concerto", "format": "swiss", "options": {},
                                 "rounds": 3}),
    (lambda c: c.tournaments.enter("T", ["p1", "p2"]), "POST",
     "/v1/tournaments/{tournament_id}/entries", {"players": ["p1", "p2"]}),
    (lambda c: c.tournaments.start("T"), "POST", "/v1/tournaments/{tournament_id}/start", {}),
    (lambda c: c.tournaments.get("T"), "GET", "/v1/tournaments/{tournament_id}", None),
    (lambda c: c.tournaments.standings("T"), "GET",
     "/v1/tournaments/{tournament_id}/standings", None),
    (lambda c: c.ratings.leaderboard("concerto"), "GET", "/v1/ratings/{game}", None),
    (lambda c: c.ratings.get("concerto"), "GET", "/v1/ratings/{game}", None),  # the alias
    (lambda c: c.ratings.history("concerto", "P"), "GET",
     "/v1/ratings/{game}/{player_id}/history", None),
    (lambda c: c.games.list(status="finished"), "GET", "/v1/games", None),
    (lambda c: c.games.replay_frame("G", 7), "GET", "/v1/games/{game_id}/replay/{version}", None),
    (
        lambda c: c.games.replay_file_frames({"game": "g"}, first=2, count=3),
        "POST",
        "/v1/replays/frames",
        {"replay": {"game": "g"}, "first": 2, "count": 3},
    ),
    (lambda c: list(c.games.archive(ladder="L")), "GET", "/v1/archive", None),
    (lambda c: list(c.games.stream("G", after=3)), "GET", "/v1/games/{game_id}/stream", None),
    (lambda c: c.tournaments.list(limit=5), "GET", "/v1/tournaments", None),
    # an organiser's event (docs/organisers.md)
    (lambda c: c.tournaments.roster("T", csv="name\nAda\n"), "POST",
     "/v1/tournaments/{tournament_id}/roster", {"csv": "name\nAda\n"}),
    (lambda c: c.tournaments.enter_named("T", ["bot:random"], "House"), "POST",
     "/v1/tournaments/{tournament_id}/entries", {"players": ["bot:random"], "name": "House"}),
    (lambda c: c.tournaments.close("T"), "POST", "/v1/tournaments/{tournament_id}/close", {}),
    (lambda c: c.tournaments.join_code("T"), "POST",
     "/v1/tournaments/{tournament_id}/join-code", {}),
    (lambda c: c.tournaments.withdraw("T", "E"), "POST",
     "/v1/tournaments/{tournament_id}/entries/{entry_id}/withdraw", {}),
    (lambda c: c.tournaments.void("T", 0, [1]), "POST",
     "/v1/tournaments/{tournament_id}/rounds/{round_index}/void", {"tables": [1]}),
    (lambda c: c.tournaments.sheets("T"), "GET", "/v1/tournaments/{tournament_id}/sheets", None),
    (lambda c: c.tournaments.sheet_csv("T", "games"), "GET",
     "/v1/tournaments/{tournament_id}/sheets.csv", None),
    (lambda c: c.apps.create("app", invite_url="http://x/i"), "POST", "/v1/apps",
     {"name": "app", "invite_url": "http://x/i"}),
    (lambda c: c.apps.get("A"), "GET", "/v1/apps/{app_id}", None),
    (lambda c: c.apps.create_game("A", "concerto", [None, "bot:random", None, None]),
     "POST", "/v1/apps/{app_id}/games",
     {"game": "concerto", "seats": [None, "bot:random", None, None]}),
    (lambda c: c.apps.add_webhook("A", "http://x/h", ["game_end"]),
     "POST", "/v1/apps/{app_id}/webhooks", {"url": "http://x/h", "events": ["game_end"]}),
    (lambda c: c.apps.webhooks("A"), "GET", "/v1/apps/{app_id}/webhooks", None),
    (lambda c: c.apps.remove_webhook("A", "W"), "DELETE",
     "/v1/apps/{app_id}/webhooks/{webhook_id}", None),
    (lambda c: c.bots.list(), "GET", "/v1/bots", None),
    (lambda c: c.bots.ensure(["random"]), "POST", "/v1/bots", {"bots": ["random"]}),
    (lambda c: next(c.turns.stream(), None), "GET", "/v1/me/turns/stream", None),
    (lambda c: c.visitors.settings(), "GET", "/v1/visitors", None),
    (lambda c: c.visitors.play("seconds"), "POST", "/v1/visitors/games", {"game": "seconds"}),
    # a player's own bots (docs/tutorials/hosted-bot.md): "print(1)\n" in base64
    (lambda c: c.my_bots.list(), "GET", "/v1/me/bots", None),
    (lambda c: c.my_bots.create("b", "hosted", bundle=("main.py", b"print(1)\n")), "POST",
     "/v1/me/bots", {"name": "b", "kind": "hosted",
                     "bundle": {"filename": "main.py", "content_base64": "cHJpbnQoMSkK"}}),
    (lambda c: c.my_bots.create("c", "callback", url="https://x.example/t"), "POST",
     "/v1/me/bots", {"name": "c", "kind": "callback", "url": "https://x.example/t"}),
    (lambda c: c.my_bots.get("B"), "GET", "/v1/me/bots/{bot_id}", None),
    (lambda c: c.my_bots.resume("B"), "POST", "/v1/me/bots/{bot_id}/resume", None),
    (lambda c: c.my_bots.upload("B", ("main.py", b"print(1)\n")), "POST",
     "/v1/me/bots/{bot_id}/versions", {"filename": "main.py", "content_base64": "cHJpbnQoMSkK"}),
    (lambda c: c.my_bots.enter_ladder("B", "L"), "POST", "/v1/me/bots/{bot_id}/ladders",
     {"ladder_id": "L"}),
    (lambda c: c.my_bots.enter_tournament("B", "T", seats=2), "POST",
     "/v1/me/bots/{bot_id}/tournaments", {"tournament_id": "T", "seats": 2}),
    (lambda c: c.my_bots.logs("B", "G"), "GET", "/v1/me/bots/{bot_id}/games/{game_id}", None),
    # matches (docs/matches.md)
    (lambda c: c.matches.create("seconds", ["p1"], ["p2"], max_boards=20), "POST",
     "/v1/matches", {"game": "seconds", "options": {}, "new": ["p1"], "old": ["p2"],
                     "max_boards": 20}),
    (lambda c: c.matches.agree("M"), "POST", "/v1/matches/{match_id}/agree", {}),
    (lambda c: c.matches.get("M"), "GET", "/v1/matches/{match_id}", None),
    (lambda c: c.matches.regression("M"), "GET", "/v1/matches/{match_id}/regression", None),
    (lambda c: c.invitations.mine(), "GET", "/v1/me/invitations", None),
    (lambda c: c.invitations.block("P"), "PUT", "/v1/me/blocks/{player_id}", {}),
    (lambda c: c.invitations.unblock("P"), "DELETE", "/v1/me/blocks/{player_id}", None),
    (lambda c: c.invitations.blocks(), "GET", "/v1/me/blocks", None),
    (lambda c: c.invitations.accept("I"), "POST", "/v1/invitations/{invitation_id}/accept", {}),
    (lambda c: c.invitations.decline("I"), "POST", "/v1/invitations/{invitation_id}/decline", {}),
    # tokens: rotate and revoke
    (lambda c: c.tokens.rotate(), "POST", "/v1/players/me/token", None),
    (lambda c: c.tokens.revoke(), "DELETE", "/v1/players/me/token", None),
    (lambda c: c.tokens.rotate_player("P"), "POST", "/v1/players/{player_id}/token", None),
    (lambda c: c.tokens.revoke_player("P"), "DELETE", "/v1/players/{player_id}/token", None),
    (lambda c: c.tokens.rotate_app("A"), "POST", "/v1/apps/{app_id}/token", None),
    (lambda c: c.tokens.rotate_app("A", keep_webhooks=True), "POST", "/v1/apps/{app_id}/token",
     {"keep_webhooks": True}),
    (lambda c: c.tokens.revoke_app("A"), "DELETE", "/v1/apps/{app_id}/token", None),
    # ladders (docs/ladder.md)
    (lambda c: c.ladders.create("concerto", max_games=4), "POST", "/v1/ladders",
     {"game": "concerto", "options": {}, "max_games": 4}),
    (lambda c: c.ladders.list(), "GET", "/v1/ladders", None),
    (lambda c: c.ladders.get("L"), "GET", "/v1/ladders/{ladder_id}", None),
    (lambda c: c.ladders.join("L"), "POST", "/v1/ladders/{ladder_id}/entries", {}),
    (lambda c: c.ladders.leave("L"), "DELETE", "/v1/ladders/{ladder_id}/entries", None),
    (lambda c: c.ladders.entry("L", "P"), "GET",
     "/v1/ladders/{ladder_id}/entries/{player_id}", None),
    (lambda c: c.ladders.leaderboard("L"), "GET", "/v1/ladders/{ladder_id}/leaderboard", None),
    # the callback (docs/callbacks.md)
    (lambda c: c.players.callback(), "GET", "/v1/me/callback", None),
    (lambda c: c.players.set_callback("https://bot.example/turn"), "PUT", "/v1/me/callback",
     {"url": "https://bot.example/turn"}),
    (lambda c: c.players.rotate_callback_secret(), "POST", "/v1/me/callback/secret", None),
    (lambda c: c.players.remove_callback(), "DELETE", "/v1/me/callback", None),
]  # fmt: skip


def test_the_table_calls_every_method_of_every_namespace() -> None:
    """Each public method of each ``client.<namespace>`` (aliases too, such as
    ``ratings.get`` for ``ratings.leaderboard``) is called by a row of CALLS, so
    every one is held to the endpoint it sends."""
    called = set()
    for call, *_ in CALLS:
        names = call.__code__.co_names  # c.ratings.leaderboard(...) -> ("ratings", "leaderboard")
        called |= set(zip(names, names[1:], strict=False))
    client = Client("http://127.0.0.1:9")
    spaces = {name: space for name, space in vars(client).items() if isinstance(space, _Namespace)}
    assert {"ratings", "ladders", "games", "my_bots"} <= set(spaces)
    uncalled = [
        (name, method)
        for name, space in spaces.items()
        for method, _ in inspect.getmembers(type(space), inspect.isfunction)
        if not method.startswith("_") and (name, method) not in called
    ]
    assert not uncalled, uncalled
    assert ("ratings", "leaderboard") in called and ("ratings", "get") in called


def _template(path: str) -> str:
    return (path.replace("/games/G", "/games/{game_id}")
            .replace("/tournaments/T", "/tournaments/{tournament_id}")
            .replace("/ratings/concerto", "/ratings/{game}")
            .replace("/P/history", "/{player_id}/history")
            .replace("/replay/7", "/replay/{version}")
            .replace("/apps/A", "/apps/{app_id}")
            .replace("/webhooks/W", "/webhooks/{webhook_id}")
            .replace("/invitations/I/", "/invitations/{invitation_id}/")
            .replace("/players/P/", "/players/{player_id}/")
            .replace("/ladders/L", "/ladders/{ladder_id}")
            .replace("/entries/P", "/entries/{player_id}")
            .replace("/entries/E/", "/entries/{entry_id}/")
            .replace("/rounds/0/", "/rounds/{round_index}/")
            .replace("/blocks/P", "/blocks/{player_id}")
            .replace("/seats/1", "/seats/{seat}")
            .replace("/me/bots/B", "/me/bots/{bot_id}")
            .replace("/matches/M", "/matches/{match_id}"))  # fmt: skip


@pytest.mark.parametrize(("call", "method", "path", "body"), CALLS)
def test_each_method_sends_its_endpoint(server, call, method, path, body) -> None:
    server.answer(Answer(200, {}))
    client, _ = make_client(server.url)
    call(client)
    (seen,) = server.seen
    assert (seen.method, _template(seen.path), seen.body) == (method, path, body)


def test_query_parameters(server: CannedServer) -> None:
    server.answer(Answer(200, {}), Answer(200, {}), Answer(200, {}))
    client, _ = make_client(server.url)
    client.games.events("G", after=5, wait=1.5)
    client.turns.wait(2)
    client.games.view("G")
    assert server.seen[0].query == {"after": ["5"], "wait": ["1.5"]}
    assert server.seen[1].query == {"wait": ["2"]}
    assert server.seen[2].query == {}


def test_the_archive_follows_every_page(server: CannedServer) -> None:
    def link(cursor: str) -> dict[str, str]:
        return {"Link": f'</v1/archive?ladder=L&limit=2&cursor={cursor}>; rel="next"'}

    server.answer(
        Answer(200, raw=b'{"id":"g1"}\n{"id":"g2"}\n', headers=link("g2")),
        Answer(200, raw=b"", headers=link("g9")),  # a page may hold none and not be the last
        Answer(200, raw=b'{"id":"g10"}\n'),  # no Link: the last page
    )
    client, _ = make_client(server.url)
    pages: list[tuple[int, int]] = []
    got = client.games.archive(ladder="L", limit=2, on_page=lambda p, n: pages.append((p, n)))
    assert [r["id"] for r in got] == ["g1", "g2", "g10"]
    assert pages == [(1, 2), (2, 2), (3, 3)]
    assert [seen.query.get("cursor") for seen in server.seen] == [None, ["g2"], ["g9"]]
    assert server.seen[0].query == {"ladder": ["L"], "limit": ["2"]}


# -- drift guards against openapi.yaml (berserk's check-endpoints) -----------------


def _openapi() -> dict:
    return spec.document()


def test_every_api_endpoint_has_an_sdk_method_and_vice_versa() -> None:
    spec = _openapi()
    served = {
        (method.upper(), path)
        for path, item in spec["paths"].items()
        if path.startswith("/v1/") and not path.startswith("/v1/_")
        for method in item
        if method in ("get", "post", "put", "delete", "patch")
    }
    sdk = {(method, path) for _, method, path, _ in CALLS}
    assert served == sdk


def _codes(document: dict, response: dict) -> set[str]:
    """The error codes a response of the spec may carry: its ``x-error-codes``, or the
    code of the one ``<Code>Error`` it answers."""
    if "$ref" in response:
        response = document["components"]["responses"][response["$ref"].rsplit("/", 1)[1]]
    if "x-error-codes" in response:
        return set(response["x-error-codes"])
    schema = response.get("content", {}).get("application/json", {}).get("schema", {})
    schemas = document["components"]["schemas"]
    envelope = schemas[schema["$ref"].rsplit("/", 1)[1]]["properties"]["error"]
    return {schemas[envelope["$ref"].rsplit("/", 1)[1]]["properties"]["code"]["const"]}


def test_every_client_error_code_the_spec_names_has_its_class_and_vice_versa() -> None:
    """Every code a 4xx answer of the spec may carry chooses its class (5xx codes need
    none: they are ServerError, and retried), and the SDK knows no code the spec does not."""
    document = _openapi()
    named = {
        code
        for item in document["paths"].values()
        for method, operation in item.items()
        if method in ("get", "post", "put", "delete", "patch")
        for status, response in operation["responses"].items()
        if 400 <= int(status) < 500
        for code in _codes(document, response)
    }
    assert "illegal_move" in named and "too_many_streams" in named
    assert named == set(ERRORS_BY_CODE)


# The TypedDicts of client_sdk.types are generated from the spec (test_types.py).

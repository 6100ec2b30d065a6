"""The SDK's callback endpoint over real sockets: a signed call gets the bot's move, and
whatever else comes is refused with a 4xx before the bot is asked.

The signature is the contract's (docs/callbacks.md): ``Parlour-Signature:
t=<unix s>,v1=<hex HMAC-SHA256(secret, f"{t}.".encode() + body)>``. Calls are signed
here with the server's own :func:`server.services.notifications.signature`, so the
endpoint is held to what the server sends, not to the SDK's copy of it.
"""

from __future__ import annotations

import http.client
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

from client_sdk import Bot
from client_sdk.cli import main
from client_sdk.endpoint import make_app, make_server
from server.processes.served import free_port
from server.services.notifications import signature
from tests.sdk.canned import Answer, CannedServer, error

SECRET = "cbs_0123456789abcdef"
MAX_BODY = 8192
ROOT = Path(__file__).resolve().parents[2]


class Recording(Bot):
    """Plays the last legal move and records every view it is asked about."""

    name = "recording"

    def __init__(self) -> None:
        super().__init__()
        self.asked: list[dict[str, Any]] = []
        self.started: list[Any] = []

    def on_game_start(self, view: Any) -> None:
        self.started.append(view.get("id"))

    def choose_move(self, view: Any) -> Any:
        self.asked.append(view)
        if view.get("explode"):
            raise RuntimeError("secret internals of the bot")
        return view["legal_moves"][-1]


@pytest.fixture(scope="module")
def served() -> Iterator[tuple[str, Recording]]:
    """The endpoint of a :class:`Recording` bot on a free port, served in a thread."""
    bot = Recording()
    server = make_server(make_app(bot, SECRET, max_body=MAX_BODY))
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05})
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}/turn", bot
    server.shutdown()
    server.server_close()
    thread.join(5)


_ids = iter(range(10**6))


def call_body(**extra: Any) -> bytes:
    """A turn entry as the dispatcher sends it, with a fresh call id."""
    return json.dumps({
        "id": f"call-{next(_ids)}-{time.time_ns()}",
        "game_id": "g1",
        "seat": 2,
        "version": 7,
        "view": {"id": "g1", "version": 7, "legal_moves": [{"type": "pass"},
                 {"type": "play", "card": "QS"}]},
        "clock": {"deadline": None, "bank_ms": None, "last_latency_ms": None},
        **extra,
    }).encode()  # fmt: skip


def post(url: str, body: bytes, sig: str | None, **headers: str) -> requests.Response:
    if sig is not None:
        headers["Parlour-Signature"] = sig
    return requests.post(
        url, data=body, headers={"Content-Type": "application/json", **headers}, timeout=10
    )


def signed(body: bytes, secret: str = SECRET, at: float | None = None) -> str:
    return signature(secret, body, int(time.time() if at is None else at))


def test_a_signed_call_is_answered_with_the_bots_move(served) -> None:
    url, bot = served
    asked = len(bot.asked)
    body = call_body()
    answer = post(url, body, signed(body))
    assert answer.status_code == 200
    assert answer.json() == {"move": {"type": "play", "card": "QS"}}
    assert bot.asked[asked:] == [json.loads(body)["view"]]  # the view, as sent
    assert bot.started.count("g1") == 1
    again = call_body()  # the next turn of the same game: a new id, no new game
    assert post(url, again, signed(again)).status_code == 200
    assert bot.started.count("g1") == 1


@pytest.mark.parametrize("skew", [-290, 290])
def test_a_call_signed_within_the_tolerance_either_side_is_answered(served, skew) -> None:
    """300 s either side of the endpoint's clock (the caller's may run ahead or behind)."""
    url, _ = served
    body = call_body()
    assert post(url, body, signed(body, at=time.time() + skew)).status_code == 200


def _forged(body: bytes, limit: int, secret: str) -> tuple[bytes, str]:
    return body, signed(body, secret=secret + "_not")


def _tampered(body: bytes, limit: int, secret: str) -> tuple[bytes, str]:
    sig = signed(body, secret)
    return body.replace(b'"QS"', b'"AS"'), sig


def _stale(body: bytes, limit: int, secret: str) -> tuple[bytes, str]:
    return body, signed(body, secret, at=time.time() - 305)


def _ahead(body: bytes, limit: int, secret: str) -> tuple[bytes, str]:
    return body, signed(body, secret, at=time.time() + 305)


def _unsigned(body: bytes, limit: int, secret: str) -> tuple[bytes, None]:
    return body, None


def _not_json(body: bytes, limit: int, secret: str) -> tuple[bytes, str]:
    raw = b"move please"
    return raw, signed(raw, secret)


def _no_view(body: bytes, limit: int, secret: str) -> tuple[bytes, str]:
    raw = json.dumps({"id": "x", "game_id": "g1"}).encode()
    return raw, signed(raw, secret)


def _no_id(body: bytes, limit: int, secret: str) -> tuple[bytes, str]:
    raw = json.dumps({k: v for k, v in json.loads(body).items() if k != "id"}).encode()
    return raw, signed(raw, secret)


def _oversized(body: bytes, limit: int, secret: str) -> tuple[bytes, str]:
    raw = call_body(padding="x" * limit)
    return raw, signed(raw, secret)


REFUSALS = [
    (_forged, 401),
    (_tampered, 401),
    (_stale, 401),
    (_ahead, 401),
    (_unsigned, 401),
    (_not_json, 400),
    (_no_view, 400),
    (_no_id, 400),
    (_oversized, 413),
]
"""Bad calls (made from a good one, the endpoint's body limit and secret), and the status each
gets; tests/bots/test_callback_node.py holds the Node example to them too."""


@pytest.mark.parametrize(("make", "status"), REFUSALS)
def test_a_bad_call_is_refused_without_asking_the_bot(served, make, status) -> None:
    url, bot = served
    asked = len(bot.asked)
    body, sig = make(call_body(), MAX_BODY, SECRET)
    answer = post(url, body, sig)
    assert answer.status_code == status
    assert answer.json()["error"]["code"]  # the API's error envelope
    assert len(bot.asked) == asked


def test_a_replayed_call_is_refused(served) -> None:
    """The same signed request sent again (recorded on the way, say) is refused even
    within the signature's tolerance: the bot is asked once."""
    url, bot = served
    asked = len(bot.asked)
    body = call_body()
    sig = signed(body)
    assert post(url, body, sig).status_code == 200
    replay = post(url, body, sig)
    assert replay.status_code == 409 and replay.json()["error"]["code"] == "replayed"
    assert len(bot.asked) == asked + 1


def test_only_a_post_with_a_length_is_read(served) -> None:
    url, bot = served
    asked = len(bot.asked)
    assert requests.get(url, timeout=10).status_code == 405
    chunked = requests.post(url, data=iter([call_body()]), timeout=10)  # no Content-Length
    assert chunked.status_code == 411
    assert len(bot.asked) == asked


def test_a_connection_is_kept_for_the_next_call_and_closed_after_a_refusal(served) -> None:
    """The server keeps a connection pool per bot host: calls after the first reuse the
    connection, without waiting on a delayed ACK (Nagle's algorithm holds wsgiref's
    second write ~40 ms on a kept connection). A refused call's body may be unread: its
    connection is closed."""
    url, _ = served
    port = int(url.split(":")[2].split("/")[0])
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    sockets, took = [], []
    for _ in range(6):
        body = call_body()
        began = time.perf_counter()
        connection.request("POST", "/turn", body, {"Parlour-Signature": signed(body)})
        answer = connection.getresponse()
        assert answer.status == 200 and json.loads(answer.read())["move"]
        took.append(time.perf_counter() - began)
        assert not answer.will_close
        sockets.append(connection.sock)
    assert all(s is sockets[0] for s in sockets)  # one connection
    assert min(took[1:]) < 0.035, took
    body = call_body()
    connection.request("POST", "/turn", body, {"Parlour-Signature": signed(body, "cbs_not")})
    answer = connection.getresponse()
    assert answer.status == 401 and answer.getheader("Connection") == "close"
    answer.read()
    assert answer.will_close and connection.sock is None
    connection.close()


def test_a_failing_bot_is_a_500_that_says_nothing_of_it(served) -> None:
    url, bot = served
    body = call_body(view={"id": "g2", "explode": True, "legal_moves": [{"type": "pass"}]})
    answer = post(url, body, signed(body))
    assert answer.status_code == 500
    assert "internals" not in answer.text


# -- parlour-bot serve -----------------------------------------------------------------

MY_BOT = """
from client_sdk import Bot


class FirstLegal(Bot):
    def choose_move(self, view):
        return view["legal_moves"][0]
"""


def _serve(tmp_path: Path, *args: str, **env: str) -> tuple[subprocess.Popen[str], int]:
    """``parlour-bot serve mybot:FirstLegal --port N ...`` started in ``tmp_path``."""
    (tmp_path / "mybot.py").write_text(MY_BOT)
    port = free_port()
    clean = {k: v for k, v in os.environ.items() if not k.startswith("PARLOUR_")}
    process = subprocess.Popen(
        [sys.executable, "-m", "client_sdk.cli", "serve", "mybot:FirstLegal",
         "--port", str(port), *args],
        cwd=tmp_path, env={**clean, "PYTHONPATH": str(ROOT), **env},
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    return process, port


def _wait_serving(process: subprocess.Popen[str]) -> str:
    """The lines ``serve`` wrote up to the one saying it serves."""
    assert process.stderr is not None
    lines = []
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        line = process.stderr.readline()
        if not line:
            break
        lines.append(line)
        if "serving calls on" in line:
            return "".join(lines)
    process.kill()
    raise AssertionError(f"serve did not start: {''.join(lines)}{process.communicate()}")


def _stop(process: subprocess.Popen[str]) -> None:
    process.terminate()
    process.wait(10)


def test_parlour_bot_serve_plays_with_the_secret_from_the_environment_or_a_file(
    tmp_path: Path,
) -> None:
    secret_file = tmp_path / "secret"
    secret_file.write_text("cbs_from_a_file\n")
    for args, env, secret in (
        ((), {"PARLOUR_CALLBACK_SECRET": SECRET}, SECRET),
        (("--secret-file", str(secret_file)), {}, "cbs_from_a_file"),
    ):
        process, port = _serve(tmp_path, *args, **env)
        try:
            _wait_serving(process)
            url = f"http://127.0.0.1:{port}/"
            body = call_body()
            answer = post(url, body, signed(body, secret=secret))
            assert (answer.status_code, answer.json()) == (200, {"move": {"type": "pass"}})
            other = call_body()
            assert post(url, other, signed(other, secret="cbs_wrong")).status_code == 401
        finally:
            _stop(process)


def test_serve_takes_no_secret_on_the_command_line(tmp_path: Path) -> None:
    """A command line is readable by everyone on the host: no secret there, and none
    at all is a clear refusal rather than an endpoint anyone could call."""
    process, _ = _serve(tmp_path, "--secret", SECRET)
    _, err = process.communicate(timeout=20)
    assert process.returncode == 2 and "unrecognized arguments: --secret" in err
    process, _ = _serve(tmp_path)
    _, err = process.communicate(timeout=20)
    assert process.returncode == 2 and "PARLOUR_CALLBACK_SECRET" in err


def test_serve_register_sets_the_callback_and_keeps_the_secret_to_itself(
    tmp_path: Path,
) -> None:
    """``--register URL`` PUTs the callback with the player's token and serves with the
    secret the server answered; that secret is printed nowhere."""
    fresh = "cbs_fresh_from_the_server"
    with CannedServer() as parlour:
        parlour.answer(Answer(200, {"url": "https://bot.example/turn", "secret": fresh}))
        process, port = _serve(
            tmp_path,
            "--register", "https://bot.example/turn",
            "--server", parlour.url,
            PARLOUR_TOKEN="t0k3n",
        )  # fmt: skip
        try:
            said = _wait_serving(process)
            body = call_body()
            answer = post(f"http://127.0.0.1:{port}/", body, signed(body, secret=fresh))
            assert answer.status_code == 200
        finally:
            _stop(process)
        out, err = process.communicate(timeout=10)
    (put,) = parlour.seen
    assert (put.method, put.path, put.body) == (
        "PUT",
        "/v1/me/callback",
        {"url": "https://bot.example/turn"},
    )
    assert put.headers["authorization"] == "Bearer t0k3n"
    assert fresh not in said + out + err


# -- parlour-bot callback ----------------------------------------------------------------


def test_parlour_bot_callback_sets_shows_rotates_and_removes(capsys, monkeypatch) -> None:
    """``set`` and ``rotate`` print the new secret alone on stdout (to pipe into a file or
    a platform's settings), once; a refusal is a message and exit 1."""
    monkeypatch.setenv("PARLOUR_TOKEN", "t0k3n")
    url = "https://bot.example/turn"
    with CannedServer() as parlour:
        parlour.answer(
            Answer(200, {"url": url, "secret": "cbs_first"}),
            Answer(200, {"url": url, "secret_hint": "irst", "since": "2026-01-01T00:00:00Z"}),
            Answer(200, {"url": url, "secret": "cbs_second"}),
            Answer(204, raw=b""),
            error(400, "invalid_request"),
        )
        server = ["--server", parlour.url]
        outs = []
        for argv in (["set", url], ["show"], ["rotate"], ["remove"], ["set", "http://10.0.0.1/"]):
            status = main(["callback", *argv, *server])
            outs.append((status, capsys.readouterr().out.strip()))
    assert outs == [
        (0, "cbs_first"),
        (0, f"{url} (secret ...irst, since 2026-01-01T00:00:00Z)"),
        (0, "cbs_second"),
        (0, ""),
        (1, ""),
    ]
    assert [(s.method, s.path, s.body) for s in parlour.seen] == [
        ("PUT", "/v1/me/callback", {"url": url}),
        ("GET", "/v1/me/callback", None),
        ("POST", "/v1/me/callback/secret", None),
        ("DELETE", "/v1/me/callback", None),
        ("PUT", "/v1/me/callback", {"url": "http://10.0.0.1/"}),
    ]
    assert all(s.headers["authorization"] == "Bearer t0k3n" for s in parlour.seen)

"""The dispatcher speaks TLS to the URL's host, not to the address it connects to: the
certificate is verified for the name in the URL (SNI too), although the connection goes
to the address the guard checked. A certificate for another name, or one nobody vouches
for, gets no call through (a failure: ``unreachable``)."""

from __future__ import annotations

import subprocess

import pytest

from server.processes.dispatch import Dispatcher
from server.services.bundle import Services
from server.store import callbacks as callback_store
from tests.callbacks.support import Bot, clocked_game, dispatching, serving, wait_for
from tests.conftest import ADMIN_TOKEN

NAME = "bot.tls.test"


@pytest.fixture
def svc(redis_client) -> Services:
    return Services(redis_client, admin_token=ADMIN_TOKEN)


@pytest.fixture(scope="module")
def cert(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    """A self-signed certificate for :data:`NAME` (the openssl command line)."""
    folder = tmp_path_factory.mktemp("tls")
    crt, key = folder / "bot.crt", folder / "bot.key"
    subprocess.run(
        [
            "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
            "-keyout", str(key), "-out", str(crt), "-subj", f"/CN={NAME}",
            "-addext", f"subjectAltName=DNS:{NAME}",
        ],
        check=True,
        capture_output=True,
    )  # fmt: skip
    return str(crt), str(key)


def _play(svc: Services, players, bot: Bot, host: str, ca: str | None) -> dict:
    a, b = players.many(2, "cb")
    secret = "cbs_tls"
    callback_store.put(svc.core.r, a.id, f"https://{host}:{bot.port}/bot", secret, 1.0)
    bot.secrets[a.id] = secret
    clocked_game(svc, [a.id, b.id], move_seconds=5)
    dispatcher = Dispatcher(
        svc.dispatch,
        consumer="d1",
        timeout=2,
        allow="127.0.0.0/8",
        resolve=lambda h, p: ["127.0.0.1"],
        ca_bundle=ca,
    )
    with dispatching(dispatcher):
        wait_for(
            lambda: (h := svc.callbacks.health([a.id])[a.id])["moves"] or h["errors"] >= 2,
            5,
            "a move or two failures",
        )
    return svc.callbacks.health([a.id])[a.id]


def test_a_certificate_for_the_urls_name_is_verified_and_used(svc, players, cert):
    with serving(Bot(), tls=cert) as bot:
        health = _play(svc, players, bot, NAME, ca=cert[0])
    assert health["moves"] >= 1 and health["errors"] == 0
    assert bot.calls and bot.calls[0]["host"] == f"{NAME}:{bot.port}"


@pytest.mark.parametrize(("host", "trusted"), [("other.tls.test", True), (NAME, False)])
def test_a_certificate_for_another_name_or_unvouched_gets_no_call(
    svc, players, cert, host, trusted
):
    with serving(Bot(), tls=cert) as bot:
        health = _play(svc, players, bot, host, ca=cert[0] if trusted else None)
    assert bot.calls == []
    assert health["moves"] == 0 and {f["kind"] for f in health["last_failures"]} == {"unreachable"}

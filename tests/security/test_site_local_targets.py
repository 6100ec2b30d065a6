"""The deprecated site-local ``fec0::/10`` is an internal range.

Python 3.11's ``is_global`` calls it global; the guard refuses it for webhooks and
callbacks alike, at registration and when a name resolves to it at call time (at a
webhook's delivery: tests/security/test_webhook_ipv6_forms.py, with the other IPv6 forms).
"""

from __future__ import annotations

from typing import Any

import pytest

from server.processes.dispatch import Dispatcher
from server.services.bundle import Services
from server.services.targets import refused
from server.store import callbacks as callback_store
from server.store import webhooks as webhook_store
from tests.api.helpers import assert_error
from tests.callbacks.support import clocked_game, dispatching, wait_for
from tests.conftest import ADMIN_TOKEN
from tests.embed.conftest import make_app

SITE_LOCAL = ["fec0::1", "fed0::a9fe:a9fe", "feff::1", "fef0:0:0:1::7"]


@pytest.fixture
def app_config(app_config: dict[str, Any]) -> dict[str, Any]:
    return app_config | {"WEBHOOK_ALLOW": ""}


@pytest.mark.parametrize("address", SITE_LOCAL)
def test_the_guard_refuses_site_local(address):
    assert refused(address)


def test_the_neighbours_of_site_local_are_judged_as_before():
    assert refused("fe80::1")  # link-local, below
    assert refused("ff02::1")  # multicast, above
    assert not refused("2606:4700::1111")


@pytest.mark.parametrize("address", SITE_LOCAL)
def test_a_site_local_callback_or_webhook_is_refused_at_registration(
    api, client, players, redis_client, address
):
    me = players.register("cb")
    url = f"http://[{address}]:8080/bot"
    reply = client.put("/v1/me/callback", json={"url": url}, headers=me.headers)
    assert reply.status_code == 400 and reply.get_json()["error"]["code"] == "invalid_request"
    assert callback_store.get(redis_client, me.id) is None
    app = make_app(api)
    assert_error(
        api.post(f"/v1/apps/{app.id}/webhooks", {"url": url}, app.token), 400, "invalid_request"
    )
    assert webhook_store.of_app(redis_client, app.id) == []


def test_a_name_resolving_to_site_local_is_refused_at_call_time(redis_client, players):
    svc = Services(redis_client, admin_token=ADMIN_TOKEN)
    a, b = players.many(2, "cb")
    callback_store.put(redis_client, a.id, "http://bot.rebind.test:8080/bot", "cbs_t", 1.0)
    clocked_game(svc, [a.id, b.id], move_seconds=5)
    dispatcher = Dispatcher(
        svc.dispatch, consumer="d1", timeout=1, allow="", resolve=lambda h, p: ["fec0::1"]
    )
    with dispatching(dispatcher):
        wait_for(lambda: svc.callbacks.health([a.id])[a.id]["errors"] >= 2, 4, "two refusals")
    health = svc.callbacks.health([a.id])[a.id]
    assert health["calls"] == 0
    assert {f["kind"] for f in health["last_failures"]} == {"refused_address"}

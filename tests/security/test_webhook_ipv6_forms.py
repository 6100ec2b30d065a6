"""Webhooks refuse IPv6 forms of internal IPv4 addresses.

Python's ``is_global`` calls NAT64, IPv4-compatible, 6to4 and SIIT addresses
global whatever IPv4 address they carry; behind NAT64/DNS64 or a 6to4 relay
they reach loopback, private hosts and the cloud metadata service. The guard
(:func:`server.services.targets.refused`) judges the IPv4 address each carries.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from server.processes.webhooks import Deliverer
from server.services.notifications import Deliveries
from server.services.targets import allowlist, check_target, refused
from server.store import webhooks as webhook_store
from tests.api.helpers import assert_error
from tests.embed.conftest import app_game, make_app

# (address, refused?, why)
TABLE = [
    ("64:ff9b::a9fe:a9fe", True, "NAT64 well-known prefix: 169.254.169.254, metadata"),
    ("64:ff9b::7f00:1", True, "NAT64: loopback"),
    ("64:ff9b::a00:7", True, "NAT64: 10.0.0.7"),
    ("64:ff9b:1::a9fe:a9fe", True, "NAT64 local-use prefix: refused whole"),
    ("64:ff9b:1:a9fe:a9:fe00::", True, "NAT64 local-use /48 layout"),
    ("::7f00:1", True, "IPv4-compatible: loopback"),
    ("::a9fe:a9fe", True, "IPv4-compatible: metadata"),
    ("2002:7f00:1::", True, "6to4: loopback"),
    ("2002:a9fe:a9fe::1", True, "6to4: metadata"),
    ("2002:c0a8:101::1", True, "6to4: 192.168.1.1"),
    ("::ffff:0:7f00:1", True, "SIIT (IPv4-translated): loopback"),
    ("::ffff:0:a00:1", True, "SIIT: 10.0.0.1"),
    ("::ffff:127.0.0.1", True, "IPv4-mapped: loopback"),
    ("::ffff:169.254.169.254", True, "IPv4-mapped: metadata"),
    ("2001:0:4136:e378:8000:63bf:80ff:fffe", True, "Teredo: client 127.0.0.1 (obfuscated)"),
    ("2001:0:a9fe:a9fe::1", True, "Teredo: server 169.254.169.254"),
    ("::1", True, "loopback"),
    ("::", True, "unspecified"),
    ("fc00::1", True, "unique local"),
    ("fe80::1", True, "link-local"),
    ("2001:db8::1", True, "documentation"),
    ("ff0e::1", True, "multicast"),
    ("64:ff9b::5db8:d822", False, "NAT64 of a public IPv4 address"),
    ("2002:5db8:d822::1", False, "6to4 of a public IPv4 address"),
    ("::ffff:93.184.216.34", False, "IPv4-mapped public address"),
    ("2606:4700::1111", False, "plain global IPv6"),
    ("93.184.216.34", False, "plain global IPv4"),
    ("127.0.0.1", True, "loopback IPv4"),
]


@pytest.mark.parametrize(("address", "is_refused", "why"), TABLE, ids=[a for a, _, _ in TABLE])
def test_the_guard_judges_each_form_by_the_ipv4_it_carries(address, is_refused, why):
    assert refused(address) is is_refused, why


def test_teredo_client_is_deobfuscated():
    import ipaddress

    from server.services.targets import embedded_ipv4

    got = embedded_ipv4(ipaddress.ip_address("2001:0:4136:e378:8000:63bf:80ff:fffe"))
    assert [str(a) for a in got] == ["65.54.227.120", "127.0.0.1"]


def test_the_allowlist_still_admits_what_the_operator_names():
    allow = allowlist("64:ff9b::/96, 127.0.0.0/8")
    assert not refused("64:ff9b::a9fe:a9fe", allow)
    assert not refused("::ffff:127.0.0.1", allow)  # mapped: the same address on the wire
    assert refused("2002:7f00:1::", allow)  # a 6to4 relay is not 127.0.0.0/8
    assert refused("::7f00:1", allowlist("127.0.0.0/8"))


@pytest.fixture
def app_config(app_config: dict[str, Any]) -> dict[str, Any]:
    return app_config | {"WEBHOOK_ALLOW": ""}


REFUSED_URLS = [f"http://[{a}]:8080/hook" for a, bad, _ in TABLE if bad and ":" in a]


@pytest.mark.parametrize("url", REFUSED_URLS)
def test_registration_refuses_the_ipv6_form_and_stores_nothing(api, redis_client, url):
    app = make_app(api)
    before = api.get(f"/v1/apps/{app.id}", app.token).body
    reply = api.post(f"/v1/apps/{app.id}/webhooks", {"url": url}, app.token)
    assert_error(reply, 400, "invalid_request")
    assert webhook_store.of_app(redis_client, app.id) == []
    assert api.get(f"/v1/apps/{app.id}", app.token).body == before


@pytest.mark.parametrize(
    "addresses",
    [["64:ff9b::a9fe:a9fe"], ["2002:7f00:1::"], ["::7f00:1"], ["fed0::a9fe:a9fe"]],  # site-local
)
def test_delivery_refuses_a_name_resolving_to_an_ipv6_form(api, redis_client, addresses):
    app = make_app(api)
    webhook_store.add(
        redis_client,
        app.id,
        {
            "id": "whtest",
            "url": "http://hooks.rebind.test:8080/hook",
            "events": ["game_start"],
            "secret": "whsec_t",
            "created": 1.0,
        },
    )
    app_game(api, app, [None, None, None, None])
    d = Deliverer(
        Deliveries(redis_client),
        backoff=0.01,
        max_attempts=2,
        timeout=2,
        rng=random.Random(1),
        allow="",
        resolve=lambda host, port: list(addresses),
    )
    for _ in range(5):
        d.tick(now=1e12)
    d.close()
    shown = api.get(f"/v1/apps/{app.id}", app.token).body["deliveries"]
    assert [x["status"] for x in shown] == ["refused"]


def test_check_target_is_one_function_for_literals_and_names():
    with pytest.raises(Exception, match="refused"):
        check_target("http://[64:ff9b::a9fe:a9fe]/", ())
    with pytest.raises(Exception, match="refused"):
        check_target("http://meta.test/", (), lambda h, p: ["93.184.216.34", "::7f00:1"])
    assert check_target("http://pub.test/", (), lambda h, p: ["93.184.216.34"]) == ["93.184.216.34"]

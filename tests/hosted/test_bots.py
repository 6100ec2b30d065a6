"""Player bots over HTTP (``/v1/me/bots``): the three kinds, versions, bad uploads, the
refusal where no host can sandbox, and the owner's consent for entries."""

from __future__ import annotations

import base64
import time

import pytest

from server.processes.sandboxd import SandboxWorker
from server.sandbox import Capability
from server.services.bot_uploads import MAX_UPLOAD
from server.services.bundle import Services
from server.services.player_bots import IDENTITIES
from server.store import connect
from tests.api.helpers import Api, assert_error
from tests.conftest import ADMIN_TOKEN

from .support import sh_bot, tar_upload

PY_BOT = (
    "from client_sdk import Bot\n\n\nclass B(Bot):\n"
    "    def choose_move(self, view):\n        return view['legal_moves'][0]\n"
)


def _file(name: str, data: bytes) -> dict:
    return {"filename": name, "content_base64": base64.b64encode(data).decode()}


def _hosted(api: Api, who, bundle: dict | None = None) -> dict:
    body = {"name": "mine", "kind": "hosted", "bundle": bundle or _file("main.py", PY_BOT.encode())}
    reply = api.post("/v1/me/bots", body, who)
    assert reply.status == 201, reply.body
    return reply.body


def test_no_hosted_bot_where_no_worker_can_sandbox(api: Api, players, redis_server):
    owner = players.register("owner")
    body = {"name": "b", "kind": "hosted", "bundle": _file("main.py", PY_BOT.encode())}
    got = assert_error(api.post("/v1/me/bots", body, owner), 503, "sandbox_unavailable")
    assert got == {"reasons": []}  # no worker at all
    # a worker on a host that cannot sandbox: it runs nothing and says why
    why = "bubblewrap (bwrap) is not installed"
    worker = SandboxWorker(
        Services(connect(redis_server.url), admin_token=None).hosted,
        capability=Capability(False, why),
    )
    try:
        assert worker.tick(block=0) == 0
        got = assert_error(api.post("/v1/me/bots", body, owner), 503, "sandbox_unavailable")
        assert got == {"reasons": [why]}
    finally:
        worker.close()
    assert api.get("/v1/me/bots", owner).body == {"bots": []}  # nothing half-made


@pytest.mark.parametrize(
    "bundle, problem",
    [
        (_file("bot.exe", b"MZ"), "a .py file"),
        (_file("bot.zip", b"not a zip"), "cannot be read"),
        (tar_upload({}, manifest={"language": "cobol"}), "language"),
        (tar_upload({"x.py": ""}, manifest={"language": "python", "entry": "main.py"}), "entry"),
        (tar_upload({"../up": "x"}), "outside"),
        (_file("main.py", b"#" * (MAX_UPLOAD + 1)), "at most"),
    ],
)
def test_a_bad_bundle_is_refused_and_nothing_made(api, players, heartbeat, bundle, problem):
    owner = players.register("owner")
    reply = api.post("/v1/me/bots", {"name": "b", "kind": "hosted", "bundle": bundle}, owner)
    got = assert_error(reply, 400, "invalid_request")
    assert problem in " ".join(got["bundle"])
    assert api.get("/v1/me/bots", owner).body == {"bots": []}


def test_versions_kinds_and_owners(api: Api, players, heartbeat):
    owner, other = players.register("owner"), players.register("other")
    bot = _hosted(api, owner)
    assert bot["kind"] == "hosted" and bot["version"] == 1 and len(bot["identities"]) == IDENTITIES
    assert "tokens" not in bot and "secret" not in bot  # nobody plays a hosted bot's seats but it
    again = api.post(f"/v1/me/bots/{bot['id']}/versions", sh_bot(), owner)
    assert again.status == 201 and again.body["version"] == 2
    first, second = again.body["versions"]
    assert (first["version"], second["version"]) == (1, 2) and first["sha256"] != second["sha256"]
    # another player sees nothing of it, and cannot upload to it or enter it
    assert_error(api.get(f"/v1/me/bots/{bot['id']}", other), 404, "not_found")
    assert_error(api.post(f"/v1/me/bots/{bot['id']}/versions", sh_bot(), other), 404, "not_found")
    # a connected bot's identities get tokens, shown once; each plays as itself
    connected = api.post("/v1/me/bots", {"name": "runner", "kind": "connected"}, owner).body
    token = connected["tokens"][0]
    me = api.get("/v1/players/me", token["token"]).body
    assert me["id"] == token["player_id"] == connected["identities"][0]
    assert "tokens" not in api.get(f"/v1/me/bots/{connected['id']}", owner).body
    # a callback bot's URL passes the callbacks' guard
    refused = api.post(
        "/v1/me/bots", {"name": "cb", "kind": "callback", "url": "http://127.0.0.1:9/x"}, owner
    )
    assert_error(refused, 400, "invalid_request")
    assert [b["id"] for b in api.get("/v1/me/bots", owner).body["bots"]] == sorted(
        [bot["id"], connected["id"]]
    )


def test_only_the_owner_enters_its_bot_and_nobody_else_is_seated(api: Api, players, heartbeat):
    owner, creator = players.register("owner"), players.register("creator")
    bot = _hosted(api, owner, sh_bot())
    made = api.post(
        "/v1/tournaments",
        {"game": "concerto", "format": "round_robin", "options": {"deals": 1}},
        creator,
    )
    tid = made.body["id"]
    # the creator may enter anyone, but another's bot only by its owner's consent
    held = api.post(f"/v1/tournaments/{tid}/entries", {"players": bot["identities"][:2]}, creator)
    assert held.status == 201 and held.body["pending"] == bot["identities"][:2]
    other = players.register("other")
    body = {"tournament_id": tid, "seats": 2}
    assert_error(api.post(f"/v1/me/bots/{bot['id']}/tournaments", body, other), 404, "not_found")
    mine = _hosted(api, other, sh_bot())
    entered = api.post(f"/v1/me/bots/{mine['id']}/tournaments", body, other)
    assert entered.status == 201 and entered.body["pending"] == []
    assert [p["id"] for p in entered.body["players"]] == mine["identities"][:2]
    time.sleep(0)  # the entry stands: one entry, both seats of the side


def test_a_bot_is_one_pair_on_a_ladder_of_fixed_pairs(api: Api, players, redis_server):
    services = Services(connect(redis_server.url), admin_token=ADMIN_TOKEN)
    services.hosted.heartbeat("a host", True, "", 0)  # bots may be made; none plays here
    ladder = services.ladders.create(
        ADMIN_TOKEN, game="concerto", options={"deals": 1}, sides="fixed"
    )["id"]
    owner, other = players.register("owner"), players.register("other")
    bot = _hosted(api, owner, sh_bot())
    first, second = bot["identities"][:2]
    assert_error(
        api.post(f"/v1/me/bots/{bot['id']}/ladders", {"ladder_id": ladder}, other), 404, "not_found"
    )
    # nobody but the owner may join a bot's identity, not even naming it as a partner
    refused = api.post(f"/v1/ladders/{ladder}/entries", {"player_id": first}, other)
    assert_error(refused, 403, "forbidden")
    entered = api.post(f"/v1/me/bots/{bot['id']}/ladders", {"ladder_id": ladder}, owner)
    assert entered.status == 200, entered.body
    assert entered.body["player_id"] == first and entered.body["partner"] == second
    assert entered.body["status"] != "held"  # the pair is whole: one entry, one side
    shown = {e["player_id"]: e["partner"] for e in services.ladders.show(ladder)["entries"]}
    assert shown == {first: second, second: first}


def test_an_upload_past_the_routes_body_limit_is_413(api: Api, players, redis_server):
    owner = players.register("owner")
    huge = _file("main.py", b"#" * (2 * 1024 * 1024))  # 2.7 MiB of base64: past 2 MiB
    reply = api.post("/v1/me/bots", {"name": "b", "kind": "hosted", "bundle": huge}, owner)
    assert_error(reply, 413, "invalid_request")
    # the routes that take no code keep the server's limit (64 KiB)
    big = api.post("/v1/me/bots/nope/ladders", {"ladder_id": "l" * 70_000}, owner)
    assert_error(big, 413, "invalid_request")

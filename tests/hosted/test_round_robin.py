"""Six hosted Concerto bots, six uploads, six entries: a club round robin played to the
end through a real server, every seat in a sandbox of its own; the partners of one bot
cannot reach each other; each seat got its own view only; the logs are the owner's."""

from __future__ import annotations

import threading
import time

from server.processes.scheduler import Runner
from server.services.bundle import Services
from server.store import connect
from tests.api.helpers import Api, assert_error

from .support import FIRST_LEGAL_SH, sh_bot

PROBE_SH = r"""
: > "/tmp/seat-$$"
hand=first
while IFS= read -r line; do
  case "$line" in *'"type":"turn"'*) ;; *) continue ;; esac
  seats=$(ls /tmp | grep -c '^seat-')
  procs=$(ls -d /proc/[0-9]* | wc -l)
  printf 'probe seats=%s procs=%s\n' "$seats" "$procs" >&2
  if [ "$hand" = first ]; then
    hand=$(printf '%s\n' "$line" | sed -n 's/.*"hand":\[\([^]]*\)\].*/\1/p' | tr -d '"')
    printf 'hand=%s\n' "$hand" >&2
  fi
  move=$(printf '%s\n' "$line" | sed -n 's/.*"legal_moves":\[\({[^{}]*}\).*/\1/p')
  printf '{"move":%s}\n' "$move"
done
"""
"""The first legal move, and what a seat can see of any other: the seat marks a file in
its /tmp (a partner's would show), counts the processes it can see (a partner's would
count), and logs the hand its first turn showed it."""


def test_a_club_round_robin_of_six_hosted_bots(live_api: Api, live_players, worker, redis_server):
    owners = live_players.many(6, "owner")
    club = live_api.post(
        "/v1/tournaments",
        {"game": "concerto", "format": "round_robin", "options": {"deals": 1},
         "clock": {"move_seconds": 20}, "seats_per_entry": 2},
        owners[0],
    )  # fmt: skip
    assert club.status == 201, club.body
    tid = club.body["id"]
    bots = []
    for i, owner in enumerate(owners):
        script = PROBE_SH if i == 0 else FIRST_LEGAL_SH
        body = {"name": f"hosted {i}", "kind": "hosted", "bundle": sh_bot(script)}
        made = live_api.post("/v1/me/bots", body, owner)
        assert made.status == 201, made.body
        bots.append(made.body)
        entry = live_api.post(
            f"/v1/me/bots/{made.body['id']}/tournaments", {"tournament_id": tid, "seats": 2}, owner
        )
        assert entry.status == 201 and entry.body["pending"] == [], entry.body
    started = live_api.post(f"/v1/tournaments/{tid}/start", {}, owners[0])
    assert started.status == 200, started.body
    assert started.body["progress"]["games_planned"] == 15  # six entries: 6 * 5 / 2 matches

    runner = Runner(Services(connect(redis_server.url), admin_token=None), interval=0.05)
    stop = threading.Event()
    thread = threading.Thread(target=runner.run, args=(stop,), daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 240
        while (page := live_api.get(f"/v1/tournaments/{tid}")).body["status"] != "finished":
            assert time.monotonic() < deadline, page.body["progress"]
            time.sleep(0.2)
    finally:
        stop.set()
        thread.join(10)
    assert page.body["progress"]["games_finished"] == 15
    games = [t["game_id"] for rd in page.body["rounds"] for t in rd["tables"]]
    assert len(games) == 15

    # every seat of every game was played by a hosted bot, each seat in its own sandbox,
    # with the version it was given; each bot's identities were rated, five games each
    board = live_api.get("/v1/ratings/concerto").body["leaderboard"]
    ids = {pid for b in bots for pid in b["identities"][:2]}
    assert {row["player_id"] for row in board} == ids
    assert all(row["games"] == 5 for row in board)

    prober, owner = bots[0], owners[0]
    (v1,) = live_api.get(f"/v1/me/bots/{prober['id']}", owner).body["versions"]
    assert v1["seats_played"] == 10  # five games, both seats of its side
    logs = {g: live_api.get(f"/v1/me/bots/{prober['id']}/games/{g}", owner) for g in games}
    played = [g for g, got in logs.items() if got.status == 200]
    assert len(played) == 5  # the others are not found: it played no seat there
    assert all(logs[g].body["error"]["code"] == "not_found" for g in games if g not in played)
    someone = owners[1]  # the logs are the owner's only
    assert_error(
        live_api.get(f"/v1/me/bots/{prober['id']}/games/{played[0]}", someone), 404, "not_found"
    )
    for game_id in played:
        seats = logs[game_id].body["seats"]
        hands: dict[int, set[str]] = {}
        assert len(seats) == 2 and {s["version"] for s in seats} == {1}
        assert all(s["failures"] == {} for s in seats), seats
        for seat in seats:
            lines = seat["stderr"].splitlines()
            probes = [ln for ln in lines if ln.startswith("probe ")]
            assert probes and all(p.startswith("probe seats=1 ") for p in probes), probes
            assert all(int(p.split()[2][6:]) <= 6 for p in probes), probes  # its own only
            (hand,) = [ln for ln in lines if ln.startswith("hand=")]  # its first turn's
            hands[seat["seat"]] = set(hand[5:].split(","))
        # the two partners' first hands seen: each its own thirteen, none of the other's
        first, second = hands.values()
        assert len(first) == len(second) == 13 and not first & second, hands

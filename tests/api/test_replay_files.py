"""A replay file's frames (``POST /v1/replays/frames``): the game a client holds, played
again by the engine from the file alone, frame by frame as a finished game's frames.

A local match (the SDK's, as ``parlour-bot play`` plays it) gives a replay and the moves
it was made of: each frame's move must be the move made at that version, each seat's
view at version 0 must hold the hand its ``hand`` event dealt it, a spectator never
sees a hand, and the last frame is the finished game with the replay's result. A
replay no moves explain, a page past the end and too long a page are 400s; a whole
default game (larger than the app's 64 KiB body limit) is read.
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from client_sdk import Bot
from client_sdk.local import play_match
from server.api.schemas import MAX_FRAMES
from server.games import REGISTRY

PATH = "/v1/replays/frames"


class Drawn(Bot):
    name = "drawn"

    def choose_move(self, view: dict[str, Any]) -> dict[str, Any]:
        return self.rng.choice(view["legal_moves"])


@pytest.fixture(scope="module")
def played() -> Any:
    game = next(iter(REGISTRY))  # any game: the frames are the engine's, whichever
    n = REGISTRY[game].seats[0]
    return play_match(game, [Drawn(random.Random(s)) for s in range(n)], seed="file-frames")


def test_a_files_frames_are_its_game_step_by_step(api, played) -> None:
    replay = played.replay
    last = replay["version"]
    dealt = {
        e["data"]["seat"]: e["data"]["cards"]
        for e in replay["events"]
        if e["kind"] == "hand" and e["version"] == 0
    }
    seen = []
    first = 0
    while first <= last:
        reply = api.post(PATH, {"replay": replay, "first": first, "count": MAX_FRAMES})
        assert reply.status == 200, reply.body
        assert reply.body["last_version"] == last
        seen += reply.body["frames"]
        first += MAX_FRAMES
    assert [f["version"] for f in seen] == list(range(last + 1))
    assert seen[0]["move"] is None
    assert [f["move"] for f in seen[1:]] == [
        {"seat": m["seat"], "move": m["move"]} for m in played.moves
    ]
    for seat, cards in dealt.items():
        assert sorted(seen[0]["views"][seat]["hand"]) == sorted(cards)
    assert all(f["public"].get("hand") in (None, []) for f in seen)
    assert seen[-1]["public"]["status"] == "finished"
    assert seen[-1]["public"]["result"] == replay["result"]
    assert all(f["public"]["status"] == "active" for f in seen[:-1])


def test_a_replay_no_moves_explain_is_refused(api, played) -> None:
    edited = copy.deepcopy(played.replay)
    plays = [e for e in edited["events"] if e["version"] > 0 and "card" in e["data"]]
    plays[0]["data"]["card"], plays[1]["data"]["card"] = (
        plays[1]["data"]["card"],
        plays[0]["data"]["card"],
    )
    reply = api.post(PATH, {"replay": edited})
    assert reply.status == 400 and reply.body["error"]["code"] == "invalid_request", reply.body
    unfinished = played.replay | {"status": "active", "revealed": None}
    assert api.post(PATH, {"replay": unfinished}).status == 400
    past = api.post(PATH, {"replay": played.replay, "first": played.replay["version"] + 1})
    assert past.status == 400
    too_many = api.post(PATH, {"replay": played.replay, "count": MAX_FRAMES + 1})
    assert too_many.status == 400
    assert api.post(PATH, {"replay": {"game": "no such game"}}).status == 400


def test_a_body_past_the_apps_limit_is_read_up_to_a_mebibyte(api, played) -> None:
    padded = played.replay | {"note": "x" * (64 * 1024)}  # past PARLOUR_MAX_BODY's default
    assert len(json.dumps(padded)) > 64 * 1024
    assert api.post(PATH, {"replay": padded, "count": 1}).status == 200
    reply = api.post(PATH, {"replay": {"pad": "x" * (1024 * 1024)}})
    assert reply.status == 413, reply.status

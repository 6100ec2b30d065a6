"""Hidden information over HTTP: no response shows a seat a card it may not see.

Across random one-deal games played over a real socket, after every move and
for every seat (and a spectator), the view, the new events, ``/me/turns``, the
replay and error replies are scanned for card strings, and so is every turn a
player's turn stream pushed (rendered at commit, against the seat's hidden
cards at that turn's version). The cards a seat may not
see are exactly the other seats' unplayed cards (completed hands are public and
a one-deal game reveals its left-overs only when it ends), read from the true
state in Redis. After the end, the replay shows everything and the revealed
seed matches the published commitment.
"""

from __future__ import annotations

import hashlib
import json
import random
import threading
import time

import requests

from server.games import REGISTRY
from server.store import games as game_store
from tests.api.helpers import assert_error, cards_in
from tests.embed.sse import SseReader

GAMES = 10
CONCERTO = REGISTRY["concerto"]


def _true_hands(redis_client, gid):
    state = CONCERTO.from_dict(game_store.read(redis_client, gid).game.state)
    return state, [state.view(s)["hand"] for s in range(4)]


def test_no_response_shows_hidden_cards(live_api, live_players, redis_client):
    four = live_players.many(4)
    rng = random.Random(20240601)
    for _ in range(GAMES):
        options = {
            "deals": 1,
            "rules": rng.choice(["parlett-2013", "penguin"]),
            "first_dealer": rng.randrange(4),
        }
        created = live_api.create("admin", [p.id for p in four], options=options)
        gid, commitment = created["id"], created["deal_commitment"]
        last = [0, 0, 0, 0]
        moves = 0
        while True:
            truth, hands = _true_hands(redis_client, gid)
            over = truth.is_over()
            everyone = {c for h in hands for c in h}
            for seat, player in enumerate(four):
                hidden = set() if over else everyone - set(hands[seat])
                replies = [
                    live_api.get(f"/v1/games/{gid}", player),
                    live_api.get(f"/v1/games/{gid}/events", player, after=last[seat]),
                    live_api.get("/v1/me/turns", player),
                ]
                if not over and moves % 5 == 0:
                    replies.append(live_api.get(f"/v1/games/{gid}/replay", player))
                for reply in replies:
                    assert reply.status == 200, reply.body
                    assert not cards_in(reply.text) & hidden, (seat, reply.text)
                assert replies[0].body["hand"] == hands[seat]
                last[seat] = replies[1].body["last"]
            if not over:
                for reply in (
                    live_api.get(f"/v1/games/{gid}"),
                    live_api.get(f"/v1/games/{gid}/events"),
                    live_api.get(f"/v1/games/{gid}/replay"),
                ):
                    assert not cards_in(reply.text) & everyone, reply.text
            if over:
                break
            mover = truth.to_move()[0]
            if moves % 4 == 0:
                _probe_errors(live_api, gid, four, mover, hands, truth)
            view = live_api.view(gid, four[mover])
            reply = live_api.move(
                gid, four[mover], rng.choice(view["legal_moves"]), view["version"]
            )
            assert reply.status == 200, reply.body
            moves += 1
        _check_final_replay(live_api, gid, commitment, four)


def _probe_errors(api, gid, four, mover, hands, truth):
    """Refused moves that name another seat's card: the reply adds nothing to what was sent."""
    other = (mover + 1) % 4
    theirs = hands[other][0] if hands[other] else None
    if theirs is None:
        return
    hidden_from_mover = {c for s in range(4) if s != mover for c in hands[s]}
    illegal = api.move(gid, four[mover], {"type": "play", "card": theirs})
    details = assert_error(illegal, 422, "illegal_move")
    assert details["legal_moves"] == truth.legal_moves(mover)
    assert not (cards_in(illegal.text) - {theirs}) & hidden_from_mover, illegal.text
    # Not your turn, naming a card of the mover: nothing of the mover's hand comes back.
    hidden_from_other = {c for s in range(4) if s != other for c in hands[s]}
    theirs = hands[mover][0]
    wrong_turn = api.move(gid, four[other], {"type": "play", "card": theirs})
    assert_error(wrong_turn, 409, "not_your_turn")
    assert not (cards_in(wrong_turn.text) - {theirs}) & hidden_from_other, wrong_turn.text
    stale = api.move(gid, four[other], {"type": "pass"}, 10_000)
    assert_error(stale, 409, "stale_version")
    assert not cards_in(stale.text) & hidden_from_other


def _check_final_replay(api, gid, commitment, four):
    replay = api.get(f"/v1/games/{gid}/replay", four[0]).body
    assert replay["status"] == "finished"
    dealt = {e["data"]["seat"]: e["data"]["cards"] for e in replay["events"] if e["kind"] == "hand"}
    assert sorted(dealt) == [0, 1, 2, 3]
    assert sorted(c for h in dealt.values() for c in h) == sorted(
        r + s for r in "AKQJT98765432" for s in "SHDC"
    )
    seed = replay["revealed"]["seed"]
    assert hashlib.sha256(seed.encode()).hexdigest() == commitment
    played = {
        c["card"]
        for h in replay["events"]
        if h["kind"] == "hand_complete"
        for c in h["data"]["cards"]
    }
    leftovers = {c for h in replay["revealed"]["hands"] for c in h}
    assert played | leftovers == {c for h in dealt.values() for c in h}


def test_no_pushed_turn_shows_hidden_cards(live_api, live_server, live_players, redis_client):
    """The turn stream (turns rendered at commit, pushed later) over random games: every
    frame a player receives shows only what its seat could see at that turn's version."""
    four = live_players.many(4)
    rng = random.Random(20261124)
    for _ in range(3):
        options = {"deals": 1, "rules": rng.choice(["parlett-2013", "penguin"])}
        gid = live_api.create("admin", [p.id for p in four], options=options)["id"]
        readers = [_TurnFrames(live_server.url, p) for p in four]
        hidden_at: dict[int, list[set[str]]] = {}  # version -> per seat
        while True:
            truth, hands = _true_hands(redis_client, gid)
            version = game_store.read(redis_client, gid).game.version
            everyone = {c for h in hands for c in h}
            hidden_at[version] = [everyone - set(hands[s]) for s in range(4)]
            if truth.is_over():
                break
            mover = truth.to_move()[0]
            view = live_api.view(gid, four[mover])
            live_api.move(gid, four[mover], rng.choice(view["legal_moves"]), view["version"])
        time.sleep(0.3)  # the last pushes in flight
        for reader in readers:  # all at once: each ends at its next heartbeat (0.5 s)
            reader.stopping.set()
        frames = [reader.stop() for reader in readers]
        assert sum(len(f) for f in frames) >= len(hidden_at) - 2  # nearly every turn pushed
        for seat, got in enumerate(frames):
            for text in got:
                for turn in json.loads(text):
                    assert turn["game_id"] == gid and turn["seat"] == seat
                    assert not cards_in(text) & hidden_at[turn["version"]][seat], text


class _TurnFrames:
    """A player's turn stream, read on a thread; ``stop`` returns every ``turns`` frame."""

    def __init__(self, base_url: str, player) -> None:
        self.frames: list[str] = []
        self.stopping = threading.Event()
        self.response = requests.get(
            f"{base_url}/v1/me/turns/stream",
            params={"heartbeat": 0.5},  # a quiet stream beats often: the reader can stop
            headers=player.headers,
            stream=True,
            timeout=(5, 30),
        )
        assert self.response.status_code == 200
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        reader = SseReader(self.response)
        while not self.stopping.is_set():
            item = reader.next_item()
            if item is None:
                return
            if not isinstance(item, str) and item.event == "turns":
                self.frames.append(item.data)

    def stop(self) -> list[str]:
        self.stopping.set()
        self.thread.join(5)
        self.response.close()
        return self.frames

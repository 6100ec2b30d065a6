"""The archive (``GET /v1/archive``, ``parlour-bot archive``): finished replays in bulk.

A ladder's duplicate board is played over a real socket: while a table is played,
and while one table is over but its twin is not, the archive holds neither (a
board's cards stay secret until every table is over: docs/api.md#duplicate-boards),
not even for the admin. Once both are over it holds exactly the two, each line
``GET /v1/games/{id}/replay``; a page of one replay follows its ``Link`` to the
end, each game once; the CLI writes the same lines; one line played again
locally (:func:`client_sdk.local.replay_match`) ends with the same scores and
the same replay. A tournament's and a period's archives keep the same rule, and
bad parameters are 400s in the API's error format.
"""

from __future__ import annotations

import json
import random
import re
import time
from datetime import UTC, datetime
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import pytest

from client_sdk import cli
from client_sdk.local import replay_match
from server.store import games as game_store
from server.store import keys
from tests.api.helpers import Api, assert_error
from tests.security.support import play_out, start_board, start_ladder_board, step

NEXT = re.compile(r'^<(/v1/archive\?[^>]+)>; rel="next"$')


def _iso(epoch: float) -> str:
    return datetime.fromtimestamp(epoch, UTC).isoformat()


def _pages(api: Api, who: Any = None, **query: Any) -> list[list[dict[str, Any]]]:
    """Every page of the archive, following ``Link`` (at most 20 pages)."""
    reply = api.get("/v1/archive", who, **query)
    pages = []
    for _ in range(20):
        assert reply.status == 200, reply.text
        assert reply.headers["Content-Type"].startswith("application/x-ndjson")
        pages.append([json.loads(line) for line in reply.text.splitlines()])
        link = reply.headers.get("Link")
        if link is None:
            return pages
        found = NEXT.match(link)
        assert found, link
        following = urlsplit(found.group(1))
        reply = api.get(following.path, who, **dict(parse_qsl(following.query)))
    raise AssertionError("more than 20 pages")


def _ids(pages: list[list[dict[str, Any]]]) -> list[str]:
    return [r["id"] for page in pages for r in page]


def test_a_ladders_archive_holds_its_finished_games_and_replays_locally(
    api, live_server, app, players, redis_client, tmp_path, capsys
) -> None:
    since = _iso(time.time() - 1)
    people = players.many(8, prefix="arch")
    x, y = start_ladder_board(api, app, people)
    lid = game_store.read(redis_client, x).game.meta["tournament"]["ladder"]
    rng = random.Random(39)
    step(api, x, people, rng)  # both tables in play
    for who in (None, "admin"):
        assert _ids(_pages(api, who, ladder=lid)) == []
    play_out(api, x, people, rng)  # one table over, its twin still played
    for who in (None, "admin", people[0]):
        assert _ids(_pages(api, who, ladder=lid)) == []
        assert x not in _ids(_pages(api, who, since=since))

    play_out(api, y, people, rng)  # the board is over
    pages = _pages(api, ladder=lid)
    assert len(pages) == 1 and sorted(_ids(pages)) == sorted([x, y])
    for line in pages[0]:
        assert line == api.get(f"/v1/games/{line['id']}/replay").body
    one_by_one = _pages(api, ladder=lid, limit=1)
    assert [len(p) for p in one_by_one][:2] == [1, 1] and sorted(_ids(one_by_one)) == sorted([x, y])
    period = _ids(_pages(api, since=since, until=_iso(time.time() + 1), limit=1))
    assert len(period) == len(set(period)) and {x, y} <= set(period)

    # games that ended at the very same time page by id, each once (the index is a
    # hint the archive reads: put both at one far-away time, nothing else is there)
    redis_client.zadd(keys.lobby_finished_games(), {x: 1000.0, y: 1000.0})
    tied = _pages(api, since=_iso(1000.0), until=_iso(1001.0), limit=1)
    assert _ids(tied) == sorted([x, y]) and len(tied) >= 2

    out = tmp_path / "games.jsonl"
    argv = ["archive", "--ladder", lid, "--out", str(out), "--limit", "1"]
    assert cli.main([*argv, "--server", live_server.url]) == 0  # over a real socket
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert lines == [r for page in one_by_one for r in page]
    assert "page 2: 2 replays" in capsys.readouterr().err

    archived = lines[0]
    again = replay_match(archived)  # the same seed, options and moves, on this machine
    assert again.scores == archived["result"]["scores"]
    assert again.replay | {"seats": archived["seats"]} == archived


def test_a_tournaments_archive_waits_for_its_board(api, app, players, redis_client) -> None:
    people = players.many(8, prefix="tarch")
    x, y = start_board(api, app, people)
    tid = game_store.read(redis_client, x).game.meta["tournament"]["id"]
    rng = random.Random(7)
    play_out(api, x, people, rng)
    assert _ids(_pages(api, "admin", tournament=tid)) == []
    play_out(api, y, people, rng)
    assert sorted(_ids(_pages(api, tournament=tid, limit=1))) == sorted([x, y])


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ({}, "_schema"),
        ({"ladder": "a", "tournament": "b"}, "_schema"),
        ({"ladder": "a", "since": "2026-01-01T00:00:00Z"}, "_schema"),
        ({"until": "2026-01-01T00:00:00Z"}, "_schema"),
        ({"since": "2026-01-02T00:00:00Z", "until": "2026-01-01T00:00:00Z"}, "until"),
        ({"since": "2026-01-01T00:00:00"}, "since"),  # no offset: which time?
        ({"since": "yesterday"}, "since"),
        ({"since": "2026-01-01T00:00:00Z", "cursor": "nope"}, "cursor"),
        ({"ladder": "a", "limit": 0}, "limit"),
        ({"ladder": "a", "limit": 51}, "limit"),
    ],
)
def test_bad_parameters_are_refused_plainly(api, query, field) -> None:
    details = assert_error(api.get("/v1/archive", None, **query), 400, "invalid_request")
    assert field in details


def test_an_unknown_ladder_or_tournament_is_not_found(api) -> None:
    assert_error(api.get("/v1/archive", None, ladder="nope"), 404, "not_found")
    assert_error(api.get("/v1/archive", None, tournament="nope"), 404, "not_found")


def test_the_cli_refuses_a_selection_it_cannot_send(tmp_path, capsys) -> None:
    out = tmp_path / "games.jsonl"
    assert cli.main(["archive", "--ladder", "L", "--until", "2026-01-01T00:00:00Z",
                     "--out", str(out)]) == 2  # fmt: skip
    assert "--until goes with --since" in capsys.readouterr().err and not out.exists()
    with pytest.raises(SystemExit):  # argparse: exactly one of the three
        cli.main(["archive", "--ladder", "L", "--tournament", "T", "--out", str(out)])

"""The whole embedding, as deployed: ``parlour serve`` (gevent, bot pool, webhook deliverer),
the example app's backend on another port, and a person in Chromium playing a hand.

The page's origin (the example backend) differs from Parlour's (another port),
so every API call the page makes is a cross-origin one: CORS preflights, the
guest token in a header, and the event stream through ``EventSource``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest
import requests

from server.processes.served import Served, free_port

pytest.importorskip("playwright.sync_api", reason="the browser test needs playwright")
from playwright.sync_api import sync_playwright  # noqa: E402

from tests.web.conftest import CHROMIUM_FLAGS, chromium_path  # noqa: E402 - the same browser

ROOT = Path(__file__).resolve().parents[2]
BACKEND = ROOT / "bots" / "examples" / "embed" / "backend.py"


@dataclass
class Deployment:
    parlour: Served
    app_url: str
    headers: dict[str, str]


def wait_until(condition, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.1)


@pytest.fixture(scope="module")
def deployed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Deployment]:
    app_port = free_port()
    app_url = f"http://127.0.0.1:{app_port}"
    settings = {
        "PARLOUR_CORS_ORIGINS": app_url,
        "PARLOUR_WEBHOOK_BACKOFF": "0.1",
        "PARLOUR_WEBHOOK_ALLOW": "127.0.0.0/8",  # the backend's /webhook is local
        "PARLOUR_SSE_HEARTBEAT": "1",
        "PARLOUR_STREAMS_PER_PLAYER": "0",  # one seat's 30 streams: no cap here
    }
    saved = {k: os.environ.get(k) for k in settings}
    os.environ.update(settings)  # the served child inherits them
    try:
        # the bot pool plays the guest's table; its house ladders are no part of this
        # page, and their games would only take the one worker's time
        parlour = Served(
            tmp_path_factory.mktemp("served") / "data",
            free_port(),
            workers=1,
            options=("--no-ladders",),
        )
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key)
            else:
                os.environ[key] = value
    admin = {"Authorization": f"Bearer {parlour.admin_token}"}
    backend = None
    try:
        wait_until(
            lambda: any(
                b["name"] == "concerto_signals"
                for b in requests.get(parlour.url + "/v1/bots", timeout=5).json()["bots"]
            ),
            30,
            "the bot pool to register",
        )
        app = requests.post(
            parlour.url + "/v1/apps",
            json={"name": "example", "invite_url": app_url + "/"},
            headers=admin,
            timeout=5,
        ).json()
        env = os.environ | {"PARLOUR_APP_ID": app["id"], "PARLOUR_APP_TOKEN": app["token"]}
        backend = subprocess.Popen(
            [sys.executable, str(BACKEND), "--parlour", parlour.url, "--port", str(app_port)],
            env=env,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert backend.stdout.readline().startswith("example app on"), "backend did not start"
        yield Deployment(parlour, app_url, {"Authorization": f"Bearer {app['token']}"})
    finally:
        if backend is not None:
            backend.terminate()
            backend.wait(10)
            backend.stdout.close()
        assert parlour.stop() == 0


def test_open_streams_hold_no_gevent_worker(deployed: Deployment) -> None:
    """One gevent worker, 30 open event streams: other requests are still answered at once."""
    url = deployed.parlour.url
    body = {"game": "concerto", "seats": [None, None, None, None]}
    made = requests.post(
        f"{url}/v1/apps/{_app_id(deployed)}/games", json=body, headers=deployed.headers, timeout=5
    ).json()
    token = made["invitations"][0]["token"]
    streams = [
        requests.get(
            f"{url}/v1/games/{made['game']['id']}/stream",
            params={"token": token},
            stream=True,
            timeout=5,
        )
        for _ in range(30)
    ]
    try:
        assert all(s.status_code == 200 for s in streams)
        started = time.monotonic()
        for _ in range(5):
            assert requests.get(url + "/v1/rules", timeout=5).status_code == 200
        assert time.monotonic() - started < 2.0
    finally:
        for s in streams:
            s.close()


def _app_id(deployed: Deployment) -> str:
    return deployed.headers["Authorization"].split()[1].partition(".")[0]


def in_own_thread(task: Callable[[], None]) -> None:
    """Run ``task`` in a thread of its own and re-raise what it raised.

    Playwright's sync API runs an event loop per thread, and ``tests/web`` keeps
    one open in the main thread for the whole session: a second one there fails.
    """
    with ThreadPoolExecutor(1) as pool:
        pool.submit(task).result()


def test_a_person_plays_a_hand_on_the_example_page_from_another_origin(
    deployed: Deployment,
) -> None:
    assert deployed.app_url != deployed.parlour.url  # two origins (ports differ)
    path = chromium_path()
    if path is None:
        pytest.skip(
            "no Chromium installed: this test needs Debian's `chromium` "
            "(as root, `make test` installs it with apt-get)"
        )
    in_own_thread(lambda: play_a_hand(deployed, path))

    # The app's backend got Parlour's signed notifications and verified them.
    def received() -> list[dict]:
        return requests.get(deployed.app_url + "/api/webhooks", timeout=5).json()["received"]

    wait_until(
        lambda: {"game_start", "turn"} <= {r["event"] for r in received()}, 10, "the webhooks"
    )
    assert all(r["verified"] for r in received())


def play_a_hand(deployed: Deployment, chromium: str) -> None:
    """In Chromium: open the example page, start a game, play until a hand of ours is done."""
    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=chromium, headless=True, args=CHROMIUM_FLAGS
        )  # a fresh profile every launch
        try:
            play_with(browser, deployed)
        finally:
            browser.close()


def play_with(browser, deployed: Deployment) -> None:
    """Click legal moves as a person would; check what the page sent and received."""
    context = browser.new_context()
    context.set_default_timeout(15_000)
    page = context.new_page()
    errors: list[str] = []
    api_calls: list[tuple[str, str, int]] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on(
        "response",
        lambda r: (
            api_calls.append((r.request.method, r.url, r.status))
            if r.url.startswith(deployed.parlour.url)
            else None
        ),
    )
    try:
        page.goto(deployed.app_url + "/")
        page.wait_for_selector("body[data-ready=lobby]")
        page.click("#new-game")
        page.wait_for_selector("body[data-ready=table]")
        assert page.url.startswith(deployed.app_url + "/#game=")
        page.wait_for_selector("#live[data-state=live]")  # the EventSource is open

        moves = 0
        deadline = time.monotonic() + 60
        while not page.locator("#hands li[data-players*='0']").count():
            assert time.monotonic() < deadline, "no hand with the guest's cards was completed"
            page.wait_for_function(
                "document.body.dataset.myTurn === 'true' || "
                "document.body.dataset.status === 'finished'"
            )
            if page.evaluate("document.body.dataset.status") == "finished":
                break
            version = page.evaluate("document.body.dataset.version")
            choice = page.locator("#hand button:not([disabled]), #actions button:not([disabled])")
            choice.first.click()
            moves += 1
            page.wait_for_function(f"document.body.dataset.version !== '{version}'")
        assert moves >= 1
        done = page.locator("#hands li[data-players*='0']").first
        assert done.get_attribute("data-side") == "0,2"
    finally:
        context.close()
    assert not errors, errors
    # Every call went to Parlour's origin and succeeded: CORS let the page read them all
    # (the preflights of the authorised calls are the browser's, unseen here).
    assert all(status < 400 for _, _, status in api_calls), api_calls
    assert sum(1 for m, _, _ in api_calls if m == "POST") == moves
    # The page re-reads the view only when its stream brings an event (or at start), and
    # it waited for the bots' moves without polling: the stream carried them.
    views = [u for m, u, _ in api_calls if m == "GET" and "/stream" not in u]
    assert len(views) > 1
    assert any("/stream?" in u for m, u, _ in api_calls if m == "GET")

"""A finished game's replay in a real Chromium: every hand shown, step by step, or as one
seat saw it."""

from __future__ import annotations

import random

from tests.web.conftest import Seats, Web, play_random

ONE_DEAL = {"deals": 1, "first_dealer": 3}


def finished_game(seats: Seats) -> tuple[str, list, dict]:
    players = [seats.register(name) for name in ("nina", "eli", "sam", "wes")]
    game_id = seats.game("concerto", players, ONE_DEAL)["id"]
    view = play_random(seats, game_id, players, random.Random(21))
    assert view["status"] == "finished"
    return game_id, players, seats.call("get", f"/v1/games/{game_id}/replay")


def hand_cards(page, seat: int) -> list[str]:
    return page.eval_on_selector_all(
        f".seat[data-seat='{seat}'] .hand [data-card]", "els => els.map(e => e.dataset.card)"
    )


def test_step_through_a_finished_game_with_every_hand(web: Web, seats: Seats) -> None:
    game_id, _, replay = finished_game(seats)
    last = replay["version"]
    page = web.open(f"/replay/{game_id}")
    caption = page.locator(".step-caption")
    assert caption.inner_text() == f"Step 0 of {last} · As dealt"
    dealt = {e["data"]["seat"]: e["data"]["cards"] for e in replay["events"] if e["kind"] == "hand"}
    for seat in range(4):
        assert hand_cards(page, seat) == dealt[seat]  # all 52 cards face up, as dealt

    first = seats.call("get", f"/v1/games/{game_id}/replay/1")["move"]
    assert first["seat"] == 0 and first["move"]["type"] == "play"  # hand 1: North leads
    page.click("button[data-step=next]")
    page.wait_for_selector(".board[data-version='1']")
    code = first["move"]["card"]
    assert caption.inner_text().startswith(f"Step 1 of {last} · North: plays ")
    assert page.locator(f".center [data-card='{code}']").count() == 1
    assert code not in hand_cards(page, 0)
    assert page.locator(".log li.now").count() >= 1

    page.keyboard.press("ArrowRight")
    page.wait_for_selector(".board[data-version='2']")
    page.click("button[data-step=last]")
    page.wait_for_selector(f".board[data-version='{last}']")
    status = page.locator(".status").inner_text()
    ns, ew = replay["result"]["scores"][:2]  # Concerto: each seat has its side's score
    assert status.startswith("Game over. ")
    assert (
        f"North–South won, {ns} to {ew}." in status
        if ns > ew
        else f"East–West won, {ew} to {ns}." in status
        if ew > ns
        else f"A draw: North–South {ns}, East–West {ew}." in status
    )


def test_as_one_seat_saw_it(web: Web, seats: Seats) -> None:
    game_id, _, replay = finished_game(seats)
    page = web.open(f"/replay/{game_id}?step=3&as=2")
    page.wait_for_selector(".board[data-version='3']")
    frame = seats.call("get", f"/v1/games/{game_id}/replay/3")
    assert hand_cards(page, 2) == frame["views"][2]["hand"]
    for other in (0, 1, 3):  # only South's own cards are face up, the others are backs
        assert hand_cards(page, other) == []
        assert page.locator(f".seat[data-seat='{other}'] .hand .card.back").count() > 0
    hands_logged = page.locator(".log li[data-kind=hand]")
    assert hands_logged.count() == 1 and hands_logged.inner_text().startswith("South is dealt")

    page.select_option("#perspective", "public")
    page.wait_for_function("() => new URLSearchParams(location.search).get('as') === 'public'")
    assert page.locator(".hand [data-card]").count() == 0
    assert page.locator(".log li[data-kind=hand]").count() == 0
    page.select_option("#perspective", "all")
    page.wait_for_function("() => document.querySelectorAll('.hand [data-card]').length > 40")


def test_an_unfinished_game_has_no_replay_yet(web: Web, seats: Seats) -> None:
    players = [seats.register(name) for name in ("a", "b", "c", "d")]
    game_id = seats.game("concerto", players, ONE_DEAL)["id"]
    page = web.open(f"/replay/{game_id}")
    assert "opens once it is finished" in page.locator(".message").inner_text()
    assert page.locator("[data-card]").count() == 0
    assert not any("/replay/0" in url for url, _ in web.responses)


def test_the_replay_shows_par_per_deal_and_side_and_hides_it_from_a_seat(
    web: Web, seats: Seats
) -> None:
    game_id, _, replay = finished_game(seats)
    (deal,) = replay["par"]
    end = next(e["version"] for e in replay["events"] if e["kind"] == "deal_end")
    page = web.open(f"/replay/{game_id}?step={end}&as=all")
    for side in ("NS", "EW"):
        row = page.locator(f".par tr[data-side='{side}']")
        par, made = deal[side]["max_hands"], deal[side]["hand_points"]
        assert row.locator(".par-value").inner_text() == str(par)
        assert row.locator(".made").inner_text() == str(made)
        expected = f"{int(100 * made / par + 0.5)}%" if par else "—"
        assert row.locator(".percent").inner_text() == expected
    page.goto("about:blank")
    page = web.open(f"/replay/{game_id}?step={end - 1}&as=0")
    assert page.locator(".par tr[data-side]").count() == 0  # North could not know it yet
    assert "at the end" in page.locator(".par").inner_text()


def test_the_replay_says_what_par_is_and_links_to_it_from_the_top(web: Web, seats: Seats) -> None:
    game_id, _, replay = finished_game(seats)
    page = web.open(f"/replay/{game_id}?step={replay['version']}")
    about = page.locator(".par .par-about").inner_text()
    assert about.startswith("Par is the most a side’s four hands could have scored in a deal")
    link = page.locator(".table-bar a.par-link")
    box = link.bounding_box()
    assert box is not None and box["y"] + box["height"] <= 900  # on the first screen
    assert page.locator(".par table").bounding_box()["y"] > 900  # the table is below it
    link.click()
    page.wait_for_function("() => location.hash === '#par'")
    top = page.locator("#par").bounding_box()
    assert top is not None and 0 <= top["y"] < 900  # the link brought par into view

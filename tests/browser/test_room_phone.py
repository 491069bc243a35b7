"""The phone table plays (issue #14, item 4): at 390 x 844 the felt, every seat's cards and the
action bar fit one screen during a turn; an 8-seat showdown overlaps nothing, at 390 px and at
1440 px; the hand list and the hand page fit the width. The README's table screenshots."""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

import pytest

from accounts.models import Player
from stud import Action, ActionKind
from tables import services
from tables.models import Hand, Table
from tests.browser import steps
from tests.browser.sweep_hold import SweepHold
from tests.history_hands import hold_scheduling
from tests.table_factories import (
    act,
    engine_of,
    make_table,
    passive_action,
    running_hand,
    seated_player,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
# As in test_room_clock_and_reconnect.py: docs/screenshots/ only when asked for.
SCREENSHOTS = (
    ROOT / "docs" / "screenshots"
    if os.environ.get("POKERROOM_UPDATE_SCREENSHOTS") == "1"
    else ROOT / "var" / "screenshots"
)
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1440, "height": 900}
# Long names, as players choose them: the name boxes must hold them without spilling over.
NAMES = ["alexandra", "bartholomew", "christabel", "demetrius", "evangeline", "fitzgerald",
         "gwendolyn", "hieronymus"]  # fmt: skip

# Every piece of the felt that must not lie on another's: the name boxes, each seat's cards,
# the hand's words under a name, the bets and the chips in the middle, the dealer button,
# the pots and the result's text.
PIECES_JS = """() => {
    const felt = document.querySelector(".felt");
    const boxes = [];
    const add = (element, what, seat) => {
        const r = element.getBoundingClientRect();
        if (r.width && r.height) {
            boxes.push({what, seat, left: r.left, top: r.top, right: r.right, bottom: r.bottom});
        }
    };
    for (const seat of felt.querySelectorAll(".seat")) {
        const n = seat.dataset.seat;
        const plate = seat.querySelector(".plate");
        if (plate) add(plate, "name box", n);
        const cards = seat.querySelector(".cards");
        if (cards && cards.children.length) add(cards, "cards", n);
    }
    for (const bet of felt.querySelectorAll(".felt > .bet")) {
        add(bet, "chips", "bet " + bet.dataset.betSeat);
    }
    for (const b of felt.querySelectorAll(".felt > .dealer-button")) {
        add(b, "dealer button", "button");
    }
    for (const piece of felt.querySelectorAll(".centre > *")) add(piece, "centre", piece.className);
    return boxes;
}"""


def overlaps(boxes: list[dict[str, Any]]) -> list[str]:
    """Pairs of pieces that intersect (a seat's own name box and cards touch by design: the
    cards sit on top of their own box's edge, never on another's)."""
    found = []
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            if a["seat"] == b["seat"]:
                continue
            if (
                a["left"] < b["right"] - 0.5
                and b["left"] < a["right"] - 0.5
                and a["top"] < b["bottom"] - 0.5
                and b["top"] < a["bottom"] - 0.5
            ):
                found.append(f"{a['what']} {a['seat']} / {b['what']} {b['seat']}")
    return found


def within_viewport(page: Any, selector: str) -> list[str]:
    """The elements matching `selector` that are not wholly inside the viewport."""
    return page.evaluate(
        """selector => [...document.querySelectorAll(selector)].filter(e => {
            const r = e.getBoundingClientRect();
            return r.width && (r.top < 0 || r.left < 0 || r.bottom > innerHeight
                || r.right > innerWidth);
        }).map(e => {
            const seat = e.closest("[data-seat]");
            return e.className + " " + (seat ? seat.dataset.seat : "");
        })""",
        selector,
    )


def no_sideways_scroll(page: Any) -> bool:
    return page.evaluate("document.scrollingElement.scrollWidth <= innerWidth")


def eight_dealt(
    monkeypatch: pytest.MonkeyPatch, sweep_hold: SweepHold, *, last_street: int
) -> tuple[Table, dict]:
    """Eight players dealt a hand in the test process (no clock, no broadcast: the pages get
    it from their snapshot) and played by calling down to the last action of `last_street`,
    which the page of the player to act makes. Nobody mucks (R-SHOW-3's setting off).

    The table is held off the server's clock sweep: the turn waits for the page however long
    the test takes, and after the showdown no next hand is dealt, so the showdown stays drawn
    while it is measured. The table stays open (a closed one shows its banner)."""
    hold_scheduling(monkeypatch)
    monkeypatch.setattr("tables.services.outbox.broadcast", lambda **kwargs: None)
    table = make_table(name="Eight Handed", action_clock=30)
    sweep_hold.tables(table)
    players = {
        number: seated_player(table, seat_number=number, username=name, auto_muck=False)
        for number, name in enumerate(NAMES, start=1)
    }
    deck = list(range(52))
    random.Random(14).shuffle(deck)
    assert services.hand_start(table_id=table.pk, deck=deck).ok
    for _ in range(200):
        hand = running_hand(table)
        engine = engine_of(hand)
        seat = engine.to_act
        assert seat is not None
        kind, amount = passive_action(table, players[seat])
        after, _ = engine.apply(Action(seat, ActionKind(kind), amount))
        if after.is_over or after.street > last_street:
            return table, players
        assert act(table, players[seat], kind, amount).ok
    raise AssertionError(f"the hand did not reach street {last_street}")


@pytest.fixture
def eight_on_the_river(
    monkeypatch: pytest.MonkeyPatch, sweep_hold: SweepHold
) -> tuple[Table, dict[int, Player]]:
    """The river's last turn: every seat's seven cards are shown at the showdown; R-DEAL-5
    turns a community card."""
    return eight_dealt(monkeypatch, sweep_hold, last_street=7)


def open_as(new_context: Any, table: Table, player: Player, viewport: dict[str, int]) -> Any:
    page = new_context(viewport["width"], viewport["height"]).new_page()
    steps.log_in(page, player.username)
    steps.open_table(page, table.pk)
    page.locator(".seat.mine .card.hole").first.wait_for()
    return page


def test_the_phone_table_plays_an_eight_seat_showdown(new_context, eight_on_the_river):
    """At 390 x 844, on the river's last turn: the felt, every seat's cards and the action
    bar are on the screen without scrolling. The showdown of eight overlaps nothing, at 390
    and at 1440 px. Then the hand list and the hand page fit the phone's width."""
    table, players = eight_on_the_river
    engine = engine_of(running_hand(table))
    to_act = players[engine.to_act]
    phone = open_as(new_context, table, to_act, PHONE)
    watcher = next(p for seat, p in players.items() if p != to_act and seat != 1)
    desktop = open_as(new_context, table, watcher, DESKTOP)

    phone.locator(".actions button").first.wait_for()
    # Every fact is checked and the list of what is wrong asserted empty at the end, so one
    # run tells the whole story (and leaves its screenshots).
    wrong: dict[str, Any] = {}
    wrong["scrolled during the turn"] = phone.evaluate("scrollY")
    wrong["off the phone's screen during the turn"] = within_viewport(
        phone, ".felt, .seat .cards, .seat .plate, .actions"
    )
    wrong["overlaps during the turn at 390"] = overlaps(phone.evaluate(PIECES_JS))
    wrong["overlaps during the turn at 1440"] = overlaps(desktop.evaluate(PIECES_JS))
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    phone.screenshot(path=str(SCREENSHOTS / "table-390.png"))
    desktop.screenshot(path=str(SCREENSHOTS / "table-1440.png"), full_page=True)

    assert steps.click_passive(phone)

    for page, width in ((phone, 390), (desktop, 1440)):
        page.locator('.felt[data-phase="showdown"]').wait_for()
        page.locator(".seat.winner").first.wait_for()
        page.locator(".winners-note").first.wait_for()
        page.wait_for_timeout(900)  # the chips' flight is over
        assert page.locator(".seat .hand-name").count() == 8
        wrong[f"overlaps at the showdown at {width}"] = overlaps(page.evaluate(PIECES_JS))
        wrong[f"sideways scroll at the showdown at {width}"] = not no_sideways_scroll(page)
    wrong["off the phone's screen at the showdown"] = within_viewport(
        phone, ".felt, .seat .cards, .seat .plate"
    )
    phone.screenshot(path=str(SCREENSHOTS / "table-showdown-390.png"))
    desktop.screenshot(path=str(SCREENSHOTS / "table-showdown-1440.png"), full_page=True)

    hand = Hand.objects.get(table=table)
    phone.goto("/hands/")
    phone.locator(f'a[href="/hands/{hand.pk}/"]').first.wait_for()
    wrong["sideways scroll on the hand list"] = not no_sideways_scroll(phone)
    phone.screenshot(path=str(SCREENSHOTS / "hands-390.png"), full_page=True)
    phone.goto(f"/hands/{hand.pk}/")
    phone.locator("#replayer .seat").first.wait_for()
    wrong["sideways scroll on the hand page"] = not no_sideways_scroll(phone)
    phone.locator("#replayer").get_by_role("button", name="Last step").click()
    phone.locator("#replayer .seat.winner").first.wait_for()
    wrong["sideways scroll on the hand page's last step"] = not no_sideways_scroll(phone)
    wrong["overlaps on the hand page's last step"] = overlaps(phone.evaluate(PIECES_JS))
    phone.locator("#replayer").scroll_into_view_if_needed()
    phone.screenshot(path=str(SCREENSHOTS / "hand-390.png"))

    problems = {what: value for what, value in wrong.items() if value}
    assert problems == {}, "\n".join(f"{what}: {value}" for what, value in problems.items())


def test_the_phone_table_on_third_street_with_eight_bets(new_context, monkeypatch, sweep_hold):
    """Third street's last call: every seat has a bet in front of it. At 390 x 844 the bets
    are drawn in the name boxes, and nothing overlaps; the action bar is on screen."""
    table, players = eight_dealt(monkeypatch, sweep_hold, last_street=3)
    to_act = players[engine_of(running_hand(table)).to_act]
    phone = open_as(new_context, table, to_act, PHONE)
    phone.locator(".actions button").first.wait_for()

    assert phone.locator(".seat .seat-bet").count() >= 7
    assert phone.evaluate("scrollY") == 0
    assert within_viewport(phone, ".felt, .seat .cards, .seat .plate, .actions") == []
    assert overlaps(phone.evaluate(PIECES_JS)) == []
    (ROOT / "var" / "screenshots").mkdir(parents=True, exist_ok=True)  # not the README's
    phone.screenshot(path=str(ROOT / "var" / "screenshots" / "table-third-street-390.png"))

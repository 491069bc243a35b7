"""What a player does in the browser, step by step, for the browser scenarios."""

from __future__ import annotations

import re
import time
from typing import Any

from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from accounts.models import Player
from accounts.two_factor import current_code
from stud import StudHand
from tables.models import Hand
from tests.factories import PASSWORD, authenticator_for

PASSIVE = ("act-check", "act-call", "act-bring_in")


def sign_up(page: Any, username: str) -> None:
    page.goto("/accounts/signup/")
    page.locator("input[name=username]").fill(username)
    page.locator("input[name=email]").fill(f"{username}@example.com")
    page.locator("input[name=password1]").fill(PASSWORD)
    page.locator("input[name=password2]").fill(PASSWORD)
    page.get_by_role("button", name="Create my account").click()
    page.wait_for_url(re.compile(r"/$"))


def log_in(page: Any, username: str) -> None:
    page.goto("/accounts/login/")
    page.locator("input[name=username]").fill(username)
    page.locator("input[name=password]").fill(PASSWORD)
    page.locator("form").get_by_role("button", name=re.compile("log in", re.I)).click()
    page.wait_for_url(re.compile(r"/$"))


def log_in_staff(page: Any, staff: Player, *, at: str = "/admin/login/") -> None:
    """A staff login as staff make it (issue #26): the password, then the one-time password
    their authenticator app shows (one is set up for them here), landing on the admin."""
    device = authenticator_for(staff)
    page.goto(at)
    page.locator("input[name=username]").fill(staff.username)
    page.locator("input[name=password]").fill(PASSWORD)
    page.locator("form").get_by_role("button", name=re.compile("log in", re.I)).click()
    page.wait_for_url(re.compile(r"/accounts/two-factor/verify/"))
    page.get_by_label("Code").fill(current_code(device))
    page.get_by_role("button", name="Verify").click()
    page.wait_for_url(lambda url: "/two-factor/" not in url and "/login/" not in url)


def top_bar_link(page: Any, name: str) -> Any:
    """A link of the top bar's menu, as a person reaches it: on a phone the menu is folded
    behind "Menu" (static/js/menu.js), which is opened first."""
    menu = page.locator(".topbar").get_by_role("button", name="Menu")
    if menu.is_visible():
        menu.click()
    return page.locator(".topbar nav").get_by_role("link", name=name)


def open_table(page: Any, table_id: int) -> None:
    page.goto(f"/tables/{table_id}/")
    page.locator('[data-connection="online"]').first.wait_for()
    page.locator(".felt .seat").first.wait_for()


def sit(page: Any, seat: int, dollars: str) -> None:
    page.get_by_role("button", name=f"Sit at seat {seat}").click()
    dialog = page.locator("dialog[open]")
    dialog.get_by_label("Amount in dollars").fill(dollars)
    dialog.get_by_role("button", name="Sit down").click()
    page.locator(f'.seat.mine[data-seat="{seat}"]').wait_for()


def down_cards(page: Any) -> list[str]:
    """The viewer's own down cards as drawn on their page."""
    return page.locator(".seat.mine .card.hole").evaluate_all(
        "cards => cards.map(c => c.dataset.card)"
    )


def seat_faces(page: Any, seat: int) -> list[str]:
    """The face-up cards drawn at a seat, in order."""
    return page.locator(f'.seat[data-seat="{seat}"] .card.face').evaluate_all(
        "cards => cards.map(c => c.dataset.card)"
    )


def faces_before_showdown(page: Any, seat: int) -> list[str] | None:
    """The face-up cards at a seat, read in one go with the phase: None once the showdown
    (or the hand's end) is drawn, when shown cards are public."""
    return page.evaluate(
        """seat => {
            const felt = document.querySelector(".felt");
            if (felt.dataset.phase === "showdown") return null;
            return [...felt.querySelectorAll(`.seat[data-seat="${seat}"] .card.face`)]
                .map(c => c.dataset.card);
        }""",
        seat,
    )


def seat_backs(page: Any, seat: int) -> int:
    return page.locator(f'.seat[data-seat="{seat}"] .card.back').count()


def hand_over(page: Any) -> bool:
    return page.locator(".seat.winner").count() > 0


def to_act(page: Any, *, within: float = 15) -> int:
    """The seat whose turn it is at the page's table, as the room has it, once the page shows
    it too. A page reads its frames one by one: between a street's cards and the turn that
    follows them it may still mark the seat that acted last, so the page alone can answer
    with the wrong seat."""
    found = re.search(r"/tables/(\d+)/", page.url)
    assert found, page.url
    deadline = time.monotonic() + within
    while True:
        hand = Hand.objects.filter(table_id=int(found[1]), ended_at=None).order_by("-id").first()
        seat = None if hand is None else StudHand.from_json(hand.state).to_act
        if seat is not None and page.locator(f'.seat.to-act[data-seat="{seat}"]').count():
            return int(seat)
        if time.monotonic() > deadline:
            raise AssertionError(f"no turn shown at {page.url} (the room has seat {seat})")
        page.wait_for_timeout(50)


# How long a click waits for a button that was just there: one the page takes away as it
# draws its own click (the next frame) is gone for good, and the turn has passed.
CLICK_GONE_MS = 2000


def click_passive(page: Any) -> bool:
    """Checks, calls or brings in if it is this page's turn; True when it acted."""
    return click_first_offered(page, PASSIVE)


def click_first_offered(page: Any, kinds: tuple[str, ...]) -> bool:
    """Clicks the first of these action buttons the page offers; True when it clicked. A
    button the page took away between the look and the click (its own last click being
    drawn, or the turn passing) is no turn: False, nothing clicked."""
    for kind in kinds:
        button = page.locator(f".actions button.{kind}:not([disabled])")
        if button.count() and button.first.is_visible():
            try:
                button.first.click(timeout=CLICK_GONE_MS)
            except PlaywrightTimeoutError:
                return False
            return True
    return False


def play_hand_passively(pages: list[Any], *, within: float = 60, watch: Any = None) -> None:
    """Every page checks or calls whenever it is its turn until a winner is drawn."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if all(hand_over(page) for page in pages):
            return
        acted = False
        for page in pages:
            if watch is not None:
                watch()
            acted = click_passive(page) or acted
        if not acted:
            pages[0].wait_for_timeout(100)
    raise AssertionError("the hand did not reach its end in time")


def leave_table(page: Any) -> None:
    """Clicks "Leave table" and, with chips on the table, says yes to the question."""
    page.locator(".seat-controls button.leave").click()
    page.locator("dialog[open] [data-confirm-yes]").click()


def play_until_street(pages: list[Any], street: int, *, within: float = 30) -> None:
    """Every page checks or calls until the header of each names `street`."""
    label = {4: "4th street", 5: "5th street", 6: "6th street"}[street]
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if all(label in page.locator("[data-hand-number]").inner_text() for page in pages):
            return
        if not any(click_passive(page) for page in pages):
            pages[0].wait_for_timeout(100)
    raise AssertionError(f"the hand did not reach {label} in time")

"""Issue #26, item 2, where the player meets it: an hour into their session, the reality
check shows at the table when the hand ends (never during it): time played, net result and
rake paid, as a status notice that takes no focus from the action buttons, with a Dismiss
button. The hour is the test's clock: the session's start is dated an hour back (the room
reads it from the database), never a wait."""

from __future__ import annotations

import os
import re
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.db.models import F
from playwright.sync_api import expect

from tables.models import Hand, PlaySession, RealityCheck, Table
from tests.browser import steps
from tests.browser.steps import to_act
from tests.factories import PlayerFactory, funded
from tests.table_factories import make_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = (
    ROOT / "docs" / "screenshots"
    if os.environ.get("POKERROOM_UPDATE_SCREENSHOTS") == "1"
    else ROOT / "var" / "screenshots"
)


@pytest.fixture(autouse=True)
def _tables_closed_after_test():
    yield
    Table.objects.update(is_open=False, next_hand_at=None)


def fold_the_hand(pages: dict[int, Any]) -> None:
    """The bring-in is posted, the other folds: the hand ends."""
    bringer = to_act(pages[1])
    other = 2 if bringer == 1 else 1
    assert steps.click_passive(pages[bringer])
    to_act(pages[other])
    pages[other].locator(".actions button.act-fold").click()


def wait_for_hand(table: Table, number: int, *, within: float = 20) -> None:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if Hand.objects.filter(table=table, ended_at=None).count() == 1 and (
            Hand.objects.filter(table=table).count() == number
        ):
            return
        time.sleep(0.05)
    raise AssertionError(f"hand {number} was not dealt")


def test_issue_26_the_reality_check_shows_when_the_hand_ends_and_takes_no_focus(new_context):
    table = make_table(name="Reality check", action_clock=30)
    pages = {}
    for number, (name, width, height) in enumerate(
        (("ann", 1440, 900), ("ben", 390, 844)), start=1
    ):
        funded(PlayerFactory(username=name), 10_000)
        page = new_context(width=width, height=height).new_page()
        steps.log_in(page, name)
        steps.open_table(page, table.pk)
        steps.sit(page, number, "20")
        pages[number] = page
    wait_for_hand(table, 1)
    fold_the_hand(pages)  # the first hand starts both sessions
    wait_for_hand(table, 2)
    for page in pages.values():
        page.locator(".seat.mine .card.hole").nth(1).wait_for()
    # An hour of play has passed (the test's clock): the check is due, but a hand is in play.
    dated = PlaySession.objects.update(
        started_at=F("started_at") - timedelta(minutes=61),
        checked_from=F("checked_from") - timedelta(minutes=61),
    )
    assert dated == 2
    time.sleep(1.5)  # a sweep or two: the room sends nothing while the hand runs
    for page in pages.values():
        expect(page.locator("[data-reality-check]")).to_be_hidden()
    assert not RealityCheck.objects.exists()

    fold_the_hand(pages)

    for page in pages.values():
        notice = page.get_by_role("status", name="Reality check")
        expect(notice).to_be_visible()
        expect(notice).to_contain_text("Time played this session")
        expect(notice.locator("[data-rc-time]")).to_have_text(re.compile(r"^1 h 0[12] min$"))
        expect(notice).to_contain_text("Net result")
        expect(notice).to_contain_text("Rake paid")
        expect(notice.locator("[data-rc-rake]")).to_have_text("$0.00")  # an unraked table
        expect(notice.get_by_role("button", name="Dismiss")).to_be_visible()
    checks = {check.player.username: check for check in RealityCheck.objects.all()}
    assert set(checks) == {"ann", "ben"}
    for number, name in ((1, "ann"), (2, "ben")):
        net = pages[number].locator("[data-rc-net]").text_content()
        cents = checks[name].net
        assert net == ("+" if cents > 0 else "") + steps_dollars(cents)
    # The next hand is dealt with the notice still up: the turn's focus goes to the action
    # buttons as always, never to the notice.
    wait_for_hand(table, 3)
    seat = to_act(pages[1])
    actor = pages[seat]
    actor.locator(".actions button:not([disabled])").first.wait_for()
    expect(actor.locator("[data-reality-check]")).to_be_visible()
    actor.wait_for_function(
        "() => document.activeElement && document.activeElement.closest('[data-actions]')"
    )
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    pages[1].screenshot(path=str(SCREENSHOTS / "reality-check-1440.png"))
    pages[2].screenshot(path=str(SCREENSHOTS / "reality-check-390.png"))

    notice = pages[1].get_by_role("status", name="Reality check")
    notice.get_by_role("button", name="Dismiss").click()
    expect(pages[1].locator("[data-reality-check]")).to_be_hidden()
    assert RealityCheck.objects.count() == 2  # once each


def steps_dollars(cents: int) -> str:
    sign = "-" if cents < 0 else ""
    return f"{sign}${abs(cents) // 100:,}.{abs(cents) % 100:02d}"

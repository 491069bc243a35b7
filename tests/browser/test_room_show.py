"""R-SHOW-3 at the table: the winner nobody called is offered "Show cards" between hands, and
"Muck losing hands" is a toggle at the table."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from accounts.models import Player
from tables.models import Hand, HandEvent
from tests.browser import steps
from tests.factories import PlayerFactory, funded
from tests.table_factories import make_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _button(page, kind: str):
    return page.locator(f".actions button.act-{kind}:not([disabled])")


def _wait_for_turn(pages, kind: str, *, within: float = 20):
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        for page in pages:
            if _button(page, kind).count() and _button(page, kind).first.is_visible():
                return page
        pages[0].wait_for_timeout(50)
    raise AssertionError(f"nobody was offered {kind}")


def test_r_show_3_the_uncalled_winner_shows_with_a_click(new_context, sweep_hold):
    """The "Show cards" offer lasts until the next hand deals: once the server's clock has
    dealt the first hand, the table is held off it, so no next hand is dealt under the click
    (the pause between hands is 3 s; on a busy machine the click came after it)."""
    table = make_table(name="Show table", action_clock=30)
    pages = []
    for name in ("sa", "sb"):
        funded(PlayerFactory(username=name), 10_000)
        page = new_context().new_page()
        steps.log_in(page, name)
        steps.open_table(page, table.pk)
        pages.append(page)
    steps.sit(pages[0], 1, "20")
    steps.sit(pages[1], 2, "20")

    # "Muck losing hands" is on by default and switches off from the table.
    toggle = pages[0].get_by_label("Muck losing hands")
    expect(toggle).to_be_checked()
    toggle.uncheck()
    deadline = time.monotonic() + 5
    while Player.objects.get(username="sa").auto_muck and time.monotonic() < deadline:
        pages[0].wait_for_timeout(50)
    assert not Player.objects.get(username="sa").auto_muck

    # The bring-in posts, the other completes, the bring-in folds: nobody called.
    bring_in = _wait_for_turn(pages, "bring_in")
    sweep_hold.tables(table)
    _button(bring_in, "bring_in").first.click()
    winner = pages[1] if bring_in is pages[0] else pages[0]
    _wait_for_turn([winner], "complete")
    _button(winner, "complete").first.click()
    _wait_for_turn([bring_in], "fold")
    _button(bring_in, "fold").first.click()

    winner.get_by_role("button", name="Show cards").click()

    hand = Hand.objects.get(table=table, number=1)
    deadline = time.monotonic() + 5
    while not HandEvent.objects.filter(hand=hand, kind="show").exists():
        assert time.monotonic() < deadline, "the show did not reach the hand's log"
        winner.wait_for_timeout(50)
    for page in pages:
        steps.leave_table(page)

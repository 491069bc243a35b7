"""Issue #14: a line under your own cards says what they make while the hand runs."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tables.models import Table
from tests.browser import steps
from tests.browser.steps import to_act
from tests.browser.test_room_pre_actions import seated_pair
from tests.factories import PlayerFactory, funded
from tests.table_factories import make_table, stacked_deck

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

THIRD_STREET = re.compile(r"^(High card \w+|Pair of \w+|Three of a kind, \w+)$")


@pytest.fixture(autouse=True)
def _tables_closed_after_test():
    yield
    Table.objects.update(is_open=False, next_hand_at=None)


def test_each_player_sees_what_their_own_cards_make_and_nobody_elses(new_context):
    table = make_table(name="Reading", action_clock=30)
    ann, ben = seated_pair(new_context, table)
    for page, mine, other in ((ann, 1, 2), (ben, 2, 1)):
        line = page.locator(f'.seat.mine [data-strength="{mine}"]')
        line.wait_for()
        assert THIRD_STREET.match(line.inner_text().strip()), line.inner_text()
        assert page.locator(f'.seat[data-seat="{other}"] .strength').count() == 0

    # After a reload (a snapshot) the line is still there.
    bringer = ann if to_act(ann) == 1 else ben
    bringer.reload()
    bringer.locator(".seat.mine .strength").wait_for()
    assert THIRD_STREET.match(bringer.locator(".seat.mine .strength").inner_text().strip())
    assert steps.click_passive(bringer)


# Ann is dealt two sevens down and a seven up: "Three of a kind, Sevens", the longest line of
# third street; Ben three small clubs.
TRIP_SEVENS = "7h 2c 7d 3c 7s 4c"


def test_the_whole_line_is_read_on_a_phone(new_context, stacked_decks):
    """Issue #21 item 5: at 390 px the line under a player's own cards is never cut short
    ("Three of a kind, Sev..." was drawn with an ellipsis on the phone's narrow plate)."""
    stacked_decks(stacked_deck(TRIP_SEVENS))
    table = make_table(name="Phone reading", action_clock=30)
    pages = []
    for number, (name, width) in enumerate((("ann", 390), ("ben", 1440)), start=1):
        funded(PlayerFactory(username=name), 10_000)
        page = new_context(width, 844 if width == 390 else 900).new_page()
        steps.log_in(page, name)
        steps.open_table(page, table.pk)
        steps.sit(page, number, "20")
        pages.append(page)
    phone = pages[0]
    line = phone.locator('.seat.mine [data-strength="1"]')
    line.wait_for()
    expect(line).to_have_text("Three of a kind, Sevens")
    cut = line.evaluate(
        "el => el.scrollWidth > el.clientWidth || el.scrollHeight > el.clientHeight"
    )
    assert not cut, f"the line {line.inner_text()!r} is cut at 390 px"

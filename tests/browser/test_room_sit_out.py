"""R-SIT-1: "Sit out" during a hand counts from the next hand, and the room says so (issue
#14): the button reads "Sit out next hand" and the seat "sitting out next hand" until the hand
ends; then "sitting out", and no hand is dealt without them."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tables.models import Hand, Table
from tests.browser import steps
from tests.browser.steps import to_act
from tests.browser.test_room_pre_actions import seated_pair
from tests.table_factories import make_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _tables_closed_after_test():
    yield
    Table.objects.update(is_open=False, next_hand_at=None)


def test_r_sit_1_sit_out_next_hand_says_what_it_will_do_until_it_happens(new_context):
    table = make_table(name="Break", action_clock=30)
    ann, ben = seated_pair(new_context, table)

    toggle = ann.locator(".seat-controls button.sit-toggle")
    expect(toggle).to_have_text("Sit out next hand")
    toggle.click()

    ann.locator(".seat-controls button.sit-toggle", has_text="Play next hand").wait_for()
    for page in (ann, ben):
        page.locator('.seat[data-seat="1"] .tag', has_text="sitting out next hand").wait_for()
    assert ann.locator(".seat.mine .card").count() >= 3  # still in this hand

    # The hand ends (the bring-in is posted, the other folds); then ann is sitting out.
    bringer, other = (ann, ben) if to_act(ann) == 1 else (ben, ann)
    assert steps.click_passive(bringer)
    other.locator(".actions button.act-fold").click()
    for page in (ann, ben):
        page.locator('.seat[data-seat="1"] .tag', has_text="sitting out next hand").wait_for(
            state="detached"
        )
        tag = page.locator('.seat[data-seat="1"] .tag', has_text="sitting out")
        tag.wait_for()
        assert tag.text_content() == "sitting out"
    ann.locator(".seat-controls button.sit-toggle", has_text="Sit in").wait_for()
    assert Hand.objects.filter(table=table).count() == 1

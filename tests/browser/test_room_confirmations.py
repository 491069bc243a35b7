"""Questions before a costly click (issue #14): folding when checking is free, and leaving
the table with chips. A player setting turns the first one off."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from accounts.models import Player
from tables.models import HandEvent, Seat, Table
from tests.browser import steps
from tests.browser.steps import to_act
from tests.browser.test_room_pre_actions import seated_pair
from tests.table_factories import make_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _tables_closed_after_test():
    yield
    Table.objects.update(is_open=False, next_hand_at=None)


def test_folding_when_checking_is_free_asks_and_leaving_with_chips_asks(new_context):
    """R-BET-1: on 4th street nobody has bet; the first to act clicks Fold and is asked
    ("you can check for free"), says no, and nothing is folded. The other player clicks
    "Leave table" and is asked (their chips go back, their hand is folded), says no, and stays.
    With "Ask before folding when I could check" off (a reload reads the setting), the fold
    goes through without a question."""
    table = make_table(name="Careful", action_clock=30)
    ann, ben = seated_pair(new_context, table)
    bringer = ann if to_act(ann) == 1 else ben
    assert steps.click_passive(bringer)
    steps.play_until_street([ann, ben], 4)
    first_seat = to_act(ann)
    first, other = (ann, ben) if first_seat == 1 else (ben, ann)

    first.locator(".actions button.act-fold").click()
    question = first.locator("dialog[open]")
    assert "check for free" in question.inner_text()
    question.locator("[data-confirm-no]").click()
    expect(first.locator("dialog[open]")).to_have_count(0)
    expect(first.locator(".actions button.act-fold")).to_be_visible()

    other.locator(".seat-controls button.leave").click()
    question = other.locator("dialog[open]")
    assert "Leave the table?" in question.inner_text()
    assert "your hand is folded" in question.inner_text()
    question.locator("[data-confirm-no]").click()
    assert not HandEvent.objects.filter(hand__table=table, kind="abandon").exists()
    assert not [
        e
        for e in HandEvent.objects.filter(hand__table=table, kind="action")
        if e.payload["action"] == "fold"
    ]
    assert Seat.objects.filter(table=table).count() == 2

    name = "ann" if first is ann else "ben"
    Player.objects.filter(username=name).update(confirm_free_fold=False)
    first.reload()
    first.locator(".actions button.act-fold").click()
    for page in (ann, ben):
        page.locator(".log li", has_text=f"{name} folds").wait_for()
    assert first.locator("dialog[open]").count() == 0

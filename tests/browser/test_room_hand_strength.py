"""Issue #14: a line under your own cards says what they make while the hand runs."""

from __future__ import annotations

import re

import pytest

from tables.models import Table
from tests.browser import steps
from tests.browser.steps import to_act
from tests.browser.test_room_pre_actions import seated_pair
from tests.table_factories import make_table

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

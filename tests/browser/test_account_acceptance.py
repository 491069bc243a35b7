"""Issue #2's acceptance, as a new player and the staff would do it in a browser (with the
play-money sign-up grant of issue #14 in the default room)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser import steps
from tests.factories import PlayerFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_sign_up_settings_grant_then_staff_credits_fifty_dollars(new_context):
    """A player signs up, changes settings and sees the $1,000.00 sign-up grant; staff credits
    $50.00 in the admin with a reason; the player sees $1,050.00 and a ledger line naming the
    staff and why above the grant's."""
    player = new_context().new_page()
    steps.sign_up(player, "newcomer")

    player.goto("/accounts/settings/")
    player.get_by_label("Display name at the tables").fill("Newbie")
    assert player.get_by_label(re.compile("I'm in")).is_checked()  # R-ANTE-1 default on
    assert player.get_by_label(re.compile("Muck losing hands")).is_checked()  # R-SHOW-3
    player.get_by_label(re.compile("I'm in")).uncheck()
    player.get_by_role("button", name="Save settings").click()
    player.goto("/accounts/settings/")
    assert player.get_by_label("Display name at the tables").input_value() == "Newbie"
    assert not player.get_by_label(re.compile("I'm in")).is_checked()

    player.goto("/accounts/")
    expect(player.get_by_test_id("balance")).to_have_text("$1,000.00")

    pitboss = PlayerFactory(username="pitboss", is_staff=True, is_superuser=True)
    staff = new_context().new_page()
    steps.log_in_staff(staff, pitboss)
    staff.goto("/admin/accounts/player/?q=newcomer")
    staff.get_by_role("link", name="newcomer").click()
    staff.get_by_role("link", name=re.compile("Credit or debit")).click()
    staff.get_by_label("Amount in dollars").fill("50.00")
    staff.get_by_label(re.compile("Credit \\(add to balance\\)")).check()
    staff.get_by_label("Reason").fill("Welcome bonus")
    staff.get_by_role("button", name="Write the ledger entry").click()

    player.goto("/accounts/")
    expect(player.get_by_test_id("balance")).to_have_text("$1,050.00")
    rows = player.locator("table.ledger tbody tr")
    expect(rows).to_have_count(2)
    line = rows.first.inner_text()
    assert "$50.00" in line and "pitboss" in line and "Welcome bonus" in line
    assert "sign-up grant" in rows.nth(1).inner_text()

"""Issue #14: the wallet in the table page's header follows every change of the balance, in
every tab the player has open: a buy-in at one table shows at the other at once; a staff
credit shows as soon as the tab is looked at again."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from accounts.models import LedgerKind, Player
from accounts.services import wallet_credit
from tests.browser import steps
from tests.factories import PlayerFactory, funded
from tests.table_factories import make_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_buy_in_in_one_tab_and_a_credit_show_in_every_tab(new_context):
    first, second = make_table(name="One"), make_table(name="Two")
    funded(PlayerFactory(username="ann"), 10_000)
    context = new_context()
    here = context.new_page()
    steps.log_in(here, "ann")
    steps.open_table(here, first.pk)
    there = context.new_page()
    steps.open_table(there, second.pk)
    expect(there.locator("[data-balance]")).to_have_text("$100.00")

    steps.sit(here, 1, "20")

    there.locator("[data-balance]", has_text="$80.00").wait_for()
    wallet_credit(
        player_id=Player.objects.get(username="ann").pk,
        amount=5_000,
        kind=LedgerKind.DEPOSIT,
        reason="staff credit",
    )
    there.bring_to_front()
    there.evaluate("window.dispatchEvent(new Event('focus'))")
    for page in (there, here):
        page.locator("[data-balance]", has_text="$130.00").wait_for()

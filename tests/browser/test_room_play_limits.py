"""Issue #26 where a player meets it: a buy-in over the limit they set is refused at the
buy-in dialog, the limit named with when it resets, and they stay standing."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from accounts.limits import play_limit_set
from accounts.models import Player
from tables.models import Seat
from tests.browser import steps
from tests.factories import PlayerFactory, funded
from tests.table_factories import make_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_buy_in_over_the_days_limit_is_refused_at_the_buy_in_dialog(new_context):
    table = make_table(name="Limits table")
    lena = PlayerFactory(username="lena")
    funded(lena, 10_000)
    play_limit_set(player_id=lena.pk, kind="buy_in_day", amount=3000)
    page = new_context().new_page()
    steps.log_in(page, "lena")
    steps.open_table(page, table.pk)

    page.get_by_role("button", name="Sit at seat 1").click()
    dialog = page.locator("dialog[open]")
    dialog.get_by_label("Amount in dollars").fill("40.00")
    dialog.get_by_role("button", name="Sit down").click()

    toast = page.locator("[data-toast]")
    expect(toast).to_contain_text("limit of $30.00 on buy-ins a day")
    expect(toast).to_contain_text("resets at")
    expect(page.locator(".seat.mine")).to_have_count(0)
    assert not Seat.objects.filter(player=lena).exists()
    assert Player.objects.get(pk=lena.pk).balance == 10_000

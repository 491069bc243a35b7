"""Staff close a table (issue #14): a player at it is told at once (a banner, the lobby
link), their seat is cashed out and the wallet in the header shows it; a player who opens
the closed table's page is told it is closed, never offered "Sit at seat N"."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from accounts.models import Player
from tables.models import Seat
from tests.browser import steps
from tests.factories import PlayerFactory, StaffFactory, funded
from tests.table_factories import make_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_r_buy_1_closing_a_table_tells_its_players_at_once_and_cashes_them_out(new_context):
    table = make_table(name="Closing time")
    funded(PlayerFactory(username="ann"), 10_000)
    PlayerFactory(username="ben")
    boss = StaffFactory(username="boss")
    ann = new_context().new_page()
    steps.log_in(ann, "ann")
    steps.open_table(ann, table.pk)
    steps.sit(ann, 1, "20")
    ann.locator("[data-balance]", has_text="$80.00").wait_for()  # $100, less $20
    ben = new_context().new_page()
    steps.log_in(ben, "ben")
    steps.open_table(ben, table.pk)
    ben.get_by_role("button", name="Sit at seat 2").wait_for()

    staff = new_context().new_page()
    steps.log_in_staff(staff, boss, at="/accounts/login/")
    staff.goto("/admin/tables/table/")
    staff.locator(f'input[name="_selected_action"][value="{table.pk}"]').check()
    staff.locator('select[name="action"]').select_option("close_tables")
    staff.locator('button[name="index"]').click()
    staff.get_by_text("Closed 1 table(s).").wait_for()

    for page in (ann, ben):
        banner = page.locator("[data-closed]")
        expect(banner).to_contain_text("This table is closed")
        expect(banner.get_by_role("link", name="Back to the lobby")).to_have_attribute("href", "/")
        expect(page.locator(".sit-here")).to_have_count(0)
    ann.locator(".seat.mine").wait_for(state="detached")
    ann.locator("[data-balance]", has_text="$100.00").wait_for()  # cashed out
    assert not Seat.objects.filter(table=table).exists()
    assert Player.objects.get(username="ann").balance == 10_000

    later = new_context().new_page()
    steps.log_in(later, "ben")
    later.goto(f"/tables/{table.pk}/")
    later.locator('[data-connection="online"]').first.wait_for()
    later.locator(".felt .seat").first.wait_for()
    expect(later.locator("[data-closed]")).to_be_visible()
    expect(later.locator(".sit-here")).to_have_count(0)
    expect(later.locator(".seat-controls button.sit-down")).to_have_count(0)

"""A player at a full table joins its waiting list from the table page and, offered a seat,
takes it with the buy-in dialog."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tables import services
from tables.models import Seat, WaitingListEntry
from tests.browser import steps
from tests.table_factories import make_table, seated_player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def full_table(monkeypatch):
    """Two players seated through the services in the test process: no hand, no broadcast."""
    import tables.services.scheduling as scheduling

    monkeypatch.setattr(scheduling, "task_send_at", lambda *args, **kwargs: None)
    monkeypatch.setattr("tables.services.outbox.broadcast", lambda **kwargs: None)
    table = make_table(name="Full house", seats=2)
    alice = seated_player(table, username="wa")
    seated_player(table, username="wb")
    return table, alice


def test_a_player_joins_the_waiting_list_and_takes_the_seat_offered(new_context, full_table):
    table, alice = full_table
    carol = seated_player(make_table(name="Elsewhere"), username="wc")
    page = new_context().new_page()
    steps.log_in(page, carol.username)
    steps.open_table(page, table.pk)

    page.get_by_role("button", name="Join the waiting list").click()

    page.get_by_role("button", name="Leave the waiting list").wait_for()
    expect(page.locator(".waiting-note")).to_contain_text("1 of 1")
    assert WaitingListEntry.objects.filter(table=table, player=carol).exists()

    # Alice leaves (through the services here: the page learns of it from its snapshot).
    assert services.seat_leave(table_id=table.pk, player=alice).ok
    page.reload()
    page.locator('[data-connection="online"]').first.wait_for()
    page.get_by_role("button", name="Take the seat").click()
    dialog = page.locator("dialog[open]")
    dialog.get_by_label("Amount in dollars").fill("25")
    dialog.get_by_role("button", name="Sit down").click()

    page.locator(".seat.mine").wait_for()
    assert Seat.objects.get(table=table, player=carol).stack == 2500
    assert not WaitingListEntry.objects.filter(table=table).exists()

"""Pre-actions for the coming turn (issue #14): "Check/Fold", "Check", "Call any", chosen while
another player is to act, played when the turn comes, dropped when the action changes."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tables.models import HandEvent, Table
from tests.browser import steps
from tests.browser.steps import to_act
from tests.factories import PlayerFactory, funded
from tests.table_factories import make_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _tables_closed_after_test():
    """No hand is dealt by the server while the next test's database is being reset."""
    yield
    Table.objects.update(is_open=False, next_hand_at=None)


def seated_pair(new_context, table):
    pages = []
    for number, name in enumerate(("ann", "ben"), start=1):
        funded(PlayerFactory(username=name), 10_000)
        page = new_context().new_page()
        steps.log_in(page, name)
        steps.open_table(page, table.pk)
        steps.sit(page, number, "20")
        pages.append(page)
    for page in pages:
        page.locator(".seat.mine .card.hole").nth(1).wait_for()
    return pages


def actions_of(table, seat: int) -> list[str]:
    return [
        event.payload["action"]
        for event in HandEvent.objects.filter(hand__table=table, kind="action").order_by("seq")
        if event.payload["seat"] == seat
    ]


def test_call_any_is_played_when_the_turn_comes_and_check_is_cancelled_by_a_bet(new_context):
    """R-BRING-1, R-BET-1: the player after the bring-in chooses "Call any" before the bring-in
    is posted; the call is made for them the moment their turn comes. On 4th street the player
    second to act chooses "Check"; the first bets, so the "Check" is cancelled and the player
    is shown the offers (call, raise, fold) instead of checking."""
    table = make_table(name="Early", action_clock=30)
    ann, ben = seated_pair(new_context, table)
    bring_in = to_act(ann)
    bringer, other = (ann, ben) if bring_in == 1 else (ben, ann)
    other_seat = 3 - bring_in

    other.locator(".pre-actions .pre-call_any").click()
    expect(other.locator(".pre-actions .pre-call_any")).to_have_attribute("aria-pressed", "true")
    expect(other.locator(".pre-actions .pre-check")).to_be_disabled()  # the bring-in is to call
    assert steps.click_passive(bringer)

    for page in (ann, ben):
        page.locator(".log li", has_text=f"{'ben' if other is ben else 'ann'} calls").wait_for()
    assert actions_of(table, other_seat) == ["call"]

    # 4th street: the high board acts first.
    for page in (ann, ben):
        page.locator("[data-hand-number]", has_text="4th street").wait_for()
    first_seat = to_act(ann)
    first, second = (ann, ben) if first_seat == 1 else (ben, ann)
    second_seat = 3 - first_seat
    before = actions_of(table, second_seat)
    second.locator(".pre-actions .pre-check").click()
    expect(second.locator(".pre-actions .pre-check")).to_have_attribute("aria-pressed", "true")
    first.locator(".actions button.act-bet").first.click()

    second.locator(".actions button.act-call").wait_for()
    assert second.locator(".actions button.act-raise").count() >= 1
    assert actions_of(table, second_seat) == before  # nothing checked for them
    expect(second.locator(".pre-actions")).to_be_hidden()

"""R-ANTE-1 in the browser: "I'm in" off never freezes a table (issue #14, item 2)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tables.models import Hand, Table
from tests.browser import steps
from tests.factories import PlayerFactory, funded
from tests.table_factories import make_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

COUNTDOWN = re.compile(r"\d+s")


@pytest.fixture(autouse=True)
def _tables_closed_after_test():
    yield
    Table.objects.update(is_open=False, next_hand_at=None)


def at_table(new_context, table: Table, name: str, *, auto_ante: bool = True):
    funded(PlayerFactory(username=name, auto_ante=auto_ante), 10_000)
    page = new_context().new_page()
    steps.log_in(page, name)
    steps.open_table(page, table.pk)
    return page


def reload_table(page) -> None:
    page.reload()
    page.locator('[data-connection="online"]').first.wait_for()
    page.locator(".seat.mine").wait_for()


def countdown(page) -> str:
    return page.locator("[data-prompt] [data-ante-countdown]").inner_text()


def test_r_ante_1_two_players_the_table_waits_for_im_in_across_a_reload(new_context):
    """Ben posts antes by hand. He is asked with a countdown, which a reload keeps (the
    snapshot carries the prompt). He does not answer: with two players no hand can be dealt
    (R-GAME-3), so the table says whom it waits for instead of "Waiting" for good, his prompt
    stays (across another reload), and his "I'm in" deals the hand to both."""
    table = make_table(name="Antes")
    ben = at_table(new_context, table, "ben", auto_ante=False)
    ann = at_table(new_context, table, "ann")
    steps.sit(ben, 2, "20")
    steps.sit(ann, 1, "20")

    ben.locator("[data-prompt] button.im-in").wait_for()
    assert COUNTDOWN.fullmatch(countdown(ben))
    reload_table(ben)
    ben.locator("[data-prompt] button.im-in").wait_for()
    assert COUNTDOWN.fullmatch(countdown(ben))

    ann.locator("[data-hand-number]", has_text="Waiting for ben to say “I'm in”").wait_for()
    ben.locator("[data-prompt]", has_text="The table is waiting for you").wait_for()
    assert not Hand.objects.filter(table=table).exists()
    reload_table(ben)
    ben.locator("[data-prompt]", has_text="The table is waiting for you").wait_for()
    ben.locator("[data-hand-number]", has_text="Waiting for you").wait_for()

    ben.locator("[data-prompt] button.im-in").click()

    for page in (ann, ben):
        page.locator(".seat.mine .card.hole").nth(1).wait_for()
    expect(ben.locator("[data-prompt]")).to_be_hidden()
    hand = Hand.objects.get(table=table)
    assert sorted(hand.players) == ["1", "2"]


def test_r_ante_1_three_players_the_two_others_play_on_time_and_he_is_asked_again(new_context):
    """Ben does not confirm: the hand is dealt to Ann and Cat at its time, Ben dealt out
    (R-ANTE-1); when it ends, Ben is asked again and his "I'm in" deals him the next one."""
    table = make_table(name="Three")
    ben = at_table(new_context, table, "ben", auto_ante=False)
    ann = at_table(new_context, table, "ann")
    cat = at_table(new_context, table, "cat")
    steps.sit(ben, 2, "20")
    steps.sit(ann, 1, "20")
    steps.sit(cat, 3, "20")
    ben.locator("[data-prompt] button.im-in").wait_for()
    reload_table(ben)
    ben.locator("[data-prompt] button.im-in").wait_for()

    for page in (ann, cat):
        page.locator(".seat.mine .card.hole").nth(1).wait_for()
    ben.locator('.seat[data-seat="1"] .card').first.wait_for()
    expect(ben.locator(".seat.mine .card")).to_have_count(0)  # dealt out
    expect(ben.locator("[data-prompt]")).to_be_hidden()
    assert sorted(Hand.objects.get(table=table, number=1).players) == ["1", "3"]

    fold_to_the_bring_in([ann, cat])

    ben.locator("[data-prompt] button.im-in").wait_for()
    assert COUNTDOWN.fullmatch(countdown(ben))
    ben.locator("[data-prompt] button.im-in").click()
    ben.locator(".seat.mine .card.hole").nth(1).wait_for()
    assert sorted(Hand.objects.get(table=table, number=2).players) == ["1", "2", "3"]


def fold_to_the_bring_in(pages) -> None:
    """The bring-in is posted and the other player folds: the hand ends."""
    for _ in range(200):
        if all(steps.hand_over(page) for page in pages):
            return
        for page in pages:
            steps.click_first_offered(page, ("act-bring_in", "act-fold"))
        pages[0].wait_for_timeout(100)
    raise AssertionError("the hand did not end")

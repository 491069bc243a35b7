"""Issue #26 where a player meets it: a buy-in over the limit they set is refused at the
buy-in dialog, the limit named with when it resets, and they stay standing; a break taken
mid-hand lets the hand finish, then stands the player up."""

from __future__ import annotations

import time

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from accounts.limits import play_limit_set
from accounts.models import LedgerEntry, LedgerKind, Player
from tables.models import Hand, Seat
from tests.browser import steps
from tests.browser.test_room_pre_actions import seated_pair
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


def test_a_break_taken_mid_hand_lets_the_hand_finish_then_stands_the_player_up(new_context):
    """Issue #26 item 3: Ann, in a hand, opens My limits in another tab and takes a break of 24
    hours. Her hand is not folded: back at the table her cards are still there and she plays
    it out with Ben; when it ends she is stood up, her chips back in her balance, and she
    cannot sit again."""
    table = make_table(name="Break table", action_clock=30)
    ann, ben = seated_pair(new_context, table)
    limits = ann.context.new_page()
    limits.goto(reverse("play_limits"))
    limits.get_by_label("How long").select_option("24h")
    limits.get_by_label("I understand it cannot be shortened").check()
    limits.get_by_role("button", name="Take the break").click()
    expect(limits.locator("[data-testid=on-break]")).to_contain_text("You are on a break")
    expect(limits.get_by_text("You leave each table when its hand ends.")).to_be_visible()

    ann.bring_to_front()
    expect(ann.locator(".seat.mine .card.hole")).to_have_count(2)
    # Ann wins or loses, she is stood up as the hand ends: her seat (a winner's too) goes at
    # once, so the room's record says when the hand is over, not a winner's seat.
    deadline = time.monotonic() + 90
    while Hand.objects.filter(table=table, ended_at=None).exists():
        assert time.monotonic() < deadline, "the hand did not reach its end in time"
        if not any(steps.click_passive(page) for page in (ann, ben)):
            ann.wait_for_timeout(100)
    hand = Hand.objects.get(table=table)
    assert "fold" not in [event.payload.get("action") for event in hand.events.all()]

    expect(ann.locator(".seat.mine")).to_have_count(0, timeout=15_000)
    expect(ben.locator(".seat.mine")).to_have_count(1)
    assert not Seat.objects.filter(table=table, player__username="ann").exists()
    back = LedgerEntry.objects.get(player__username="ann", kind=LedgerKind.CASH_OUT)
    assert Player.objects.get(username="ann").balance == 10_000 - 2_000 + back.amount
    ann.get_by_role("button", name="Sit at seat 3").click()
    ann.locator("dialog[open]").get_by_label("Amount in dollars").fill("20.00")
    ann.locator("dialog[open]").get_by_role("button", name="Sit down").click()
    expect(ann.locator("[data-toast]")).to_contain_text("You are on a break until")
    expect(ann.locator(".seat.mine")).to_have_count(0)

"""Issue #24 item 5 in the browser, at a phone's width: a player opens a real PokerStars stud
hand of their own from My hands, steps through it in the replayer to the showdown and sees
the winner, then keeps it in their account."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from histories.models import ImportedHand
from tests.browser import steps
from tests.factories import PlayerFactory
from tests.stud.pokerstars import shared_testdata

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Six players; Hero folds on third street; at the showdown Nikolay Zem's pair of tens beats
# MasterTrini1's pair of sixes (totof51 mucks) and takes the $0.77 pot.
HAND_ID = "35874039554"
PHONE = (390, 844)
# An 8-Game Stud Hi/Lo hand at $400/$800 and a 25/50 one.
HIGH_AND_LOW = ("164954571644", "29356803849")


def test_a_pokerstars_hand_opens_from_my_hands_and_replays_to_its_winner(new_context) -> None:
    player = PlayerFactory(username="importer")
    path = shared_testdata("pokerstars-stud", "split") / f"{HAND_ID}.txt"
    page = new_context(*PHONE).new_page()
    steps.log_in(page, player.username)
    page.goto("/hands/")
    page.get_by_role("link", name="Open a hand history file").click()
    expect(page.get_by_role("heading", name="Open a hand history")).to_be_visible()
    page.locator("input[type=file]").set_input_files(str(path))
    page.get_by_role("button", name="Open", exact=True).click()
    expect(page.get_by_role("heading", name=re.compile(r"^1 hand read"))).to_be_visible()
    expect(page.locator("[data-import-row]")).to_contain_text(f"PokerStars Hand #{HAND_ID}")
    expect(page.locator("[data-import-row]")).to_contain_text("Nikolay Zem wins $0.77")

    replay = page.locator("#replayer")
    expect(replay.locator(".replayer-head")).to_contain_text(f"Hand #{HAND_ID}")
    expect(replay.locator(".felt-title")).to_have_text("Third street")
    expect(replay.locator(".seat.mine .plate .name")).to_have_text("Hero")
    expect(replay.locator(".seat.mine .card.hole")).to_have_count(2)  # Hero's own, 5s 6s
    for _ in range(4):
        title = replay.locator(".felt-title").inner_text()
        replay.get_by_role("button", name="Next street").click()
        expect(replay.locator(".felt-title")).not_to_have_text(title)
    expect(replay.locator(".felt-title")).to_have_text("Seventh street")
    for _ in range(40):  # action by action to the end
        position = replay.locator(".replayer-position").inner_text()
        if re.match(r"Step (\d+) of \1$", position):
            break
        replay.get_by_role("button", name="Next action").click()
        expect(replay.locator(".replayer-position")).not_to_have_text(position)
    winner = replay.locator(".seat.winner")
    expect(winner).to_have_count(1)
    expect(winner.locator(".plate .name")).to_have_text("Nikolay Zem")
    expect(winner.locator(".hand-name")).to_have_text("Pair of tens")
    expect(replay.locator(".replayer-log")).to_contain_text("Nikolay Zem wins $0.77")
    expect(replay.locator(".replayer-caption")).not_to_be_empty()
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE[0], f"the page is {width} px wide on a {PHONE[0]} px phone"

    page.get_by_role("button", name=f"Keep PokerStars Hand #{HAND_ID} in my account").click()
    expect(page.locator(".messages")).to_contain_text("1 hand(s) kept in your account.")
    expect(page.get_by_role("heading", name=f"PokerStars Hand #{HAND_ID} imported")).to_be_visible()
    expect(page.locator("#replayer .replayer-controls button")).to_have_count(7)
    assert ImportedHand.objects.filter(player=player).count() == 1
    page.get_by_role("link", name="← My hands").click()
    expect(page.locator("table.imported")).to_contain_text(f"PokerStars Hand #{HAND_ID}")


def test_high_stakes_hands_fit_a_phone(new_context) -> None:
    """A $400/$800 Stud Hi/Lo hand beside a 25/50 one: the stakes wrap after their slash, so
    the list of hands read stays 390 px wide (it was 398, the page scrolling sideways)."""
    player = PlayerFactory(username="highroller")
    folder = shared_testdata("pokerstars-stud", "split")
    text = "\n\n\n".join((folder / f"{hand}.txt").read_text() for hand in HIGH_AND_LOW)
    page = new_context(*PHONE).new_page()
    steps.log_in(page, player.username)
    page.goto("/hands/import/")
    page.get_by_label("or paste it").fill(text)
    page.get_by_role("button", name="Open", exact=True).click()
    expect(page.get_by_role("heading", name=re.compile(r"^2 hands read"))).to_be_visible()
    stakes = page.locator("[data-import-row] td[data-label=Stakes]").first
    expect(stakes).to_have_text("$400.00/$800.00")
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE[0], f"the page is {width} px wide on a {PHONE[0]} px phone"

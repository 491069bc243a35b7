"""The action clock on screen, a dropped connection, and the screenshots of the room."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tables.models import Hand, HandEvent, Table
from tests.browser import steps
from tests.browser.steps import to_act
from tests.factories import PlayerFactory, funded
from tests.table_factories import make_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
# The README's screenshots (docs/screenshots/) are rewritten only when asked for, so a test
# run leaves no tracked file modified; otherwise they go to the untracked var/screenshots/.
SCREENSHOTS = (
    ROOT / "docs" / "screenshots"
    if os.environ.get("POKERROOM_UPDATE_SCREENSHOTS") == "1"
    else ROOT / "var" / "screenshots"
)


@pytest.fixture(autouse=True)
def _tables_closed_after_test():
    """No hand is dealt by the server while the next test's database is being reset."""
    yield
    Table.objects.update(is_open=False, next_hand_at=None)


def seated_pair(new_context, table, names=("ann", "ben"), width=1440, height=900):
    pages = []
    for number, name in enumerate(names, start=1):
        funded(PlayerFactory(username=name), 10_000)
        page = new_context(width, height).new_page()
        steps.log_in(page, name)
        steps.open_table(page, table.pk)
        steps.sit(page, number, "20")
        pages.append(page)
    for page in pages:
        page.locator(".seat.mine .card.hole").nth(1).wait_for()
    return pages


def test_r_time_1_the_countdown_runs_out_and_the_clock_acts(new_context):
    """R-BET-7, R-TIME-1: nobody clicks. The bring-in's clock counts down on screen and
    posts the bring-in; the next player, facing it with all-in protection left, is all-in."""
    table = make_table(name="Quick", action_clock=3)
    ann, ben = seated_pair(new_context, table)
    bring_in = to_act(ann)
    countdown = ann.locator(f'[data-countdown="{bring_in}"]')
    first = int(countdown.inner_text().rstrip("s"))
    ann.wait_for_timeout(1100)
    second = int(countdown.inner_text().rstrip("s"))
    assert 0 <= second < first <= 3

    for page in (ann, ben):
        page.locator(".log li", has_text="ran out of time and posts the bring-in").wait_for()
        page.locator(".log li", has_text="is all-in (all-in protection)").wait_for()
    hand = Hand.objects.get(table=table, number=1)
    timeouts = [
        (event.payload["seat"], event.payload["result"])
        for event in HandEvent.objects.filter(hand=hand, kind="timeout").order_by("seq")
    ]
    other = 2 if bring_in == 1 else 1
    assert timeouts[:2] == [(bring_in, "bring_in"), (other, "all_in_protection")]


def test_r_time_3_a_reload_on_ones_turn_keeps_the_turn(new_context):
    """Issue #14: the player to act reloads the page; nothing is played for them (no
    time-out, no bring-in posted by the clock): the turn is still theirs, buttons and all."""
    table = make_table(name="Reload", action_clock=30)
    ann, ben = seated_pair(new_context, table)
    bring_in = to_act(ann)
    acting = ann if bring_in == 1 else ben

    acting.reload()

    acting.locator(".seat.mine .card.hole").nth(1).wait_for()
    acting.locator(".actions button").first.wait_for()
    assert to_act(acting) == bring_in
    assert not HandEvent.objects.filter(hand__table=table, kind="timeout").exists()
    assert steps.click_passive(acting)  # and they play it themselves
    for page in (ann, ben):
        page.locator(f'.seat.to-act:not([data-seat="{bring_in}"])').wait_for()


def test_r_bet_7_the_bar_shows_the_time_bank_after_the_clock(new_context):
    """R-BET-7: the 2 s clock runs out; the bar counts the 3 s time bank ("bank"), then
    R-TIME-1 posts the bring-in."""
    table = make_table(name="Bank", action_clock=2, time_bank=3)
    ann, _ = seated_pair(new_context, table)
    bring_in = to_act(ann)
    countdown = ann.locator(f'[data-countdown="{bring_in}"]')

    ann.locator(f'.clock.bank [data-countdown="{bring_in}"]').wait_for()

    expect(countdown).to_have_text(re.compile(r"^bank "))
    ann.locator(".log li", has_text="ran out of time and posts the bring-in").wait_for()


def test_r_time_3_a_dropped_player_comes_back_to_the_same_table(new_context):
    """R-TIME-3: the page closes mid-hand and reopens; the table is drawn as the other player
    sees it, the returning player's own down cards included. Then the lobby's screenshots."""
    table = make_table(name="Main", action_clock=30)
    make_table(name="Hi-Lo Deluxe", game="stud8", small_bet=200, big_bet=400, buy_in=4000)
    make_table(name="Starter", small_bet=10, big_bet=20, ante=5, bring_in=10, buy_in=100)
    make_table(name="High Rollers", small_bet=1000, big_bet=2000, seats=6, buy_in=20000)
    ann, ben = seated_pair(new_context, table)
    bring_in = to_act(ann)
    assert steps.click_passive(ann if bring_in == 1 else ben)  # the bring-in is posted
    for page in (ann, ben):
        page.locator(f'.seat.to-act:not([data-seat="{bring_in}"])').wait_for()
    waiting = ann if bring_in == 1 else ben  # the one whose turn it is not
    acting = ben if waiting is ann else ann
    mine = 1 if waiting is ann else 2
    before = steps.down_cards(waiting)
    context = waiting.context
    waiting.close()
    acting.locator(f'.seat[data-seat="{mine}"] .presence.off').wait_for()

    back = context.new_page()
    steps.open_table(back, table.pk)
    back.locator(".seat.mine .card.hole").nth(1).wait_for()
    acting.locator(f'.seat[data-seat="{mine}"] .presence.on').wait_for()
    assert steps.down_cards(back) == before
    for seat in (1, 2):
        assert up_cards(back, seat) == up_cards(acting, seat)
        assert card_count(back, seat) == card_count(acting, seat)
        assert stack(back, seat) == stack(acting, seat)
    assert to_act(back) == to_act(acting)
    assert back.locator(".seat.to-act [data-countdown]").count() == 1
    other = 3 - mine
    assert steps.seat_backs(back, other) == 2  # the other's down cards stay hidden

    # The table's screenshots (eight seats, mid-hand and at the showdown) are
    # test_room_phone.py's; the lobby's are taken here.
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    acting.locator(".actions button").first.wait_for()
    acting.set_viewport_size({"width": 390, "height": 844})
    acting.wait_for_timeout(200)
    assert acting.evaluate("document.documentElement.scrollWidth") <= 390  # no sideways scroll
    lobby = context.new_page()
    lobby.goto("/")
    lobby.locator("tr.lobby-row", has_text="Main").wait_for()
    expect(lobby.locator("tr.lobby-row", has_text="Main")).to_contain_text("2/8")
    lobby.screenshot(path=str(SCREENSHOTS / "lobby-1440.png"), full_page=True)
    # Issue #21: the tables nobody sits at are folded under a button.
    expect(lobby.locator("tr.lobby-row")).to_have_count(1)  # only Main has players
    lobby.get_by_label("Game").select_option("stud8")
    expect(lobby.locator("tr.lobby-row")).to_have_count(0)
    lobby.get_by_role("button", name="Show 1 empty table").click()
    expect(lobby.locator("tr.lobby-row")).to_have_text(
        [re.compile(r"^\s*Hi-Lo Deluxe")], use_inner_text=True
    )
    lobby.get_by_label("Game").select_option("")
    lobby.set_viewport_size({"width": 390, "height": 844})
    lobby.wait_for_timeout(200)
    assert lobby.evaluate("document.documentElement.scrollWidth") <= 390
    lobby.screenshot(path=str(SCREENSHOTS / "lobby-390.png"), full_page=True)


def up_cards(page, seat: int) -> list[str]:
    return page.locator(f'.seat[data-seat="{seat}"] .card.face:not(.hole)').evaluate_all(
        "cards => cards.map(c => c.dataset.card)"
    )


def card_count(page, seat: int) -> int:
    return page.locator(f'.seat[data-seat="{seat}"] .card').count()


def stack(page, seat: int) -> str:
    return page.locator(f'[data-stack="{seat}"]').inner_text()

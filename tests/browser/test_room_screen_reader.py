"""Issue #27: a stud table a blind player can play. The dealer's lines in a polite live region
(never another player's down card, R-HIST-2; never said twice on a reload), the player's own
turn in the assertive one, and a turn played with the keyboard alone."""

from __future__ import annotations

import re

import pytest

from tables.models import Table
from tests.browser import steps
from tests.browser.steps import to_act
from tests.browser.test_room_pre_actions import seated_pair
from tests.table_factories import make_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CARD_NAME = {
    r: n
    for r, n in zip(
        "23456789TJQKA",
        [
            "two",
            "three",
            "four",
            "five",
            "six",
            "seven",
            "eight",
            "nine",
            "ten",
            "jack",
            "queen",
            "king",
            "ace",
        ],
        strict=True,
    )
}
SUIT_NAME = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}


def spoken(card: str) -> str:
    """A card as the narration says it: "Kd" -> "king of diamonds"."""
    return f"{CARD_NAME[card[0]]} of {SUIT_NAME[card[1]]}"


def polite(page) -> list[str]:
    return page.locator("[data-narration] p").all_inner_texts()


def urgent(page) -> list[str]:
    return page.locator("[data-narration-urgent] p").all_inner_texts()


@pytest.fixture(autouse=True)
def _tables_closed_after_test():
    yield
    Table.objects.update(is_open=False, next_hand_at=None)


def test_a_turn_played_with_the_keyboard_alone_and_narrated_r_hist_2(new_context):
    table = make_table(name="Narrated", action_clock=30)
    ann, ben = seated_pair(new_context, table)
    watcher = new_context().new_page()
    steps.open_table(watcher, table.pk)

    seat = to_act(ann)
    player, other = (ann, ben) if seat == 1 else (ben, ann)
    # The player to bring in hears it, assertively, with what they face and their clock.
    player.locator("[data-narration-urgent] p").first.wait_for()
    assert re.fullmatch(r"Your turn: bring in for \$[\d.]+, \d+ seconds\.", urgent(player)[-1])
    # Focus is on the action bar: the keyboard alone plays the turn (B: bring in).
    player.wait_for_function(
        "() => document.activeElement && document.activeElement.closest('[data-actions]')"
    )
    mine = steps.down_cards(player)
    player.keyboard.press("h")
    answer = polite(player)[-1]
    assert all(spoken(card) in answer for card in mine), answer
    player.keyboard.press("b")
    player.locator("[data-narration] p", has_text="You bring in for").wait_for()
    watcher.locator("[data-narration] p", has_text=f"Seat {seat}, ").last.wait_for()
    watcher.locator("[data-narration] p", has_text="brings in for").wait_for()

    # R-HIST-2: the watcher and the other player never hear a down card that is not theirs.
    theirs = steps.down_cards(other)
    for card in mine:
        assert not any(spoken(card) in line for line in polite(watcher))
        assert not any(spoken(card) in line for line in polite(other))
    for card in theirs:
        assert not any(spoken(card) in line for line in polite(watcher))
        assert not any(spoken(card) in line for line in polite(player))

    # A reload (a snapshot) says nothing again: the region starts empty.
    watcher.reload()
    watcher.locator('[data-connection="online"]').first.wait_for()
    watcher.locator(".felt .seat").first.wait_for()
    watcher.wait_for_timeout(300)
    assert polite(watcher) == []

    # The help dialog opens on "?" and lists the reading keys.
    other.keyboard.press("?")
    help_dialog = other.locator("dialog[data-keys-help]")
    assert help_dialog.is_visible()
    assert "My cards and my hand's strength" in help_dialog.inner_text()

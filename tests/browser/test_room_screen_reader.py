"""Issue #27: a stud table a blind player can play. The dealer's lines in a polite live region
(never another player's down card, R-HIST-2; never said twice on a reload), the player's own
turn in the assertive one, and a turn played with the keyboard alone."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.utils import timezone

from stud.hand import StudHand
from tables.models import Hand, Table
from tests.browser import steps
from tests.browser.steps import to_act
from tests.browser.test_room_pre_actions import seated_pair
from tests.history_hands import hold_scheduling
from tests.table_factories import make_table, seated_player, stacked_deck

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


# Issue #27's dealer's account, heard: three players, ann short (all in on 5th street, under a
# side pot). The first hand's button is the last seat, so seat 1 is dealt first (R-DEAL-1).
NARRATED_DECK = (
    "Ah Kh 5s Ad Kd 6s As Ks 2c"  # 3rd street: two down each in turn, then the doors
    " 4s 7d 8c 3d"  # 4th: a burn, then seats 1, 2, 3
    " 8s 9h Jc Th"  # 5th
    " Tc Qc 4d 9s"  # 6th
    " Jd 3c 2d 7c"  # 7th, face down
)
# What each plays, turn by turn, in the keys of the action bar (C check/call, B bring in, R
# complete/bet/raise); past its list a player checks or calls: ann completes and bets, then
# checks and calls all in on 5th; ben calls, then bets from 5th street on; cat brings in and
# calls everything.
NARRATED_KEYS = {"ann": ["r", "r", "c", "c"], "ben": ["c", "c", "r", "r", "r"], "cat": ["b"]}


# The hands shown at the showdown, as said.
BEN_SEVEN = (
    "king of hearts, king of diamonds, king of spades, eight of clubs, jack of clubs,"
    " four of diamonds, two of diamonds: Three of a kind, kings."
)
ANN_SEVEN = (
    "ace of hearts, ace of diamonds, ace of spades, seven of diamonds, nine of hearts,"
    " queen of clubs, three of clubs: Three of a kind, aces."
)
# The dealer's account as the watcher hears it, line by line (every line of the polite region).
WATCHER_HEARS = [
    "New hand #1, 3 players.",
    "Antes in: $0.30 in the pot.",
    "3rd street. Seat 1, ann, gets the ace of spades.",
    "Seat 2, ben, gets the king of spades.",
    "Seat 3, cat, gets the two of clubs.",
    "Seat 3, cat, to act.",
    "Seat 3, cat, brings in for $0.25.",
    "Seat 1, ann, to act, facing $0.25.",
    "Seat 1, ann, completes to $1.00.",
    "Seat 2, ben, to act, facing $1.00.",
    "Seat 2, ben, calls $1.00.",
    "Seat 3, cat, to act, facing $0.75.",
    "Seat 3, cat, calls $0.75.",
    "4th street. Seat 1, ann, gets the seven of diamonds: ace high showing.",
    "Seat 2, ben, gets the eight of clubs: king high showing.",
    "Seat 3, cat, gets the three of diamonds: three high showing.",
    "Seat 1, ann, to act.",
    "Seat 1, ann, bets $1.00.",
    "Seat 2, ben, to act, facing $1.00.",
    "Seat 2, ben, calls $1.00.",
    "Seat 3, cat, to act, facing $1.00.",
    "Seat 3, cat, calls $1.00.",
    "5th street. Seat 1, ann, gets the nine of hearts: ace high showing.",
    "Seat 2, ben, gets the jack of clubs: king high showing.",
    "Seat 3, cat, gets the ten of hearts: ten high showing.",
    "Seat 1, ann, to act.",
    "Seat 1, ann, checks.",
    "Seat 2, ben, to act.",
    "Seat 2, ben, bets $2.00.",
    "Seat 3, cat, to act, facing $2.00.",
    "Seat 3, cat, calls $2.00.",
    "Seat 1, ann, to act, facing $2.00.",
    "Seat 1, ann, calls $0.90, all-in.",
    "6th street. Seat 1, ann, gets the queen of clubs: ace high showing.",
    "Seat 2, ben, gets the four of diamonds: king high showing.",
    "Seat 3, cat, gets the nine of spades: ten high showing.",
    "Seat 2, ben, to act.",
    "Seat 2, ben, bets $2.00.",
    "Seat 3, cat, to act, facing $2.00.",
    "Seat 3, cat, calls $2.00.",
    "7th street: a card face down to each player.",
    "Seat 2, ben, to act.",
    "Seat 2, ben, bets $2.00.",
    "Seat 3, cat, to act, facing $2.00.",
    "Seat 3, cat, calls $2.00.",
    "Showdown.",
    "Seat 2, ben, shows " + BEN_SEVEN,
    "Seat 3, cat, mucks.",
    "Seat 1, ann, shows " + ANN_SEVEN,
    "Seat 1, ann, wins $9.00 from the main pot with Three of a kind, aces.",
    "Seat 2, ben, wins $10.20 from side pot 1 with Three of a kind, kings.",
]
# And as ann hears it: her own cards and actions in the second person, her turns said in the
# assertive region instead of "to act".
ANN_HEARS = [
    "New hand #1, 3 players.",
    "Antes in: $0.30 in the pot.",
    "3rd street. You get the ace of spades.",
    "Seat 2, ben, gets the king of spades.",
    "Seat 3, cat, gets the two of clubs.",
    "Seat 3, cat, to act.",
    "Your down cards: ace of hearts, ace of diamonds.",
    "Seat 3, cat, brings in for $0.25.",
    "You complete to $1.00.",
    "Seat 2, ben, to act, facing $1.00.",
    "Seat 2, ben, calls $1.00.",
    "Seat 3, cat, to act, facing $0.75.",
    "Seat 3, cat, calls $0.75.",
    "4th street. You get the seven of diamonds: ace high showing.",
    "Seat 2, ben, gets the eight of clubs: king high showing.",
    "Seat 3, cat, gets the three of diamonds: three high showing.",
    "You bet $1.00.",
    "Seat 2, ben, to act, facing $1.00.",
    "Seat 2, ben, calls $1.00.",
    "Seat 3, cat, to act, facing $1.00.",
    "Seat 3, cat, calls $1.00.",
    "5th street. You get the nine of hearts: ace high showing.",
    "Seat 2, ben, gets the jack of clubs: king high showing.",
    "Seat 3, cat, gets the ten of hearts: ten high showing.",
    "You check.",
    "Seat 2, ben, to act.",
    "Seat 2, ben, bets $2.00.",
    "Seat 3, cat, to act, facing $2.00.",
    "Seat 3, cat, calls $2.00.",
    "You call $0.90, all-in.",
    "6th street. You get the queen of clubs: ace high showing.",
    "Seat 2, ben, gets the four of diamonds: king high showing.",
    "Seat 3, cat, gets the nine of spades: ten high showing.",
    "Seat 2, ben, to act.",
    "Seat 2, ben, bets $2.00.",
    "Seat 3, cat, to act, facing $2.00.",
    "Seat 3, cat, calls $2.00.",
    "7th street: a card face down to each player.",
    "Seat 2, ben, to act.",
    "Your down card: three of clubs.",
    "Seat 2, ben, bets $2.00.",
    "Seat 3, cat, to act, facing $2.00.",
    "Seat 3, cat, calls $2.00.",
    "Showdown.",
    "Seat 2, ben, shows " + BEN_SEVEN,
    "Seat 3, cat, mucks.",
    "You show " + ANN_SEVEN,
    "You win $9.00 from the main pot with Three of a kind, aces.",
    "Seat 2, ben, wins $10.20 from side pot 1 with Three of a kind, kings.",
]
CAT_DOWN = ("five of spades", "six of spades", "seven of clubs")


def wait_until(done: Callable[[], bool], what: str, within: float = 15) -> None:
    deadline = time.monotonic() + within
    while not done():
        if time.monotonic() > deadline:
            raise AssertionError(f"not seen: {what}")
        time.sleep(0.05)


def play_the_turns(pages: dict[int, Any], names: dict[int, str], table: Table) -> None:
    """Each turn with the keyboard alone, on the page of the seat the room says is to act, once
    that page shows its action bar with the focus in it (issue #27); until the hand ends."""
    keys = {name: list(plan) for name, plan in NARRATED_KEYS.items()}
    for _ in range(40):
        hand = Hand.objects.filter(table=table).order_by("-id").first()
        assert hand is not None
        if hand.ended_at is not None:
            return
        seat = StudHand.from_json(hand.state).to_act
        assert seat is not None, "a hand in play with nobody to act"
        page = pages[seat]
        page.locator("[data-actions]:not([hidden]) button").first.wait_for()
        page.wait_for_function(
            "() => document.activeElement && document.activeElement.closest('[data-actions]')"
        )
        plan = keys[names[seat]]
        key = plan.pop(0) if plan else "c"
        page.keyboard.press(key)
        wait_until(
            lambda hand_id=hand.pk, before=hand.seq: Hand.objects.get(pk=hand_id).seq > before,
            f"{names[seat]}'s key {key!r} applied",
        )
    raise AssertionError("the hand did not end")


def test_a_hand_to_a_showdown_with_a_side_pot_as_a_screen_reader_hears_it_r_hist_2(
    new_context, sweep_hold, stacked_decks, monkeypatch
):
    """Issue #27: the whole hand, dealt by the server from a stacked deck and played with the
    keyboard alone, in the exact lines the polite region says to a player and to a watcher:
    the deal of every street, each action with its amount, whose turn it is, the all-in, the
    showdown and who wins the main pot and the side pot; the player's own turns in the
    assertive region; never another player's down card (R-HIST-2)."""
    hold_scheduling(monkeypatch)  # the seats are taken here; the server deals
    monkeypatch.setattr("tables.services.outbox.broadcast", lambda **kwargs: None)
    table = make_table(name="Heard", action_clock=30, buy_in=300)
    sweep_hold.tables(table)
    names = {1: "ann", 2: "ben", 3: "cat"}
    buy_ins = {1: 300, 2: 2000, 3: 2000}
    for seat, name in names.items():
        seated_player(table, seat_number=seat, username=name, buy_in=buy_ins[seat])
    pages = {}
    for seat, name in names.items():
        pages[seat] = new_context().new_page()
        steps.log_in(pages[seat], name)
        steps.open_table(pages[seat], table.pk)
        pages[seat].locator(f'.seat.mine[data-seat="{seat}"]').wait_for()
    watcher = new_context().new_page()
    steps.open_table(watcher, table.pk)

    stacked_decks(stacked_deck(NARRATED_DECK))
    Table.objects.filter(pk=table.pk).update(next_hand_at=timezone.now())
    sweep_hold.release()  # the server's sweep deals the hand
    wait_until(lambda: Hand.objects.filter(table=table).exists(), "the hand dealt")
    sweep_hold.tables(table)  # and no clock runs out while the keys are pressed
    play_the_turns(pages, names, table)
    for page in (*pages.values(), watcher):
        page.locator("[data-narration] p", has_text="from side pot 1").wait_for(state="attached")

    ann, watcher_hears = pages[1], polite(watcher)
    assert polite(ann) == ANN_HEARS
    assert watcher_hears == WATCHER_HEARS
    # The assertive region: only ann's own turns, with what she faces and her clock.
    turns = [r"\$0\.25 to call", "nothing to call", "nothing to call", r"\$0\.90 to call"]
    assert len(urgent(ann)) == len(turns)
    for said, facing in zip(urgent(ann), turns, strict=True):
        assert re.fullmatch(rf"Your turn: {facing}, \d+ seconds\.", said), said
    # R-HIST-2: cat mucked; his down cards are never said, to anyone.
    for page in (ann, pages[2], watcher):
        assert not any(card in line for card in CAT_DOWN for line in polite(page))

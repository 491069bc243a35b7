"""Two players sign up, are credited by staff, sit down and play a hand by clicking."""

from __future__ import annotations

import re

import pytest
from django.db.models import Sum

from accounts.models import LedgerEntry, Player
from tables.models import Hand, HandEvent
from tests.browser import steps
from tests.factories import funded
from tests.table_factories import make_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_two_players_play_a_hand_to_showdown_by_clicking(new_context):
    """R-BUY-1, R-SHOW-1, R-HIST-2: each player sees only their own down cards until the
    showdown names the hands; after they leave each balance equals the ledger and the hand."""
    table = make_table(name="Broadway", action_clock=30)
    alice, bob = new_context().new_page(), new_context().new_page()
    steps.sign_up(alice, "alice")
    steps.sign_up(bob, "bob")
    for name in ("alice", "bob"):
        funded(Player.objects.get(username=name), 10_000, reason="staff credit")

    alice.goto("/")
    # Issue #21 (8): nobody plays there yet, so the lobby folds the table away until asked.
    alice.get_by_role("button", name="Show 1 empty table").click()
    alice.get_by_role("link", name="Open table Broadway").click()
    alice.wait_for_url(re.compile(rf"/tables/{table.pk}/$"))
    alice.locator('[data-connection="online"]').first.wait_for()
    steps.sit(alice, 1, "20.00")
    steps.open_table(bob, table.pk)
    steps.sit(bob, 2, "30")

    # Third street: each sees two of their own down cards, and only backs at the other seat.
    alice.locator(".seat.mine .card.hole").nth(1).wait_for()
    bob.locator(".seat.mine .card.hole").nth(1).wait_for()
    seen = {"alice": set(steps.down_cards(alice)), "bob": set(steps.down_cards(bob))}
    assert len(seen["alice"]) == len(seen["bob"]) == 2

    def nobody_sees_the_other() -> None:
        seen["alice"].update(steps.down_cards(alice))
        seen["bob"].update(steps.down_cards(bob))
        alice_sees = steps.faces_before_showdown(alice, 2)
        bob_sees = steps.faces_before_showdown(bob, 1)
        assert alice_sees is None or not seen["bob"] & set(alice_sees), "alice sees bob's card"
        assert bob_sees is None or not seen["alice"] & set(bob_sees), "bob sees alice's card"

    steps.play_hand_passively([alice, bob], watch=nobody_sees_the_other)
    assert len(seen["alice"]) == len(seen["bob"]) == 3  # two down, and the river

    # The showdown names the winning hand on both screens and highlights the winner.
    for page in (alice, bob):
        page.locator(".seat.winner [data-hand-name]").first.wait_for()
        assert page.locator(".seat.winner [data-hand-name]").first.inner_text().strip()
    # Leave before the next hand is dealt.
    steps.leave_table(alice)
    steps.leave_table(bob)
    alice.get_by_role("button", name="Sit at seat 1").wait_for()
    bob.get_by_role("button", name="Sit at seat 2").wait_for()

    hand = Hand.objects.filter(table=table, ended_at__isnull=False).order_by("number").first()
    assert hand is not None
    end = HandEvent.objects.filter(hand=hand, kind="hand_end").order_by("-seq").first()
    stacks = end.payload["stacks"]
    assert HandEvent.objects.filter(hand=hand, kind="show").exists()
    buy_ins = {"alice": 2000, "bob": 3000}
    for name, seat in (("alice", "1"), ("bob", "2")):
        player = Player.objects.get(username=name)
        ledger = LedgerEntry.objects.filter(player=player).aggregate(total=Sum("amount"))["total"]
        assert player.balance == ledger
        if Hand.objects.filter(table=table).count() == 1:
            # The play-money sign-up grant, the staff credit, less the buy-in, plus the stack.
            assert player.balance == 110_000 - buy_ins[name] + stacks[seat]
    # The account page shows that balance.
    for name, page in (("alice", alice), ("bob", bob)):
        page.goto("/accounts/")
        balance = Player.objects.get(username=name).balance
        shown = page.get_by_test_id("balance").inner_text()
        assert shown == f"${balance // 100:,}.{balance % 100:02d}"

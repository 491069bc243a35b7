"""A Razz table with a bot, played end to end in the browser (R-RAZZ-1..6): the header says
Razz, the player's strength line speaks lows ("7-4-A"), the bot plays its turns over HTTP and
WebSocket, and the hand ends with a winner named by its low."""

from __future__ import annotations

import asyncio
import re
import threading

import pytest
from playwright.sync_api import expect

from accounts.models import Player
from bots.client import Bot
from tables.models import Hand
from tests.browser import steps
from tests.consumer_helpers import make_player
from tests.factories import PASSWORD, funded
from tests.table_factories import make_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LOW_WORDS = re.compile(r"^([2-9TJQKA](-[2-9TJQKA])*|(A pair|Two pair|Three of a kind|Four).*)$")


def test_r_razz_6_a_razz_table_with_a_bot_plays_a_hand_in_the_browser(new_context, room_url):
    table = make_table(name="Razz lane", game="razz", action_clock=30)
    bot_player = make_player()
    bot = Bot(base_url=room_url, table_id=table.pk, username=bot_player.username,
              password=PASSWORD, seed=3, policy="call")  # fmt: skip
    outcome: list[object] = []
    thread = threading.Thread(
        target=lambda: outcome.append(asyncio.run(bot.play(hands=1, timeout=90))), daemon=True
    )
    page = new_context().new_page()
    steps.sign_up(page, "rosa")
    funded(Player.objects.get(username="rosa"), 10_000, reason="staff credit")
    steps.open_table(page, table.pk)
    expect(page.locator("[data-stakes]")).to_contain_text("Razz")
    steps.sit(page, 1, "20")
    thread.start()
    page.locator(".seat.mine .card.hole").nth(1).wait_for(timeout=60_000)
    strength = page.locator(".strength").first
    strength.wait_for(timeout=30_000)
    assert LOW_WORDS.match(strength.inner_text().strip()), strength.inner_text()
    steps.play_hand_passively([page], within=90)
    thread.join(timeout=90)
    hand = Hand.objects.filter(table=table, ended_at__isnull=False).first()
    assert hand is not None and hand.state["config"]["game"] == "razz"
    assert bot.stats.actions > 0

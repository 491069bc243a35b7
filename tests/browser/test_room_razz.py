"""A Razz table with a bot, played end to end in the browser (R-RAZZ-1..6): the header says
Razz, the player's strength line speaks lows ("7-4-A"), the bot plays its turns over HTTP and
WebSocket, and the hand ends with a winner named by its low. A Triple Stud table (R-MIX-1)
with a bot, across its turn from Stud to Razz: the header says the game now and the next
hand's, as the server's frames say it."""

from __future__ import annotations

import asyncio
import re
import threading

import pytest
from playwright.sync_api import expect

from accounts.models import Player
from bots.client import Bot
from tables.models import Hand, Table
from tests.browser import steps
from tests.consumer_helpers import make_player
from tests.factories import PASSWORD, funded
from tests.table_factories import make_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def calling_bot(
    room_url: str, table: Table, *, seed: int, hands: int, timeout: float
) -> tuple[Bot, threading.Thread]:
    """A bot that calls every bet, seated at ``table`` by its thread once started."""
    bot = Bot(base_url=room_url, table_id=table.pk, username=make_player().username,
              password=PASSWORD, seed=seed, policy="call")  # fmt: skip
    thread = threading.Thread(
        target=lambda: asyncio.run(bot.play(hands=hands, timeout=timeout)), daemon=True
    )
    return bot, thread


LOW_WORDS = re.compile(r"^([2-9TJQKA](-[2-9TJQKA])*|(A pair|Two pair|Three of a kind|Four).*)$")


def test_r_razz_6_a_razz_table_with_a_bot_plays_a_hand_in_the_browser(new_context, room_url):
    table = make_table(name="Razz lane", game="razz", action_clock=30)
    bot, thread = calling_bot(room_url, table, seed=3, hands=1, timeout=90)
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


def test_r_mix_1_the_triple_stud_header_says_the_game_now_and_the_next_hands(new_context, room_url):
    """R-MIX-1 (issue #24): a Triple Stud table with seven hands dealt. Before the deal the
    header says the next hand is Stud, then Razz; while the 8th hand is played, "now Stud ·
    next hand Razz"; once it ends, "next hand Razz · 7 more before Stud Hi/Lo"; and the 9th is
    Razz. The page changes its words with each hand from the frames, with no reload."""
    table = make_table(name="Triple lane", triple_stud=True, action_clock=30)
    Table.objects.filter(pk=table.pk).update(hands_dealt=7)
    _bot, thread = calling_bot(room_url, table, seed=5, hands=2, timeout=150)
    page = new_context().new_page()
    steps.sign_up(page, "tess")
    funded(Player.objects.get(username="tess"), 10_000, reason="staff credit")
    steps.open_table(page, table.pk)
    header = page.locator("[data-stakes]")
    expect(header).to_contain_text("Triple Stud · next hand Stud · then Razz · $1/$2")
    steps.sit(page, 1, "20")
    thread.start()

    expect(header).to_contain_text("Triple Stud · now Stud · next hand Razz", timeout=60_000)
    steps.play_hand_passively([page], within=90)
    expect(header).to_contain_text(
        "Triple Stud · next hand Razz · 7 more before Stud Hi/Lo", timeout=30_000
    )
    expect(header).to_contain_text(
        "Triple Stud · now Razz · next hand Razz · 7 more before Stud Hi/Lo", timeout=60_000
    )
    steps.play_hand_passively([page], within=90)
    thread.join(timeout=120)

    games = list(Hand.objects.filter(table=table).order_by("number").values_list("number", "state"))
    assert [(number, state["config"]["game"]) for number, state in games] == [
        (8, "stud"),
        (9, "razz"),
    ]

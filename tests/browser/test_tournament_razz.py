"""A Razz tournament with bots, played end to end in the browser (issue #24: "a Razz
tournament plays end to end in the browser with bots"; R-MIX-1: "a tournament may be played
as Razz"). Two bots register over the API and wait on the tournament's socket; a player
finds it in the lobby by its game, registers by clicking, which starts it (a sit-and-go of
three), is taken to the table, whose header says Razz, and plays every turn by clicking
until the tournament tells them their place. Every hand of it was dealt as Razz."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest
from playwright.sync_api import expect

from accounts.models import Player
from bots.client import TournamentBot, play_tournament
from tables.models import Hand
from tests.browser import steps
from tests.consumer_helpers import make_player
from tests.factories import PASSWORD, funded
from tournaments.models import Tournament, TournamentStatus
from tournaments.services.entries import tournament_create

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_r_razz_1_a_razz_tournament_with_bots_plays_to_a_winner_in_the_browser(
    new_context, room_url
):
    tournament = tournament_create(
        name="Razz Tuesday",
        staff=None,
        preset="turbo",
        settings={
            "game": "razz",
            "buy_in": 500,
            "fee": 0,
            "add_on_price": 0,
            "starting_chips": 30,  # a few hands of level 1 (ante 5, 10/20) bust a player
            "max_players": 3,
            "start_when_registered": 3,
            "action_clock": 20,
        },
    )
    bots = [
        TournamentBot(
            base_url=room_url,
            tournament_id=tournament.pk,
            username=bot.username,
            password=PASSWORD,
            policy="random",
            seed=number,
        )
        for number, bot in enumerate([make_player(), make_player()], start=1)
    ]
    outcome: list[object] = []
    thread = threading.Thread(
        target=lambda: outcome.append(asyncio.run(play_tournament(bots, timeout=240))),
        daemon=True,
    )
    thread.start()
    page = new_context().new_page()
    steps.sign_up(page, "rhea")
    funded(Player.objects.get(username="rhea"), 10_000, reason="staff credit")
    until = time.monotonic() + 60
    while Tournament.objects.get(pk=tournament.pk).entries.count() < 2:
        assert time.monotonic() < until, "the bots did not register"
        page.wait_for_timeout(200)

    page.goto(f"{room_url}/tournaments/")
    row = page.locator(f'tr[data-tournament-id="{tournament.pk}"]')
    expect(row.locator('td[data-label="Game"]')).to_have_text("Razz")
    row.get_by_role("link", name="Open tournament Razz Tuesday").click()
    expect(page.locator(".room-facts")).to_contain_text("Razz · fixed limit")
    page.locator("[data-register]").click()

    page.wait_for_url(f"{room_url}/tables/*/", timeout=60_000)
    expect(page.locator("[data-stakes]")).to_contain_text("Razz")
    notice = page.locator("[data-notice]")
    until = time.monotonic() + 240
    while not notice.is_visible():
        assert time.monotonic() < until, "the tournament did not tell rhea her place"
        if not steps.click_passive(page):
            page.wait_for_timeout(150)
    expect(notice).to_contain_text("You finished")
    thread.join(timeout=240)

    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.FINISHED
    games = {
        hand.state["config"]["game"]
        for hand in Hand.objects.filter(table__tournament_table__tournament=tournament)
    }
    assert games == {"razz"}

"""Issue #21: the lobby as a newcomer meets it. Tables nobody sits at are folded under a
"Show N empty tables" button; a table is previewed on hover (a mouse) or a tap (a phone):
its seats, names, stacks and the up cards of the hand in play, never a down card
(R-HIST-2)."""

from __future__ import annotations

import os
import re

import pytest
from playwright.sync_api import expect

from stud.cards import card_text
from tables import services
from tables.models import HandEvent
from tests.browser import steps
from tests.history_hands import hold_scheduling
from tests.table_factories import make_table, seated_player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = "/tmp/ui"  # where a run with LOBBY_SHOTS=1 leaves its pictures to look at


@pytest.fixture
def busy_room(monkeypatch, sweep_hold):
    """Capella with Ann and Bob in a hand on 3rd street; Deneb and Electra empty; all held
    off the server's clock sweep (nothing times out or is dealt while the test looks)."""
    hold_scheduling(monkeypatch)
    monkeypatch.setattr("tables.services.outbox.broadcast", lambda **kwargs: None)
    capella = make_table(name="Capella")
    empty = [make_table(name="Deneb"), make_table(name="Electra")]
    sweep_hold.tables(capella, *empty)
    ann = seated_player(capella, username="ann", seat_number=2)
    bob = seated_player(capella, username="bob", seat_number=5)
    assert services.hand_start(table_id=capella.pk).ok
    doors = {
        dealt["seat"]: [card_text(c) for c in dealt["up"]]
        for dealt in HandEvent.objects.get(kind="cards_dealt").payload["seats"]
    }
    downs = {
        card_text(card)
        for event in HandEvent.objects.filter(kind="down_cards")
        for card in event.payload["cards"]
    }
    return {"ann": ann, "bob": bob, "doors": doors, "downs": downs}


def test_empty_tables_are_folded_under_a_button(new_context, busy_room):
    page = new_context().new_page()
    page.goto("/")
    rows = page.locator("tr.lobby-row")
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text("Capella")
    fold = page.get_by_role("button", name="Show 2 empty tables")
    expect(fold).to_have_attribute("aria-expanded", "false")
    fold.click()
    expect(rows).to_have_count(3)
    expect(page.locator("tr.lobby-row.empty-table")).to_have_text(
        [re.compile("Deneb"), re.compile("Electra")]
    )
    page.get_by_role("button", name="Hide 2 empty tables").click()
    expect(rows).to_have_count(1)


def test_r_hist_2_hovering_a_table_previews_its_seats_and_up_cards(new_context, busy_room):
    page = new_context().new_page()
    page.goto("/")
    page.locator("tr.lobby-row", has_text="Capella").locator("td.stakes").hover()
    panel = page.locator("[data-table-preview]")
    expect(panel).to_be_visible()
    expect(panel.locator("h2")).to_have_text("Capella")
    expect(panel).to_contain_text("3rd street")
    for name, seat in (("ann", 2), ("bob", 5)):
        line = panel.locator(f'[data-preview-seat="{seat}"]')
        expect(line).to_contain_text(busy_room[name].table_name)
        expect(line).to_contain_text("$19.90")  # $20 bought in, the 10c ante posted
        faces = line.locator(".card").evaluate_all("cards => cards.map(c => c.dataset.card)")
        assert faces == busy_room["doors"][seat]
    shown = set(panel.locator(".card").evaluate_all("cs => cs.map(c => c.dataset.card)"))
    assert not shown & busy_room["downs"]
    expect(panel).to_contain_text("6 seats open")
    if os.environ.get("LOBBY_SHOTS"):
        page.screenshot(path=f"{SHOTS}/lobby-preview-1440.png")
    page.mouse.move(5, 400)
    expect(panel).to_be_hidden()


def test_a_tap_on_a_phone_previews_the_table_and_the_preview_opens_it(
    browser, room_url, console_errors, busy_room
):
    """No hover on a phone: a tap on the row previews the table in a sheet inside the
    screen (the page stays the lobby); its "Open table" goes to the table."""
    context = browser.new_context(
        base_url=room_url, viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    )
    try:
        context.on("page", console_errors.watch)
        page = context.new_page()
        page.goto("/")
        page.locator("tr.lobby-row", has_text="Capella").locator("td.stakes").tap()
        panel = page.locator("[data-table-preview]")
        expect(panel).to_be_visible()
        expect(panel.locator('[data-preview-seat="5"]')).to_contain_text(
            busy_room["bob"].table_name
        )
        assert page.url.rstrip("/") == room_url
        box = panel.bounding_box()
        assert box is not None
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390
        assert box["y"] >= 0 and box["y"] + box["height"] <= 844
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        if os.environ.get("LOBBY_SHOTS"):
            page.screenshot(path=f"{SHOTS}/lobby-preview-390.png")
        panel.get_by_role("link", name="Open table").tap()
        page.wait_for_url("**/tables/*/")
    finally:
        context.close()
    assert console_errors.errors == []


def test_a_player_registers_from_the_tournaments_tab(new_context):
    """Issue #21: the README sends players to the lobby's Tournaments tab to register; the
    row has the Register button (buy-in + fee), and after it says Registered, with the
    player counted and Unregister beside it. A visitor is asked to log in."""
    from tests.factories import PlayerFactory, funded
    from tests.tournaments.tui_rows import make_tournament
    from tournaments.models import TournamentEntry

    tournament = make_tournament(start_when_registered=6)
    visitor = new_context().new_page()
    visitor.goto("/tournaments/")
    row = visitor.locator("tr.lobby-row", has_text="Tuesday Stud")
    expect(row.get_by_role("link", name="Log in to register")).to_be_visible()

    player = PlayerFactory(username="dora")
    funded(player, 10_000)
    page = new_context().new_page()
    steps.log_in(page, "dora")
    page.goto("/tournaments/")
    row = page.locator("tr.lobby-row", has_text="Tuesday Stud")
    row.get_by_role("button", name="Register $40.00+$4.00: Tuesday Stud").click()
    expect(page.get_by_text("You are registered.")).to_be_visible()
    assert page.url.endswith("/tournaments/")
    row = page.locator("tr.lobby-row", has_text="Tuesday Stud")
    expect(row.locator(".entry")).to_contain_text("Registered")
    expect(row).to_contain_text("1/16")
    assert TournamentEntry.objects.filter(tournament=tournament, player=player).exists()
    if os.environ.get("LOBBY_SHOTS"):
        page.screenshot(path=f"{SHOTS}/tournaments-1440.png")
        page.set_viewport_size({"width": 390, "height": 844})
        page.screenshot(path=f"{SHOTS}/tournaments-390.png", full_page=True)
    row.get_by_role("button", name="Unregister: Tuesday Stud").click()
    expect(page.get_by_text("You are unregistered")).to_be_visible()
    expect(page.locator("tr.lobby-row", has_text="Tuesday Stud")).to_contain_text("0/16")

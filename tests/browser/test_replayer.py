"""The hand replayer steps through a finished hand as its player may see it."""

from __future__ import annotations

import random
import re

import pytest
from playwright.sync_api import expect

from stud import SeatSetup, StudHand
from stud.cards import card_text
from stud.dealing import Deal, deal_of, deal_positions
from tables import selectors, services
from tables.models import HandEvent
from tests.browser import steps
from tests.history_hands import hold_scheduling
from tests.stud.conftest import config
from tests.table_factories import make_table, play_down, seated_player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def finished_hand(monkeypatch, sweep_hold):
    """A hand played down to showdown in the test process: no clock, no broadcast; its table
    held off the server's clock sweep (no turn timed out, no next hand dealt)."""
    hold_scheduling(monkeypatch)
    monkeypatch.setattr("tables.services.outbox.broadcast", lambda **kwargs: None)
    table = make_table(name="Replay")
    sweep_hold.tables(table)
    alice, bob = seated_player(table, username="ra"), seated_player(table, username="rb")
    assert services.hand_start(table_id=table.pk).ok
    hand = play_down(table, {1: alice, 2: bob})
    return hand, alice


def test_the_hand_page_replays_a_hand_action_by_action(new_context, finished_hand):
    """R-HIST-2: Alice's replay shows her own down cards from the first step, Bob's only if
    he showed them; the last step names the hands and highlights the winner. DESIGN
    "Fairness": Verify checks, in the browser, the leaves against the commitment and each
    card she saw at its place in the deal; the page's script places cards as the engine does,
    R-DEAL-5's reshuffle included."""
    hand, alice = finished_hand
    history = selectors.hand_replay(hand.pk, alice)
    assert history is not None
    assert history["viewer_seat"] == 1
    assert all(e["kind"] != "down_cards" or e["payload"]["seat"] == 1 for e in history["events"])
    hers = HandEvent.objects.get(hand=hand, kind="down_cards", visible_to=1, payload__street=3)
    his = HandEvent.objects.get(hand=hand, kind="down_cards", visible_to=2, payload__street=3)
    hers_text = [card_text(c) for c in hers.payload["cards"]]
    his_text = [card_text(c) for c in his.payload["cards"]]
    page = new_context().new_page()
    steps.log_in(page, alice.username)
    page.goto(f"/hands/{hand.pk}/")
    replay = page.locator("#replayer")
    for card in hers_text:
        expect(replay.locator(f'.seat.mine .card.hole[data-card="{card}"]')).to_have_count(1)
    for card in his_text:
        expect(replay.locator(f'.card.face[data-card="{card}"]')).to_have_count(0)
    first = replay.locator(".replayer-position").inner_text()
    replay.get_by_role("button", name="Next action").click()
    expect(replay.locator(".replayer-position")).not_to_have_text(first)
    replay.get_by_role("button", name="Next street").click()
    expect(replay.locator(".felt-title")).to_have_text("Fourth street")
    replay.get_by_role("button", name="Last step").click()
    replay.locator(".seat.winner .hand-name").first.wait_for()
    shown = HandEvent.objects.filter(hand=hand, kind="show").values_list("payload", flat=True)
    for payload in shown:
        for card in payload["cards"]:
            assert replay.locator(f'.card.face[data-card="{card_text(card)}"]').count() >= 1
    for control in replay.get_by_role("button").all():
        assert control.get_attribute("aria-label")
    verify = page.locator("[data-fairness]")
    verify.get_by_role("button", name="Verify").click()
    result = verify.locator('[data-verify-result][data-verified="yes"]')
    expect(result).to_have_text(re.compile("^Verified: the 52 leaves give the commitment"))
    # The page's module (static/js/hand_detail.js) imports verify.js beside it.
    verify_url = page.evaluate(
        """() => new URL("verify.js", document.querySelector('script[src*="hand_detail"]').src)
                   .href"""
    )
    deals = [reshuffled_deal(players) for players in (7, 8)]
    placed = page.evaluate(
        """async ([url, deals]) => {
             const verify = await import(url);
             return deals.map((deal) => Object.fromEntries(verify.dealPositions(deal)));
           }""",
        [verify_url, [deal.to_json() for deal in deals]],
    )
    assert placed == [engine_positions(deal) for deal in deals]
    tampered = page.evaluate(
        """async (url) => {
             const verify = await import(url);
             const honest = JSON.parse(document.getElementById("hand-fairness").textContent);
             const salted = structuredClone(honest);
             salted.revealed[0].salt = "0".repeat(64);
             const moved = structuredClone(honest);
             moved.revealed[0].position = (moved.revealed[0].position + 1) % 52;
             const leaves = structuredClone(honest);
             leaves.leaves.reverse();
             const results = await Promise.all([salted, moved, leaves].map(verify.verifyCards));
             return results.map((result) => result.ok);
           }""",
        verify_url,
    )
    assert tampered == [False, False, False]


def reshuffled_deal(players: int) -> Deal:
    """Seven players to the river: rivers from the reshuffled pile; eight: a community card."""
    deck = list(range(52))
    random.Random(players).shuffle(deck)
    seats = [SeatSetup(seat=n, name=f"P{n}", stack=1000) for n in range(1, players + 1)]
    hand, _ = StudHand.start(config(), seats, deck, players, reshuffle_seed=2**31 - 5 + players)
    while not hand.is_over:
        seat = hand.to_act
        assert seat is not None
        offer = next(
            o for o in hand.legal_actions(seat) if o.kind.value in ("check", "call", "bring_in")
        )
        hand, _ = hand.apply(offer.for_seat(seat))
    deal = deal_of(hand)
    assert deal.river == ("reshuffle" if players == 7 else "community")
    return deal


def engine_positions(deal: Deal) -> dict[str, int]:
    return {
        "community" if slot.face == "community" else f"{slot.seat}:{slot.index}": position
        for slot, position in deal_positions(deal)
        if slot.face != "burn"
    }


STREET_NUMBERS = {
    "Third street": 3,
    "Fourth street": 4,
    "Fifth street": 5,
    "Sixth street": 6,
    "Seventh street": 7,
}


def test_r_deal_2_the_replayer_draws_each_of_your_cards_once(new_context, finished_hand):
    """R-DEAL-2/4, issue #21: at every step before the showdown Alice's seat holds the cards
    dealt to her so far, each once: 3 on 3rd street, ..., 7 at the river (not her down cards
    face up and again as backs: 9 at the river)."""
    hand, alice = finished_hand
    page = new_context().new_page()
    steps.log_in(page, alice.username)
    page.goto(f"/hands/{hand.pk}/")
    replay = page.locator("#replayer")
    mine = replay.locator(".seat.mine .cards .card")
    seen = set()
    for _ in range(60):
        title = replay.locator(".felt-title").text_content() or ""
        if replay.locator(".hand-name").count() == 0:  # nothing shown yet
            street = STREET_NUMBERS[title]
            seen.add(street)
            assert mine.count() == street, f"{title}: {mine.count()} cards"
            assert replay.locator(".seat.mine .card.back").count() == 0  # hers are all known
        position = replay.locator(".replayer-position").inner_text()
        if re.match(r"Step (\d+) of \1$", position):
            break
        replay.get_by_role("button", name="Next action").click()
        expect(replay.locator(".replayer-position")).not_to_have_text(position)
    assert seen == {3, 4, 5, 6, 7}


def test_the_replay_controls_draw_their_icons_and_name_the_new_street(new_context, finished_hand):
    """Issue #21: no font on Debian's Chromium has ⏮ ⏪ ⏩ ⏭ (U+23E9..U+23EF), so those
    buttons were empty boxes: each control draws an inline SVG icon and is named for screen
    readers. At a new street the caption says the street, not the last action again."""
    hand, alice = finished_hand
    page = new_context().new_page()
    steps.log_in(page, alice.username)
    page.goto(f"/hands/{hand.pk}/")
    replay = page.locator("#replayer")
    controls = replay.locator(".replayer-controls button")
    assert controls.count() == 7
    for control in controls.all():
        assert control.get_attribute("aria-label")
        icon = control.locator("svg")
        expect(icon).to_have_count(1)
        assert icon.get_attribute("aria-hidden") == "true"
        box = icon.bounding_box()
        assert box is not None and box["width"] >= 10 and box["height"] >= 10
        assert not re.search("[\u2300-\u23ff]", control.inner_text()), control.inner_text()
    expect(replay.locator(".replayer-caption")).to_have_text("3rd street")
    replay.get_by_role("button", name="Next street").click()
    expect(replay.locator(".felt-title")).to_have_text("Fourth street")
    expect(replay.locator(".replayer-caption")).to_have_text("4th street")
    replay.get_by_role("button", name="Next street").click()
    expect(replay.locator(".replayer-caption")).to_have_text("5th street")

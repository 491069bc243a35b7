"""The hand replayer steps through a finished hand as its player may see it."""

from __future__ import annotations

import pytest

from tables import selectors, services
from tables.engine.cards import card_text
from tables.models import HandEvent, Table
from tests.browser import steps
from tests.table_factories import make_table, play_down, seated_player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def finished_hand(monkeypatch):
    """A hand played down to showdown in the test process: no clock, no broadcast."""
    import tables.services.scheduling as scheduling

    for name in dir(scheduling):
        if name.startswith("schedule_"):
            monkeypatch.setattr(scheduling, name, lambda *args, **kwargs: None)
    monkeypatch.setattr("tables.services.outbox.broadcast", lambda **kwargs: None)
    table = make_table(name="Replay")
    alice, bob = seated_player(table, username="ra"), seated_player(table, username="rb")
    assert services.hand_start(table_id=table.pk).ok
    hand = play_down(table, {1: alice, 2: bob})
    Table.objects.filter(pk=table.pk).update(is_open=False, next_hand_at=None)
    return hand, alice


def test_the_hand_page_replays_a_hand_action_by_action(new_context, finished_hand):
    """R-HIST-2: Alice's replay shows her own down cards from the first step, Bob's only if
    he showed them; the last step names the hands and highlights the winner."""
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
        assert replay.locator(f'.seat.mine .card.hole[data-card="{card}"]').count() == 1
    for card in his_text:
        assert replay.locator(f'.card.face[data-card="{card}"]').count() == 0
    first = replay.locator(".replayer-position").inner_text()
    replay.get_by_role("button", name="Next action").click()
    assert replay.locator(".replayer-position").inner_text() != first
    replay.get_by_role("button", name="Next street").click()
    assert replay.locator(".felt-title").text_content() == "Fourth street"
    replay.get_by_role("button", name="Last step").click()
    replay.locator(".seat.winner .hand-name").first.wait_for()
    shown = HandEvent.objects.filter(hand=hand, kind="show").values_list("payload", flat=True)
    for payload in shown:
        for card in payload["cards"]:
            assert replay.locator(f'.card.face[data-card="{card_text(card)}"]').count() >= 1
    for control in replay.get_by_role("button").all():
        assert control.get_attribute("aria-label")

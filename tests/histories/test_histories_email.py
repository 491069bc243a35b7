"""R-HIST-2 "Email me these hands": the request, its per-hour limit, the Celery task, the
attachment (mucked cards shown to the players of the hand), and when it went."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from histories import services as history_mail
from histories.services import history_email_request, history_email_send
from histories.tasks import email_hand_histories
from stud.cards import cards_text
from tables.models import HistoryEmailRequest
from tests.factories import PlayerFactory
from tests.history_hands import PlayedTable, hold_scheduling, three_handed_hand

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _still(monkeypatch: pytest.MonkeyPatch, settings) -> list[int]:
    hold_scheduling(monkeypatch)
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    sent: list[int] = []
    monkeypatch.setattr(history_mail, "_schedule_send", sent.append)
    return sent


@pytest.fixture
def played() -> PlayedTable:
    return three_handed_hand()


def test_r_hist_2_the_emailed_copy_shows_the_cards_mucked_at_showdown(played):
    alice, bob = played.players[1], played.players[2]
    bob_cards = cards_text(played.engine.cards(2))
    result = history_email_request(player=alice, hand_ids=[played.hand.pk])
    assert result.ok

    assert email_hand_histories.apply(args=(result.request_id,)).get() == "sent"

    [message] = mail.outbox
    assert message.to == [alice.email]
    [(filename, text, mimetype)] = message.attachments
    assert filename == "hand-histories.txt" and mimetype == "text/plain"
    assert f"Seat 2: {bob.table_name} mucked [{bob_cards}]" in text
    carol_down = cards_text(played.engine.down_cards(3)[:2])
    assert carol_down not in text  # folded, never shown: not even by email
    request = HistoryEmailRequest.objects.get(pk=result.request_id)
    assert request.sent_at is not None and request.status == "sent"


def test_the_email_is_sent_once_even_if_the_task_runs_twice(played):
    result = history_email_request(player=played.players[1], hand_ids=[played.hand.pk])
    assert history_email_send(request_id=result.request_id) == "sent"
    assert history_email_send(request_id=result.request_id) == "already_sent"
    assert len(mail.outbox) == 1


def test_r_hist_2_only_hands_the_player_played_are_emailed(played):
    stranger = PlayerFactory()
    result = history_email_request(player=stranger, hand_ids=[played.hand.pk])
    assert not result.ok and result.error == "no_hands"
    assert not HistoryEmailRequest.objects.exists()


def test_histories_go_only_to_an_address_its_owner_confirmed(played):
    """Issue #22: sign-up takes any address unconfirmed (it tells nobody whether one is
    registered), so an unconfirmed one is mailed nothing, hand histories included."""
    alice = played.players[1]
    alice.email_confirmed = False
    alice.save(update_fields=["email_confirmed"])

    result = history_email_request(player=alice, hand_ids=[played.hand.pk])

    assert not result.ok and result.error == "no_email"
    assert result.message.startswith("Confirm your email address first")
    assert not HistoryEmailRequest.objects.exists()


def test_the_request_is_limited_per_player_per_hour(played, settings):
    settings.HISTORY_EMAILS_PER_HOUR = 2
    alice, bob = played.players[1], played.players[2]
    now = datetime(2025, 3, 14, 12, 0, tzinfo=UTC)
    ask = lambda player, at: history_email_request(  # noqa: E731
        player=player, hand_ids=[played.hand.pk], now=at
    )
    assert ask(alice, now).ok and ask(alice, now + timedelta(minutes=1)).ok
    refused = ask(alice, now + timedelta(minutes=2))
    assert not refused.ok and refused.error == "rate_limited"
    assert ask(bob, now + timedelta(minutes=2)).ok  # per player
    assert ask(alice, now + timedelta(minutes=61)).ok  # an hour later


def test_the_page_queues_the_email_after_commit_and_shows_when_it_went(
    played, _still, django_capture_on_commit_callbacks
):
    alice = played.players[1]
    client = Client()
    client.force_login(alice)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("hands_email"), {"hand_ids": [played.hand.pk]})
    assert response.status_code == 302
    [request_id] = _still
    page = client.get(reverse("hand_list")).content.decode()
    assert "Sending" in page
    history_email_send(request_id=request_id)
    page = client.get(reverse("hand_list")).content.decode()
    assert "Sent " in page


def test_a_post_naming_someone_elses_hand_sends_nothing(played):
    client = Client()
    client.force_login(PlayerFactory())
    response = client.post(reverse("hands_email"), {"hand_ids": [played.hand.pk]}, follow=True)
    assert "Choose hands you played" in response.content.decode()
    assert not HistoryEmailRequest.objects.exists()
    bad = client.post(reverse("hands_email"), {"hand_ids": ["x"]}, follow=True)
    assert bad.status_code == 200 and not HistoryEmailRequest.objects.exists()

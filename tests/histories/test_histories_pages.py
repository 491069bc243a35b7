"""R-HIST-1..3 on the player's pages: the list, a hand, its downloads, the zip, and who may
read what (a player reads only hands they played, and only the cards R-HIST-2 shows them)."""

from __future__ import annotations

import io
import json
import tomllib
import zipfile
from datetime import UTC, date, datetime

import pytest
from django.test import Client
from django.urls import reverse

from stud.cards import cards_text
from tests.factories import PlayerFactory, StaffFactory, log_in_staff
from tests.history_hands import PlayedTable, hold_scheduling, three_handed_hand

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _still(monkeypatch: pytest.MonkeyPatch) -> None:
    hold_scheduling(monkeypatch)


@pytest.fixture
def played() -> PlayedTable:
    return three_handed_hand(now=datetime(2025, 3, 14, 17, 0, tzinfo=UTC))


def client_for(player) -> Client:
    client = Client()
    client.force_login(player)
    return client


def hidden_cards(played: PlayedTable, viewer_seat: int) -> dict[int, str]:
    """Each other seat's down cards that were not shown at showdown, as text (their lines
    may name none of them: the up cards of a seat are never its down cards)."""
    engine = played.engine
    assert engine.result is not None
    shown = dict(engine.result.shown)
    return {
        seat: cards_text(engine.down_cards(seat))
        for seat in engine.seats
        if seat != viewer_seat and seat not in shown
    }


def test_r_hist_2_the_hand_has_a_fold_a_show_and_a_muck(played):
    result = played.engine.result
    assert result is not None
    assert dict(result.shown).keys() == {1}  # alice's aces
    assert dict(result.mucked).keys() == {2}  # bob, auto-muck
    assert played.engine.status_of(3) == "folded"


@pytest.mark.parametrize("seat", [1, 2, 3])
def test_r_hist_2_every_page_and_download_shows_only_own_and_shown_down_cards(played, seat):
    player = played.players[seat]
    client = client_for(player)
    hand_id = played.hand.pk
    own = played.engine.down_cards(seat)
    pages = {
        "detail": client.get(reverse("hand_detail", kwargs={"hand_id": hand_id})),
        "text": client.get(reverse("hand_download_text", kwargs={"hand_id": hand_id})),
        "json": client.get(reverse("hand_download_json", kwargs={"hand_id": hand_id})),
        "phh": client.get(reverse("hand_download_phh", kwargs={"hand_id": hand_id})),
        "zip": client.get(reverse("hands_download_zip")),
    }
    assert all(response.status_code == 200 for response in pages.values())
    text = pages["text"].content.decode()
    assert f"Dealt to {player.table_name} [{cards_text(own[:2])}" in text
    for other_seat, cards in hidden_cards(played, seat).items():
        name = played.players[other_seat].table_name
        about = [line for line in text.splitlines() if name in line]
        assert about and not any(card in line for card in cards.split() for line in about)
    phh = tomllib.loads(pages["phh"].content.decode())
    index = played.engine.seats.index(seat)
    assert f"d dh p{index + 1} {''.join(cards_text(own[:2]).split())}" in " ".join(phh["actions"])
    for cards in hidden_cards(played, seat).values():
        assert not any(card in line for card in cards.split() for line in phh["actions"])
    data = pages["json"].json()
    for entry in data["final"]["seats"]:
        assert ("down" in entry) == (entry["seat"] == seat)
    private = [e for e in data["events"] if e["kind"] == "down_cards"]
    assert private and all(e["payload"]["seat"] == seat for e in private)
    with zipfile.ZipFile(io.BytesIO(pages["zip"].content)) as archive:
        assert archive.namelist() == [f"hand-{hand_id}.txt", f"hand-{hand_id}.phh"]
        assert archive.read(f"hand-{hand_id}.txt").decode() == text
        assert archive.read(f"hand-{hand_id}.phh") == pages["phh"].content
    assert text in pages["detail"].content.decode().replace("&#x27;", "'")


def test_r_hist_2_a_player_who_did_not_play_the_hand_gets_404_everywhere(played):
    stranger = PlayerFactory()
    client = client_for(stranger)
    hand_id = played.hand.pk
    for name in ("hand_detail", "hand_download_text", "hand_download_json"):
        assert client.get(reverse(name, kwargs={"hand_id": hand_id})).status_code == 404
    listing = client.get(reverse("hand_list"))
    assert listing.status_code == 200 and f"#{hand_id}" not in listing.content.decode()
    with zipfile.ZipFile(io.BytesIO(client.get(reverse("hands_download_zip")).content)) as z:
        assert z.namelist() == []


def test_staff_read_hands_in_the_admin_not_as_a_player_they_were_not(played):
    client = Client()
    log_in_staff(client, StaffFactory())  # with a verified second factor (issue #26)
    url = reverse("hand_detail", kwargs={"hand_id": played.hand.pk})
    assert client.get(url).status_code == 404


def test_anonymous_visitors_are_sent_to_the_login_page(played):
    client = Client()
    hand_id = played.hand.pk
    urls = [
        reverse("hand_list"),
        reverse("hand_detail", kwargs={"hand_id": hand_id}),
        reverse("hand_download_text", kwargs={"hand_id": hand_id}),
        reverse("hand_download_json", kwargs={"hand_id": hand_id}),
        reverse("hands_download_zip"),
    ]
    for url in urls:
        response = client.get(url)
        assert response.status_code == 302 and reverse("login") in response["Location"]
    response = client.post(reverse("hands_email"), {"hand_ids": [hand_id]})
    assert response.status_code == 302 and reverse("login") in response["Location"]


def test_the_list_filters_by_table_day_and_outcome(played):
    alice, bob = played.players[1], played.players[2]
    later = three_handed_hand(now=datetime(2025, 3, 16, 17, 0, tzinfo=UTC))
    other_alice = later.players[1]
    assert other_alice.pk != alice.pk
    client = client_for(alice)

    def ids(response) -> set[int]:
        return {p.hand.pk for p in response.context["page"].object_list}

    assert ids(client.get(reverse("hand_list"))) == {played.hand.pk}
    assert ids(client.get(reverse("hand_list"), {"outcome": "won"})) == {played.hand.pk}
    assert ids(client.get(reverse("hand_list"), {"outcome": "lost"})) == set()
    assert ids(client_for(bob).get(reverse("hand_list"), {"outcome": "lost"})) == {played.hand.pk}
    assert ids(client.get(reverse("hand_list"), {"first_day": "2025-03-15"})) == set()
    assert ids(client.get(reverse("hand_list"), {"last_day": "2025-03-14"})) == {played.hand.pk}
    assert ids(client.get(reverse("hand_list"), {"table": later.table.pk})) == set()


def test_new_york_days_bound_the_zip(played):
    # 17:00 UTC on 14 March 2025 is 13:00 in New York, the same day.
    client = client_for(played.players[1])
    day = date(2025, 3, 14).isoformat()
    inside = client.get(reverse("hands_download_zip"), {"first_day": day, "last_day": day})
    outside = client.get(reverse("hands_download_zip"), {"first_day": "2025-03-15"})
    with zipfile.ZipFile(io.BytesIO(inside.content)) as archive:  # the hand, text and PHH
        hand_id = played.hand.pk
        assert sorted(archive.namelist()) == [f"hand-{hand_id}.phh", f"hand-{hand_id}.txt"]
    with zipfile.ZipFile(io.BytesIO(outside.content)) as archive:
        assert archive.namelist() == []
    bad = client.get(reverse("hands_download_zip"), {"first_day": "2025-03-15", "last_day": day})
    assert bad.status_code == 400


def test_the_json_download_is_a_file_of_the_hand(played):
    client = client_for(played.players[1])
    response = client.get(reverse("hand_download_json", kwargs={"hand_id": played.hand.pk}))
    assert response["Content-Disposition"] == f'attachment; filename="hand-{played.hand.pk}.json"'
    data = json.loads(response.content)
    assert data["id"] == played.hand.pk and data["seat"] == 1 and data["outcome"] == "won"


def test_r_hist_1_hands_dealt_before_the_index_existed_are_found_once_it_is_rebuilt(played):
    """The migration that added HandPlayer rebuilds it from Hand.players, so a player's
    history keeps the hands dealt before it."""
    from importlib import import_module

    from django.apps import apps

    from histories.selectors import played_hands
    from tables.models import HandPlayer

    alice = played.players[1]
    assert [p.hand.pk for p in played_hands(player_id=alice.pk)] == [played.hand.pk]
    HandPlayer.objects.all().delete()
    assert played_hands(player_id=alice.pk) == []

    import_module("tables.migrations.0006_hand_players").index_dealt_players(apps, None)

    assert sorted(HandPlayer.objects.values_list("seat", "player_id")) == sorted(
        (seat, player.pk) for seat, player in played.players.items()
    )
    assert [p.hand.pk for p in played_hands(player_id=alice.pk)] == [played.hand.pk]


def test_the_lists_times_are_new_york_times_and_a_loss_reads_lost_dollars() -> None:
    """Issue #14: the list filters by New York days, so its times are New York times: a hand
    that ended at 03:30 UTC on 14 March 2025 ended on the 13th in New York (23:30 EDT). The
    hand's page says "lost $0.35", never "lost -$0.35"."""
    played = three_handed_hand(now=datetime(2025, 3, 14, 3, 30, tzinfo=UTC))
    played.hand.ended_at = datetime(2025, 3, 14, 3, 30, tzinfo=UTC)
    played.hand.save(update_fields=["ended_at"])
    carol = played.players[3]  # folded on 3rd street: lost her ante
    client = client_for(carol)

    listing = client.get(reverse("hand_list")).text
    assert "2025-03-13 23:30" in listing
    assert ">2025-03-14 03:30<" not in listing
    assert "Ended (New York)" in listing

    page = client.get(reverse("hand_detail", kwargs={"hand_id": played.hand.pk})).text
    assert f"Hand #{played.hand.pk} " in page
    assert f"hand {played.hand.number}<" not in page  # one number: the id, not the table's count
    assert "2025-03-13 23:30:00 EDT" in page
    assert "lost $0.10" in page
    assert "-$" not in page

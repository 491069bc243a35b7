"""Issue #26 item 4: "Download my data" on the account page gives one zip of the player's
account, ledger and every hand they played, in the room's own formats, and only theirs
(R-HIST-2: other players' down cards only where shown)."""

from __future__ import annotations

import csv
import io
import json
import zipfile
from datetime import UTC, datetime

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import LedgerEntry
from tests.factories import PlayerFactory
from tests.histories.test_histories_pages import hidden_cards
from tests.history_hands import PlayedTable, hold_scheduling, three_handed_hand

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _still(monkeypatch: pytest.MonkeyPatch) -> None:
    hold_scheduling(monkeypatch)


@pytest.fixture
def played() -> PlayedTable:
    return three_handed_hand(now=datetime(2025, 3, 14, 17, 0, tzinfo=UTC))


def _download(player) -> zipfile.ZipFile:
    client = Client()
    client.force_login(player)
    account_page = client.get(reverse("account")).content.decode()
    assert f'href="{reverse("player_data_download")}"' in account_page
    assert "Download my data" in account_page
    response = client.get(reverse("player_data_download"))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/zip"
    assert f"stud-room-{player.username}-data.zip" in response["Content-Disposition"]
    return zipfile.ZipFile(io.BytesIO(response.content))


@pytest.mark.parametrize("seat", [1, 2, 3])
def test_issue_26_my_data_has_my_account_ledger_and_hands_as_the_history_downloads(played, seat):
    player = played.players[seat]
    hand_id = played.hand.pk
    client = Client()
    client.force_login(player)
    text = client.get(reverse("hand_download_text", kwargs={"hand_id": hand_id})).content
    phh = client.get(reverse("hand_download_phh", kwargs={"hand_id": hand_id})).content
    hand_json = client.get(reverse("hand_download_json", kwargs={"hand_id": hand_id})).json()

    with _download(player) as archive:
        assert sorted(archive.namelist()) == [
            "account.json",
            f"hands/hand-{hand_id}.json",
            f"hands/hand-{hand_id}.phh",
            f"hands/hand-{hand_id}.txt",
            "ledger.csv",
        ]
        account = json.loads(archive.read("account.json"))
        ledger = list(csv.DictReader(io.StringIO(archive.read("ledger.csv").decode())))
        assert archive.read(f"hands/hand-{hand_id}.txt") == text
        assert archive.read(f"hands/hand-{hand_id}.phh") == phh
        assert json.loads(archive.read(f"hands/hand-{hand_id}.json")) == hand_json
        everything = b"".join(archive.read(name) for name in archive.namelist()).decode()

    player.refresh_from_db()
    assert account["username"] == player.username and account["email"] == player.email
    assert account["balance"] == player.balance
    mine = LedgerEntry.objects.filter(player=player)
    assert [int(row["amount"]) for row in ledger] == list(
        mine.order_by("created_at", "id").values_list("amount", flat=True)
    )
    assert int(ledger[-1]["balance_after"]) == player.balance
    # the other seats' unshown down cards appear in no file of the zip:
    for other_seat, cards in hidden_cards(played, seat).items():
        name = played.players[other_seat].table_name
        lines = [line for line in everything.splitlines() if name in line]
        assert not any(card in line for card in cards.split() for line in lines)
    others = [p for s, p in played.players.items() if s != seat]
    assert all(other.email not in everything for other in others)


def test_issue_26_my_data_of_a_player_who_played_no_hand_has_no_hands(played):
    stranger = PlayerFactory()
    with _download(stranger) as archive:
        assert sorted(archive.namelist()) == ["account.json", "ledger.csv"]
        assert json.loads(archive.read("account.json"))["username"] == stranger.username


def test_issue_26_my_data_needs_a_login():
    response = Client().get(reverse("player_data_download"))
    assert response.status_code == 302 and response.url.startswith(reverse("login"))

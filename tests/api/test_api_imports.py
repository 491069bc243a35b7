"""Issue #24 item 5 through the REST API (api/imported.py): a player opens a PHH file or
PokerStars text of their own (every hand read and checked, each with its replay as the
import page gives it, the refused ones with the line that fails; nothing stored), keeps its
hands in their account, and lists, reads and deletes them; only their own; the same limits
and words as the page; every operation in the OpenAPI schema."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from rest_framework.test import APIClient

from histories.forms import MAX_IMPORT_BYTES
from histories.imported import imported_file
from histories.models import ImportedHand
from stud import Game
from stud.history_in import MAX_HANDS
from stud.phh import ALL_DOWN_CARDS, render_phh
from tests.factories import PlayerFactory
from tests.stud.conftest import Dealer, config, stacked
from tests.stud.pokerstars import shared_testdata

pytestmark = pytest.mark.django_db

HAND_ID = "35874004239"  # trs2758 wins $0.64 uncalled on the river; Hero folds on fourth street


def hand_text(hand_id: str = HAND_ID) -> str:
    return (shared_testdata("pokerstars-stud", "split") / f"{hand_id}.txt").read_text()


def eleven_hands() -> str:
    path = shared_testdata("pokerstars-stud", "hands")
    return (path / "fpdb__cash_Stars_Stud_7-Stud-USD-0.04-0.08-200911.txt").read_text()


def client_for(player) -> APIClient:
    client = APIClient()
    client.force_login(player)
    return client


def test_opening_a_file_gives_each_hand_with_its_replay_and_stores_nothing() -> None:
    client = client_for(PlayerFactory())
    upload = SimpleUploadedFile(f"{HAND_ID}.txt", hand_text().encode("utf-8-sig"))
    response = client.post(reverse("api_hands_import"), {"file": upload}, format="multipart")
    assert response.status_code == 200
    data = response.json()
    assert (data["format"], data["format_label"]) == ("pokerstars", "PokerStars text")
    assert data["refused"] == [] and data["other_games"] == 0
    [hand] = data["hands"]
    assert hand["title"] == f"PokerStars Hand #{HAND_ID}" and hand["first_line"] == 1
    assert (hand["game"], hand["hero_name"], hand["hero_net"]) == ("stud", "Hero", -3)
    assert hand["winners_text"] == "trs2758 wins $0.64"
    # The replay is the page's, to the event: the same reader, the same shape.
    assert hand["replay"] == imported_file(hand_text()).rows[0].replay
    assert hand["replay"]["viewer_seat"] == 1 and hand["replay"]["hand_id"] == HAND_ID
    assert not ImportedHand.objects.exists()


def test_a_razz_phh_file_opens_with_its_game_and_replay() -> None:
    """PHH (variant FR) through the API: the hand read, its game razz, the replay's table."""
    deck = stacked(["Ac 2c 7c", "Kd Qd Jd"], ["4c", "Td"], ["5h", "9d"], ["Kc", "Ks"], ["Qc", "Kh"])
    dealer = Dealer(deck, players=2, table=config(Game.RAZZ))
    dealer.passive_to_end()
    text = render_phh(dealer.hand, hand_id=7, table_name="Razz 1", viewer=ALL_DOWN_CARDS)
    upload = SimpleUploadedFile("hand.phh", text.encode())
    response = client_for(PlayerFactory()).post(
        reverse("api_hands_import"), {"file": upload}, format="multipart"
    )
    assert response.status_code == 200
    data = response.json()
    assert (data["format"], data["format_label"]) == ("phh", "PHH")
    [hand] = data["hands"]
    assert (hand["game"], hand["game_label"]) == ("razz", "Razz")
    assert hand["replay"]["table"]["name"] == "Razz 1"
    assert hand["replay"] == imported_file(text).rows[0].replay


def test_pasted_text_of_eleven_hands_opens_as_json() -> None:
    response = client_for(PlayerFactory()).post(
        reverse("api_hands_import"), {"text": eleven_hands()}, format="json"
    )
    assert response.status_code == 200
    assert [hand["index"] for hand in response.json()["hands"]] == list(range(11))
    assert not ImportedHand.objects.exists()


def test_a_damaged_hand_is_refused_with_the_line_that_fails() -> None:
    damaged = hand_text().replace("trs2758 collected $0.64", "trs2758 collected $0.65")
    number = damaged.splitlines().index("trs2758 collected $0.65 from pot") + 1
    response = client_for(PlayerFactory()).post(
        reverse("api_hands_import"), {"text": damaged}, format="json"
    )
    assert response.status_code == 200
    data = response.json()
    assert data["hands"] == []
    [refusal] = data["refused"]
    assert refusal["title"] == f"PokerStars Hand #{HAND_ID}" and refusal["first_line"] == 1
    assert refusal["message"].startswith(
        f"PokerStars Hand #{HAND_ID}, line {number} ('trs2758 collected $0.65 from pot') "
        "does not add up: the pots give trs2758 $0.64"
    )


def test_a_file_that_is_no_history_too_big_or_missing_is_refused_as_the_page_refuses_it() -> None:
    client = client_for(PlayerFactory())
    url = reverse("api_hands_import")
    diary = client.post(url, {"text": "Dear diary, I won.\n"}, format="json")
    assert diary.status_code == 400
    assert "neither PokerStars hand histories" in diary.json()["detail"]
    big = SimpleUploadedFile("big.txt", b"x" * (MAX_IMPORT_BYTES + 1))
    too_big = client.post(url, {"file": big}, format="multipart")
    assert too_big.status_code == 400
    assert f"at most {MAX_IMPORT_BYTES:,}" in too_big.json()["detail"]
    nothing = client.post(url, {}, format="json")
    assert nothing.status_code == 400 and "Choose a file" in nothing.json()["detail"]
    assert client.post(url, [hand_text()], format="json").status_code == 400
    many = "\n\n\n".join([hand_text()] * (MAX_HANDS + 1))
    too_many = client.post(url, {"text": many}, format="json")
    assert too_many.status_code == 400
    assert too_many.json()["detail"] == (
        f"The file holds {MAX_HANDS + 1} hands: open at most {MAX_HANDS} at a time."
    )
    keep_nothing = client.post(reverse("api_hands_import_keep"), {}, format="json")
    assert keep_nothing.status_code == 400 and "Choose a file" in keep_nothing.json()["detail"]
    assert not ImportedHand.objects.exists()


def test_keeping_stores_each_hand_once_and_lists_and_reads_it() -> None:
    player = PlayerFactory()
    client = client_for(player)
    kept = client.post(reverse("api_hands_import_keep"), {"text": hand_text()}, format="json")
    assert kept.status_code == 201
    [kept_id] = kept.json()["kept_ids"]
    assert kept.json()["detail"] == "1 hand(s) kept in your account."
    again = client.post(reverse("api_hands_import_keep"), {"text": hand_text()}, format="json")
    assert again.status_code == 201 and again.json()["kept_ids"] == [kept_id]
    assert ImportedHand.objects.filter(player=player).count() == 1

    listing = client.get(reverse("api_imported_hands")).json()
    assert listing["count"] == 1
    row = listing["results"][0]
    assert (row["id"], row["format"], row["title"], row["game"]) == (
        kept_id,
        "pokerstars",
        f"PokerStars Hand #{HAND_ID}",
        "stud",
    )
    one = client.get(reverse("api_imported_hand", kwargs={"imported_id": kept_id})).json()
    assert one["text"] == ImportedHand.objects.get().source and one["refusal"] == ""
    assert one["hand"]["winners_text"] == "trs2758 wins $0.64"
    assert one["hand"]["replay"]["events"] == imported_file(hand_text()).rows[0].replay["events"]


def test_keeping_a_file_keeps_every_hand_that_reads_and_a_damaged_one_is_not_kept() -> None:
    player = PlayerFactory()
    client = client_for(player)
    upload = SimpleUploadedFile("stars.txt", eleven_hands().encode())
    kept = client.post(reverse("api_hands_import_keep"), {"file": upload}, format="multipart")
    assert kept.status_code == 201 and len(kept.json()["kept_ids"]) == 11
    damaged = hand_text().replace("trs2758 collected $0.64", "trs2758 collected $6.40")
    refused = client.post(reverse("api_hands_import_keep"), {"text": damaged}, format="json")
    assert refused.status_code == 400
    assert refused.json()["detail"] == "No hand in it adds up: nothing was kept."
    assert ImportedHand.objects.filter(player=player).count() == 11


def test_another_players_import_is_404_and_only_its_owner_deletes_it() -> None:
    owner, stranger = PlayerFactory(), PlayerFactory()
    client_for(owner).post(reverse("api_hands_import_keep"), {"text": hand_text()}, format="json")
    kept = ImportedHand.objects.get(player=owner)
    url = reverse("api_imported_hand", kwargs={"imported_id": kept.pk})
    other = client_for(stranger)
    assert other.get(url).status_code == 404
    assert other.delete(url).status_code == 404
    assert other.get(reverse("api_imported_hands")).json()["count"] == 0
    assert ImportedHand.objects.filter(pk=kept.pk).exists()
    mine = client_for(owner)
    assert mine.delete(url).status_code == 204
    assert not ImportedHand.objects.filter(pk=kept.pk).exists()
    assert mine.get(url).status_code == 404


def test_anonymous_callers_are_refused_every_import_operation() -> None:
    client = APIClient()
    assert client.post(reverse("api_hands_import"), {"text": hand_text()}).status_code in (401, 403)
    assert client.post(reverse("api_hands_import_keep"), {"text": hand_text()}).status_code in (
        401,
        403,
    )
    assert client.get(reverse("api_imported_hands")).status_code in (401, 403)
    one = reverse("api_imported_hand", kwargs={"imported_id": 1})
    assert client.get(one).status_code in (401, 403)
    assert client.delete(one).status_code in (401, 403)
    assert not ImportedHand.objects.exists()


def test_the_schema_names_the_import_operations() -> None:
    schema = APIClient().get(reverse("api_schema"), {"format": "json"}).json()
    paths = schema["paths"]
    assert set(paths["/api/hands/import/"]) == {"post"}
    assert set(paths["/api/hands/import/keep/"]) == {"post"}
    assert set(paths["/api/hands/imported/"]) == {"get"}
    assert set(paths["/api/hands/imported/{imported_id}/"]) == {"get", "delete"}
    opened = paths["/api/hands/import/"]["post"]
    assert {"multipart/form-data", "application/json"} <= set(opened["requestBody"]["content"])
    assert {"200", "400"} <= set(opened["responses"])

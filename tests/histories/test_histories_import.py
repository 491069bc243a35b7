"""Issue #24 item 5 on the player's pages: "Open a hand history file" (linked from My hands)
reads an uploaded or pasted PHH file or PokerStars text, shows the hands found and what was
refused with its line, and stores nothing; "Keep in my account" keeps a hand, listed on My
hands, readable and deletable by its owner only; every form needs its CSRF token."""

from __future__ import annotations

import json
import re
from html import unescape

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from histories.forms import MAX_IMPORT_BYTES
from histories.models import ImportedHand
from tests.factories import PlayerFactory
from tests.stud.pokerstars import shared_testdata

pytestmark = pytest.mark.django_db

HAND_ID = "35874004239"  # trs2758 wins $0.64 uncalled on the river; Hero folds on fourth street


def hand_text(hand_id: str = HAND_ID) -> str:
    return (shared_testdata("pokerstars-stud", "split") / f"{hand_id}.txt").read_text()


def eleven_hands() -> str:
    path = shared_testdata("pokerstars-stud", "hands")
    return (path / "fpdb__cash_Stars_Stud_7-Stud-USD-0.04-0.08-200911.txt").read_text()


def client_for(player) -> Client:
    client = Client()
    client.force_login(player)
    return client


def page_text(response) -> str:
    return unescape(re.sub(r"<[^>]+>", " ", response.content.decode()))


def replays(response) -> list[dict]:
    block = re.search(
        r'<script id="imported-hands" type="application/json">(.*?)</script>',
        response.content.decode(),
        re.S,
    )
    assert block
    return json.loads(block[1])


def test_my_hands_links_to_the_import_page_and_it_needs_a_login() -> None:
    player = PlayerFactory()
    listing = client_for(player).get(reverse("hand_list"))
    assert reverse("hands_import") in listing.content.decode()
    assert "Open a hand history file" in page_text(listing)
    response = Client().get(reverse("hands_import"))
    assert response.status_code == 302 and reverse("login") in response["Location"]
    posted = Client().post(reverse("hands_import"), {"text": hand_text()})
    assert posted.status_code == 302 and reverse("login") in posted["Location"]


def test_an_uploaded_pokerstars_hand_opens_in_the_replayer_and_nothing_is_stored() -> None:
    player = PlayerFactory()
    upload = SimpleUploadedFile(f"{HAND_ID}.txt", hand_text().encode("utf-8-sig"))
    response = client_for(player).post(reverse("hands_import"), {"file": upload})
    assert response.status_code == 200
    text = page_text(response)
    assert "1 hand read" in text and "PokerStars text" in text
    assert f"PokerStars Hand #{HAND_ID}" in text
    assert "Hero -$0.03" in text  # the ante and the bring-in's call, then a fold
    assert "trs2758 wins $0.64" in text
    [replay] = replays(response)
    assert replay["viewer_seat"] == 1 and replay["table"]["name"] == "Atalante II"
    assert replay["hand_id"] == HAND_ID and replay["table"]["is_tournament"] is False
    private = [e for e in replay["events"] if e["kind"] == "down_cards"]
    assert private and all(e["payload"]["seat"] == 1 for e in private)  # only Hero's
    assert [e["seq"] for e in replay["events"]] == list(range(1, len(replay["events"]) + 1))
    assert ImportedHand.objects.count() == 0


def test_a_pasted_file_of_eleven_hands_lists_them_all() -> None:
    response = client_for(PlayerFactory()).post(reverse("hands_import"), {"text": eleven_hands()})
    text = page_text(response)
    assert "11 hands read" in text and "Keep all 11 in my account" in text
    assert len(replays(response)) == 11
    assert ImportedHand.objects.count() == 0


def test_a_damaged_hand_is_refused_with_the_line_that_fails() -> None:
    damaged = hand_text().replace("trs2758 collected $0.64", "trs2758 collected $0.65")
    number = damaged.splitlines().index("trs2758 collected $0.65 from pot") + 1
    response = client_for(PlayerFactory()).post(reverse("hands_import"), {"text": damaged})
    text = page_text(response)
    assert "0 hands read" in text and "1 hand refused" in text
    assert (
        f"PokerStars Hand #{HAND_ID}, line {number} ('trs2758 collected $0.65 from pot') "
        "does not add up: the pots give trs2758 $0.64"
    ) in text
    assert replays(response) == []


def test_a_file_that_is_no_history_or_too_big_is_refused_and_says_why() -> None:
    client = client_for(PlayerFactory())
    response = client.post(reverse("hands_import"), {"text": "Dear diary, I won.\n"})
    assert response.status_code == 400
    assert "neither PokerStars hand histories" in page_text(response)
    big = SimpleUploadedFile("big.txt", b"x" * (MAX_IMPORT_BYTES + 1))
    response = client.post(reverse("hands_import"), {"file": big})
    assert response.status_code == 400
    assert f"at most {MAX_IMPORT_BYTES:,}" in page_text(response)
    response = client.post(reverse("hands_import"), {})
    assert response.status_code == 400 and "Choose a file" in page_text(response)


def test_keep_in_my_account_keeps_the_hand_once_and_lists_it_on_my_hands() -> None:
    player = PlayerFactory()
    client = client_for(player)
    response = client.post(reverse("hands_import_keep"), {"text": hand_text()})
    kept = ImportedHand.objects.get(player=player)
    assert response.status_code == 302
    assert response["Location"] == reverse("imported_hand_detail", kwargs={"imported_id": kept.pk})
    assert (kept.format, kept.title, kept.game) == (
        "pokerstars",
        f"PokerStars Hand #{HAND_ID}",
        "stud",
    )
    again = client.post(reverse("hands_import_keep"), {"text": hand_text()})
    assert again.status_code == 302 and ImportedHand.objects.filter(player=player).count() == 1
    listing = page_text(client.get(reverse("hand_list")))
    assert "Imported hands" in listing and f"PokerStars Hand #{HAND_ID}" in listing
    page = client.get(reverse("imported_hand_detail", kwargs={"imported_id": kept.pk}))
    assert page.status_code == 200
    assert "trs2758 wins $0.64" in page_text(page)
    assert 'id="hand-history"' in page.content.decode()  # the replayer's data
    download = client.get(reverse("imported_hand_download", kwargs={"imported_id": kept.pk}))
    assert download.content.decode() == kept.source


def test_keep_all_keeps_every_hand_that_reads() -> None:
    player = PlayerFactory()
    response = client_for(player).post(reverse("hands_import_keep"), {"text": eleven_hands()})
    assert response.status_code == 302 and response["Location"].endswith("#imported")
    assert ImportedHand.objects.filter(player=player).count() == 11


def test_a_damaged_hand_sent_to_keep_is_not_kept() -> None:
    """The text comes back from the browser: it is checked again before anything is kept."""
    player = PlayerFactory()
    client = client_for(player)
    damaged = hand_text().replace("trs2758 collected $0.64", "trs2758 collected $6.40")
    response = client.post(reverse("hands_import_keep"), {"text": damaged}, follow=True)
    assert "No hand in it adds up: nothing was kept." in page_text(response)
    assert not ImportedHand.objects.exists()


def test_only_the_owner_sees_or_deletes_a_kept_hand() -> None:
    owner, stranger = PlayerFactory(), PlayerFactory()
    client_for(owner).post(reverse("hands_import_keep"), {"text": hand_text()})
    kept = ImportedHand.objects.get(player=owner)
    other = client_for(stranger)
    for name in ("imported_hand_detail", "imported_hand_download"):
        assert other.get(reverse(name, kwargs={"imported_id": kept.pk})).status_code == 404
    assert f"PokerStars Hand #{HAND_ID}" not in page_text(other.get(reverse("hand_list")))
    other.post(reverse("imported_hand_remove", kwargs={"imported_id": kept.pk}))
    assert ImportedHand.objects.filter(pk=kept.pk).exists()
    response = client_for(owner).post(
        reverse("imported_hand_remove", kwargs={"imported_id": kept.pk}), follow=True
    )
    assert "The imported hand was deleted." in page_text(response)
    assert not ImportedHand.objects.filter(pk=kept.pk).exists()


def test_every_import_form_needs_its_csrf_token() -> None:
    player = PlayerFactory()
    client = Client(enforce_csrf_checks=True)
    client.force_login(player)
    for url in (reverse("hands_import"), reverse("hands_import_keep")):
        assert client.post(url, {"text": hand_text()}).status_code == 403
    assert not ImportedHand.objects.exists()
    page = client.get(reverse("hands_import"))
    assert 'name="csrfmiddlewaretoken"' in page.content.decode()
    token = client.cookies["csrftoken"].value
    opened = client.post(
        reverse("hands_import"), {"text": hand_text(), "csrfmiddlewaretoken": token}
    )
    assert opened.status_code == 200
    assert opened.content.decode().count('name="csrfmiddlewaretoken"') >= 3  # open, keep x2

"""DESIGN "Fairness" with R-HIST-2: a finished hand's deck is proven card by card. Every copy
of a history (the page, the JSON and text downloads, the zip, the API, the email) gives a
viewer the 52 leaves and the card and salt of only the cards they were entitled to see; a
folded or mucked down card, a burn or an undealt card is never told, and a player can still
check every card they saw. Hands dealt before the scheme keep their whole-deck check.

The checks here use hashlib and the rules of the deal only, not the room's code."""

from __future__ import annotations

import hashlib
import io
import json
import re
import zipfile
from typing import Any

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from histories import services as history_mail
from histories.services import history_email_request, history_email_send
from stud.cards import card_text, cards_text
from stud.deck import deck_commitment
from tables.models import Hand
from tests.history_hands import PlayedTable, hold_scheduling, three_handed_hand

pytestmark = pytest.mark.django_db

# history_hands.THREE_HANDED, dealt from the dealer's left to seats 1, 2, 3 (the rest of the
# deck in card order): alice (1) wins with aces and shows; bob (2) calls down and mucks; carol
# (3) folds on third street. Bob's river is the 5h; the burns are 2d 3c 4c 4s.
FOLDED = {"3h": 2, "8h": 5}  # carol's down cards -> their deck positions
MUCKED = {"2c": 1, "7d": 4, "5h": 20}  # bob's down cards
BURNS = {"2d": 9, "3c": 12, "4c": 15, "4s": 18}


@pytest.fixture(autouse=True)
def _still(monkeypatch: pytest.MonkeyPatch, settings) -> None:
    hold_scheduling(monkeypatch)
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    monkeypatch.setattr(history_mail, "_schedule_send", lambda request_id: None)


@pytest.fixture
def played() -> PlayedTable:
    return three_handed_hand()


def client_for(player) -> Client:
    client = Client()
    client.force_login(player)
    return client


def api_for(player) -> APIClient:
    client = APIClient()
    token, _ = Token.objects.get_or_create(user=player)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


def every_copy(played: PlayedTable, seat: int) -> dict[str, str]:
    """Each history answer a player can get for the hand, as the text they receive."""
    player = played.players[seat]
    hand_id = played.hand.pk
    client, api = client_for(player), api_for(player)
    copies = {
        "page": client.get(reverse("hand_detail", kwargs={"hand_id": hand_id})),
        "json": client.get(reverse("hand_download_json", kwargs={"hand_id": hand_id})),
        "text": client.get(reverse("hand_download_text", kwargs={"hand_id": hand_id})),
        "api": api.get(reverse("api_hand", kwargs={"hand_id": hand_id})),
        "api_text": api.get(reverse("api_hand_text", kwargs={"hand_id": hand_id})),
        "list": client.get(reverse("hand_list")),
    }
    answers = {}
    for name, response in copies.items():
        assert response.status_code == 200, name
        answers[name] = response.content.decode()
    zipped = client.get(reverse("hands_download_zip"))
    with zipfile.ZipFile(io.BytesIO(zipped.content)) as archive:
        answers["zip"] = "\n".join(archive.read(name).decode() for name in archive.namelist())
    return answers


def names_card(text: str, card: str) -> bool:
    """The card as a word of its own (hex, a hash or a salt, never makes one: `h`, `s` and
    the ranks above 9 are not hex digits, and a hex run has no word break inside)."""
    return re.search(rf"(?<![0-9A-Za-z]){card}(?![0-9A-Za-z])", text) is not None


# --- an independent verifier: hashlib and the order of the deal --------------------------------


def leaf(position: int, card: str, salt: str) -> str:
    return hashlib.sha256(f"{position}:{card}:{salt}".encode()).hexdigest()


def third_street_positions(order: list[int]) -> dict[tuple[int, int], int]:
    """R-DEAL-1/2: down, down, door, one card at a time from the dealer's left."""
    n = len(order)
    return {(seat, index): index * n + i for i, seat in enumerate(order) for index in range(3)}


def verify(fairness: dict[str, Any]) -> list[str]:
    """The cards checked, in deck order; raises if anything does not check."""
    leaves = fairness["leaves"]
    assert len(leaves) == 52
    assert hashlib.sha256("".join(leaves).encode()).hexdigest() == fairness["commitment"]
    order = fairness["deal"]["order"]
    where = third_street_positions(order)
    position = 3 * len(order)
    for street, seats in fairness["deal"]["streets"]:  # no reshuffle in this hand
        assert fairness["deal"]["river"] == "down"
        position += 1  # the burn
        for seat in seats:
            where[(seat, street - 1)] = position
            position += 1
    checked = []
    for card in sorted(fairness["revealed"], key=lambda c: c["position"]):
        assert where[(card["seat"], card["index"])] == card["position"], card
        assert leaf(card["position"], card["card_text"], card["salt"]) == leaves[card["position"]]
        checked.append(card["card_text"])
    return checked


# --- the tests ---------------------------------------------------------------------------------


def test_the_hand_folds_mucks_and_burns_the_cards_named_here(played):
    engine, deck = played.engine, played.hand.deck
    assert engine.status_of(3) == "folded"
    assert dict(engine.result.mucked).keys() == {2}
    for cards in (FOLDED, MUCKED, BURNS):
        assert {text: card_text(deck[position]) for text, position in cards.items()} == {
            text: text for text in cards
        }
    assert {card_text(c) for c in engine.down_cards(3)} == FOLDED.keys()
    assert {card_text(c) for c in engine.down_cards(2)} == MUCKED.keys()
    assert {card_text(c) for c in engine.burns} == BURNS.keys()


@pytest.mark.parametrize("viewer", [1, 2, 3])
def test_r_hist_2_no_copy_tells_a_viewer_a_folded_mucked_or_burnt_card(played, viewer):
    """Nothing in any answer names another player's folded or mucked down card, a burn, or
    gives the salt of any position the viewer did not see."""
    hand = played.hand
    fairness = json.loads(every_copy(played, viewer)["json"])["fairness"]
    seen = {card["position"] for card in fairness["revealed"]}
    hidden = {**BURNS}
    if viewer != 3:
        hidden |= FOLDED
    if viewer != 2:
        hidden |= MUCKED
    for name, text in every_copy(played, viewer).items():
        for card in hidden:
            assert not names_card(text, card), f"{name} names {card}"
        for position in set(range(52)) - seen:
            assert hand.salts[position] not in text, f"{name} gives the salt of {position}"
    assert not seen & set(hidden.values())


@pytest.mark.parametrize("viewer", [1, 2, 3])
def test_fairness_a_player_checks_every_card_they_saw(played, viewer):
    """The leaves give the commitment shown before the deal; each card the viewer saw (their
    own down cards, every up card, alice's shown hand) gives its leaf at the place the deal
    gives it. The JSON download and the API say the same."""
    hand, engine = played.hand, played.engine
    copies = every_copy(played, viewer)
    fairness = json.loads(copies["json"])["fairness"]
    assert json.loads(copies["api"])["fairness"] == fairness
    assert fairness["scheme"] == 2 and fairness["commitment"] == hand.commitment
    checked = verify(fairness)
    ups = {card_text(c) for seat in engine.seats for c in engine.up_cards(seat)}
    alice = {card_text(c) for c in engine.cards(1)}  # shown at showdown
    own = {card_text(c) for c in engine.down_cards(viewer)}
    assert set(checked) == ups | alice | own
    assert len(checked) == len(set(checked))


def test_fairness_the_folded_player_checks_their_own_down_cards(played):
    fairness = json.loads(every_copy(played, 3)["json"])["fairness"]
    hers = {c["card_text"]: c["position"] for c in fairness["revealed"] if c["face"] == "down"}
    assert {text: hers[text] for text in FOLDED} == FOLDED
    verify(fairness)


def test_r_hist_2_the_email_still_shows_the_mucked_hand_but_no_salt(played):
    """Seed 000: the emailed copy names the cards bob mucked (R-HIST-2); it has no fairness
    data, so no salt of any card goes with it."""
    result = history_email_request(player=played.players[1], hand_ids=[played.hand.pk])
    assert history_email_send(request_id=result.request_id) == "sent"
    [message] = mail.outbox
    [(_name, text, _type)] = message.attachments
    assert f"mucked [{cards_text(played.engine.cards(2))}]" in text
    assert not any(names_card(text, card) for card in FOLDED)
    assert not any(salt in text or salt in message.body for salt in played.hand.salts)


def test_fairness_the_page_gives_the_leaves_the_cards_seen_and_the_verify_button(played):
    page = every_copy(played, 3)["page"]
    hand = played.hand
    assert hand.commitment in page and "js/hand_detail.js" in page and "data-verify" in page
    fairness = json.loads(every_copy(played, 3)["json"])["fairness"]
    assert all(leaf in page for leaf in fairness["leaves"])
    assert hand.salts[FOLDED["3h"]] in page  # carol's own
    assert cards_text(hand.deck) not in page


def old_hand(played: PlayedTable) -> Hand:
    """The hand as one dealt before the card-by-card scheme: a whole-deck commitment."""
    hand = played.hand
    hand.fairness_scheme = 1
    hand.salt = "a" * 64
    hand.salts = []
    hand.commitment = deck_commitment(hand.deck, hand.salt)
    hand.save()
    return hand


def test_fairness_a_hand_dealt_before_keeps_its_whole_deck_check(played):
    hand = old_hand(played)
    copies = every_copy(played, 2)
    fairness = json.loads(copies["json"])["fairness"]
    assert fairness["scheme"] == 1 and fairness["leaves"] is None
    deck_text, salt = fairness["deck_text"], fairness["salt"]
    expected = hashlib.sha256(f"{deck_text}:{salt}".encode()).hexdigest()
    assert expected == hand.commitment
    assert f"<code data-deck>{deck_text}</code>" in copies["page"]
    assert json.loads(copies["api"])["fairness"] == fairness


def test_fairness_an_old_hands_deck_is_hidden_when_the_room_says_so(played, settings):
    settings.HAND_HISTORY_REVEAL_DECK = False
    hand = old_hand(played)
    copies = every_copy(played, 2)
    fairness = json.loads(copies["json"])["fairness"]
    assert fairness["deck"] is None and fairness["salt"] is None
    assert cards_text(hand.deck) not in copies["page"] and hand.salt not in copies["page"]
    assert "The deck is not revealed in this room." in copies["page"]

"""DESIGN.md "Fairness", issue #25: every hand's commitment joins a public hash chain at the
deal; its head is on a public page and in the API; a hand's page shows its entry and the path
to the head; and tools/verify_fairness_chain.py (the standard library alone) downloads the
chain from a running room, checks every link and every hand the user played, and names the
first break when an entry or a hand's deck has been rewritten or deleted."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from django.db import close_old_connections, connection
from django.test import Client
from django.urls import reverse
from rest_framework.authtoken.models import Token

from integrity.chain import GENESIS_HASH, entry_hash_of
from integrity.models import ChainIsAppendOnly, FairnessEntry
from tables.models import Hand
from tests.history_hands import PlayedTable, hold_scheduling, three_handed_hand

SCRIPT = Path(__file__).resolve().parents[2] / "tools" / "verify_fairness_chain.py"


@pytest.fixture(autouse=True)
def _still(monkeypatch: pytest.MonkeyPatch) -> None:
    hold_scheduling(monkeypatch)


def two_hands() -> tuple[PlayedTable, PlayedTable]:
    return three_handed_hand(), three_handed_hand()


def entries() -> list[FairnessEntry]:
    return list(FairnessEntry.objects.order_by("index"))


@pytest.mark.django_db
def test_fairness_each_deal_appends_its_commitment_linked_to_the_entry_before():
    first, second = two_hands()
    chain = entries()
    assert [(e.index, e.hand_id, e.table_id) for e in chain] == [
        (0, first.hand.pk, first.table.pk),
        (1, second.hand.pk, second.table.pk),
    ]
    assert chain[0].commitment == first.hand.commitment
    assert chain[0].previous_hash == GENESIS_HASH
    assert chain[1].previous_hash == chain[0].entry_hash
    for entry in chain:
        assert entry.entry_hash == entry_hash_of(
            index=entry.index,
            hand_id=entry.hand_id,
            table_id=entry.table_id,
            at=entry.at,
            commitment=entry.commitment,
            previous_hash=entry.previous_hash,
        )


@pytest.mark.django_db
def test_fairness_the_room_itself_cannot_change_or_delete_an_entry():
    three_handed_hand()
    [entry] = entries()
    entry.commitment = "0" * 64
    with pytest.raises(ChainIsAppendOnly):
        entry.save()
    with pytest.raises(ChainIsAppendOnly):
        entry.delete()
    with pytest.raises(ChainIsAppendOnly):
        FairnessEntry.objects.all().delete()
    with pytest.raises(ChainIsAppendOnly):
        FairnessEntry.objects.update(commitment="0" * 64)


@pytest.mark.django_db
def test_fairness_the_api_gives_anyone_the_head_and_the_entries_paged():
    first, second = two_hands()
    anyone = Client()
    head = anyone.get(reverse("api_fairness_chain")).json()
    chain = entries()
    assert head["length"] == 2 and head["head_hash"] == chain[1].entry_hash
    assert head["head"]["hand_id"] == second.hand.pk
    page = anyone.get(reverse("api_fairness_chain_entries"), {"page_size": 1}).json()
    assert page["count"] == 2 and page["next"]
    assert page["results"][0]["commitment"] == first.hand.commitment
    later = anyone.get(reverse("api_fairness_chain_entries"), {"start": 1}).json()
    assert [row["hand_id"] for row in later["results"]] == [second.hand.pk]
    assert anyone.get(reverse("api_fairness_chain_entries"), {"start": -1}).status_code == 400


@pytest.mark.django_db
def test_fairness_the_chain_is_in_the_openapi_schema():
    schema = Client().get(reverse("api_schema"), {"format": "json"}).json()
    assert "/api/fairness/chain/" in schema["paths"]
    assert "/api/fairness/chain/entries/" in schema["paths"]


@pytest.mark.django_db
def test_fairness_the_public_page_shows_the_head_and_marks_a_hands_entry():
    _first, _second = two_hands()
    chain = entries()
    page = Client().get(reverse("fairness_chain"), {"from": 0}).content.decode()
    assert chain[1].entry_hash in page and "data-head-hash" in page
    assert 'id="entry-0" class="marked"' in page


@pytest.mark.django_db
def test_fairness_a_hands_page_shows_its_entry_and_the_path_to_the_head():
    first, _second = two_hands()
    chain = entries()
    client = Client()
    client.force_login(first.players[1])
    page = client.get(reverse("hand_detail", kwargs={"hand_id": first.hand.pk})).content.decode()
    assert "data-chain-path" in page
    assert 'entry <a href="/fairness/?from=0#entry-0" data-chain-entry>0</a>' in page
    assert chain[0].entry_hash in page  # its own hash, which entry 1 names
    assert "Entry 1 names that hash as the one before it" in page
    assert chain[1].entry_hash in page  # the head now


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_fairness_concurrent_deals_at_two_tables_never_fork_the_chain():
    """PostgreSQL: deals at different tables lock different rows; the chain's own lock puts
    their appends one after the other (no two entries with one index or one predecessor)."""
    from tests.table_factories import make_table, seated_player

    tables = [make_table() for _ in range(4)]
    for table in tables:
        for seat in (1, 2):
            seated_player(table, seat_number=seat)
    from tables import services

    barrier = threading.Barrier(len(tables))
    errors: list[BaseException] = []

    def deal(table_id: int) -> None:
        try:
            barrier.wait()
            for _ in range(3):
                started = services.hand_start(table_id=table_id)
                assert started.ok, started.reply()
                Hand.objects.filter(table_id=table_id, ended_at__isnull=True).update(
                    ended_at=Hand.objects.get(table_id=table_id, ended_at__isnull=True).started_at
                )
        except BaseException as error:
            errors.append(error)
        finally:
            close_old_connections()
            connection.close()

    threads = [threading.Thread(target=deal, args=(table.pk,)) for table in tables]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors, errors
    chain = entries()
    assert [e.index for e in chain] == list(range(12))
    assert all(b.previous_hash == a.entry_hash for a, b in itertools.pairwise(chain))


# --- the verifier against a live room --------------------------------------------------------


def verify(url: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), "--url", url, *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.fixture
def room(live_server) -> tuple[str, list[PlayedTable], str]:
    """A live room with three hands dealt; alice (seat 1 of the first) and her API token."""
    played = [three_handed_hand() for _ in range(3)]
    token, _ = Token.objects.get_or_create(user=played[0].players[1])
    return live_server.url, played, token.key


def raw(sql: str, params: list[object]) -> None:
    """The tamperer: straight to the database, past everything the room's code does."""
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


@pytest.mark.django_db(transaction=True)
def test_fairness_the_script_verifies_the_chain_and_my_hands_end_to_end(room):
    url, _played, token = room
    checked = verify(url, "--token", token)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "the chain holds: 3 entries" in checked.stdout
    assert "1 hand(s) you played check against it" in checked.stdout


@pytest.mark.django_db(transaction=True)
def test_fairness_a_rewritten_past_entry_is_the_first_break(room):
    url, _played, _token = room
    raw('UPDATE integrity_fairnessentry SET commitment = %s WHERE "index" = 1', ["f" * 64])
    checked = verify(url)
    assert checked.returncode == 1
    assert checked.stdout.startswith("first break at entry 1: its hash is not the hash")


@pytest.mark.django_db(transaction=True)
def test_fairness_a_deleted_past_entry_is_the_first_break(room):
    url, _played, _token = room
    raw('DELETE FROM integrity_fairnessentry WHERE "index" = 1', [])
    checked = verify(url)
    assert checked.returncode == 1
    assert checked.stdout.startswith("first break at entry 1: missing: entry 2 follows entry 0")


@pytest.mark.django_db(transaction=True)
def test_fairness_a_rewritten_deck_of_a_hand_i_played_is_the_first_break(room):
    """The room swaps two cards of alice's hand's deck (and recomputes the hand's own
    commitment to match): the chain still holds the one shown at the deal."""
    from stud.deck import card_by_card_commitment

    url, played, token = room
    hand = Hand.objects.get(pk=played[0].hand.pk)
    deck = list(hand.deck)
    deck[30], deck[31] = deck[31], deck[30]  # two undealt cards: the hand plays the same
    raw(
        "UPDATE tables_hand SET deck = %s, commitment = %s WHERE id = %s",
        [json.dumps(deck), card_by_card_commitment(deck, hand.salts), hand.pk],
    )
    checked = verify(url, "--token", token)
    assert checked.returncode == 1
    assert checked.stdout.startswith(
        f"first break at entry 0: hand #{hand.pk}: the hand's commitment is not the one the "
        "chain recorded at the deal"
    )


@pytest.mark.django_db(transaction=True)
def test_fairness_a_rewritten_deck_under_the_old_commitment_is_the_first_break(room):
    url, played, token = room
    hand = Hand.objects.get(pk=played[0].hand.pk)
    deck = list(hand.deck)
    deck[30], deck[31] = deck[31], deck[30]
    raw("UPDATE tables_hand SET deck = %s WHERE id = %s", [json.dumps(deck), hand.pk])
    checked = verify(url, "--token", token)
    assert checked.returncode == 1
    assert checked.stdout.startswith(
        f"first break at entry 0: hand #{hand.pk}: its deck (the 52 leaves) does not hash"
    )


@pytest.mark.django_db(transaction=True)
def test_fairness_a_chain_rewritten_and_rehashed_is_caught_by_my_copy(room, tmp_path):
    """A room that rewrites entry 1 and every hash after it serves a chain that links; the
    copy the user kept from an earlier run names entry 1 as the break."""
    url, _played, _token = room
    mirror = tmp_path / "chain.json"
    assert verify(url, "--mirror", str(mirror)).returncode == 0
    chain = entries()
    previous = chain[0].entry_hash
    for entry in chain[1:]:
        commitment = "e" * 64 if entry.index == 1 else entry.commitment
        fields = {
            "index": entry.index,
            "hand_id": entry.hand_id,
            "table_id": entry.table_id,
            "at": entry.at,
            "commitment": commitment,
            "previous_hash": previous,
        }
        previous = entry_hash_of(**fields)
        raw(
            "UPDATE integrity_fairnessentry SET commitment = %s, previous_hash = %s, "
            'entry_hash = %s WHERE "index" = %s',
            [commitment, fields["previous_hash"], previous, entry.index],
        )
    assert verify(url).returncode == 0  # it links: only a copy can tell
    checked = verify(url, "--mirror", str(mirror))
    assert checked.returncode == 1
    assert checked.stdout.startswith("first break at entry 1: it differs from your copy")

"""Issue #14: a player's chat mutes are kept on the account, listed on the settings page
with a way to undo each."""

from __future__ import annotations

import pytest

from accounts.models import ChatMute
from accounts.selectors import chat_muted_ids
from accounts.services import ChatMuteRefused, chat_mute_set
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


def test_a_mute_is_kept_once_and_undone():
    ann, ben, cid = PlayerFactory(), PlayerFactory(), PlayerFactory()

    chat_mute_set(player_id=ann.pk, muted_id=ben.pk, on=True)
    chat_mute_set(player_id=ann.pk, muted_id=ben.pk, on=True)
    chat_mute_set(player_id=ann.pk, muted_id=cid.pk, on=True)

    assert chat_muted_ids(ann.pk) == [ben.pk, cid.pk]
    assert chat_muted_ids(ben.pk) == []  # a mute is one player's, not both
    chat_mute_set(player_id=ann.pk, muted_id=ben.pk, on=False)
    chat_mute_set(player_id=ann.pk, muted_id=ben.pk, on=False)
    assert chat_muted_ids(ann.pk) == [cid.pk]


def test_muting_oneself_or_nobody_is_refused():
    ann = PlayerFactory()

    with pytest.raises(ChatMuteRefused, match="yourself"):
        chat_mute_set(player_id=ann.pk, muted_id=ann.pk, on=True)
    with pytest.raises(ChatMuteRefused, match="No such player"):
        chat_mute_set(player_id=ann.pk, muted_id=10**9, on=True)
    assert not ChatMute.objects.exists()


def test_the_settings_page_lists_the_muted_and_unmutes_one(client):
    ann = PlayerFactory(username="ann")
    ben = PlayerFactory(username="ben", display_name="Big Ben")
    chat_mute_set(player_id=ann.pk, muted_id=ben.pk, on=True)
    client.force_login(ann)

    page = client.get("/accounts/settings/").content.decode()
    assert "Muted in chat" in page and "Big Ben" in page and 'aria-label="Unmute Big Ben"' in page

    response = client.post("/accounts/settings/unmute/", {"player_id": ben.pk}, follow=True)

    assert "Their chat shows again." in response.content.decode()
    assert chat_muted_ids(ann.pk) == []
    assert "Big Ben" not in client.get("/accounts/settings/").content.decode()
    forged = client.post("/accounts/settings/unmute/", {"player_id": "x"}, follow=True)
    assert "No such muted player." in forged.content.decode()


@pytest.mark.parametrize("forged_id", [2**63, 2**64 + 5, -(2**63) - 1, 0])
def test_unmuting_an_id_no_player_can_have_is_a_clear_refusal_not_a_500(client, forged_id):
    """Issue #22: an id of 2**63 or more made SQLite raise OverflowError (a 500); PostgreSQL
    answered the refusal. Either way: "No such muted player.", and every mute as it was."""
    ann, ben = PlayerFactory(), PlayerFactory()
    chat_mute_set(player_id=ann.pk, muted_id=ben.pk, on=True)
    client.force_login(ann)

    response = client.post("/accounts/settings/unmute/", {"player_id": str(forged_id)}, follow=True)

    assert response.status_code == 200
    assert "No such muted player." in response.content.decode()
    assert chat_muted_ids(ann.pk) == [ben.pk]

"""R-ANTE-1 with "I'm in" off never freezes a table (issue #14, item 2).

A player who posts antes by hand is asked before each hand and has ANTE_CONFIRM_SECONDS to say
"I'm in"; one who does not is dealt out of that hand and the others play on time. With only
one other player in, no hand can be dealt (R-GAME-3): the table then waits for them and says
so (the snapshot and the next_hand frame name the seats awaited, the prompt stays, with no
deadline), and deals as soon as they confirm.
"""

from __future__ import annotations

import html
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.models import Player
from tables import services
from tables.models import Hand, Table
from tables.selectors import table_snapshot
from tests.factories import PlayerFactory, funded
from tests.table_factories import act, engine_of, make_table, running_hand, seated_player

pytestmark = pytest.mark.django_db


def frames_of(result, kind: str) -> list[dict]:
    return [f for f in result.frames.table_json if f["type"] == kind]


def user_frames_of(result, player: Player, kind: str) -> list[dict]:
    return [f for f in result.frames.users_json.get(player.pk, []) if f["type"] == kind]


def test_r_ante_1_the_prompt_has_its_own_few_seconds(settings):
    """The next hand waits ANTE_CONFIRM_SECONDS (more than the pause between hands) when
    someone is asked; the prompt and the table's frame carry that deadline."""
    settings.NEXT_HAND_PAUSE_SECONDS = 3
    settings.ANTE_CONFIRM_SECONDS = 6
    table = make_table()
    seated_player(table, seat_number=1)
    now = timezone.now()
    bob = PlayerFactory(auto_ante=False)
    funded(bob, 10_000)
    taken = services.seat_take(table_id=table.pk, player=bob, buy_in=2000, seat_number=2, now=now)

    at = now + timedelta(seconds=6)
    (asked,) = user_frames_of(taken, bob, "ante_confirm")
    assert asked["deadline"] == at.isoformat() and asked["ms_left"] == 6000
    (scheduled,) = frames_of(taken, "next_hand")
    assert scheduled["at"] == at.isoformat() and scheduled["awaiting_ante"] == [2]
    snapshot = table_snapshot(table.pk, bob, now=now)
    assert snapshot["awaiting_ante"] == [2] and snapshot["next_hand_ms_left"] == 6000


def test_r_ante_1_two_players_one_not_confirming_the_table_waits_for_them_and_says_so():
    """R-ANTE-1 with R-GAME-3: with two players, one who does not confirm leaves too few to
    deal. Before issue #14 the schedule was dropped and the prompt with it: the table sat at
    "Waiting" for good. Now every viewer is told whom the table waits for, the player keeps
    the prompt (in the snapshot too, so a reload shows it), and their "I'm in" deals."""
    table = make_table()
    alice = seated_player(table, seat_number=1)
    bob = seated_player(table, seat_number=2, auto_ante=False)
    table.refresh_from_db()
    due = table.next_hand_at
    assert due is not None

    skipped = services.hand_start(table_id=table.pk, now=due, only_when_due=True)

    assert skipped.status == "skipped" and not Hand.objects.filter(table=table).exists()
    (waiting,) = frames_of(skipped, "next_hand")
    assert waiting["at"] is None and waiting["awaiting_ante"] == [2]
    (asked,) = user_frames_of(skipped, bob, "ante_confirm")
    assert asked["deadline"] is None
    assert not user_frames_of(skipped, alice, "ante_confirm")
    for viewer in (alice, bob, None):
        snapshot = table_snapshot(table.pk, viewer)
        assert snapshot["next_hand_at"] is None and snapshot["awaiting_ante"] == [2]

    confirmed = services.ante_confirm(table_id=table.pk, player=bob, now=due)

    assert confirmed.ok
    (scheduled,) = frames_of(confirmed, "next_hand")
    assert scheduled["at"] is not None and scheduled["awaiting_ante"] == []
    table.refresh_from_db()
    assert services.hand_start(table_id=table.pk, now=table.next_hand_at, only_when_due=True).ok
    assert set(running_hand(table).players.values()) == {alice.pk, bob.pk}


def test_r_ante_1_with_three_the_two_others_play_on_time_and_the_next_hand_asks_again():
    """R-ANTE-1: the player who does not confirm sits the hand out; it is dealt to the two
    others at its time; when it ends, the next hand asks them again."""
    table = make_table()
    alice = seated_player(table, seat_number=1)
    bob = seated_player(table, seat_number=2)
    carol = seated_player(table, seat_number=3, auto_ante=False)
    table.refresh_from_db()

    started = services.hand_start(table_id=table.pk, now=table.next_hand_at, only_when_due=True)

    assert started.ok
    hand = running_hand(table)
    assert set(hand.players.values()) == {alice.pk, bob.pk}
    assert table_snapshot(table.pk, carol)["awaiting_ante"] == []  # a hand runs: no prompt
    facing = hand_to_act(table)
    first = act(table, facing, "bring_in", table.bring_in)
    assert first.ok
    other = bob if facing == alice else alice
    ended = act(table, other, "fold")

    assert ended.ok
    (asked,) = user_frames_of(ended, carol, "ante_confirm")
    assert asked["deadline"] is not None
    (scheduled,) = frames_of(ended, "next_hand")
    assert scheduled["awaiting_ante"] == [3]


def test_r_ante_1_a_confirmation_during_the_countdown_tells_the_table():
    """The others' table stops naming a player once they said "I'm in"."""
    table = make_table()
    seated_player(table, seat_number=1)
    bob = seated_player(table, seat_number=2, auto_ante=False)
    carol = seated_player(table, seat_number=3, auto_ante=False)
    assert table_snapshot(table.pk, None)["awaiting_ante"] == [2, 3]

    confirmed = services.ante_confirm(table_id=table.pk, player=bob)

    (update,) = frames_of(confirmed, "next_hand")
    assert update["awaiting_ante"] == [3]
    assert table_snapshot(table.pk, carol)["awaiting_ante"] == [3]


def test_r_ante_1_a_player_who_sits_down_during_the_countdown_is_asked_too():
    """The hand was scheduled before they sat: they are asked by its time, and the table
    names them among the awaited."""
    table = make_table()
    seated_player(table, seat_number=1)
    seated_player(table, seat_number=2)
    table.refresh_from_db()
    due = table.next_hand_at
    carol = PlayerFactory(auto_ante=False)
    funded(carol, 10_000)

    taken = services.seat_take(table_id=table.pk, player=carol, buy_in=2000, seat_number=3)

    (asked,) = user_frames_of(taken, carol, "ante_confirm")
    assert asked["deadline"] == due.isoformat()
    (update,) = frames_of(taken, "next_hand")
    assert update["awaiting_ante"] == [3] and update["at"] == due.isoformat()


def test_r_ante_1_the_snapshot_reads_the_setting_as_it_is_now():
    """ "I'm in" switched off in the settings while the table page was open: the page's
    snapshot (built with the connection's user, loaded when it opened) says it is off, so the
    prompt shows; the server already asks them."""
    table = make_table()
    seated_player(table, seat_number=1)
    bob = seated_player(table, seat_number=2)
    stale_bob = Player.objects.get(pk=bob.pk)
    Player.objects.filter(pk=bob.pk).update(auto_ante=False)

    snapshot = table_snapshot(table.pk, stale_bob)

    assert snapshot["viewer"]["auto_ante"] is False


def hand_to_act(table: Table) -> Player:
    hand = running_hand(table)
    seat = engine_of(hand).to_act
    return Player.objects.get(pk=hand.players[str(seat)])


def test_r_ante_1_switching_im_in_on_in_the_settings_page_deals_the_waiting_table(
    client, django_capture_on_commit_callbacks
):
    """The table waits for bob's "I'm in" (R-GAME-3: too few others to deal without him).
    Bob does not click it at the table: he switches "I'm in" on in his settings page. The
    table stops waiting: the hand is scheduled, every viewer is told nobody is awaited, and
    it is dealt to both at its time."""
    table = make_table()
    alice = seated_player(table, seat_number=1)
    bob = seated_player(table, seat_number=2, auto_ante=False)
    table.refresh_from_db()
    skipped = services.hand_start(table_id=table.pk, now=table.next_hand_at, only_when_due=True)
    assert skipped.status == "skipped"
    assert table_snapshot(table.pk, alice)["awaiting_ante"] == [2]

    client.force_login(bob)
    with django_capture_on_commit_callbacks(execute=True):
        saved = client.post(
            reverse("settings"),
            {"display_name": "", "auto_ante": "on", "auto_muck": "on"},
            follow=True,
        )

    assert "Your settings are saved." in html.unescape(saved.text)
    table.refresh_from_db()
    assert table.next_hand_at is not None
    snapshot = table_snapshot(table.pk, alice)
    assert snapshot["awaiting_ante"] == [] and snapshot["next_hand_at"] is not None
    assert services.hand_start(table_id=table.pk, now=table.next_hand_at, only_when_due=True).ok
    assert set(running_hand(table).players.values()) == {alice.pk, bob.pk}


def test_r_ante_1_switching_im_in_on_during_a_hand_changes_nothing_until_it_ends(
    django_capture_on_commit_callbacks,
):
    """A hand in play is left alone: the setting is read when the next hand is dealt."""
    from accounts.services import player_settings_update

    table = make_table()
    seated_player(table, seat_number=1)
    seated_player(table, seat_number=2)
    carol = seated_player(table, seat_number=3, auto_ante=False)
    table.refresh_from_db()
    assert services.hand_start(table_id=table.pk, now=table.next_hand_at, only_when_due=True).ok
    hand = running_hand(table)
    state_before, seq_before = hand.state, hand.seq

    with django_capture_on_commit_callbacks(execute=True):
        player_settings_update(
            player_id=carol.pk,
            display_name="",
            auto_ante=True,
            auto_muck=True,
            four_colour_deck=False,
            confirm_free_fold=True,
        )

    hand.refresh_from_db()
    assert (hand.state, hand.seq) == (state_before, seq_before)
    assert carol.pk not in running_hand(table).players.values()

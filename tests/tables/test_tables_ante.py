"""R-ANTE-1 with "I'm in" off never freezes a table (issue #14, item 2).

A player who posts antes by hand is asked before each hand and has ANTE_CONFIRM_SECONDS to say
"I'm in"; one who does not is dealt out of that hand and the others play on time. With only
one other player in, no hand can be dealt (R-GAME-3): the table then waits for them and says
so (the snapshot and the next_hand frame name the seats awaited, the prompt stays, with no
deadline), and deals as soon as they confirm.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import Player
from tables import services
from tables.models import Hand, Table
from tables.selectors import table_snapshot
from tests.factories import PlayerFactory, funded
from tests.table_factories import act, engine_of, make_table, running_hand, seated_player

pytestmark = pytest.mark.django_db


def frames_of(result, kind: str) -> list[dict]:
    return [f for f in result.frames.table if f["type"] == kind]


def user_frames_of(result, player: Player, kind: str) -> list[dict]:
    return [f for f in result.frames.users.get(player.pk, []) if f["type"] == kind]


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
